import { describe, expect, it } from 'vitest';
import { KnexTimeoutError } from 'knex';
import pg from 'pg';
import { isDatabaseUnavailable, markDatabaseError } from '../../../db/unavailable.js';

const withCode = (code: string, message = `${code} happened`) => Object.assign(new Error(message), { code });
/** An error as the driver raised it (db/connection.ts marks every error of a query or of acquiring a connection). */
const fromDriver = <E extends Error>(e: E): E => {
  markDatabaseError(e);
  return e;
};
/** pg's DatabaseError: the server's answer, with its SQLSTATE in `code`. */
const sqlState = (code: string, message = 'server said no') =>
  Object.assign(new pg.DatabaseError(message, 0, 'error'), { code, severity: 'ERROR' });

describe('isDatabaseUnavailable: the one classification of "PostgreSQL cannot be reached or cannot serve now"', () => {
  it.each([
    ['connection refused', fromDriver(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))],
    ['connection reset', fromDriver(withCode('ECONNRESET', 'read ECONNRESET'))],
    ['TCP timeout', fromDriver(withCode('ETIMEDOUT'))],
    ['host unreachable', fromDriver(withCode('EHOSTUNREACH'))],
    ['network unreachable', fromDriver(withCode('ENETUNREACH'))],
    ['broken pipe', fromDriver(withCode('EPIPE'))],
    ['DNS: no such host', fromDriver(withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal'))],
    ['DNS: try again', fromDriver(withCode('EAI_AGAIN'))],
    [
      'every address of the host refused',
      fromDriver(
        Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {
          code: 'ECONNREFUSED',
        }),
      ),
    ],
    ['pool acquire timeout', new KnexTimeoutError('Knex: Timeout acquiring a connection. The pool is probably full.')],
    [
      'pg: terminated unexpectedly (as knex reports it)',
      fromDriver(new Error('select 1 - Connection terminated unexpectedly')),
    ],
    [
      'pg: terminated due to connection timeout',
      fromDriver(new Error('Connection terminated due to connection timeout')),
    ],
    ['pg: connect timeout', fromDriver(new Error('timeout expired'))],
    ['pg: query read timeout', fromDriver(new Error('select 1 - Query read timeout'))],
    [
      'pg: client not queryable',
      fromDriver(new Error('Client has encountered a connection error and is not queryable')),
    ],
    ['pg: client closed', fromDriver(new Error('Client was closed and is not queryable'))],
    ['SQLSTATE 08006 connection failure', sqlState('08006')],
    ['SQLSTATE 08001 cannot establish', sqlState('08001')],
    ['SQLSTATE 57P01 admin shutdown', sqlState('57P01', 'terminating connection due to administrator command')],
    ['SQLSTATE 57P02 crash shutdown', sqlState('57P02')],
    ['SQLSTATE 57P03 cannot connect now (starting up)', sqlState('57P03', 'the database system is starting up')],
    ['SQLSTATE 53300 too many connections', sqlState('53300')],
    ['SQLSTATE 57014 statement timeout', sqlState('57014', 'canceling statement due to statement timeout')],
    [
      'a driver error wrapped in a cause',
      new Error('repository failed', { cause: fromDriver(withCode('ECONNREFUSED')) }),
    ],
  ])('%s → unavailable', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['unique violation', sqlState('23505', 'duplicate key value violates unique constraint')],
    ['foreign key violation', sqlState('23503')],
    ['syntax error (a bug)', sqlState('42601')],
    ['undefined column (a bug)', sqlState('42703')],
    ['invalid byte sequence (NUL in text)', sqlState('22021')],
    ['serialization failure', sqlState('40001')],
    ['password authentication failed (configuration)', sqlState('28P01')],
    ['database does not exist (configuration)', sqlState('3D000')],
    ['TypeError (a bug)', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a plain Error', new Error('something else')],
    [
      'ECONNREFUSED of another dependency (not from the driver)',
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.9:443'),
    ],
    ['ECONNRESET of an HTTP call (not from the driver)', withCode('ECONNRESET')],
    ['"timeout expired" of another library', new Error('timeout expired')],
    ['a 5-character code that is not from PostgreSQL', withCode('57P01')],
    ['a file-system error from the driver path', fromDriver(withCode('ENOENT'))],
    ['undefined', undefined],
    ['a string', 'ECONNREFUSED'],
    ['null', null],
  ])('%s → not unavailable (stays a 500 or whatever it is)', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it('does not loop on a cause cycle', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = new Error('b', { cause: a });
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

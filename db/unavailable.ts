import knex from 'knex';
import pg from 'pg';

/**
 * The one place that decides "PostgreSQL cannot be reached or cannot serve right now" (the API answers 503 with
 * Retry-After) as opposed to "this statement or this code is wrong" (a 500). Used by the API's error middleware;
 * anything not recognised here stays what it was.
 */

/** SQLSTATEs of a server that is going away, starting, full or out of time; class 08 is added below. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping (fast shutdown terminates sessions)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '57P05', // idle_session_timeout: the server closed an idle session
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS) or a cancel request
]);
/** Class 08: connection exception (08000, 08003, 08006, 08001, 08004, …). */
const UNAVAILABLE_SQLSTATE_CLASSES = ['08'];

/** Socket and DNS failures on the way to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres's own words for a connection that died, never came up in time, or stopped answering. */
const DRIVER_MESSAGES = [
  /Connection terminated/i, // "…unexpectedly", "…due to connection timeout"
  /\btimeout expired\b/i, // connectionTimeoutMillis
  /Query read timeout/i, // query_timeout: no answer at all (a black-holed network)
  /is not queryable/i, // a client whose connection broke or was closed
  /Connection ended unexpectedly/i,
];

/**
 * Errors that came out of the database driver: a socket error code or a driver message means "unavailable" only
 * on these, so an ECONNRESET from an HTTP call or a "timeout expired" of another library is never taken for one.
 * db/connection.ts marks every error of a query and of acquiring a connection.
 */
const fromDriver = new WeakSet<object>();

// knex is CommonJS: its error class is a property of the default export (a named ESM import fails under Node).
const { KnexTimeoutError } = knex as unknown as { KnexTimeoutError: new (message?: string) => Error };

export function markDatabaseError(err: unknown): void {
  if (typeof err === 'object' && err !== null) fromDriver.add(err);
}

function unavailableHere(e: object): boolean {
  if (e instanceof KnexTimeoutError) return true; // no pooled connection within DATABASE_ACQUIRE_TIMEOUT_MS
  const code = (e as { code?: unknown }).code;
  if (e instanceof pg.DatabaseError) {
    return (
      typeof code === 'string' &&
      (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SQLSTATE_CLASSES.some((c) => code.startsWith(c)))
    );
  }
  if (!fromDriver.has(e)) return false;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  const message = (e as { message?: unknown }).message;
  return typeof message === 'string' && DRIVER_MESSAGES.some((m) => m.test(message));
}

/** True when `err` (or an error in its `cause` chain) says the database is unreachable or cannot serve now. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<object>();
  let e: unknown = err;
  while (typeof e === 'object' && e !== null && !seen.has(e) && seen.size < 10) {
    seen.add(e);
    if (unavailableHere(e)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from '../adapters/logging/logger.js';
import { markDatabaseError } from './unavailable.js';

export type Db = Knex;

// int8 (bigint) and numeric come back as strings by default; keep them as strings (money is never a float),
// but return counts (int8 from count(*)) as strings too: callers convert explicitly.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);
// A calendar date (e.g. an invoice's due date) stays the `YYYY-MM-DD` text it is: a JS Date at local midnight
// would shift by a day in time zones east or west of UTC.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

/** How long the platform waits on PostgreSQL (config: DATABASE_*_TIMEOUT_MS; docs/operations.md explains the defaults). */
export interface DbTimeouts {
  /** Opening one connection: TCP, TLS and authentication (pg `connectionTimeoutMillis`). */
  readonly connectMs: number;
  /**
   * Server-side `statement_timeout` of every session; 0 leaves the server's own setting. When set, the client also
   * gives up on a statement that got no answer at all `QUERY_TIMEOUT_GRACE_MS` later (pg `query_timeout`): the
   * only bound when the network goes dark under an open connection.
   */
  readonly statementMs: number;
  /** Waiting for a pooled connection, including opening one (knex `acquireConnectionTimeout`). */
  readonly acquireMs: number;
}

export interface DbOptions {
  poolMax?: number;
  applicationName?: string;
  timeouts: DbTimeouts;
  /** Receives knex's own warnings (e.g. each failed connection attempt during an outage); default: the console. */
  logger?: Logger;
}

/** Time the server gets, past its statement timeout, to deliver the cancellation before the client gives up. */
export const QUERY_TIMEOUT_GRACE_MS = 5_000;

/** What each Db was made from, so work that may run long can get a twin without the statement timeout. */
const made = new WeakMap<Db, { url: string; opts: DbOptions }>();

/**
 * A knex pool on PostgreSQL with bounded waits everywhere: connecting, acquiring, and every statement. Errors of
 * queries and of acquiring a connection are marked as the driver's, for db/unavailable.ts. A connection whose
 * statement got no answer within the client-side bound is closed at once (its socket may be dead): the pool then
 * opens a new one instead of queueing the next statement behind the lost one.
 */
export function createDb(url: string, opts: DbOptions): Db {
  const { connectMs, statementMs, acquireMs } = opts.timeouts;
  const open = new Map<string, pg.Client>();
  const lost = new WeakSet<pg.Client>();
  // node-postgres's own options (knex passes them to each client it opens).
  const connection: Knex.PgConnectionConfig & Pick<pg.ClientConfig, 'pipeline'> = {
    connectionString: url,
    application_name: opts.applicationName ?? 'paycore',
    connectionTimeoutMillis: connectMs,
    // Lets the kernel notice a peer that vanished under an idle pooled connection.
    keepAlive: true,
    // Pipeline mode (node-postgres 8.23): statements given to one connection without waiting go out at once instead
    // of one per round trip. A transaction's statements are still sent, run and answered in order; only a caller
    // that does not wait benefits (db/commit-with.ts: a last statement and its COMMIT). Cursors and streams are
    // refused in this mode; nothing here uses them.
    pipeline: true,
    ...(statementMs > 0 ? { statement_timeout: statementMs, query_timeout: statementMs + QUERY_TIMEOUT_GRACE_MS } : {}),
  };
  const db = knexFactory({
    client: 'pg',
    connection,
    pool: {
      min: 0,
      max: opts.poolMax ?? 10,
      afterCreate(conn: pg.Client & { __knexUid?: string }, done: (err: Error | null, conn: pg.Client) => void) {
        const uid = conn.__knexUid;
        if (uid) {
          open.set(uid, conn);
          conn.once('end', () => open.delete(uid));
        }
        done(null, conn);
      },
      // A connection given up on is never handed out again, even before its socket has finished closing.
      validate: (conn: pg.Client) => !lost.has(conn),
    },
    acquireConnectionTimeout: acquireMs,
    // Error messages carry the statement with placeholders, never its bound values (keys, tokens, personal data).
    compileSqlOnError: false,
    ...(opts.logger ? { log: knexLog(opts.logger) } : {}),
  });
  db.on('query-error', (err: unknown, query: { __knexUid?: string }) => {
    markDatabaseError(err);
    if (err instanceof Error && /Query read timeout/.test(err.message) && query.__knexUid) {
      const conn = open.get(query.__knexUid);
      if (conn) {
        lost.add(conn);
        // node-postgres ends a client with a statement outstanding by destroying its socket.
        void conn.end().catch(() => undefined);
      }
    }
  });
  const acquire = db.client.acquireConnection.bind(db.client) as () => Promise<unknown>;
  db.client.acquireConnection = async () => {
    try {
      return await acquire();
    } catch (err) {
      markDatabaseError(err);
      throw err;
    }
  };
  made.set(db, { url, opts });
  return db;
}

function knexLog(logger: Logger) {
  return {
    warn: (message: string) => logger.warn({ knex: message }, 'database warning'),
    error: (message: string) => logger.error({ knex: message }, 'database error'),
    deprecate: (method: string, alternative: string) =>
      logger.warn({ knex: `${method} is deprecated; use ${alternative}` }, 'database warning'),
    debug: (message: string) => logger.debug({ knex: message }, 'database debug'),
  };
}

/**
 * A small second pool on the same database whose sessions have no client statement timeout (the server's own
 * setting applies), for work that may legitimately run long: migrations and the wait for the migration lock.
 * The caller destroys it. A Db not made by createDb is returned as is (and must not be destroyed by the caller:
 * compare before destroying).
 */
export function withoutStatementTimeout(db: Db): Db {
  const m = made.get(db);
  if (!m) return db;
  return createDb(m.url, { ...m.opts, poolMax: 3, timeouts: { ...m.opts.timeouts, statementMs: 0 } });
}

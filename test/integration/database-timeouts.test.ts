import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../db/connection.js';
import { migrateLatest } from '../../db/migrate.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { deleteInBatches } from '../../db/batches.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startSwitchableProxy } from '../helpers/tcp-fault.js';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

/** Settles `p` or fails the test after `ms` (a hang is a failure, not a stuck run). */
async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const failureOf = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );

describe('statement timeout', () => {
  let db: Db;
  beforeAll(() => {
    db = createDb(tdb.url, {
      poolMax: 2,
      applicationName: 'paycore-timeout-test',
      timeouts: { connectMs: 5_000, statementMs: 300, acquireMs: 10_000 },
    });
  });
  afterAll(() => db?.destroy());

  it('cancels a statement running past DATABASE_STATEMENT_TIMEOUT_MS and classifies it as "database unavailable"', async () => {
    const err = await within(30_000, failureOf(db.raw('SELECT pg_sleep(20)')));
    expect((err as { code?: string }).code).toBe('57014');
    expect(isDatabaseUnavailable(err)).toBe(true);
    // The connection is still good for the next statement.
    expect((await db.raw('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('also bounds a statement waiting on a lock inside a transaction', async () => {
    const holder = new pg.Client({ connectionString: tdb.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(4242)');
      const err = await within(
        30_000,
        failureOf(db.transaction((trx) => trx.raw('SELECT pg_advisory_xact_lock(4242)'))),
      );
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });

  it('does not apply to migrations: waiting on the migration lock longer than the timeout still migrates', async () => {
    const holder = new pg.Client({ connectionString: tdb.url });
    await holder.connect();
    const watcher = new pg.Client({ connectionString: tdb.url });
    await watcher.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(7402251122)');
      const migrating = migrateLatest(db);
      migrating.catch(() => undefined);
      // Wait until migrateLatest has waited on the lock for several statement timeouts, then release it.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const r = await watcher.query(
          "SELECT 1 FROM pg_stat_activity WHERE wait_event = 'advisory' AND query ILIKE '%pg_advisory_lock%' AND now() - query_start > interval '1.5 seconds' AND pid <> $1",
          [(holder as unknown as { processID: number }).processID],
        );
        if (r.rowCount) break;
        if (Date.now() > deadline) throw new Error('migrateLatest never waited on the migration lock');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await holder.query('SELECT pg_advisory_unlock(7402251122)');
      await expect(within(60_000, migrating)).resolves.toEqual([]);
    } finally {
      await holder.end();
      await watcher.end();
    }
  });
});

describe('a connection whose network goes dark mid-query', () => {
  it('fails the query after the statement timeout plus a grace, discards the connection and recovers on a new one', async () => {
    const target = new URL(tdb.url);
    const proxy = await startSwitchableProxy({ host: target.hostname, port: Number(target.port) });
    const viaProxy = new URL(tdb.url);
    viaProxy.port = String(proxy.port);
    // One connection only: if the dead one went back to the pool, the next query would wait behind it.
    const db = createDb(viaProxy.toString(), {
      poolMax: 1,
      applicationName: 'paycore-dark-test',
      timeouts: { connectMs: 2_000, statementMs: 300, acquireMs: 30_000 },
    });
    try {
      expect((await db.raw('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      proxy.blackHole();
      const err = await within(45_000, failureOf(db.raw('SELECT 2 AS two')));
      expect(isDatabaseUnavailable(err)).toBe(true);
      proxy.heal();
      expect((await within(45_000, db.raw('SELECT 3 AS three'))).rows).toEqual([{ three: 3 }]);
    } finally {
      await db.destroy();
      await proxy.close();
    }
  });
});

describe('maintenance purges under a statement timeout', () => {
  it('delete a backlog in statements of at most one batch each, until none is left', async () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const rows = Array.from({ length: 23 }, (_, i) => ({
      bucket: `purge-test:${i}`,
      hits: JSON.stringify({ [String(now.getTime() - 3_600_000)]: 1 }),
      expires_at: new Date(now.getTime() + (i < 20 ? -60_000 : 60_000)),
    }));
    await tdb.db('rate_limit_windows').insert(rows);
    const statements: string[] = [];
    const record = (q: { sql: string }) => {
      if (/^delete/i.test(q.sql)) statements.push(q.sql);
    };
    tdb.db.on('query', record);
    try {
      expect(
        await deleteInBatches(
          tdb.db,
          'rate_limit_windows',
          (q) => q.where('bucket', 'like', 'purge-test:%').andWhere('expires_at', '<', now),
          6,
        ),
      ).toBe(20);
    } finally {
      tdb.db.off('query', record);
    }
    expect(statements).toHaveLength(4); // 6 + 6 + 6 + 2
    expect((await tdb.db('rate_limit_windows').where('bucket', 'like', 'purge-test:%').pluck('bucket')).sort()).toEqual(
      ['purge-test:20', 'purge-test:21', 'purge-test:22'],
    );
  });
});

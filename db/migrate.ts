import type { Knex } from 'knex';
import { migrations } from './migrations/index.js';
import { withoutStatementTimeout } from './connection.js';

/** Lists migrations from the static index, so they run the same from TypeScript sources and from dist/. */
class StaticMigrationSource implements Knex.MigrationSource<string> {
  async getMigrations(): Promise<string[]> {
    return migrations.map((m) => m.name);
  }
  getMigrationName(name: string): string {
    return name;
  }
  async getMigration(name: string): Promise<Knex.Migration> {
    const m = migrations.find((x) => x.name === name);
    if (!m) throw new Error(`unknown migration ${name}`);
    return m;
  }
}

// Arbitrary constant identifying "schema migrations" among advisory locks.
const MIGRATION_LOCK_ID = 7_402_251_122;

/** Runs `fn` on a twin of `db` without the statement timeout: a migration (or the wait for another process's) may take long. */
async function unbounded<T>(db: Knex, fn: (db: Knex) => Promise<T>): Promise<T> {
  const long = withoutStatementTimeout(db);
  try {
    return await fn(long);
  } finally {
    if (long !== db) await long.destroy();
  }
}

/**
 * Applies pending migrations. Safe to call from several processes at once, also on a brand-new database:
 * a session-level advisory lock serialises them before knex creates its own bookkeeping tables. They run
 * without DATABASE_STATEMENT_TIMEOUT_MS (see withoutStatementTimeout).
 */
export async function migrateLatest(db: Knex): Promise<string[]> {
  return unbounded(db, async (db) => {
    const conn = await db.client.acquireConnection();
    try {
      await conn.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      try {
        const [, applied] = (await db.migrate.latest({ migrationSource: new StaticMigrationSource() })) as [
          number,
          string[],
        ];
        return applied;
      } finally {
        await conn.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      }
    } finally {
      await db.client.releaseConnection(conn);
    }
  });
}

export async function migrateRollbackAll(db: Knex): Promise<void> {
  await unbounded(db, (db) => db.migrate.rollback({ migrationSource: new StaticMigrationSource() }, true));
}

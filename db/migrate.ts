import type { Knex } from 'knex';
import { migrations } from './migrations/index.js';

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

/** Applies pending migrations; safe to call from several processes at once (knex takes a lock). */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: new StaticMigrationSource() })) as [number, string[]];
  return applied;
}

export async function migrateRollbackAll(db: Knex): Promise<void> {
  await db.migrate.rollback({ migrationSource: new StaticMigrationSource() }, true);
}

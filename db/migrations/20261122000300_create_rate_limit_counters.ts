import type { Knex } from 'knex';

export const name = '20261122000300_create_rate_limit_counters';

// UNLOGGED: counters are hot, short-lived and worthless after a crash; skipping the WAL keeps them cheap.
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE UNLOGGED TABLE rate_limit_counters (
      bucket text NOT NULL,
      window_start timestamptz NOT NULL,
      hits integer NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (bucket, window_start)
    )`);
  await db.raw('CREATE INDEX rate_limit_counters_expires_at_idx ON rate_limit_counters (expires_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limit_counters');
}

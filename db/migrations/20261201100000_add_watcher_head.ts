import type { Knex } from 'knex';

export const name = '20261201100000_add_watcher_head';

/**
 * The payment watcher's lag behind each chain's head (docs/operations.md "Metrics"): `watcher_progress.head_block`,
 * the final height (EVM) or finalized slot (Solana) the watcher's last scan saw, and `caught_up_at`, when a scan last
 * left the progress at that head. Both written by every scan (`recordWatcherHead`), read when the API is scraped.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('watcher_progress', (t) => {
    t.bigInteger('head_block').nullable();
    t.timestamp('caught_up_at', { useTz: true }).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('watcher_progress', (t) => {
    t.dropColumn('caught_up_at');
    t.dropColumn('head_block');
  });
}

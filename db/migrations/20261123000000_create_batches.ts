import type { Knex } from 'knex';

export const name = '20261123000000_create_batches';

/**
 * Batches of the processing interface (spec sections 2 to 4): one row per batch, its children ordinary `jobs`
 * rows carrying `batch_id` and their `item_index` (0-based position in the request). The batch's own state
 * (queued → processing → completed | partial | failed) is decided by its `batch:<id>` workflow from its
 * children's. `retry_of` links a batch made by retry-failed to the original (and a retried child to the failed
 * job it re-runs). `webhook_id` / `webhook_mode` are stored as sent; event delivery reads them.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('batches', (t) => {
    t.text('id').primary();
    t.text('company_id').notNullable().references('companies.id');
    t.text('api_key_id').notNullable();
    t.text('operation').notNullable();
    /** Options as submitted, without secrets (each child keeps its sealed copy while unfinished). */
    t.jsonb('options').notNullable();
    t.integer('item_count').notNullable();
    /** Sum of the children's quotes at submission. */
    t.integer('quoted_credits').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('queued')
      .checkIn(['queued', 'processing', 'completed', 'partial', 'failed'], 'batches_status_check');
    t.text('webhook_id').nullable();
    t.text('webhook_mode')
      .notNullable()
      .defaultTo('batch')
      .checkIn(['batch', 'items', 'both'], 'batches_webhook_mode_check');
    t.text('retry_of').nullable().references('batches.id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['company_id', 'created_at']);
    t.index(['status', 'created_at']);
  });
  await db.schema.alterTable('jobs', (t) => {
    t.text('batch_id').nullable().references('batches.id');
    t.integer('item_index').nullable();
    /** A child made by retry-failed: the failed job it runs again. */
    t.text('retry_of').nullable();
    t.unique(['batch_id', 'item_index'], { indexName: 'jobs_batch_item' });
  });
  await db.raw(
    'ALTER TABLE jobs ADD CONSTRAINT jobs_batch_item_together CHECK ((batch_id IS NULL) = (item_index IS NULL))',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE jobs DROP CONSTRAINT jobs_batch_item_together');
  await db.schema.alterTable('jobs', (t) => {
    t.dropUnique(['batch_id', 'item_index'], 'jobs_batch_item');
    t.dropColumns('batch_id', 'item_index', 'retry_of');
  });
  await db.schema.dropTable('batches');
}

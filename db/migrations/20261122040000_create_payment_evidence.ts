import type { Knex } from 'knex';

export const name = '20261122040000_create_payment_evidence';

/**
 * Confirmed incoming USDC transfers to merchant wallets, as the payment watcher saw them: one row per transfer
 * (network, transaction, log index), whatever it decided, so a repeated scan changes nothing. Requests gain
 * the reason they went to REVIEW. `watcher_progress` holds each network's last fully scanned height.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('payment_evidence', (t) => {
    t.bigIncrements('id').primary();
    t.text('network').notNullable();
    t.text('tx_hash').notNullable();
    t.integer('log_index').notNullable();
    t.text('from_address').notNullable();
    t.text('to_address').notNullable();
    t.specificType('amount_atomic', 'numeric(38,0)').notNullable();
    t.bigInteger('block_number').notNullable();
    t.timestamp('block_time', { useTz: true }).notNullable();
    t.text('request_id').nullable().references('payment_requests.id');
    t.text('decision')
      .notNullable()
      .checkIn(['paid', 'review', 'already_settled', 'unmatched'], 'payment_evidence_decision_check');
    t.text('reason').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['network', 'tx_hash', 'log_index']);
    t.index(['request_id']);
  });
  await db.schema.alterTable('payment_requests', (t) => {
    t.text('review_reason').nullable();
  });
  await db.schema.createTable('watcher_progress', (t) => {
    t.text('network').primary();
    t.bigInteger('last_block').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('watcher_progress');
  await db.schema.alterTable('payment_requests', (t) => t.dropColumn('review_reason'));
  await db.schema.dropTable('payment_evidence');
}

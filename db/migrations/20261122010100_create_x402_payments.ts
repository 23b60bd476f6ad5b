import type { Knex } from 'knex';

export const name = '20261122010100_create_x402_payments';

/**
 * One row per EIP-3009 authorization accepted on a paid /x402 route, inserted after it verified and BEFORE the
 * handler runs. The unique (network, asset, payer, nonce) makes a second presentation of the same
 * authorization fail durably, across processes and restarts. `status` moves only forward (see
 * db/repositories/x402-payments.repo.ts): verified -> not_settled | settling; settling -> settled | failed |
 * uncertain; uncertain -> settled | failed.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('x402_payments', (t) => {
    /** sha256 of network|asset|payer|nonce (lower-case hex): a compact, stable reference for logs. */
    t.text('id').primary();
    t.text('network').notNullable();
    t.text('asset').notNullable();
    /** The authorization's `from`, lower-case. */
    t.text('payer').notNullable();
    /** The EIP-3009 nonce (bytes32), lower-case. */
    t.text('nonce').notNullable();
    t.text('pay_to').notNullable();
    t.decimal('amount_atomic', 78, 0).notNullable();
    /** The authorization's validBefore: after it an unused authorization can never be executed. */
    t.timestamp('valid_before', { useTz: true }).notNullable();
    t.text('operation').notNullable();
    t.text('resource').notNullable();
    t.text('status')
      .notNullable()
      .checkIn(['verified', 'not_settled', 'settling', 'settled', 'failed', 'uncertain'], 'x402_payments_status_check');
    /** Why the row is in its status (handler status, facilitator error reason, reconciliation outcome). */
    t.text('reason').nullable();
    t.integer('handler_status').nullable();
    /** The settlement transaction hash, when known. */
    t.text('transaction').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['network', 'asset', 'payer', 'nonce'], { indexName: 'x402_payments_authorization_unique' });
  });
  await db.raw(
    "CREATE INDEX x402_payments_unresolved_idx ON x402_payments (updated_at) WHERE status IN ('verified', 'settling', 'uncertain')",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('x402_payments');
}

import type { Knex } from 'knex';

export const name = '20261127110000_create_x402_sender_nonces';

/**
 * The sending turns of the self-hosted x402 facilitator's key (adapters/x402/settlement-sender.ts): one row per
 * (chain, signing address). A process broadcasts a settlement transaction only while it holds the row's lock
 * (SELECT ... FOR UPDATE), so API processes settling with the same key never pick the same transaction nonce;
 * `next_nonce` is the nonce after the last transaction a turn saw accepted, for the next turn (NULL before the
 * first), and `updated_at` when it was recorded.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('x402_sender_nonces', (t) => {
    t.integer('chain_id').notNullable();
    t.text('address').notNullable();
    t.decimal('next_nonce', 20, 0).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['chain_id', 'address']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('x402_sender_nonces');
}

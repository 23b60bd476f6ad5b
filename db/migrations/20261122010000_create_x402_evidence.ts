import type { Knex } from 'knex';

export const name = '20261122010000_create_x402_evidence';

/** Confirmed transaction evidence is immutable: stored once, then served from here. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('x402_evidence', (t) => {
    t.text('network').notNullable();
    /** EVM hashes lower-cased; Solana signatures as given (base58 is case-sensitive). */
    t.text('tx_hash').notNullable();
    t.jsonb('evidence').notNullable();
    t.timestamp('confirmed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['network', 'tx_hash']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('x402_evidence');
}

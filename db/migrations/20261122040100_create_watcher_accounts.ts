import type { Knex } from 'knex';

export const name = '20261122040100_create_watcher_accounts';

/**
 * The Solana payment watcher's durable progress, per watched token account (Solana has no one scanned height that
 * covers every account): the last signature whose transfers were all applied (`last_signature`, `last_slot`; a null
 * signature means "from slot `last_slot` on"), and `checked_slot`, the finalized slot up to which the account is
 * complete. The network's `watcher_progress.last_block` is the least `checked_slot` of its watched accounts.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('watcher_accounts', (t) => {
    t.text('network').notNullable();
    t.text('account').notNullable();
    t.text('owner').notNullable();
    t.text('last_signature').nullable();
    t.bigInteger('last_slot').notNullable();
    t.bigInteger('checked_slot').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['network', 'account']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('watcher_accounts');
}

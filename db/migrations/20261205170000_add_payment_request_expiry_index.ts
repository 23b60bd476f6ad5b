import type { Knex } from 'knex';

export const name = '20261205170000_add_payment_request_expiry_index';

/**
 * Open (AWAITING) requests of a wallet by expiry time. Every creation first expires the open requests of its receiving
 * address whose time has passed (paycore_insert_payment_request, migration 20261205160000); with only
 * `payment_requests_open_amount` that update read every open request of the address to test its `expires_at`, so a
 * creation's locked section grew with the address's open requests (bench/README.md, "Issue 31 item 5, session 13").
 * With this index it reads only the ones that have expired.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    "CREATE INDEX payment_requests_awaiting_expiry ON payment_requests (wallet_id, expires_at) WHERE status = 'AWAITING'",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS payment_requests_awaiting_expiry');
}

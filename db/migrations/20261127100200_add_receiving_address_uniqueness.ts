import type { Knex } from 'knex';

export const name = '20261127100200_add_receiving_address_uniqueness';

/**
 * One receiving address receives for one account (docs/proof.md "Receiving wallets"). Before, only
 * (merchant, network, address) was unique, compared as typed, and open amounts were unique per wallet row: the
 * operator's `wallets:add` could give a second merchant an address another already received on, both got the same
 * matching amount, and one transfer paid the other merchant's request.
 *
 * - `merchant_wallets.address_key`: the address in its one spelling (EVM lower case, Solana as is), computed by the
 *   database from `network` and `address` whatever path wrote the row.
 * - `merchant_wallets.held_reason`/`held_at`: a wallet on hold receives nothing (no new requests, no matching)
 *   until an operator releases it (`wallets:release`).
 * - `merchant_wallets_one_receiver`: at most one verified wallet not on hold per (network, address_key).
 *
 * Existing duplicates — verified wallets sharing a (network, address_key), of two accounts or one account in two
 * spellings — are REPORTED, not resolved: nothing is deleted or changed but their hold. Every wallet of such a group
 * is put on hold (`duplicate_address`), because which account controls the address is not something the database
 * knows; each group is printed by the migration and listed by `wallets:duplicates`, and docs/operations.md
 * ("Receiving addresses held as duplicates") says what the operator does.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`ALTER TABLE merchant_wallets
    ADD COLUMN address_key text GENERATED ALWAYS AS (CASE WHEN network = 'solana' THEN address ELSE lower(address) END) STORED,
    ADD COLUMN held_reason text NULL CONSTRAINT merchant_wallets_held_reason_check CHECK (held_reason IN ('duplicate_address')),
    ADD COLUMN held_at timestamptz NULL`);
  const { rows } = await db.raw<{
    rows: Array<{ network: string; address_key: string; wallets: string[]; merchants: string[] }>;
  }>(
    `SELECT network, address_key, array_agg(id ORDER BY created_at, id) AS wallets, array_agg(DISTINCT merchant_id) AS merchants
       FROM merchant_wallets WHERE verified_at IS NOT NULL
      GROUP BY network, address_key HAVING count(*) > 1 ORDER BY network, address_key`,
  );
  for (const group of rows) {
    await db('merchant_wallets')
      .whereIn('id', group.wallets)
      .update({ held_reason: 'duplicate_address', held_at: db.fn.now() });
    // The report: one line per shared address (addresses and ids are not secrets). Resolve with the operator commands.
    process.stderr.write(
      `[paycore] migration ${name}: ${group.network} address ${group.address_key} was a receiving wallet of ${group.merchants.length} account(s) ` +
        `(${group.merchants.join(', ')}; wallets ${group.wallets.join(', ')}); all are on hold until an operator releases one ` +
        `(npm run admin -- wallets:duplicates; docs/operations.md "Receiving addresses held as duplicates")\n`,
    );
  }
  await db.raw('CREATE INDEX merchant_wallets_address_key ON merchant_wallets (network, address_key)');
  await db.raw(
    'CREATE UNIQUE INDEX merchant_wallets_one_receiver ON merchant_wallets (network, address_key) WHERE verified_at IS NOT NULL AND held_reason IS NULL',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS merchant_wallets_one_receiver');
  await db.raw('DROP INDEX IF EXISTS merchant_wallets_address_key');
  await db.raw('ALTER TABLE merchant_wallets DROP COLUMN held_at, DROP COLUMN held_reason, DROP COLUMN address_key');
}

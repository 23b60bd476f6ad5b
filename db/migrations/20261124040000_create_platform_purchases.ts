import type { Knex } from 'knex';

export const name = '20261124040000_create_platform_purchases';

/**
 * Self-service purchases paid in USDC to the platform's own receiving wallet (docs/proof.md "Plans paid in USDC"):
 * a merchant's plan period or a company's credit pack, each with exactly one payment request of the platform's
 * account that the payment watcher confirms like any other. `platform_purchase_grants` holds at most one row per
 * purchase and per request (primary key and unique index): the database's own guarantee that a confirmed payment
 * grants once, whatever runs twice. `wallet_challenges` holds the one-time messages a merchant signs to prove
 * control of a receiving wallet (single use: `used_at`; they expire).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('platform_purchases', (t) => {
    t.text('id').primary();
    t.text('kind').notNullable().checkIn(['plan', 'credits'], 'platform_purchases_kind_check');
    t.text('merchant_id').nullable().references('merchants.id');
    t.text('company_id').nullable().references('companies.id');
    t.text('plan').nullable().checkIn(['starter', 'business', 'pro'], 'platform_purchases_plan_check');
    t.text('pack').nullable();
    t.bigInteger('credits').nullable();
    t.text('request_id').notNullable().unique().references('payment_requests.id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['merchant_id', 'id']);
    t.index(['company_id', 'id']);
  });
  await db.raw(`ALTER TABLE platform_purchases ADD CONSTRAINT platform_purchases_buyer_check CHECK (
    (kind = 'plan' AND merchant_id IS NOT NULL AND company_id IS NULL AND plan IS NOT NULL AND credits IS NULL)
    OR (kind = 'credits' AND company_id IS NOT NULL AND merchant_id IS NULL AND plan IS NULL AND credits > 0 AND pack IS NOT NULL))`);

  await db.schema.createTable('platform_purchase_grants', (t) => {
    t.text('purchase_id').primary().references('platform_purchases.id');
    t.text('request_id').notNullable().unique().references('payment_requests.id');
    t.text('tx_hash').notNullable();
    t.timestamp('granted_at', { useTz: true }).notNullable();
    /** Plans: the 30-day period this payment added (from the end of the previous one when it was still running). */
    t.timestamp('period_start', { useTz: true }).nullable();
    t.timestamp('period_end', { useTz: true }).nullable();
    t.text('plan').nullable();
  });
  // A grant is a fact: never changed or removed (a second grant of a purchase cannot replace the first either).
  await db.raw(`
    CREATE FUNCTION platform_purchase_grants_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'platform_purchase_grants is append-only';
    END $$`);
  await db.raw(`
    CREATE TRIGGER platform_purchase_grants_append_only BEFORE UPDATE OR DELETE ON platform_purchase_grants
    FOR EACH ROW EXECUTE FUNCTION platform_purchase_grants_append_only()`);
  // The credits of a pack reach the ledger once: its grant entry names the purchase, at most once.
  await db.raw(
    "CREATE UNIQUE INDEX credit_ledger_one_pack_grant ON credit_ledger (reason) WHERE kind = 'grant' AND reason LIKE 'pack:%'",
  );

  await db.schema.createTable('wallet_challenges', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('network').notNullable();
    t.text('address').notNullable();
    t.text('label').nullable();
    t.text('message').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['merchant_id', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('wallet_challenges');
  await db.raw('DROP INDEX IF EXISTS credit_ledger_one_pack_grant');
  await db.schema.dropTable('platform_purchase_grants');
  await db.raw('DROP FUNCTION IF EXISTS platform_purchase_grants_append_only');
  await db.schema.dropTable('platform_purchases');
}

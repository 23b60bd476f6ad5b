import type { Knex } from 'knex';

export const name = '20261122030000_create_proof_core';

/**
 * The payment-request interface: merchants with plans and verified wallets, payment requests with unique
 * matching amounts, contacts, invoices (with their immutable document), the mail outbox and the event log.
 * Amounts are atomic USDC in numeric(38,0).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('merchants', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('status').notNullable().defaultTo('active').checkIn(['active', 'suspended'], 'merchants_status_check');
    t.text('plan').nullable().checkIn(['starter', 'business', 'pro'], 'merchants_plan_check');
    t.timestamp('plan_paid_until', { useTz: true }).nullable();
    t.timestamp('trial_started_at', { useTz: true }).nullable();
    t.integer('invoice_seq').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });

  await db.schema.createTable('merchant_wallets', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('network')
      .notNullable()
      .checkIn(
        ['base', 'polygon', 'arbitrum', 'optimism', 'ethereum', 'avalanche', 'solana'],
        'merchant_wallets_network_check',
      );
    t.text('address').notNullable();
    t.text('label').nullable();
    t.timestamp('verified_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['merchant_id', 'network', 'address']);
  });

  await db.schema.createTable('payment_requests', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('wallet_id').notNullable().references('merchant_wallets.id');
    t.text('network').notNullable();
    t.text('pay_to').notNullable();
    t.specificType('quoted_amount_atomic', 'numeric(38,0)').notNullable();
    t.specificType('amount_atomic', 'numeric(38,0)').notNullable();
    t.text('description').notNullable();
    t.text('customer_label').nullable();
    t.text('expected_payer').nullable();
    t.integer('valid_hours').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('AWAITING')
      .checkIn(['AWAITING', 'REVIEW', 'PAID', 'EXPIRED'], 'payment_requests_status_check');
    t.text('invoice_id').nullable();
    t.text('tx_hash').nullable();
    t.timestamp('verified_at', { useTz: true }).nullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['merchant_id', 'id']);
    t.index(['merchant_id', 'created_at']);
  });
  // No two open requests of a wallet share an amount (the matching key of the payment watcher).
  await db.raw(
    "CREATE UNIQUE INDEX payment_requests_open_amount ON payment_requests (wallet_id, amount_atomic) WHERE status IN ('AWAITING', 'REVIEW')",
  );
  await db.raw(
    'ALTER TABLE payment_requests ADD CONSTRAINT payment_requests_amount_delta CHECK (amount_atomic > quoted_amount_atomic AND quoted_amount_atomic > 0)',
  );

  await db.schema.createTable('contacts', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('legal_name').notNullable();
    t.text('email').notNullable();
    t.text('address').nullable();
    t.text('reference').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['merchant_id', 'id']);
  });

  await db.schema.createTable('invoices', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('contact_id').notNullable().references('contacts.id');
    t.text('wallet_id').notNullable().references('merchant_wallets.id');
    t.text('request_id').notNullable().unique().references('payment_requests.id');
    t.text('number').notNullable();
    /** Derived from the creating request's Idempotency-Key: one invoice per key, whatever happens. */
    t.text('creation_key').notNullable();
    t.text('status').notNullable().defaultTo('issued').checkIn(['issued', 'paid', 'voided'], 'invoices_status_check');
    t.date('due_date').notNullable();
    /** The validated body's lines and totals, atomic amounts as strings. */
    t.jsonb('lines').notNullable();
    t.specificType('subtotal_atomic', 'numeric(38,0)').notNullable();
    t.specificType('tax_atomic', 'numeric(38,0)').notNullable();
    t.specificType('total_atomic', 'numeric(38,0)').notNullable();
    t.text('tax_mode').notNullable();
    t.text('tax_rate').nullable();
    t.text('tax_notes').nullable();
    t.jsonb('accounting').nullable();
    t.text('memo').nullable();
    /** Private snapshots of buyer and issuer identity at issue time (never in public objects or events). */
    t.jsonb('buyer_snapshot').notNullable();
    t.jsonb('issuer_snapshot').notNullable();
    /** The merchant document, rendered once: its storage id and SHA-256. */
    t.text('document_storage_id').notNullable();
    t.text('document_sha256').notNullable();
    t.timestamp('issued_at', { useTz: true }).notNullable();
    t.timestamp('paid_at', { useTz: true }).nullable();
    t.timestamp('voided_at', { useTz: true }).nullable();
    t.unique(['merchant_id', 'number']);
    t.unique(['merchant_id', 'creation_key']);
    t.index(['merchant_id', 'id']);
    t.index(['merchant_id', 'issued_at']);
  });

  await db.schema.createTable('invoice_mail_outbox', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('invoice_id').notNullable().references('invoices.id');
    t.text('to_email').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('queued')
      .checkIn(['queued', 'sent', 'failed'], 'invoice_mail_outbox_status_check');
    /** The caller's assertion that a person approved the send (the API cannot verify it). */
    t.timestamp('user_approved_at', { useTz: true }).notNullable();
    t.text('api_key_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.index(['status', 'created_at']);
  });

  await db.schema.createTable('proof_events', (t) => {
    /** The integer cursor of GET /v1/events (increasing in commit order per merchant). */
    t.bigIncrements('cursor').primary();
    t.text('id').notNullable().unique();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('type').notNullable();
    /** The serialized envelope, stored once: webhook bodies and the event list serve these bytes. */
    t.binary('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['merchant_id', 'cursor']);
  });
  await db.raw(`
    CREATE FUNCTION proof_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN RAISE EXCEPTION 'proof_events are immutable'; END IF;
      RETURN OLD;
    END $$`);
  await db.raw(
    'CREATE TRIGGER proof_events_immutable BEFORE UPDATE ON proof_events FOR EACH ROW EXECUTE FUNCTION proof_events_immutable()',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('proof_events');
  await db.raw('DROP FUNCTION IF EXISTS proof_events_immutable');
  await db.schema.dropTable('invoice_mail_outbox');
  await db.schema.dropTable('invoices');
  await db.schema.dropTable('contacts');
  await db.schema.dropTable('payment_requests');
  await db.schema.dropTable('merchant_wallets');
  await db.schema.dropTable('merchants');
}

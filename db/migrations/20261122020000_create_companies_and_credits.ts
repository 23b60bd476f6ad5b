import type { Knex } from 'knex';

export const name = '20261122020000_create_companies_and_credits';

/**
 * Processing-interface tenants and their prepaid credits. The ledger is append-only (a trigger refuses
 * UPDATE and DELETE); `wallets` holds the running balances, guarded by CHECK constraints so they can never go
 * negative, and is the row every credit movement locks.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('accounts', (t) => {
    t.text('id').primary();
    t.text('email').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('companies', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('status').notNullable().defaultTo('active').checkIn(['active', 'suspended'], 'companies_status_check');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('members', (t) => {
    t.text('id').primary();
    t.text('company_id').notNullable().references('companies.id');
    t.text('account_id').notNullable().references('accounts.id');
    t.text('role').notNullable().checkIn(['member', 'billing_admin'], 'members_role_check');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('removed_at', { useTz: true }).nullable();
    t.index(['company_id']);
  });
  // One company per account: an account is an active member of at most one company.
  await db.raw('CREATE UNIQUE INDEX members_one_company_per_account ON members (account_id) WHERE removed_at IS NULL');

  await db.schema.createTable('wallets', (t) => {
    t.text('company_id').primary().references('companies.id');
    t.bigInteger('available').notNullable().defaultTo(0);
    t.bigInteger('reserved').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw('ALTER TABLE wallets ADD CONSTRAINT wallets_available_non_negative CHECK (available >= 0)');
  await db.raw('ALTER TABLE wallets ADD CONSTRAINT wallets_reserved_non_negative CHECK (reserved >= 0)');

  await db.schema.createTable('credit_reservations', (t) => {
    t.text('id').primary();
    t.text('company_id').notNullable().references('companies.id');
    t.text('job_id').nullable().unique();
    t.bigInteger('amount').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('held')
      .checkIn(['held', 'charged', 'released'], 'credit_reservations_status_check');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('settled_at', { useTz: true }).nullable();
    t.index(['company_id', 'status']);
  });
  await db.raw('ALTER TABLE credit_reservations ADD CONSTRAINT credit_reservations_amount_positive CHECK (amount > 0)');

  await db.schema.createTable('credit_ledger', (t) => {
    t.bigIncrements('id').primary();
    t.text('company_id').notNullable().references('companies.id');
    t.text('kind').notNullable().checkIn(['grant', 'reserve', 'charge', 'release'], 'credit_ledger_kind_check');
    t.bigInteger('amount').notNullable();
    t.text('reservation_id').nullable().references('credit_reservations.id');
    t.text('reason').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['company_id', 'id']);
  });
  await db.raw('ALTER TABLE credit_ledger ADD CONSTRAINT credit_ledger_amount_positive CHECK (amount > 0)');
  // A reservation is charged or released at most once, at the level of the ledger itself.
  await db.raw(
    "CREATE UNIQUE INDEX credit_ledger_one_settlement ON credit_ledger (reservation_id) WHERE kind IN ('charge', 'release')",
  );
  await db.raw(`
    CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'credit_ledger is append-only';
    END $$`);
  await db.raw(`
    CREATE TRIGGER credit_ledger_append_only BEFORE UPDATE OR DELETE ON credit_ledger
    FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only()`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('credit_ledger');
  await db.raw('DROP FUNCTION IF EXISTS credit_ledger_append_only');
  await db.schema.dropTable('credit_reservations');
  await db.schema.dropTable('wallets');
  await db.schema.dropTable('members');
  await db.schema.dropTable('companies');
  await db.schema.dropTable('accounts');
}

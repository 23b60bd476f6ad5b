import type { Knex } from 'knex';

export const name = '20261122000400_create_webhooks';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_endpoints', (t) => {
    t.text('id').primary();
    t.text('interface').notNullable().checkIn(['v1', 'proof'], 'webhook_endpoints_interface_check');
    t.text('tenant_id').notNullable();
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable().defaultTo('{}');
    t.text('secret_sealed').notNullable();
    t.integer('key_version').notNullable().defaultTo(1);
    t.text('status')
      .notNullable()
      .defaultTo('enabled')
      .checkIn(['enabled', 'disabled', 'deleted'], 'webhook_endpoints_status_check');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['interface', 'tenant_id', 'status']);
  });

  await db.schema.createTable('webhook_deliveries', (t) => {
    t.text('id').primary();
    t.text('interface').notNullable();
    t.text('endpoint_id').notNullable().references('webhook_endpoints.id');
    t.text('tenant_id').notNullable();
    t.text('event_id').notNullable();
    t.text('event_type').notNullable();
    // The exact bytes signed and sent on every attempt; written once, never updated.
    t.binary('body').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('pending')
      .checkIn(['pending', 'retrying', 'delivered', 'failed'], 'webhook_deliveries_status_check');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable();
    t.timestamp('next_attempt_at', { useTz: true }).nullable();
    t.integer('last_status_code').nullable();
    t.text('last_error_class').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('delivered_at', { useTz: true }).nullable();
    t.timestamp('failed_at', { useTz: true }).nullable();
    t.unique(['endpoint_id', 'event_id']);
    t.index(['tenant_id', 'id']);
  });
  // Bodies never change once written.
  await db.raw(`
    CREATE FUNCTION webhook_deliveries_body_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.body IS DISTINCT FROM OLD.body OR NEW.event_id IS DISTINCT FROM OLD.event_id THEN
        RAISE EXCEPTION 'webhook delivery body and event id are immutable';
      END IF;
      RETURN NEW;
    END $$`);
  await db.raw(`
    CREATE TRIGGER webhook_deliveries_body_immutable BEFORE UPDATE ON webhook_deliveries
    FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_body_immutable()`);

  await db.schema.createTable('webhook_delivery_attempts', (t) => {
    t.bigIncrements('id').primary();
    t.text('delivery_id').notNullable().references('webhook_deliveries.id');
    t.integer('attempt_no').notNullable();
    t.integer('key_version').nullable();
    t.text('outcome')
      .notNullable()
      .checkIn(
        ['in_flight', 'delivered', 'retry', 'terminal', 'interrupted'],
        'webhook_delivery_attempts_outcome_check',
      );
    t.integer('status_code').nullable();
    t.text('error_class').nullable();
    t.integer('duration_ms').nullable();
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['delivery_id', 'attempt_no']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_delivery_attempts');
  await db.schema.dropTable('webhook_deliveries');
  await db.raw('DROP FUNCTION IF EXISTS webhook_deliveries_body_immutable');
  await db.schema.dropTable('webhook_endpoints');
}

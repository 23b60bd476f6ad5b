import type { Knex } from 'knex';

export const name = '20261122000200_create_idempotency_keys';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('idempotency_keys', (t) => {
    t.text('dialect').notNullable().checkIn(['v1', 'proof'], 'idempotency_keys_dialect_check');
    t.text('tenant_id').notNullable();
    t.text('key').notNullable();
    t.text('operation').notNullable();
    t.text('request_hash').notNullable();
    t.integer('response_status').notNullable();
    t.binary('response_body').notNullable();
    t.text('response_content_type').notNullable();
    t.text('resource_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.primary(['dialect', 'tenant_id', 'key']);
  });
  await db.raw(
    'CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at) WHERE expires_at IS NOT NULL',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('idempotency_keys');
}

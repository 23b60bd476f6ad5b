import type { Knex } from 'knex';

export const name = '20261122000100_create_api_keys';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('interface').notNullable().checkIn(['v1', 'proof'], 'api_keys_interface_check');
    t.text('tenant_id').notNullable();
    t.text('owner_id').nullable();
    t.text('name').notNullable();
    t.text('lookup_id').notNullable().unique();
    t.text('secret_hash').notNullable();
    t.text('prefix').notNullable();
    t.text('last4').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.index(['interface', 'tenant_id', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('api_keys');
}

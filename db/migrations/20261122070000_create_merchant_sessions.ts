import type { Knex } from 'knex';

export const name = '20261122070000_create_merchant_sessions';

/**
 * Dashboard sign-in for the management routes (`/api/integrations`): merchant users with a scrypt password
 * hash, and cookie sessions stored by the SHA-256 of their token (the token itself exists only in the cookie).
 * Webhook endpoints get `deleted_at` for their soft deletion.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('merchant_users', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    // Stored lower-cased and trimmed; one account per address across merchants.
    t.text('email').notNullable().unique();
    t.text('password_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('password_changed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('disabled_at', { useTz: true }).nullable();
    t.index(['merchant_id']);
  });

  await db.schema.createTable('merchant_sessions', (t) => {
    t.text('id').primary();
    t.text('token_hash').notNullable().unique();
    t.text('user_id').notNullable().references('merchant_users.id');
    t.text('merchant_id').notNullable().references('merchants.id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    // Absolute end; an idle session also ends (SESSION_IDLE_MINUTES after last_seen_at).
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('ended_at', { useTz: true }).nullable();
    t.index(['user_id']);
    t.index(['expires_at']);
  });

  await db.schema.alterTable('webhook_endpoints', (t) => {
    t.timestamp('deleted_at', { useTz: true }).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_endpoints', (t) => t.dropColumn('deleted_at'));
  await db.schema.dropTable('merchant_sessions');
  await db.schema.dropTable('merchant_users');
}

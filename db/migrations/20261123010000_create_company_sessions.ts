import type { Knex } from 'knex';

export const name = '20261123010000_create_company_sessions';

/**
 * The processing companies' administrators' session (`/api/company`, `POST /v1/webhooks`): a scrypt password on the
 * account (one company per account, so one password), cookie sessions of a member stored by the SHA-256 of their
 * token, and single-use invitations stored by the SHA-256 of theirs. A session and an invitation belong to a
 * member row: removing the member ends them.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    // Null until set by the operator command (company-admins:create) or by accepting an invitation.
    t.text('password_hash').nullable();
    t.timestamp('password_changed_at', { useTz: true }).nullable();
  });

  await db.schema.createTable('company_sessions', (t) => {
    t.text('id').primary();
    t.text('token_hash').notNullable().unique();
    t.text('member_id').notNullable().references('members.id');
    t.text('company_id').notNullable().references('companies.id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('ended_at', { useTz: true }).nullable();
    t.index(['member_id']);
    t.index(['expires_at']);
  });

  await db.schema.createTable('company_invitations', (t) => {
    t.text('id').primary();
    t.text('company_id').notNullable().references('companies.id');
    t.text('email').notNullable();
    t.text('role').notNullable().checkIn(['member', 'billing_admin'], 'company_invitations_role_check');
    t.text('token_hash').notNullable().unique();
    t.text('invited_by').notNullable().references('members.id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('accepted_at', { useTz: true }).nullable();
    t.text('member_id').nullable().references('members.id');
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['company_id', 'created_at']);
  });
  // One open invitation per address and company: inviting again replaces nothing silently.
  await db.raw(
    'CREATE UNIQUE INDEX company_invitations_one_open ON company_invitations (company_id, email) WHERE accepted_at IS NULL AND revoked_at IS NULL',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('company_invitations');
  await db.schema.dropTable('company_sessions');
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumn('password_changed_at');
    t.dropColumn('password_hash');
  });
}

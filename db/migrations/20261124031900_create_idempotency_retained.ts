import type { Knex } from 'knex';

export const name = '20261124031900_create_idempotency_retained';

/**
 * How many responses each tenant has stored under Idempotency-Keys of a dialect that keeps them forever (`proof`),
 * kept beside them: the fair-use bound (PROOF_RETAINED_RESPONSES_PER_ACCOUNT) reads one row instead of counting the
 * tenant's keys on every mutation. Incremented in the transaction that stores a response (db/repositories/
 * idempotency.repo.ts completeKey), so it rolls back with it. Filled from the stored keys here.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('idempotency_retained', (t) => {
    t.text('dialect').notNullable();
    t.text('tenant_id').notNullable();
    t.integer('responses').notNullable();
    t.primary(['dialect', 'tenant_id']);
  });
  await db.raw(
    `INSERT INTO idempotency_retained (dialect, tenant_id, responses)
     SELECT dialect, tenant_id, count(*) FROM idempotency_keys WHERE expires_at IS NULL GROUP BY dialect, tenant_id`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('idempotency_retained');
}

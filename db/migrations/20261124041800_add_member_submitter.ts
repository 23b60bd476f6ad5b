import type { Knex } from 'knex';

export const name = '20261124041800_add_member_submitter';

/**
 * Who submitted a job or a batch (attribution only: every read is scoped by company). Until now always an API key;
 * a billing administrator's `POST /api/company/batches/{id}/retry-failed` from the dashboard submits as a member, with
 * no key. So `api_key_id` becomes nullable, `member_id` is added, and exactly one of the two is set.
 */
export async function up(db: Knex): Promise<void> {
  for (const table of ['batches', 'jobs']) {
    await db.schema.alterTable(table, (t) => {
      t.text('api_key_id').nullable().alter();
      t.text('member_id').nullable().references('members.id');
    });
    await db.raw(
      `ALTER TABLE ${table} ADD CONSTRAINT ${table}_one_submitter CHECK ((api_key_id IS NULL) <> (member_id IS NULL))`,
    );
  }
  // "A retry of this batch is still running": looked up on every session retry-failed.
  await db.raw('CREATE INDEX batches_retry_of ON batches (retry_of) WHERE retry_of IS NOT NULL');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX batches_retry_of');
  for (const table of ['batches', 'jobs']) {
    await db.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_one_submitter`);
    await db.schema.alterTable(table, (t) => {
      t.dropColumn('member_id');
      t.text('api_key_id').notNullable().alter();
    });
  }
}

import type { Knex } from 'knex';

export const name = '20261124020000_add_job_extraction';

/**
 * What a `flow-extract` job reads (docs/processing.md, "Field extraction"): `{fields, instructions, workflow_id,
 * workflow_revision}` as the quote resolved them (a saved workflow's settings take precedence over the body's, and the
 * revision used is kept, so a later edit of the workflow never changes what a job ran with). Null for other operations.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('jobs', (t) => {
    t.jsonb('extraction').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('jobs', (t) => t.dropColumn('extraction'));
}

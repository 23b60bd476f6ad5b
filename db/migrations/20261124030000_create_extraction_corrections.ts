import type { Knex } from 'knex';

export const name = '20261124030000_create_extraction_corrections';

/**
 * Review corrections of a `flow-extract` job's scalar fields (spec section 2, Records; docs/processing.md "Review
 * corrections"): who corrected which document's field, when, from what to what, and in which revision of the
 * regenerated exports. Rows are never updated or deleted while the job exists (accounting-like metadata: kept when
 * the results expire). One correction per field per revision.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('extraction_corrections', (t) => {
    t.text('id').primary();
    t.text('job_id').notNullable().references('jobs.id');
    t.text('company_id').notNullable().references('companies.id');
    t.integer('revision').notNullable();
    t.integer('document_index').notNullable();
    t.text('field').notNullable();
    t.text('previous_value').nullable();
    t.text('value').nullable();
    t.text('member_id').notNullable().references('members.id');
    /** The reviewer's address when they corrected (the account's address may change later). */
    t.text('member_email').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['job_id', 'revision', 'document_index', 'field'], { indexName: 'extraction_corrections_one_per_field' });
    t.check('revision > 0 AND document_index >= 0', [], 'extraction_corrections_positions');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('extraction_corrections');
}

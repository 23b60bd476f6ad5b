import type { Knex } from 'knex';

export const name = '20261124010000_create_saved_workflows';

/**
 * Saved workflows of a company (spec section 2, `workflow_id`; docs/processing.md "Saved workflows"): an extraction's
 * fields, instructions and options under a name, created and edited by billing administrators in the company session
 * and referenced by `workflow_id` in requests. Edits bump `revision`; deletion is soft (`deleted_at`), so jobs that
 * used a workflow still name it. Names are unique per company among the workflows not deleted, whatever their case.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('saved_workflows', (t) => {
    t.text('id').primary();
    t.text('company_id').notNullable().references('companies.id');
    t.text('name').notNullable();
    t.text('operation').notNullable();
    t.jsonb('fields').notNullable();
    t.text('instructions').nullable();
    t.jsonb('options').notNullable();
    t.integer('revision').notNullable().defaultTo(1);
    t.text('created_by').notNullable().references('members.id');
    t.text('updated_by').notNullable().references('members.id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('deleted_at', { useTz: true }).nullable();
    t.index(['company_id', 'created_at'], 'saved_workflows_company_index');
  });
  await db.raw(
    'CREATE UNIQUE INDEX saved_workflows_name_unique ON saved_workflows (company_id, lower(name)) WHERE deleted_at IS NULL',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('saved_workflows');
}

import type { Knex } from 'knex';

export const name = '20261123130000_add_job_webhook';

/**
 * `webhook_id` of a `/v1` job (spec section 2): the company's `/v1` webhook its terminal event (`job.completed` or
 * `job.failed`) is sent to. Checked at submission (404 naming `webhook_id` when it is not an enabled webhook of the
 * company) and again when the event is recorded; null when the job names none.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('jobs', (t) => {
    t.text('webhook_id').nullable().references('webhook_endpoints.id');
  });
  // The committer of a terminal event finds its deliveries by event id to start their workflows.
  await db.schema.alterTable('webhook_deliveries', (t) => t.index(['event_id'], 'webhook_deliveries_event_id_index'));
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) =>
    t.dropIndex(['event_id'], 'webhook_deliveries_event_id_index'),
  );
  await db.schema.alterTable('jobs', (t) => t.dropColumn('webhook_id'));
}

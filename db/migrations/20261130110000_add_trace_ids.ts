import type { Knex } from 'knex';

export const name = '20261130110000_add_trace_ids';

/**
 * Traces (docs/observability.md): `jobs.trace_id`, the OpenTelemetry trace id of a job's run (written by the worker
 * when it runs the job while tracing is on), for operators to paste into their tracing UI; and
 * `webhook_deliveries.trace_parent`, the W3C `traceparent` of the work that queued a delivery, so the dispatcher's
 * POST continues that trace. Both stay null while tracing is off.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('jobs', (t) => t.text('trace_id').nullable());
  await db.schema.alterTable('webhook_deliveries', (t) => t.text('trace_parent').nullable());
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => t.dropColumn('trace_parent'));
  await db.schema.alterTable('jobs', (t) => t.dropColumn('trace_id'));
}

import type { Knex } from 'knex';

export const name = '20261127140000_create_workflow_starts';

/**
 * The workflow start outbox (docs/operations.md, "Workflow starts after a commit"): a workflow start (or signal) that
 * a transaction decides on is a row written in that transaction, deleted once Temporal accepted it. The request that
 * wrote it tries it at once after its commit (holding the row under `claim` meanwhile); what that could not start (the
 * Temporal server unreachable, the process gone) is started by the workers' starters as soon as Temporal answers again.
 * - `kind`, `input`: what to start (`job`, `batch`, `invoice-lifecycle`, `invoice-mail`, `delivery`) or signal
 *   (`invoice-nudge`), and its input; `workflow_id` the business id, for operators; `task_queue` where it runs.
 * - `claim`, `claim_until`: who tries it now and until when; an expired claim is taken over.
 * - `attempts`, `last_error`, `next_attempt_at`: failed tries; a start refused for another reason than Temporal being
 *   unreachable waits longer before each new try.
 * Every insert notifies the channel `workflow_starts` at commit, which wakes the starters.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflow_starts', (t) => {
    t.bigIncrements('id');
    t.text('kind')
      .notNullable()
      .checkIn(
        ['job', 'batch', 'invoice-lifecycle', 'invoice-mail', 'delivery', 'invoice-nudge'],
        'workflow_starts_kind_check',
      );
    t.text('workflow_id').notNullable();
    t.text('task_queue').notNullable();
    t.jsonb('input').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.text('claim').nullable();
    t.timestamp('claim_until', { useTz: true }).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.timestamp('next_attempt_at', { useTz: true }).nullable();
  });
  await db.raw('CREATE INDEX workflow_starts_created ON workflow_starts (created_at)');
  await db.raw(`
    CREATE FUNCTION workflow_starts_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('workflow_starts', '');
      RETURN NULL;
    END $$`);
  await db.raw(`
    CREATE TRIGGER workflow_starts_notify AFTER INSERT ON workflow_starts
    FOR EACH STATEMENT EXECUTE FUNCTION workflow_starts_notify()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER workflow_starts_notify ON workflow_starts');
  await db.raw('DROP FUNCTION workflow_starts_notify');
  await db.schema.dropTable('workflow_starts');
}

import type { Knex } from 'knex';

export const name = '20261124090000_add_webhook_dispatch';

/**
 * The webhook dispatcher's queue (docs/webhooks.md, "How a delivery is sent"): the first attempt of a delivery is
 * sent by the worker's dispatcher, not by a workflow of its own.
 * - `dispatch`: `queued` (its first attempt is to be sent) or `handoff` (the first attempt failed retryably and
 *   `delivery:<id>` must be started for the retries); NULL once the dispatcher is done with it, and for the rows of
 *   earlier versions, whose workflows send them.
 * - `dispatch_claim`, `dispatch_until`: which dispatcher holds the row (a random token per dispatcher run) and until
 *   when (its lease, renewed while it runs); an expired claim is taken over by another one.
 * - `retry_delays_ms`: test-only override of the waits between attempts (`enqueueDelivery`'s `delaysMs`); NULL in
 *   production, where the interface's schedule applies.
 * Every insert notifies the channel `webhook_dispatch` at commit, which wakes the dispatchers.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.text('dispatch').nullable().checkIn(['queued', 'handoff'], 'webhook_deliveries_dispatch_check');
    t.text('dispatch_claim').nullable();
    t.timestamp('dispatch_until', { useTz: true }).nullable();
    t.specificType('retry_delays_ms', 'integer[]').nullable();
  });
  await db.raw(
    'CREATE INDEX webhook_deliveries_dispatch ON webhook_deliveries (created_at) WHERE dispatch IS NOT NULL',
  );
  await db.raw(`
    CREATE FUNCTION webhook_dispatch_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('webhook_dispatch', '');
      RETURN NULL;
    END $$`);
  await db.raw(`
    CREATE TRIGGER webhook_dispatch_notify AFTER INSERT ON webhook_deliveries
    FOR EACH STATEMENT EXECUTE FUNCTION webhook_dispatch_notify()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER webhook_dispatch_notify ON webhook_deliveries');
  await db.raw('DROP FUNCTION webhook_dispatch_notify');
  await db.raw('DROP INDEX webhook_deliveries_dispatch');
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.dropChecks(['webhook_deliveries_dispatch_check']);
    t.dropColumn('dispatch');
    t.dropColumn('dispatch_claim');
    t.dropColumn('dispatch_until');
    t.dropColumn('retry_delays_ms');
  });
}

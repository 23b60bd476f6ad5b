import type { Knex } from 'knex';

export const name = '20261127100300_add_merchant_plan_queue';

/**
 * Paid plan periods that run after the current one (docs/proof.md "Plans paid in USDC"): a payment buys 30 days of
 * the plan it was for, never of a higher one, so a lower plan paid while a higher one runs, and the days of a lower
 * plan a higher one was bought over, wait their turn. `merchants.plan_queue` lists them in the order they run, each
 * `{plan, ms}` (its length); they start where `plan_paid_until` ends, back to back. Existing merchants have none.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`ALTER TABLE merchants ADD COLUMN plan_queue jsonb NOT NULL DEFAULT '[]'::jsonb
    CONSTRAINT merchants_plan_queue_array CHECK (jsonb_typeof(plan_queue) = 'array')`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE merchants DROP COLUMN plan_queue');
}

import type { Knex } from 'knex';

export const name = '20261122050000_add_invoice_voiding';

const STATUSES_BEFORE = ['AWAITING', 'REVIEW', 'PAID', 'EXPIRED'];
const STATUSES_AFTER = [...STATUSES_BEFORE, 'VOIDED'];
const statusCheck = (statuses: string[]) => `CHECK (status IN (${statuses.map((s) => `'${s}'`).join(', ')}))`;

/**
 * Voiding an invoice (an operator action through its `invoice:<id>` workflow): payment requests gain the closed
 * state `VOIDED` (outside the open-amount unique index, so the amount is freed); invoices keep the operator's
 * optional reason (never emitted) and when their lifecycle workflow first ran (an issued invoice without it past
 * a grace period lost its workflow start, which the maintenance run repairs).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    `ALTER TABLE payment_requests DROP CONSTRAINT payment_requests_status_check, ADD CONSTRAINT payment_requests_status_check ${statusCheck(STATUSES_AFTER)}`,
  );
  await db.schema.alterTable('invoices', (t) => {
    t.text('void_reason').nullable();
    t.timestamp('lifecycle_started_at', { useTz: true }).nullable();
  });
  await db.raw(
    "CREATE INDEX invoices_lifecycle_unstarted ON invoices (issued_at) WHERE status = 'issued' AND lifecycle_started_at IS NULL",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS invoices_lifecycle_unstarted');
  await db.schema.alterTable('invoices', (t) => t.dropColumns('void_reason', 'lifecycle_started_at'));
  // A voided request is closed like an expired one; the old constraint has no VOIDED.
  await db('payment_requests').where({ status: 'VOIDED' }).update({ status: 'EXPIRED' });
  await db.raw(
    `ALTER TABLE payment_requests DROP CONSTRAINT payment_requests_status_check, ADD CONSTRAINT payment_requests_status_check ${statusCheck(STATUSES_BEFORE)}`,
  );
}

import type { Knex } from 'knex';

export const name = '20261124000000_add_x402_payment_answers';

/**
 * The answer of a paid call is kept until its settlement is decided (issue 14): a caller whose request ended
 * before the settlement was known (503 payment_settlement_uncertain) re-presents the same PAYMENT-SIGNATURE and
 * gets the kept answer once the fee is settled, instead of paying without receiving anything.
 *
 * - `request_fingerprint`: sha256 of the paid request (operation + canonical arguments); a re-presentation must
 *   be for the same request.
 * - `payload_sha256`: sha256 of the presented payment payload; a re-presentation must carry the same one.
 * - `answer_*`: the handler's successful answer, stored with the move verified -> settling; cleared once it has
 *   been delivered, when the settlement is refused, and by the maintenance purge after its retention.
 * - `withheld_at`: when the first request answered without it (settlement undecided within its wait): from then
 *   on a re-presentation may fetch it. Until then the first request itself delivers it.
 * - `delivered_at`: when the answer reached the caller (a later re-presentation is a replay).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('x402_payments', (t) => {
    t.text('request_fingerprint').nullable();
    t.text('payload_sha256').nullable();
    t.integer('answer_status').nullable();
    t.text('answer_type').nullable();
    t.jsonb('answer_headers').nullable();
    t.binary('answer_body').nullable();
    t.timestamp('withheld_at', { useTz: true }).nullable();
    t.timestamp('delivered_at', { useTz: true }).nullable();
  });
  await db.raw(
    'CREATE INDEX x402_payments_kept_answers_idx ON x402_payments (updated_at) WHERE answer_body IS NOT NULL',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS x402_payments_kept_answers_idx');
  await db.schema.alterTable('x402_payments', (t) => {
    for (const c of [
      'request_fingerprint',
      'payload_sha256',
      'answer_status',
      'answer_type',
      'answer_headers',
      'answer_body',
      'withheld_at',
      'delivered_at',
    ])
      t.dropColumn(c);
  });
}

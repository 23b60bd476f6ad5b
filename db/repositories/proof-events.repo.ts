import { envelope, type ProofEventType } from '../../domain/proof/events.js';
import { newId } from '../../adapters/crypto/tokens.js';
import { DELIVERY_PROFILES } from '../../domain/webhooks.js';
import { usableAfterDowngrade, usableLimit, type MerchantPlanState } from '../../domain/proof/plans.js';
import { createDelivery, toEndpoint, type WebhookEndpoint } from './webhooks.repo.js';
import type { Db } from '../connection.js';
import { toPlanQueue } from './merchants.repo.js';

/**
 * Appends an event in the caller's transaction, only if the merchant has an enabled `/proof` webhook
 * endpoint its plan still allows (the earliest ones after a downgrade) at that moment (spec section 6: later registrations get no history). The endpoint rows are read
 * FOR SHARE, so a concurrent disable or delete waits for this commit: "enabled at commit time". The caller
 * holds the merchant lock, so a merchant's events commit in cursor order and `after` never skips one; the cursor is
 * the merchant's own sequence (`seq`, migration 20261127100100_add_proof_event_seq).
 */
export async function appendProofEvent(
  trx: Db,
  input: { merchantId: string; type: ProofEventType; data: Record<string, unknown>; occurredAt: Date },
  /** The merchant's plan as this transaction already read it (e.g. under its row lock); else it is read here. */
  plan?: MerchantPlanState,
  /**
   * The merchant's destinations (not deleted, oldest first) as this transaction already read them, their rows then
   * locked FOR SHARE (lockAndInsertPaymentRequest): they are not read again; with none there is no event.
   */
  destinations?: readonly WebhookEndpoint[],
): Promise<{ id: string; cursor: number; body: Buffer } | null> {
  if (destinations?.length === 0) return null;
  const state = plan ?? (await planStateOf(trx, input.merchantId));
  const allowed = usableLimit(state, input.occurredAt, 'destinations');
  // Destinations count until deleted (disabled ones too); after a downgrade only the earliest allowed are usable.
  const counted =
    destinations ??
    (
      await trx('webhook_endpoints')
        .where({ interface: 'proof', tenant_id: input.merchantId })
        .whereNot({ status: 'deleted' })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .forShare()
    ).map(toEndpoint);
  const endpoints = counted.filter((e, rank) => e.status === 'enabled' && usableAfterDowngrade(rank, allowed));
  if (endpoints.length === 0) return null;
  const id = newId('evt');
  const body = envelope(id, input.type, input.occurredAt, input.data);
  // The cursor is the merchant's own sequence (its largest plus one, read under the merchant lock the caller holds;
  // unique per merchant), so it says nothing about other accounts' events.
  const [row] = await trx('proof_events')
    .insert({
      id,
      merchant_id: input.merchantId,
      type: input.type,
      body,
      created_at: input.occurredAt,
      seq: trx.raw('(SELECT COALESCE(MAX(seq), 0) + 1 FROM proof_events WHERE merchant_id = ?)', [input.merchantId]),
    })
    .returning(['seq']);
  // One delivery per enabled endpoint whose `events` list the type (a destination receives exactly the types it
  // lists; the management route refuses an empty list), committed with the event: the same bytes, signed at each
  // attempt. The commit wakes the worker's dispatcher, which sends them (docs/webhooks.md, "How a delivery is sent").
  // They are collected per transaction (deliveriesRecordedIn) for the callers that report them (activity results).
  const collected = collectors.get(trx) ?? [];
  collectors.set(trx, collected);
  for (const endpoint of endpoints) {
    if (!endpoint.events.includes(input.type)) continue;
    const { delivery } = await createDelivery(trx, {
      endpoint,
      eventId: id,
      eventType: input.type,
      body,
      maxAttempts: DELIVERY_PROFILES.proof.maxAttempts,
    });
    collected.push(delivery.id);
  }
  return { id, cursor: Number(row.seq), body };
}

async function planStateOf(trx: Db, merchantId: string): Promise<MerchantPlanState> {
  const merchant = await trx('merchants')
    .where({ id: merchantId })
    .first('plan', 'plan_paid_until', 'trial_started_at', 'plan_queue');
  return {
    plan: merchant.plan,
    planPaidUntil: merchant.plan_paid_until,
    trialStartedAt: merchant.trial_started_at,
    planQueue: toPlanQueue(merchant.plan_queue),
  };
}

const collectors = new WeakMap<Db, string[]>();

/** The deliveries recorded by appendProofEvent in this transaction (reported in activity results; the dispatcher sends them). */
export const deliveriesRecordedIn = (trx: Db): string[] => collectors.get(trx) ?? [];

/** Events of the merchant after its cursor `after` (exclusive; its own sequence, `seq`), oldest first, with their stored bytes. */
export async function listProofEvents(
  db: Db,
  merchantId: string,
  after: number,
  limit: number,
): Promise<Array<{ cursor: number; body: Buffer }>> {
  const rows = await db('proof_events')
    .where({ merchant_id: merchantId })
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .select('seq', 'body');
  return rows.map((r) => ({ cursor: Number(r.seq), body: r.body as Buffer }));
}

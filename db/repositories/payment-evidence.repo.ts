import { invoiceData, paymentConfirmedData } from '../../domain/proof/events.js';
import type { EvidenceDecision } from '../../domain/validation/integrations-responses.js';
import { decideMatch, latestPayableCreation, type ObservedTransfer } from '../../domain/proof/matching.js';
import { addressKey } from '../../domain/networks.js';
import type { Db } from '../connection.js';
import { lockMerchant } from './merchants.repo.js';
import { appendProofEvent, deliveriesRecordedIn } from './proof-events.repo.js';
import { attributeUnderpayment, grantPurchaseOnPayment, PLATFORM_MERCHANT_ID } from './platform-purchases.repo.js';

export type EvidenceOutcome =
  | { outcome: 'duplicate' }
  | { outcome: 'unmatched' }
  | { outcome: 'paid'; requestId: string; events: number; deliveryIds: string[]; invoiceId?: string }
  | { outcome: 'review'; requestId: string; reason: string }
  | { outcome: 'already_settled'; requestId: string };

/**
 * Records one confirmed transfer and applies it, in one transaction:
 * 1. the evidence row (unique per network, transaction and log index: a repeated scan stops here, so nothing
 *    is decided or emitted twice);
 * 2. the request it matches: an open (AWAITING or REVIEW) request paid to the transfer's recipient address, of the
 *    one account that receives there, whose `amount_atomic` equals the amount — amounts are allocated unique per
 *    address; only when none holds the amount, the most recent closed one (EXPIRED, or VOIDED with its invoice). A
 *    transfer to an address whose wallets are on hold (a legacy duplicate) matches nothing (reason `address_held`);
 * 3. the decision (domain/proof/matching.ts): PAID with `tx_hash` and `verified_at`, emitting
 *    `payment.confirmed` (and `invoice.paid` with the invoice marked paid: `invoiceId` tells the caller to
 *    signal `invoice:<id>`) with the state change; or REVIEW (no event).
 * The merchant row is locked first, as every event writer does, so events commit in cursor order. A request of a
 * self-service purchase grants what was bought in the same transaction (db/repositories/platform-purchases.repo.ts);
 * a smaller transfer from a purchase's named payer is kept on it as an underpayment (REVIEW `underpaid`).
 */
/** The account that receives at (network, address key): its one verified wallet not on hold there. */
const RECEIVER_AT_ADDRESS =
  'SELECT merchant_id FROM merchant_wallets WHERE network = ? AND address_key = ? AND verified_at IS NOT NULL AND held_reason IS NULL';

export async function applyTransfer(db: Db, t: ObservedTransfer, now: Date): Promise<EvidenceOutcome> {
  return db.transaction(async (trx) => {
    const [evidence] = await trx('payment_evidence')
      .insert({
        network: t.network,
        tx_hash: t.txHash,
        log_index: t.logIndex,
        from_address: t.from,
        to_address: t.to,
        amount_atomic: t.amountAtomic.toString(),
        block_number: t.blockNumber,
        block_time: t.blockTime,
        decision: 'unmatched',
      })
      .onConflict(['network', 'tx_hash', 'log_index'])
      .ignore()
      .returning(['id']);
    if (!evidence) return { outcome: 'duplicate' };

    // Matching is per receiving address: the requests paid to the transfer's (network, address), of the one account
    // that receives there (merchant_wallets_one_receiver). An address whose wallets are all on hold pays nothing.
    const key = addressKey(t.network, t.to);
    const matching = (statuses: string[]) =>
      trx('payment_requests as r')
        .join('merchant_wallets as w', 'w.id', 'r.wallet_id')
        .where({ 'w.network': t.network, 'w.address_key': key })
        .whereRaw(`r.merchant_id = (${RECEIVER_AT_ADDRESS})`, [t.network, key])
        .where('r.amount_atomic', t.amountAtomic.toString())
        .whereIn('r.status', statuses)
        .where('r.created_at', '<=', latestPayableCreation(t))
        .orderBy('r.created_at', 'desc')
        .first('r.id', 'r.merchant_id');
    // An open request holds its amount; only when none does can the transfer be a late payment of an expired
    // one, or a payment of a voided invoice's request (REVIEW `invoice_voided`: it never confirms).
    const candidate = (await matching(['AWAITING', 'REVIEW'])) ?? (await matching(['EXPIRED', 'VOIDED']));
    if (!candidate) {
      // Less than a self-service purchase asks, from the payer it names: kept on it as an underpayment (REVIEW).
      const underpaid = await attributeUnderpayment(trx, t, evidence.id);
      if (underpaid) return { outcome: 'review', requestId: underpaid, reason: 'underpaid' };
      // To an address held as a duplicate: kept as evidence an operator finds by its reason (wallets:duplicates).
      await trx('payment_evidence')
        .where({ id: evidence.id })
        .whereExists(
          trx('merchant_wallets')
            .where({ network: t.network, address_key: key })
            .whereNotNull('held_reason')
            .select(trx.raw('1')),
        )
        .update({ reason: 'address_held' });
      return { outcome: 'unmatched' };
    }

    await lockMerchant(trx, candidate.merchant_id);
    const row = await trx('payment_requests').where({ id: candidate.id }).forUpdate().first();
    const decision = decideMatch(
      { status: row.status, expectedPayer: row.expected_payer, expiresAt: row.expires_at },
      t,
    );
    const link = (decisionName: string, reason: string | null) =>
      trx('payment_evidence').where({ id: evidence.id }).update({ request_id: row.id, decision: decisionName, reason });

    if (decision.next === null) {
      await link('already_settled', decision.reason);
      return { outcome: 'already_settled', requestId: row.id };
    }
    if (decision.next === 'REVIEW') {
      // A closed (EXPIRED or VOIDED) request whose amount a newer open request holds again keeps its state: the
      // payment is kept as review evidence on it, and the open request's unique amount stays untouched.
      const reissued =
        row.status !== 'AWAITING' &&
        (await trx('payment_requests')
          .whereIn('wallet_id', trx('merchant_wallets').where({ network: t.network, address_key: key }).select('id'))
          .where({ amount_atomic: row.amount_atomic })
          .whereIn('status', ['AWAITING', 'REVIEW'])
          .whereNot({ id: row.id })
          .first('id'));
      if (!reissued) {
        await trx('payment_requests')
          .where({ id: row.id })
          .whereIn('status', ['AWAITING', 'EXPIRED', 'VOIDED'])
          .update({ status: 'REVIEW', review_reason: decision.reason, tx_hash: t.txHash });
      }
      await link('review', decision.reason);
      return { outcome: 'review', requestId: row.id, reason: decision.reason };
    }

    const [paid] = await trx('payment_requests')
      .where({ id: row.id, status: 'AWAITING' })
      .update({ status: 'PAID', tx_hash: t.txHash, verified_at: now })
      .returning('*');
    await link('paid', null);
    // A self-service purchase (a request of the platform's own account) grants its plan period or credits here, once.
    if (paid.merchant_id === PLATFORM_MERCHANT_ID) await grantPurchaseOnPayment(trx, paid.id, t.txHash, now);
    const facts = {
      id: paid.id,
      network: paid.network,
      amountAtomic: BigInt(paid.amount_atomic),
      quotedAmountAtomic: BigInt(paid.quoted_amount_atomic),
      status: 'PAID',
      txHash: t.txHash,
      verifiedAt: now,
    };
    let events = (await appendProofEvent(trx, {
      merchantId: paid.merchant_id,
      type: 'payment.confirmed',
      occurredAt: now,
      data: paymentConfirmedData(facts),
    }))
      ? 1
      : 0;
    let invoiceId: string | undefined;
    if (paid.invoice_id) {
      const [invoice] = await trx('invoices')
        .where({ id: paid.invoice_id, status: 'issued' })
        .update({ status: 'paid', paid_at: now })
        .returning(['id', 'number']);
      if (invoice) {
        invoiceId = invoice.id;
        const data = invoiceData({
          id: invoice.id,
          requestId: paid.id,
          number: invoice.number,
          status: 'paid',
          network: paid.network,
          amountAtomic: facts.amountAtomic,
          txHash: t.txHash,
        });
        if (await appendProofEvent(trx, { merchantId: paid.merchant_id, type: 'invoice.paid', occurredAt: now, data }))
          events++;
      }
    }
    return {
      outcome: 'paid',
      requestId: paid.id,
      events,
      deliveryIds: deliveriesRecordedIn(trx),
      ...(invoiceId ? { invoiceId } : {}),
    };
  });
}

/** A recorded transfer with what the watcher decided about it. */
export interface EvidenceRecord extends ObservedTransfer {
  requestId: string;
  decision: EvidenceDecision;
  reason: string | null;
  recordedAt: Date;
}

/** The transfers attributed to each of `requestIds` (whatever was decided), oldest first. */
export async function evidenceOfRequests(
  db: Db,
  requestIds: readonly string[],
): Promise<Map<string, EvidenceRecord[]>> {
  const out = new Map<string, EvidenceRecord[]>(requestIds.map((id) => [id, []]));
  if (!requestIds.length) return out;
  const rows = await db('payment_evidence').whereIn('request_id', requestIds).orderBy('id', 'asc');
  for (const r of rows) {
    out.get(r.request_id)!.push({
      requestId: r.request_id,
      network: r.network,
      txHash: r.tx_hash,
      logIndex: r.log_index,
      from: r.from_address,
      to: r.to_address,
      amountAtomic: BigInt(r.amount_atomic),
      blockNumber: Number(r.block_number),
      blockTime: r.block_time,
      decision: r.decision,
      reason: r.reason,
      recordedAt: r.created_at,
    });
  }
  return out;
}

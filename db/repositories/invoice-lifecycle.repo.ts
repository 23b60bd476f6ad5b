import { invoiceData } from '../../domain/proof/events.js';
import type { Db } from '../connection.js';
import type { InvoiceStatus } from './invoices.repo.js';
import { lockMerchant } from './merchants.repo.js';
import { appendProofEvent, deliveriesRecordedIn } from './proof-events.repo.js';
import type { RequestStatus } from './payment-requests.repo.js';

/** What voiding an invoice did. Only `voided` changed anything (and recorded `invoice.voided`). */
export type VoidResult =
  | {
      outcome: 'voided';
      invoiceId: string;
      requestId: string;
      voidedAt: Date;
      previousRequestStatus: VoidableRequestStatus;
      events: number;
      deliveryIds: string[];
    }
  | { outcome: 'already_voided'; invoiceId: string; voidedAt: Date | null }
  | { outcome: 'already_paid'; invoiceId: string; paidAt: Date | null }
  | { outcome: 'not_found'; invoiceId: string };

/** Request states a void closes: the open ones (their amount is freed) and EXPIRED (a late payment then reads `invoice_voided`). */
type VoidableRequestStatus = 'AWAITING' | 'REVIEW' | 'EXPIRED';
const VOIDABLE_REQUEST_STATES: readonly RequestStatus[] = ['AWAITING', 'REVIEW', 'EXPIRED'];

/**
 * Voids an issued invoice in one transaction: the merchant row is locked first (as every event writer does, so
 * events commit in cursor order), then the invoice and its payment request; the invoice becomes `voided` with
 * `voided_at` and the operator's reason (stored, never emitted), the request `VOIDED` (out of the open-amount
 * index, so its amount is free again), and `invoice.voided` is appended (data as `invoice.issued`, status
 * `voided`, `tx_hash` null). A paid invoice is left as it is (`already_paid`); a voided one too
 * (`already_voided`, no new event). Quota counts created rows, so nothing is restored.
 * The webhook deliveries recorded with the event are in `deliveryIds` (the dispatcher sends them after the commit).
 */
export async function voidInvoice(
  db: Db,
  input: { invoiceId: string; reason: string | null; now: Date },
): Promise<VoidResult> {
  const { invoiceId, now } = input;
  return db.transaction(async (trx) => {
    const found = await trx('invoices').where({ id: invoiceId }).first('merchant_id');
    if (!found) return { outcome: 'not_found', invoiceId };
    await lockMerchant(trx, found.merchant_id);
    const invoice = await trx('invoices').where({ id: invoiceId }).forUpdate().first();
    const status = invoice.status as InvoiceStatus;
    if (status === 'paid') return { outcome: 'already_paid', invoiceId, paidAt: invoice.paid_at };
    if (status === 'voided') return { outcome: 'already_voided', invoiceId, voidedAt: invoice.voided_at };

    const request = await trx('payment_requests').where({ id: invoice.request_id }).forUpdate().first();
    const previousRequestStatus = request.status as VoidableRequestStatus;
    // An issued invoice's request is never PAID (both change in one transaction); refuse rather than hide it.
    if (!VOIDABLE_REQUEST_STATES.includes(previousRequestStatus))
      throw new Error(`invoice ${invoiceId} is issued but its request is ${previousRequestStatus}`);
    await trx('payment_requests').where({ id: request.id }).update({ status: 'VOIDED' });
    await trx('invoices')
      .where({ id: invoiceId })
      .update({ status: 'voided', voided_at: now, void_reason: input.reason });
    const data = invoiceData({
      id: invoiceId,
      requestId: request.id,
      number: invoice.number,
      status: 'voided',
      network: request.network,
      amountAtomic: BigInt(request.amount_atomic),
      txHash: null,
    });
    const event = await appendProofEvent(trx, {
      merchantId: invoice.merchant_id,
      type: 'invoice.voided',
      occurredAt: now,
      data,
    });
    return {
      outcome: 'voided',
      invoiceId,
      requestId: request.id,
      voidedAt: now,
      previousRequestStatus,
      events: event ? 1 : 0,
      deliveryIds: deliveriesRecordedIn(trx),
    };
  });
}

/**
 * The first step of `invoice:<id>`: records that its lifecycle workflow runs (once; the maintenance run starts
 * it for issued invoices without this mark) and answers the invoice's status, null when there is no such invoice.
 */
export async function beginInvoiceLifecycle(db: Db, invoiceId: string, now: Date): Promise<InvoiceStatus | null> {
  await db('invoices').where({ id: invoiceId }).whereNull('lifecycle_started_at').update({ lifecycle_started_at: now });
  const row = await db('invoices').where({ id: invoiceId }).first('status');
  return row ? (row.status as InvoiceStatus) : null;
}

/** Issued invoices created before `issuedBefore` whose lifecycle workflow never ran: their start may be lost. */
export async function findInvoicesWithoutLifecycle(db: Db, issuedBefore: Date, limit: number): Promise<string[]> {
  const rows = await db('invoices')
    .where({ status: 'issued' })
    .whereNull('lifecycle_started_at')
    .where('issued_at', '<', issuedBefore)
    .orderBy('issued_at')
    .limit(limit)
    .select('id');
  return rows.map((r) => r.id as string);
}

/** The merchant of an invoice, by the invoice's id alone (operator commands); null when there is none. */
export async function findInvoiceMerchant(db: Db, invoiceId: string): Promise<string | null> {
  const row = await db('invoices').where({ id: invoiceId }).first('merchant_id');
  return row ? (row.merchant_id as string) : null;
}

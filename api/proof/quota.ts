import { DomainError } from '../../domain/errors.js';
import { entitlementAt, type Entitlement } from '../../domain/proof/plans.js';
import type { Db } from '../../db/connection.js';
import { lockMerchant, type Merchant } from '../../db/repositories/merchants.repo.js';

export interface Usage {
  requests: number;
  invoices: number;
  windowStart: Date | null;
}

export async function countInvoicesSince(trx: Db, merchantId: string, since: Date): Promise<number> {
  const [row] = await trx('invoices').where({ merchant_id: merchantId }).where('issued_at', '>=', since).count<{ count: string }[]>('* as count');
  return Number(row?.count ?? 0);
}

export async function usageOf(db: Db, merchant: Merchant, ent: Entitlement): Promise<Usage> {
  if (ent.kind === 'none') return { requests: 0, invoices: 0, windowStart: null };
  return { ...(await countUsageSince(db, merchant.id, ent.quotaWindowStart)), windowStart: ent.quotaWindowStart };
}

/** Requests and invoices created since `since`, in one statement. */
async function countUsageSince(db: Db, merchantId: string, since: Date): Promise<{ requests: number; invoices: number }> {
  const { rows } = await db.raw<{ rows: Array<{ requests: string; invoices: string }> }>(
    `SELECT (SELECT count(*) FROM payment_requests WHERE merchant_id = ? AND created_at >= ?) AS requests,
            (SELECT count(*) FROM invoices WHERE merchant_id = ? AND issued_at >= ?) AS invoices`,
    [merchantId, since, merchantId, since],
  );
  return { requests: Number(rows[0]?.requests ?? 0), invoices: Number(rows[0]?.invoices ?? 0) };
}

/**
 * Locks the merchant and checks that `need` more creations fit its plan (spec section 8): a rolling 30-day
 * window (a trial: since its start); an invoice needs one request and one invoice allowance. Over → 422.
 * Pass the idempotent transaction: the lock serialises parallel creations, so the count cannot be overrun.
 */
export async function reserveQuota(trx: Db, merchantId: string, need: { requests: number; invoices: number }, now: Date): Promise<{ merchant: Merchant; ent: Exclude<Entitlement, { kind: 'none' }> }> {
  return checkQuota(trx, await lockMerchant(trx, merchantId), need, now);
}

/** reserveQuota's check, for a caller that locked the merchant row itself (in `trx`, before this call). */
export async function checkQuota(trx: Db, merchant: Merchant, need: { requests: number; invoices: number }, now: Date): Promise<{ merchant: Merchant; ent: Exclude<Entitlement, { kind: 'none' }> }> {
  const ent = entitlementAt(merchant, now);
  if (ent.kind === 'none') throw new DomainError('quota_exceeded', 'This account has no active plan or trial; creating payment requests and invoices needs one');
  const { requestsPerPeriod, invoicesPerPeriod } = ent.limits;
  // A plan without caps (pro) has nothing to count.
  if (requestsPerPeriod === null && invoicesPerPeriod === null) return { merchant, ent };
  const usage = await usageOf(trx, merchant, ent);
  const label = ent.kind === 'trial' ? 'the trial' : `the ${ent.plan} plan's rolling 30 days`;
  if (requestsPerPeriod !== null && usage.requests + need.requests > requestsPerPeriod) {
    throw new DomainError('quota_exceeded', `Payment request quota reached: ${requestsPerPeriod} in ${label}`);
  }
  if (invoicesPerPeriod !== null && usage.invoices + need.invoices > invoicesPerPeriod) {
    throw new DomainError('quota_exceeded', `Invoice quota reached: ${invoicesPerPeriod} in ${label}`);
  }
  return { merchant, ent };
}

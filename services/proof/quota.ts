import { DomainError } from '../../domain/errors.js';
import { entitlementAt, type Entitlement } from '../../domain/proof/plans.js';
import type { Db } from '../../db/connection.js';
import type { Merchant } from '../../db/repositories/merchants.repo.js';
import { lockMerchant } from './merchant-lock.js';

export interface Usage {
  requests: number;
  invoices: number;
  windowStart: Date | null;
}

export async function countInvoicesSince(trx: Db, merchantId: string, since: Date): Promise<number> {
  const [row] = await trx('invoices')
    .where({ merchant_id: merchantId })
    .where('issued_at', '>=', since)
    .count<{ count: string }[]>('* as count');
  return Number(row?.count ?? 0);
}

export async function usageOf(db: Db, merchant: Merchant, ent: Entitlement): Promise<Usage> {
  if (ent.kind === 'none') return { requests: 0, invoices: 0, windowStart: null };
  return { ...(await countUsageSince(db, merchant.id, ent.quotaWindowStart)), windowStart: ent.quotaWindowStart };
}

/** Requests and invoices created since `since`, in one statement. */
async function countUsageSince(
  db: Db,
  merchantId: string,
  since: Date,
): Promise<{ requests: number; invoices: number }> {
  const { rows } = await db.raw<{ rows: Array<{ requests: string; invoices: string }> }>(
    `SELECT (SELECT count(*) FROM payment_requests WHERE merchant_id = ? AND created_at >= ?) AS requests,
            (SELECT count(*) FROM invoices WHERE merchant_id = ? AND issued_at >= ?) AS invoices`,
    [merchantId, since, merchantId, since],
  );
  return { requests: Number(rows[0]?.requests ?? 0), invoices: Number(rows[0]?.invoices ?? 0) };
}

/** What a creation needs: `requests` and `invoices` allowances. */
export interface CreationNeed {
  requests: number;
  invoices: number;
}

/**
 * Locks the merchant and checks that `need` more creations fit its plan (spec section 8): a rolling 30-day
 * window (a trial: since its start); an invoice needs one request and one invoice allowance. Over → 422.
 * Pass the idempotent transaction: the lock serialises parallel creations, so the count cannot be overrun.
 */
export async function reserveQuota(
  trx: Db,
  merchantId: string,
  need: CreationNeed,
  now: Date,
): Promise<{ merchant: Merchant; ent: Exclude<Entitlement, { kind: 'none' }> }> {
  return checkQuota(trx, await lockMerchant(trx, merchantId), need, now);
}

const HOUR_MS = 3_600_000;

/**
 * The hourly creation limit of a plan that has one (pro: RATE_LIMIT_PROOF_PRO_PER_HOUR): the payment requests the
 * merchant created in the hour before `now` (direct or by invoice, through a key or the dashboard) are counted in
 * `payment_requests` itself, so only creations count — a rejected call or a replay created nothing — over a sliding
 * hour. The creation's insert statement reads the `perHour`-th newest creation of the hour (`hourlyWindow`;
 * lockAndInsertPaymentRequest) under the merchant lock, so parallel creations cannot overrun it; `assertHourlyRoom`
 * refuses the creation when there is one (the transaction, the inserted row with it, is rolled back).
 */
export function hourlyWindow(perHour: number, now: Date): { since: Date; n: number } {
  return { since: new Date(now.getTime() - HOUR_MS), n: perHour };
}

/** At the limit (`nthNewest`: the perHour-th newest creation of the hour, in hourlyWindow) → 429 with Retry-After. */
export function assertHourlyRoom(nthNewest: Date | null, perHour: number, now: Date): void {
  if (nthNewest === null) return;
  const frees = nthNewest.getTime() + HOUR_MS;
  throw new DomainError(
    'rate_limited',
    `The pro plan allows ${perHour} payment-request creations per hour; retry after the time in Retry-After`,
    {
      retryAfterSeconds: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)),
    },
  );
}

/**
 * reserveQuota's check, for a caller that locked the merchant row itself (in `trx`, before this call). `written`: the
 * part of `need` this transaction already inserted (after the lock), which the usage it reads counts already.
 */
export async function checkQuota(
  trx: Db,
  merchant: Merchant,
  need: CreationNeed,
  now: Date,
  written: Partial<CreationNeed> = {},
): Promise<{ merchant: Merchant; ent: Exclude<Entitlement, { kind: 'none' }> }> {
  const ent = entitlementAt(merchant, now);
  if (ent.kind === 'none')
    throw new DomainError(
      'quota_exceeded',
      'This account has no active plan or trial; creating payment requests and invoices needs one',
    );
  const { requestsPerPeriod, invoicesPerPeriod } = ent.limits;
  // A plan without caps (pro) has nothing to count.
  if (requestsPerPeriod === null && invoicesPerPeriod === null) return { merchant, ent };
  const counted = await usageOf(trx, merchant, ent);
  const usage = {
    requests: counted.requests - (written.requests ?? 0),
    invoices: counted.invoices - (written.invoices ?? 0),
  };
  const label = ent.kind === 'trial' ? 'the trial' : `the ${ent.plan} plan's rolling 30 days`;
  if (requestsPerPeriod !== null && usage.requests + need.requests > requestsPerPeriod) {
    throw new DomainError('quota_exceeded', `Payment request quota reached: ${requestsPerPeriod} in ${label}`);
  }
  if (invoicesPerPeriod !== null && usage.invoices + need.invoices > invoicesPerPeriod) {
    throw new DomainError('quota_exceeded', `Invoice quota reached: ${invoicesPerPeriod} in ${label}`);
  }
  return { merchant, ent };
}

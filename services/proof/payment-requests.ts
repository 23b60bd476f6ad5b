import { DomainError } from '../../domain/errors.js';
import { formatUsdc } from '../../domain/money.js';
import { dueDateWindow } from '../../domain/proof/due-date.js';
import { paymentRequestCreatedData } from '../../domain/proof/events.js';
import { DEFAULT_VALID_HOURS, type RequestCreate } from '../../domain/validation/proof-request.js';
import type { PaymentRequestJson } from '../../domain/validation/proof-responses.js';
import { bodyIdNotFound } from '../../domain/body-ids.js';
import { paymentPagePath } from '../../domain/proof/payment-page.js';
import { assertQuotable, isQuotable, noFreeAmount } from '../../domain/proof/matching-delta.js';
import { payerAddressIssue } from '../../adapters/chains/wallet-address.js';
import type { Db } from '../../db/connection.js';
import { lockMerchantAndWallet, type MerchantWallet } from '../../db/repositories/merchants.repo.js';
import { lockAndInsertPaymentRequest, type PaymentRequest } from '../../db/repositories/payment-requests.repo.js';
import { appendProofEvent } from '../../db/repositories/proof-events.repo.js';
import type { Entitlement } from '../../domain/proof/plans.js';
import { assertHourlyRoom, checkQuota, hourlyWindow, reserveQuota, type CreationNeed } from './quota.js';

/*
 * Payment requests (/proof/v1): creating one (shared by direct creation and invoices, over the API key and the
 * merchant's session) and the record clients receive.
 */

/** AWAITING past its expiry reads as EXPIRED even before a sweep records it. */
export const effectiveStatus = (r: PaymentRequest, now: Date) =>
  r.status === 'AWAITING' && r.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : r.status;

export function requestJson(r: PaymentRequest, origin: string, now: Date): PaymentRequestJson {
  return {
    id: r.id,
    url: `${origin}${paymentPagePath(r.id)}`,
    status: effectiveStatus(r, now),
    network: r.network,
    wallet_id: r.walletId,
    pay_to: r.payTo,
    amount_atomic: r.amountAtomic.toString(),
    quoted_amount_atomic: r.quotedAmountAtomic.toString(),
    amount_usdc: formatUsdc(r.amountAtomic),
    description: r.description,
    customer_label: r.customerLabel,
    expected_payer: r.expectedPayer,
    valid_hours: r.validHours,
    expires_at: r.expiresAt.toISOString(),
    created_at: r.createdAt.toISOString(),
    invoice_id: r.invoiceId,
    tx_hash: r.txHash,
    verified_at: r.verifiedAt?.toISOString() ?? null,
  };
}

/**
 * Creates a payment request in the caller's transaction: quota (merchant lock), the verified wallet (its lock
 * orders delta allocation), plan limits on `valid_hours`, `expected_payer` for the wallet's network, the row,
 * and `payment_request.created`. Shared by direct creation and invoices, which pass `needInvoices: 1` and their
 * `dueDate`: the request then stays open until the end of that day, and a due date beyond the plan's longest
 * validity is refused naming `due_date` (domain/proof/due-date.ts).
 *
 * The locks and the insert are one round trip (lockAndInsertPaymentRequest, issue 31 item 5): the row is written
 * first and the plan's rules are then decided from the merchant row read under the lock, in the order they always
 * were (quota, `valid_hours` / `due_date` and `expected_payer`, a free amount, the hourly limit); a refusal
 * rolls the transaction back, the row with it. The row's values do not depend on the plan: `valid_hours` and the due
 * date's hours are stored as asked, and a creation whose hours are over the plan's is refused. Without a verified
 * wallet, or with a quote no amount can be given to, nothing is written and the refusal is made as before the insert
 * existed (refuseWithoutInsert).
 */
export async function createPaymentRequest(
  trx: Db,
  merchantId: string,
  req: CreationRequest,
  now: Date,
  opts: CreationOptions,
): Promise<PaymentRequest> {
  const need = { requests: 1, invoices: opts.needInvoices ?? 0 };
  const locked = isQuotable(req.quotedAtomic)
    ? await lockAndInsertPaymentRequest(
        trx,
        {
          merchantId,
          walletId: req.walletId,
          quotedAtomic: req.quotedAtomic,
          description: req.description,
          customerLabel: req.customerLabel,
          expectedPayer: req.expectedPayer,
          validHours: requestedHours(req, opts, now),
          ...(opts.invoiceId ? { invoiceId: opts.invoiceId } : {}),
        },
        now,
        hourlyWindow(opts.perHour, now),
      )
    : null;
  if (!locked) return refuseWithoutInsert(trx, merchantId, req, now, opts, need);
  const { wallet, request, destinations, nthNewestSince } = locked;
  // The row just inserted is counted by the quota's usage (it is in this transaction): it is part of `need`.
  const { merchant, ent } = await checkQuota(trx, locked.merchant, need, now, request ? { requests: 1 } : undefined);
  assertPlanAllows(ent, wallet, req, opts, now);
  if (!request) throw noFreeAmount();
  // Over the hour's creations (pro): refused, and the row just inserted is rolled back with the transaction.
  if (ent.limits.requestsPerHour !== null) assertHourlyRoom(nthNewestSince, opts.perHour, now);
  await appendProofEvent(
    trx,
    {
      merchantId,
      type: 'payment_request.created',
      occurredAt: now,
      data: paymentRequestCreatedData({ ...request, txHash: null, verifiedAt: null }),
    },
    merchant,
    destinations,
  ); // the plan read under this transaction's lock of the merchant row
  return request;
}

/** A creation's request: the body's fields, `valid_hours` optional (an invoice's request takes its due date's). */
type CreationRequest = Omit<RequestCreate, 'validHours'> & { validHours?: number };

interface CreationOptions {
  /** The pro plan's creations per hour (RATE_LIMIT_PROOF_PRO_PER_HOUR). */
  perHour: number;
  invoiceId?: string;
  needInvoices?: number;
  dueDate?: string;
}

/** The hours the request stays open as asked: `valid_hours` (or its default), or until the end of the due date. */
function requestedHours(req: { validHours?: number }, opts: { dueDate?: string }, now: Date): number {
  if (opts.dueDate === undefined) return req.validHours ?? DEFAULT_VALID_HOURS;
  const window = dueDateWindow(opts.dueDate, now, Number.POSITIVE_INFINITY);
  return window.ok ? window.validHours : DEFAULT_VALID_HOURS;
}

/** The plan's limits on how long a request stays open, and `expected_payer` for the wallet's network (422). */
function assertPlanAllows(
  ent: Exclude<Entitlement, { kind: 'none' }>,
  wallet: MerchantWallet,
  req: { validHours?: number; expectedPayer: string | null },
  opts: { dueDate?: string },
  now: Date,
): void {
  const maxHours = ent.limits.maxValidHours;
  const onPlan = ent.kind === 'trial' ? 'a trial' : 'this plan';
  const issues: Array<{ path: string; message: string }> = [];
  if (opts.dueDate !== undefined) {
    const window = dueDateWindow(opts.dueDate, now, maxHours);
    if (!window.ok)
      issues.push({
        path: 'due_date',
        message: `must be ${window.latestDueDate} or earlier: the invoice's payment request stays open until the end of its due date (UTC), at most ${maxHours} hours on ${onPlan}`,
      });
  } else if ((req.validHours ?? DEFAULT_VALID_HOURS) > maxHours) {
    issues.push({ path: 'valid_hours', message: `at most ${maxHours} on ${onPlan}` });
  }
  const payerIssue = req.expectedPayer ? payerAddressIssue(wallet.network, req.expectedPayer) : null;
  if (payerIssue) issues.push({ path: 'expected_payer', message: payerIssue });
  if (issues.length) {
    throw new DomainError(
      'validation_failed',
      `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      { issues },
    );
  }
}

/**
 * The refusals of a creation that writes nothing (no verified wallet of the merchant with this id, or a quote out of
 * range), in their order: the quota first (its answer does not depend on the wallet), then the wallet, the plan's
 * limits, the quote. A wallet verified in the meantime with a quotable amount: the creation is made after all.
 */
async function refuseWithoutInsert(
  trx: Db,
  merchantId: string,
  req: CreationRequest,
  now: Date,
  opts: CreationOptions,
  need: CreationNeed,
): Promise<PaymentRequest> {
  const locked = await lockMerchantAndWallet(trx, merchantId, req.walletId);
  if (!locked) {
    await reserveQuota(trx, merchantId, need, now);
    throw bodyIdNotFound('wallet_id', 'no verified wallet with this id in this account (see GET /proof/v1/me)');
  }
  const { ent } = await checkQuota(trx, locked.merchant, need, now);
  assertPlanAllows(ent, locked.wallet, req, opts, now);
  assertQuotable(req.quotedAtomic);
  return createPaymentRequest(trx, merchantId, req, now, opts);
}

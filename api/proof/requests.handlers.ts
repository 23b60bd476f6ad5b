import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { formatUsdc } from '../../domain/money.js';
import { dueDateWindow } from '../../domain/proof/due-date.js';
import { paymentRequestCreatedData } from '../../domain/proof/events.js';
import { DEFAULT_VALID_HOURS, parseRequestCreate, type RequestCreate } from '../../domain/validation/proof-request.js';
import { payerAddressIssue } from '../../adapters/chains/wallet-address.js';
import type { Db } from '../../db/connection.js';
import type { StatementPart } from '../../db/statement-part.js';
import { lockMerchantAndWallet } from '../../db/repositories/merchants.repo.js';
import { getPaymentRequest, insertPaymentRequestWith, listPaymentRequests, type PaymentRequest } from '../../db/repositories/payment-requests.repo.js';
import { appendProofEvent, eventDestinationsPart } from '../../db/repositories/proof-events.repo.js';
import type { AppContext, AppState } from '../http/context.js';
import { merchantOf } from '../http/context.js';
import { decodeCursor, page, parseLimit } from '../http/pagination.js';
import { publicBase } from '../http/public-origin.js';
import { bodyIdNotFound } from '../../domain/body-ids.js';
import { REQUEST_STATUSES, type RequestStatus } from '../../domain/proof/statuses.js';
import { assertHourlyRoom, checkQuota, hourlyCreationsPart, reserveQuota } from './quota.js';

export interface ProofDeps {
  db: Db;
  /** Public origin for payment page links; the request's own origin when unset. */
  publicBaseUrl: string | null | undefined;
  /** The enforced pro creations per hour (RATE_LIMIT_PROOF_PRO_PER_HOUR), as /v1/me reports it. */
  proPerHour: number;
  now: () => Date;
}

export const paymentPagePath = (id: string) => `/proof/pay/${id}`;

/** AWAITING past its expiry reads as EXPIRED even before a sweep records it. */
export const effectiveStatus = (r: PaymentRequest, now: Date) => (r.status === 'AWAITING' && r.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : r.status);

export function requestJson(r: PaymentRequest, origin: string, now: Date) {
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

/** PUBLIC_BASE_URL, else this request's own scheme and host (`publicBase`; Koa's `origin` reflects the Origin header). */
export const originOf = (deps: ProofDeps, ctx: AppContext) => publicBase(deps.publicBaseUrl, ctx);

/**
 * Creates a payment request in the caller's transaction: quota (merchant lock), the verified wallet (its lock
 * orders delta allocation), plan limits on `valid_hours`, `expected_payer` for the wallet's network, the row,
 * and `payment_request.created`. Shared by direct creation and invoices, which pass `needInvoices: 1` and their
 * `dueDate`: the request then stays open until the end of that day, and a due date beyond the plan's longest
 * validity is refused naming `due_date` (domain/proof/due-date.ts).
 */
export async function createPaymentRequest(
  trx: Db,
  merchantId: string,
  req: Omit<RequestCreate, 'validHours'> & { validHours?: number },
  now: Date,
  opts: {
    /** The pro plan's creations per hour (RATE_LIMIT_PROOF_PRO_PER_HOUR). */
    perHour: number;
    invoiceId?: string;
    needInvoices?: number;
    dueDate?: string;
    /** The idempotency key claimed with this answer in the insert's statement (AppState.answerClaim). */
    answer?: { part: (request: PaymentRequest) => StatementPart; settle: (claimed: boolean) => void };
  },
): Promise<PaymentRequest> {
  const need = { requests: 1, invoices: opts.needInvoices ?? 0 };
  // The merchant lock (quota) and the wallet lock (delta allocation) in one statement; without such a wallet the
  // quota is still checked first, so its answer does not depend on the wallet.
  const locked = await lockMerchantAndWallet(trx, merchantId, req.walletId);
  if (!locked) {
    await reserveQuota(trx, merchantId, need, now);
    throw bodyIdNotFound('wallet_id', 'no verified wallet with this id in this account (see GET /proof/v1/me)');
  }
  const { merchant, ent } = await checkQuota(trx, locked.merchant, need, now);
  const { wallet } = locked;
  const maxHours = ent.limits.maxValidHours;
  const onPlan = ent.kind === 'trial' ? 'a trial' : 'this plan';
  const issues: Array<{ path: string; message: string }> = [];
  let validHours = req.validHours ?? DEFAULT_VALID_HOURS;
  if (opts.dueDate !== undefined) {
    const window = dueDateWindow(opts.dueDate, now, maxHours);
    if (window.ok) validHours = window.validHours;
    else issues.push({ path: 'due_date', message: `must be ${window.latestDueDate} or earlier: the invoice's payment request stays open until the end of its due date (UTC), at most ${maxHours} hours on ${onPlan}` });
  } else if (validHours > maxHours) {
    issues.push({ path: 'valid_hours', message: `at most ${maxHours} on ${onPlan}` });
  }
  const payerIssue = req.expectedPayer ? payerAddressIssue(wallet.network, req.expectedPayer) : null;
  if (payerIssue) issues.push({ path: 'expected_payer', message: payerIssue });
  if (issues.length) {
    throw new DomainError('validation_failed', `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
  }
  // The insert also counts the merchant's webhook destinations (locked FOR SHARE: with none, no event to read for),
  // on pro the creations of the last hour, and, when given, claims the idempotency key with the answer.
  const answer = opts.answer;
  const hourly = ent.limits.requestsPerHour !== null;
  const { request, also } = await insertPaymentRequestWith(
    trx,
    { merchantId, wallet, quotedAtomic: req.quotedAtomic, description: req.description, customerLabel: req.customerLabel, expectedPayer: req.expectedPayer, validHours, ...(opts.invoiceId ? { invoiceId: opts.invoiceId } : {}) },
    now,
    (row) => ({ destinations: eventDestinationsPart(merchantId), ...(hourly ? { hour: hourlyCreationsPart(merchantId, opts.perHour, now) } : {}), ...(answer ? { answer: answer.part(row) } : {}) }),
  );
  if (answer) {
    answer.settle(Number(also.answer) === 1);
    if (Number(also.answer) !== 1) return request; // the key is taken: all of this is rolled back, the first answer replayed
  }
  // Over the hour's creations: refused, and the row just inserted is rolled back with the transaction.
  if (hourly) assertHourlyRoom(also.hour, opts.perHour, now);
  const destinations = also.destinations;
  await appendProofEvent(trx, {
    merchantId,
    type: 'payment_request.created',
    occurredAt: now,
    data: paymentRequestCreatedData({ ...request, txHash: null, verifiedAt: null }),
  }, merchant, Number(destinations)); // the plan read under this transaction's lock of the merchant row (reserveQuota)
  return request;
}

/**
 * Where a set of /proof handlers is mounted: `/v1` on the API-key router (`/proof/v1/…`), `` on the dashboard's
 * session router (`/api/integrations/…`). The handlers are the same functions either way; the session router adds
 * the list filters the dashboard needs (`filters`).
 */
export interface MountAt {
  base: '/v1' | '';
  filters?: boolean;
}

/** `status` of a request list: one of the request states, or absent. */
function parseStatusFilter(raw: unknown): RequestStatus | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string' && (REQUEST_STATUSES as readonly string[]).includes(raw)) return raw as RequestStatus;
  throw new DomainError('validation_failed', `status must be one of ${REQUEST_STATUSES.join(', ')}`, { issues: [{ path: 'status', message: `one of ${REQUEST_STATUSES.join(', ')}` }] });
}

export function mountRequests(
  router: Router<AppState>,
  deps: ProofDeps,
  idempotent: (operation: string, opts?: { claimAtCommit?: boolean }) => Middleware<AppState>,
  at: MountAt = { base: '/v1' },
): void {
  // Every effect of a creation is in the idempotent transaction, after the merchant lock a same-key request also
  // waits for: the key can be claimed with the stored answer at the end (api/http/idempotency.ts claimAtCommit).
  router.post(`${at.base}/requests`, idempotent('requests.create', { claimAtCommit: true }), async (ctx) => {
    const req = parseRequestCreate(ctx.request.body);
    const now = deps.now();
    const origin = originOf(deps, ctx);
    // The key is claimed with the answer in the insert's statement: the answer is made from the row as written.
    const claim = ctx.state.answerClaim;
    const answer = claim && { part: (r: PaymentRequest) => claim.part(201, requestJson(r, origin, now), r.id), settle: (claimed: boolean) => claim.settle(claimed) };
    const request = await createPaymentRequest(ctx.state.trx!, merchantOf(ctx).id, req, now, { perHour: deps.proPerHour, ...(answer ? { answer } : {}) });
    ctx.state.resourceId = request.id;
    ctx.status = 201;
    ctx.body = requestJson(request, origin, now);
  });

  router.get(`${at.base}/requests`, async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    const status = at.filters ? parseStatusFilter(ctx.query['status']) : undefined;
    const now = deps.now();
    const rows = await listPaymentRequests(deps.db, merchantOf(ctx).id, limit, decodeCursor('requests', ctx.query['before']), status && { status, now });
    ctx.body = page('requests', rows, limit, (r) => requestJson(r, originOf(deps, ctx), now));
  });

  router.get(`${at.base}/requests/:id`, async (ctx) => {
    const request = await getPaymentRequest(deps.db, merchantOf(ctx).id, ctx.params['id'] ?? '');
    if (!request) throw new DomainError('not_found', 'Payment request not found');
    ctx.body = requestJson(request, originOf(deps, ctx), deps.now());
  });
}

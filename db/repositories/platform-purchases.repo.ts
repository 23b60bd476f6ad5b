import { addressKey, type Network } from '../../domain/networks.js';
import type { ObservedTransfer } from '../../domain/proof/matching.js';
import { latestPayableCreation } from '../../domain/proof/matching.js';
import type { PaidPlan } from '../../domain/proof/plans.js';
import { grantPlanPayment, PURCHASE_VALID_HOURS } from '../../domain/self-service.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { grantCredits } from './credits.repo.js';
import { lockMerchant, setMerchantSchedule, verifiedWalletsAt, type MerchantWallet } from './merchants.repo.js';
import { insertPaymentRequest, type PaymentRequest } from './payment-requests.repo.js';

/**
 * Self-service purchases (docs/proof.md "Plans paid in USDC"). The platform sells through its own /proof account:
 * a purchase is a payment request of that account to the platform's receiving wallet, so the one payment watcher
 * confirms it with the same evidence, matching, expiry and REVIEW rules as any merchant's request. When the watcher
 * marks such a request PAID, `grantPurchaseOnPayment` runs in the same transaction and grants the plan period or
 * the credits; `platform_purchase_grants` (one row per purchase and per request) makes that happen once.
 */

/** The platform's own /proof account: it owns the receiving wallets and the purchases' payment requests; nobody signs in to it. */
export const PLATFORM_MERCHANT_ID = 'mer_PlatformReceiving001';
const PLATFORM_NAME = 'paycore platform';

export type PurchaseBuyer = { kind: 'plan'; merchantId: string } | { kind: 'credits'; companyId: string };

export interface Purchase {
  id: string;
  kind: 'plan' | 'credits';
  plan: PaidPlan | null;
  pack: string | null;
  credits: bigint | null;
  /** A purchase is always made with the wallet it is paid from (`startPurchase`): its request's `expectedPayer`. */
  request: PaymentRequest & { expectedPayer: string };
  reviewReason: string | null;
  /** USDC of the transfers the watcher attributed to the purchase's request (all of them, whatever it decided). */
  receivedAtomic: bigint;
  grant: {
    txHash: string;
    grantedAt: Date;
    periodStart: Date | null;
    periodEnd: Date | null;
    plan: PaidPlan | null;
  } | null;
  createdAt: Date;
}

/**
 * The platform's verified wallet on `network` (created on first use), locked: amounts are allocated under this lock.
 * The platform's address is a receiving address like any other (one address, one account): when another account
 * receives at it, or the platform's own wallet there is on hold, nothing is sold on that network (`purchase_unavailable`)
 * until an operator corrects PLATFORM_RECEIVING_WALLETS or releases the wallet (docs/operations.md).
 */
async function platformWallet(
  trx: Db,
  network: Network,
  address: string,
  now: Date,
): Promise<MerchantWallet | { unavailable: string }> {
  await trx('merchants')
    .insert({ id: PLATFORM_MERCHANT_ID, name: PLATFORM_NAME, created_at: now })
    .onConflict('id')
    .ignore();
  const existing = await verifiedWalletsAt(trx, network, address);
  if (existing.some((w) => w.merchantId !== PLATFORM_MERCHANT_ID))
    return { unavailable: "the platform's receiving address is a receiving wallet of another account" };
  if (existing.length === 0) {
    try {
      await trx('merchant_wallets').insert({
        id: newId('wal'),
        merchant_id: PLATFORM_MERCHANT_ID,
        network,
        address,
        label: 'platform receiving wallet',
        verified_at: now,
        created_at: now,
      });
    } catch (e) {
      if ((e as { code?: string }).code === '23505')
        return { unavailable: "the platform's receiving address became a receiving wallet of another account" };
      throw e;
    }
  }
  const row = await trx('merchant_wallets')
    .where({ merchant_id: PLATFORM_MERCHANT_ID, network, address_key: addressKey(network, address) })
    .whereNotNull('verified_at')
    .orderBy('created_at')
    .forUpdate()
    .first();
  if (row.held_reason) return { unavailable: "the platform's receiving wallet is on hold" };
  return {
    id: row.id,
    merchantId: row.merchant_id,
    network: row.network,
    address: row.address,
    label: row.label,
    verifiedAt: row.verified_at,
    createdAt: row.created_at,
  };
}

/**
 * A new purchase: one payment request of the platform's account for `priceAtomic` (plus its matching delta) to the
 * platform's wallet on `network`, payable for PURCHASE_VALID_HOURS from `payer` only, and the purchase row; or, when
 * the platform's wallet there cannot receive (another account's wallet, on hold), why, and nothing is written; or,
 * when every matching amount next to the price is taken, `noFreeAmount`, and nothing is written.
 */
export async function createPurchase(
  trx: Db,
  input: {
    buyer: PurchaseBuyer;
    plan?: PaidPlan;
    pack?: { id: string; credits: bigint };
    network: Network;
    walletAddress: string;
    payer: string;
    priceAtomic: bigint;
    description: string;
  },
  now: Date,
): Promise<Purchase | { unavailable: string } | { noFreeAmount: true }> {
  const wallet = await platformWallet(trx, input.network, input.walletAddress, now);
  if ('unavailable' in wallet) return wallet;
  const request = await insertPaymentRequest(
    trx,
    {
      merchantId: PLATFORM_MERCHANT_ID,
      wallet,
      quotedAtomic: input.priceAtomic,
      description: input.description,
      customerLabel: null,
      expectedPayer: input.payer,
      validHours: PURCHASE_VALID_HOURS,
    },
    now,
  );
  if (!request) return { noFreeAmount: true };
  const id = newId('pur');
  await trx('platform_purchases').insert({
    id,
    kind: input.buyer.kind,
    merchant_id: input.buyer.kind === 'plan' ? input.buyer.merchantId : null,
    company_id: input.buyer.kind === 'credits' ? input.buyer.companyId : null,
    plan: input.plan ?? null,
    pack: input.pack?.id ?? null,
    credits: input.pack ? input.pack.credits.toString() : null,
    request_id: request.id,
    created_at: now,
  });
  return (await getPurchase(trx, input.buyer, id))!;
}

/**
 * Locks the buyer's row (the merchant or the company) for the caller's transaction: purchases of one buyer are counted
 * one after another. False when there is no such buyer.
 */
export async function lockPurchaseBuyer(trx: Db, buyer: PurchaseBuyer): Promise<boolean> {
  const [table, id] = buyer.kind === 'plan' ? ['merchants', buyer.merchantId] : ['companies', buyer.companyId];
  return Boolean(await trx(table).where({ id }).forUpdate().first('id'));
}

/**
 * The buyer's open purchases at `now` — their payment request holds its amount: awaiting payment and not expired, or
 * in review — how many, and when the first of those awaiting payment expires (null when all are in review).
 */
export async function openPurchasesOf(
  trx: Db,
  buyer: PurchaseBuyer,
  now: Date,
): Promise<{ count: number; firstExpiry: Date | null }> {
  const [row] = await trx('platform_purchases as p')
    .join('payment_requests as r', 'r.id', 'p.request_id')
    .where(buyerColumn(buyer))
    .where((q) =>
      q.where((a) => a.where('r.status', 'AWAITING').where('r.expires_at', '>', now)).orWhere('r.status', 'REVIEW'),
    )
    .select(
      trx.raw('count(*)::int AS count'),
      trx.raw("min(r.expires_at) FILTER (WHERE r.status = 'AWAITING') AS first_expiry"),
    );
  return { count: Number(row?.count ?? 0), firstExpiry: row?.first_expiry ?? null };
}

const buyerColumn = (b: PurchaseBuyer) =>
  b.kind === 'plan'
    ? { 'p.kind': 'plan', 'p.merchant_id': b.merchantId }
    : { 'p.kind': 'credits', 'p.company_id': b.companyId };

function purchaseQuery(db: Db) {
  return db('platform_purchases as p')
    .join('payment_requests as r', 'r.id', 'p.request_id')
    .leftJoin('platform_purchase_grants as g', 'g.purchase_id', 'p.id')
    .select(
      'p.id',
      'p.kind',
      'p.plan',
      'p.pack',
      'p.credits',
      'p.created_at',
      'r.id as r_id',
      'r.merchant_id as r_merchant_id',
      'r.wallet_id as r_wallet_id',
      'r.network as r_network',
      'r.pay_to as r_pay_to',
      'r.quoted_amount_atomic as r_quoted',
      'r.amount_atomic as r_amount',
      'r.description as r_description',
      'r.expected_payer as r_expected_payer',
      'r.valid_hours as r_valid_hours',
      'r.status as r_status',
      'r.review_reason as r_review_reason',
      'r.tx_hash as r_tx_hash',
      'r.verified_at as r_verified_at',
      'r.expires_at as r_expires_at',
      'r.created_at as r_created_at',
      'g.tx_hash as g_tx_hash',
      'g.granted_at as g_granted_at',
      'g.period_start as g_period_start',
      'g.period_end as g_period_end',
      'g.plan as g_plan',
      db.raw(
        '(SELECT COALESCE(SUM(e.amount_atomic), 0)::text FROM payment_evidence e WHERE e.request_id = p.request_id) AS received',
      ),
    );
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const toPurchase = (r: any): Purchase => ({
  id: r.id,
  kind: r.kind,
  plan: r.plan,
  pack: r.pack,
  credits: r.credits === null ? null : BigInt(r.credits),
  request: {
    id: r.r_id,
    merchantId: r.r_merchant_id,
    walletId: r.r_wallet_id,
    network: r.r_network,
    payTo: r.r_pay_to,
    quotedAmountAtomic: BigInt(r.r_quoted),
    amountAtomic: BigInt(r.r_amount),
    description: r.r_description,
    customerLabel: null,
    expectedPayer: r.r_expected_payer,
    validHours: r.r_valid_hours,
    status: r.r_status,
    invoiceId: null,
    txHash: r.r_tx_hash,
    verifiedAt: r.r_verified_at,
    expiresAt: r.r_expires_at,
    createdAt: r.r_created_at,
  },
  reviewReason: r.r_review_reason,
  receivedAtomic: BigInt(r.received),
  grant: r.g_granted_at
    ? {
        txHash: r.g_tx_hash,
        grantedAt: r.g_granted_at,
        periodStart: r.g_period_start,
        periodEnd: r.g_period_end,
        plan: r.g_plan,
      }
    : null,
  createdAt: r.created_at,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

export async function getPurchase(db: Db, buyer: PurchaseBuyer, id: string): Promise<Purchase | null> {
  const row = await purchaseQuery(db).where(buyerColumn(buyer)).where('p.id', id).first();
  return row ? toPurchase(row) : null;
}

/** The buyer's purchases by id, descending, strictly before `before`. */
export async function listPurchases(
  db: Db,
  buyer: PurchaseBuyer,
  limit: number,
  before: string | null,
): Promise<Purchase[]> {
  const q = purchaseQuery(db).where(buyerColumn(buyer)).orderBy('p.id', 'desc').limit(limit);
  if (before) q.where('p.id', '<', before);
  return (await q).map(toPurchase);
}

export type GrantOutcome = { granted: false } | { granted: true; purchaseId: string; kind: 'plan' | 'credits' };

/**
 * Grants what the purchase behind `requestId` bought, once: called by the watcher's transaction right after the
 * request became PAID. The grant row goes in first (primary key = purchase, unique request): if it exists, nothing
 * is granted again. A plan adds 30 days of the plan bought to the merchant's schedule (grantPlanPayment: never a
 * higher plan; higher plans run first, lower ones are queued after them); credits go through the credits ledger with reason `pack:<purchase id>` (unique there too).
 */
export async function grantPurchaseOnPayment(
  trx: Db,
  requestId: string,
  txHash: string,
  now: Date,
): Promise<GrantOutcome> {
  const purchase = await trx('platform_purchases').where({ request_id: requestId }).first();
  if (!purchase) return { granted: false };
  if (purchase.kind === 'credits') {
    const [grant] = await trx('platform_purchase_grants')
      .insert({ purchase_id: purchase.id, request_id: requestId, tx_hash: txHash, granted_at: now })
      .onConflict()
      .ignore()
      .returning('purchase_id');
    if (!grant) return { granted: false };
    // A credits purchase names its company (a foreign key), which has had a wallet since its creation: none is broken
    // data, not a refusal.
    if (!(await grantCredits(trx, purchase.company_id, BigInt(purchase.credits), `pack:${purchase.id}`)))
      throw new Error(`purchase ${purchase.id} is for company ${purchase.company_id}, which has no wallet`);
    return { granted: true, purchaseId: purchase.id, kind: 'credits' };
  }
  const merchant = await lockMerchant(trx, purchase.merchant_id);
  // A plan purchase names its merchant (platform_purchases_kind_check, a foreign key): none is broken data, not a refusal.
  if (!merchant)
    throw new Error(`purchase ${purchase.id} is for merchant ${purchase.merchant_id}, which does not exist`);
  // What the payment buys is decided here, at grant time: 30 days of the plan it was for (domain/self-service.ts).
  const granted = grantPlanPayment(merchant, purchase.plan, now);
  const [grant] = await trx('platform_purchase_grants')
    .insert({
      purchase_id: purchase.id,
      request_id: requestId,
      tx_hash: txHash,
      granted_at: now,
      period_start: granted.period.start,
      period_end: granted.period.end,
      plan: granted.plan,
    })
    .onConflict()
    .ignore()
    .returning('purchase_id');
  if (!grant) return { granted: false };
  await setMerchantSchedule(trx, merchant.id, granted.current, granted.queue);
  return { granted: true, purchaseId: purchase.id, kind: 'plan' };
}

/**
 * A transfer that matched no request by amount, from the named payer of an open purchase, to the platform wallet of
 * that purchase, for less than it asks: an underpayment. The evidence is linked to the purchase's request and the
 * request is marked `review_reason: underpaid`, so the buyer sees the amount received beside the amount asked;
 * nothing is granted. The request stays AWAITING: it holds its amount only until it expires, like any open purchase
 * (a transfer of one unit must not park an amount for good), and a transfer of the full amount while it is open
 * still completes it. Returns the request id, or null when the transfer is not such a payment.
 */
export async function attributeUnderpayment(
  trx: Db,
  t: ObservedTransfer,
  evidenceId: string | number,
): Promise<string | null> {
  const solana = t.network === 'solana';
  const candidate = await trx('payment_requests as r')
    .join('platform_purchases as p', 'p.request_id', 'r.id')
    .where('r.merchant_id', PLATFORM_MERCHANT_ID)
    .where('r.network', t.network)
    .where('r.status', 'AWAITING')
    .whereRaw(solana ? 'r.pay_to = ?' : 'lower(r.pay_to) = ?', [solana ? t.to : t.to.toLowerCase()])
    .whereRaw(solana ? 'r.expected_payer = ?' : 'lower(r.expected_payer) = ?', [solana ? t.from : t.from.toLowerCase()])
    .where('r.amount_atomic', '>', t.amountAtomic.toString())
    .where('r.expires_at', '>=', t.blockTime)
    .where('r.created_at', '<=', latestPayableCreation(t))
    .orderBy('r.created_at', 'desc')
    .forUpdate()
    .first('r.id');
  if (!candidate) return null;
  await trx('payment_requests').where({ id: candidate.id, status: 'AWAITING' }).update({ review_reason: 'underpaid' });
  await trx('payment_evidence')
    .where({ id: evidenceId })
    .update({ request_id: candidate.id, decision: 'review', reason: 'underpaid' });
  return candidate.id;
}

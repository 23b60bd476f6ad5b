import { DomainError } from '../../domain/errors.js';
import { formatUsdc } from '../../domain/money.js';
import type { Network } from '../../domain/networks.js';
import type { PaidPlan } from '../../domain/proof/plans.js';
import { MAX_OPEN_PURCHASES_PER_BUYER, type SelfServiceConfig } from '../../domain/self-service.js';
import { payerAddressIssue } from '../../adapters/chains/wallet-address.js';
import type { Db } from '../../db/connection.js';
import {
  createPurchase,
  lockPurchaseBuyer,
  openPurchasesOf,
  type Purchase,
  type PurchaseBuyer,
} from '../../db/repositories/platform-purchases.repo.js';
import { effectiveStatus } from '../proof/payment-requests.js';
import { paymentPagePath } from '../../domain/proof/payment-page.js';
import { assertQuotable, noFreeAmount } from '../../domain/proof/matching-delta.js';

/**
 * Self-service purchases as the session routes show and start them (`/api/integrations/plan/purchases` for a
 * merchant's plan, `/api/company/credit-packs/purchases` for a company's credits): one view, one way to start one.
 */

export type PurchaseStatus = 'awaiting_payment' | 'paid' | 'underpaid' | 'review' | 'expired';
export const PURCHASE_STATUSES: readonly PurchaseStatus[] = [
  'awaiting_payment',
  'paid',
  'underpaid',
  'review',
  'expired',
];

/**
 * What the purchase's payment request and grant say: paid only once granted; an underpayment (its request stays open
 * until it expires, and is shown as underpaid from the first short transfer on) and any other review are shown as such.
 */
export function purchaseStatus(p: Purchase, now: Date): PurchaseStatus {
  if (p.grant) return 'paid';
  const status = effectiveStatus(p.request, now);
  if (p.reviewReason === 'underpaid') return 'underpaid';
  if (status === 'REVIEW') return 'review';
  if (status === 'AWAITING') return 'awaiting_payment';
  return 'expired';
}

export function purchaseJson(p: Purchase, origin: string, now: Date) {
  return {
    id: p.id,
    kind: p.kind,
    plan: p.grant?.plan ?? p.plan,
    pack: p.pack,
    credits: p.credits === null ? null : p.credits.toString(),
    status: purchaseStatus(p, now),
    network: p.request.network,
    pay_to: p.request.payTo,
    payer: p.request.expectedPayer,
    price_usdc: formatUsdc(p.request.quotedAmountAtomic),
    amount_atomic: p.request.amountAtomic.toString(),
    amount_usdc: formatUsdc(p.request.amountAtomic),
    received_atomic: p.receivedAtomic.toString(),
    payment_url: `${origin}${paymentPagePath(p.request.id)}`,
    request_id: p.request.id,
    review_reason: p.grant ? null : p.reviewReason,
    tx_hash: p.grant?.txHash ?? p.request.txHash,
    paid_at: p.grant?.grantedAt.toISOString() ?? null,
    period_start: p.grant?.periodStart?.toISOString() ?? null,
    period_end: p.grant?.periodEnd?.toISOString() ?? null,
    expires_at: p.request.expiresAt.toISOString(),
    created_at: p.createdAt.toISOString(),
  };
}

/** The networks the platform sells on (those with a receiving wallet). */
export const purchaseNetworks = (cfg: SelfServiceConfig): Network[] => Object.keys(cfg.platformWallets) as Network[];

/**
 * Starts a purchase in the caller's transaction: the platform must have a receiving wallet on `network`
 * (`purchase_unavailable` otherwise), the payer must be a wallet that can pay on it (422 naming `payer`).
 */
export async function startPurchase(
  trx: Db,
  cfg: SelfServiceConfig,
  input: {
    buyer: PurchaseBuyer;
    network: Network;
    payer: string;
    priceAtomic: bigint;
    description: string;
    plan?: PaidPlan;
    pack?: { id: string; credits: bigint };
  },
  now: Date,
): Promise<Purchase> {
  const walletAddress = cfg.platformWallets[input.network];
  if (!walletAddress) throw purchaseUnavailable(input.network, purchaseNetworks(cfg));
  const payerIssue = payerAddressIssue(input.network, input.payer);
  if (payerIssue)
    throw new DomainError('validation_failed', `payer: ${payerIssue}`, {
      issues: [{ path: 'payer', message: payerIssue }],
    });
  // One buyer holds at most a few open purchases (each holds one of the matching amounts next to its price); the
  // buyer's row lock makes parallel purchases count one after another.
  if (!(await lockPurchaseBuyer(trx, input.buyer)))
    throw new DomainError('not_found', 'The buyer of this purchase does not exist');
  const open = await openPurchasesOf(trx, input.buyer, now);
  if (open.count >= MAX_OPEN_PURCHASES_PER_BUYER) {
    const when = open.firstExpiry ? `, or wait until one expires (the first at ${open.firstExpiry.toISOString()})` : '';
    throw new DomainError(
      'too_many_open_purchases',
      `This account has ${open.count} purchases awaiting payment or in review, the most one account may hold: pay one${when}; a purchase in review is settled by support`,
    );
  }
  assertQuotable(input.priceAtomic);
  const purchase = await createPurchase(trx, { ...input, walletAddress }, now);
  if ('noFreeAmount' in purchase) throw noFreeAmount();
  if ('unavailable' in purchase)
    throw new DomainError(
      'purchase_unavailable',
      `Self-service purchases are not available on ${input.network}: ${purchase.unavailable}; an operator must resolve it`,
      { issues: [{ path: 'network', message: 'not offered for purchases' }] },
    );
  return purchase;
}

/** The refusal when the platform has no receiving wallet on `network` (it names networks only, nothing secret). */
function purchaseUnavailable(network: Network, offered: readonly Network[]): DomainError {
  const where = offered.length
    ? `; available on: ${offered.join(', ')}`
    : '; no network is configured (PLATFORM_RECEIVING_WALLETS), so plans and credits are granted by an operator';
  return new DomainError('purchase_unavailable', `Self-service purchases are not available on ${network}${where}`, {
    issues: [{ path: 'network', message: 'not offered for purchases' }],
  });
}

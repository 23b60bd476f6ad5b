import { DomainError } from '../../domain/errors.js';
import { formatUsdc } from '../../domain/money.js';
import type { Network } from '../../domain/networks.js';
import type { PaidPlan } from '../../domain/proof/plans.js';
import type { SelfServiceConfig } from '../../domain/self-service.js';
import { payerAddressIssue } from '../../adapters/chains/wallet-address.js';
import type { Db } from '../../db/connection.js';
import { createPurchase, purchaseUnavailable, type Purchase, type PurchaseBuyer } from '../../db/repositories/platform-purchases.repo.js';
import { effectiveStatus, paymentPagePath } from '../proof/requests.handlers.js';

/**
 * Self-service purchases as the session routes show and start them (`/api/integrations/plan/purchases` for a
 * merchant's plan, `/api/company/credit-packs/purchases` for a company's credits): one view, one way to start one.
 */

export type PurchaseStatus = 'awaiting_payment' | 'paid' | 'underpaid' | 'review' | 'expired';
export const PURCHASE_STATUSES: readonly PurchaseStatus[] = ['awaiting_payment', 'paid', 'underpaid', 'review', 'expired'];

/** What the purchase's payment request and grant say: paid only once granted; an underpayment and any other review are shown as such. */
export function purchaseStatus(p: Purchase, now: Date): PurchaseStatus {
  if (p.grant) return 'paid';
  const status = effectiveStatus(p.request, now);
  if (status === 'REVIEW') return p.reviewReason === 'underpaid' ? 'underpaid' : 'review';
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
  input: { buyer: PurchaseBuyer; network: Network; payer: string; priceAtomic: bigint; description: string; plan?: PaidPlan; pack?: { id: string; credits: bigint } },
  now: Date,
): Promise<Purchase> {
  const walletAddress = cfg.platformWallets[input.network];
  if (!walletAddress) throw purchaseUnavailable(input.network, purchaseNetworks(cfg));
  const payerIssue = payerAddressIssue(input.network, input.payer);
  if (payerIssue) throw new DomainError('validation_failed', `payer: ${payerIssue}`, { issues: [{ path: 'payer', message: payerIssue }] });
  return createPurchase(trx, { ...input, walletAddress }, now);
}

import type { Network } from '../networks.js';
import type { RequestStatus } from './statuses.js';

/**
 * What the payment watcher decides for one confirmed incoming USDC transfer to a merchant wallet whose amount
 * equals an open request's `amount_atomic` (spec sections 3 and 6; our REVIEW rules are in docs/proof.md):
 * - PAID: the request is AWAITING, the transfer happened before `expires_at`, and either no `expected_payer`
 *   was given or the transfer came from it.
 * - REVIEW: the amount and wallet match, but the request's invoice was voided (VOIDED: the invoice can never be
 *   paid), the payer is not the expected one, or the transfer happened after the request expired. A person
 *   decides; REVIEW never confirms a payment.
 * - none: the request is already PAID or in REVIEW (a second payment of the same amount changes nothing; it is
 *   kept as evidence for the merchant).
 */
export type RequestState = RequestStatus;

export interface ObservedTransfer {
  network: Network;
  txHash: string;
  /**
   * Position of the transfer, unique within its transaction: EVM log index; Solana, its position among the
   * transaction's USDC transfers in execution order (outer and inner instructions; one instruction may make several).
   */
  logIndex: number;
  from: string;
  to: string;
  amountAtomic: bigint;
  blockNumber: number;
  blockTime: Date;
}

export interface MatchCandidate {
  status: RequestState;
  expectedPayer: string | null;
  expiresAt: Date;
}

export type ReviewReason = 'invoice_voided' | 'unexpected_payer' | 'after_expiry';
export type MatchDecision =
  { next: 'PAID' } | { next: 'REVIEW'; reason: ReviewReason } | { next: null; reason: 'already_settled' };

/**
 * A transfer can only pay a request that existed when it was made: a request created more than this after the
 * transfer's block time is never its match (a watcher catching up must not let an old transfer of a freed
 * amount pay a newer request). The margin absorbs block-time and server-clock skew.
 */
export const CREATED_BEFORE_TOLERANCE_MS = 5 * 60_000;

/** The latest `created_at` of a request that transfer `t` can pay. */
export const latestPayableCreation = (t: Pick<ObservedTransfer, 'blockTime'>): Date =>
  new Date(t.blockTime.getTime() + CREATED_BEFORE_TOLERANCE_MS);

/** EVM addresses compare case-insensitively (checksums are only a display form); Solana's are exact. */
export const sameAddress = (network: Network, a: string, b: string): boolean =>
  network === 'solana' ? a === b : a.toLowerCase() === b.toLowerCase();

export function decideMatch(request: MatchCandidate, t: ObservedTransfer): MatchDecision {
  if (request.status === 'PAID' || request.status === 'REVIEW') return { next: null, reason: 'already_settled' };
  if (request.status === 'VOIDED') return { next: 'REVIEW', reason: 'invoice_voided' };
  if (t.blockTime.getTime() > request.expiresAt.getTime()) return { next: 'REVIEW', reason: 'after_expiry' };
  if (request.expectedPayer && !sameAddress(t.network, request.expectedPayer, t.from))
    return { next: 'REVIEW', reason: 'unexpected_payer' };
  return { next: 'PAID' };
}

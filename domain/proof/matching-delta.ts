import { DomainError } from '../errors.js';

/**
 * Unique matching amounts (spec section 2): `amount_atomic = quoted_amount_atomic + delta`, with the delta in
 * 1..9,999 atomic units (0.000001 to 0.009999 USDC), chosen as the smallest delta whose amount no open
 * request of the same wallet uses. A payment of exactly the quoted amount therefore never matches by
 * accident, and the payer overpays by less than one cent.
 */
export const DELTA_MIN = 1n;
export const DELTA_MAX = 9_999n;

/**
 * The largest quote /proof accepts (a payment request's `amount_usdc`, an invoice's unit prices, fixed tax and
 * total): 10,000,000,000,000,000 USDC. Any quote up to it plus the largest delta stays within the amount grammar
 * (17 integer digits, `MAX_AMOUNT_ATOMIC` of domain/money.ts), so every amount the service answers matches its documented pattern.
 * A round figure, far above any real payment, keeps the rule easy to state and the OpenAPI pattern simple.
 */
export const MAX_QUOTED_ATOMIC = 10n ** 22n;
/** `MAX_QUOTED_ATOMIC` as the decimal string clients send. */
export const MAX_QUOTED_USDC = '10000000000000000';

/**
 * A quote /proof can give a matching amount to: above zero and at most MAX_QUOTED_ATOMIC (422 otherwise). The smallest
 * free delta itself is chosen in the statement that inserts the request, under the wallet lock
 * (the function of migration 20261205130000, called by db/repositories/payment-requests.repo.ts): this rule's one implementation.
 */
export const isQuotable = (quotedAtomic: bigint): boolean => quotedAtomic > 0n && quotedAtomic <= MAX_QUOTED_ATOMIC;

export function assertQuotable(quotedAtomic: bigint): void {
  if (!isQuotable(quotedAtomic)) {
    throw new DomainError(
      'validation_failed',
      `The amount must be greater than zero and at most ${MAX_QUOTED_USDC} USDC`,
    );
  }
}

/** The 422 when all 9,999 amounts next to a quote are held by open requests at the receiving address. */
export function noFreeAmount(): DomainError {
  return new DomainError(
    'validation_failed',
    'This wallet has too many open payment requests close to this amount; use another amount or wallet, or wait for some to be paid or expire',
  );
}

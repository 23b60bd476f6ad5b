import { DomainError } from '../errors.js';

/**
 * Unique matching amounts (spec section 2): `amount_atomic = quoted_amount_atomic + delta`, with the delta in
 * 1..9,999 atomic units (0.000001 to 0.009999 USDC), chosen as the smallest delta whose amount no open
 * request of the same wallet uses. A payment of exactly the quoted amount therefore never matches by
 * accident, and the payer overpays by less than one cent.
 */
export const DELTA_MIN = 1n;
export const DELTA_MAX = 9_999n;

/** The smallest free delta, or a 422 when all 9,999 amounts next to this quote are taken by open requests. */
export function chooseMatchingDelta(quotedAtomic: bigint, openAmounts: ReadonlySet<bigint>): bigint {
  for (let d = DELTA_MIN; d <= DELTA_MAX; d++) {
    if (!openAmounts.has(quotedAtomic + d)) return d;
  }
  throw new DomainError(
    'validation_failed',
    'This wallet has too many open payment requests close to this amount; use another amount or wallet, or wait for some to be paid or expire',
  );
}

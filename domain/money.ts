import { DomainError } from './errors.js';

/** USDC has 6 decimals: 1 USDC = 1,000,000 atomic units. Amounts are bigint in code, decimal strings in JSON. */
export const USDC_DECIMALS = 6;
const SCALE = 1_000_000n;

/**
 * The amount grammar of the verification interface: a positive decimal with 1-17 integer digits and an
 * optional fraction of 1-6 digits. No sign, no exponent, no spaces, no thousands separators; zero rejected.
 */
export const AMOUNT_PATTERN = /^(\d{1,17})(?:\.(\d{1,6}))?$/;
/** The largest amount of the grammar: 99999999999999999.999999 USDC. */
export const MAX_AMOUNT_ATOMIC = 10n ** 23n - 1n;

/** Atomic units of a string in the amount grammar (zero included), or null when it does not match. */
export function decimalToAtomic(raw: string): bigint | null {
  const m = AMOUNT_PATTERN.exec(raw);
  if (!m) return null;
  return BigInt(m[1]!) * SCALE + BigInt((m[2] ?? '').padEnd(USDC_DECIMALS, '0'));
}

/** Parses a positive amount in the grammar into atomic units; anything else is a validation error. */
export function parseUsdcAmount(raw: string): bigint {
  const atomic = decimalToAtomic(raw);
  if (atomic === null) {
    throw new DomainError(
      'validation_failed',
      'amount must be a positive decimal: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits',
    );
  }
  if (atomic === 0n) throw new DomainError('validation_failed', 'amount must be greater than zero');
  return atomic;
}

/** Exact decimal string with all six decimals, e.g. 1500000n -> "1.500000". */
export function formatUsdc(atomic: bigint): string {
  const negative = atomic < 0n;
  const abs = negative ? -atomic : atomic;
  const whole = abs / SCALE;
  const frac = (abs % SCALE).toString().padStart(USDC_DECIMALS, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

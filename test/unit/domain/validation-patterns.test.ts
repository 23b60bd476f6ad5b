import { describe, expect, it } from 'vitest';
import { decimalToAtomic } from '../../../domain/money.js';
import { MAX_QUOTED_ATOMIC } from '../../../domain/proof/matching-delta.js';
import { parseQuantity, parseTaxRate } from '../../../domain/proof/invoice-math.js';
import {
  CALENDAR_DATE,
  EMAIL,
  EMAIL_PATTERN,
  INVOICE_AMOUNT,
  POSITIVE_AMOUNT,
  QUANTITY,
  TAX_RATE,
  trimmedLength,
} from '../../../domain/validation/patterns.js';

/**
 * The patterns of domain/validation/patterns.ts are what the /proof validators now check and what the generated
 * OpenAPI documents state; each must accept exactly what the arithmetic it replaces in the validators accepted.
 */

/** A deterministic generator (mulberry32), so a failure is reproducible. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Decimal-looking strings: digits (many zeros and nines, a leading 1), at most one dot, the odd stray character. */
function decimals(count: number, seed: number): string[] {
  const next = random(seed);
  const pick = (chars: string) => chars[Math.floor(next() * chars.length)]!;
  const digits = (n: number) => Array.from({ length: n }, () => pick('0000099999123456789')).join('');
  const out = new Set<string>(['0', '1', '.5', '1.', '', ' 1', '1e3', '-1', '+1', '1.0.0']);
  while (out.size < count) {
    const int = Math.floor(next() * 19);
    const frac = Math.floor(next() * 9) - 1;
    let s = (next() < 0.3 ? '1' : '') + digits(int);
    if (frac >= 0) s += `.${digits(frac)}`;
    if (next() < 0.03) s = s.replace(/\d/, pick('a -+e'));
    out.add(s);
  }
  return [...out];
}

const AMOUNTS = [
  ...decimals(20_000, 1),
  '10000000000000000',
  '10000000000000000.000000',
  '10000000000000000.000001',
  '10000000000000001',
  '09999999999999999.999999',
  '99999999999999999.999999',
  '00000000000000000',
];

describe('the amount patterns', () => {
  it('POSITIVE_AMOUNT: in the grammar, not zero, at most MAX_QUOTED_USDC (the old refinements of amount_usdc)', () => {
    for (const s of AMOUNTS) {
      const atomic = decimalToAtomic(s);
      expect(POSITIVE_AMOUNT.test(s), s).toBe(atomic !== null && atomic !== 0n && atomic <= MAX_QUOTED_ATOMIC);
    }
  });
  it('INVOICE_AMOUNT: the same with zero (isInvoiceAmount)', () => {
    for (const s of AMOUNTS) {
      const atomic = decimalToAtomic(s);
      expect(INVOICE_AMOUNT.test(s), s).toBe(atomic !== null && atomic <= MAX_QUOTED_ATOMIC);
    }
  });
  it('QUANTITY is parseQuantity, TAX_RATE is parseTaxRate', () => {
    for (const s of [...decimals(20_000, 2), '1000000', '1000000.000001', '0000000', '01000000', '100.0001', '000']) {
      expect(QUANTITY.test(s), s).toBe(parseQuantity(s) !== null);
      expect(TAX_RATE.test(s), s).toBe(parseTaxRate(s) !== null);
    }
  });
});

describe('the text patterns', () => {
  it('trimmedLength counts the trimmed value, whatever whitespace surrounds it', () => {
    const next = random(3);
    const chars = ['a', ' ', '\t', '\n', '\u00a0', '\u2028', 'é', '\ufeff'];
    for (const [min, max] of [
      [0, 5],
      [1, 5],
      [3, 8],
    ] as const) {
      const pattern = trimmedLength(min, max);
      for (let i = 0; i < 5000; i++) {
        const s = Array.from({ length: Math.floor(next() * 14) }, () => chars[Math.floor(next() * chars.length)]).join(
          '',
        );
        const n = s.trim().length;
        expect(pattern.test(s), JSON.stringify(s)).toBe(n >= min && n <= max);
      }
    }
  });
  it('EMAIL is the trimmed address matching EMAIL_PATTERN with a local part of at most 64 characters', () => {
    for (const s of [
      'a@b.example',
      ' a@b.example\t',
      `${'x'.repeat(64)}@b.example`,
      `${'x'.repeat(65)}@b.example`,
      ` ${'x'.repeat(64)}@b.example `,
      'a@b',
      'a b@c.example',
      'a@x.example@y.example',
      '@b.example',
    ]) {
      const t = s.trim();
      expect(EMAIL.test(s), s).toBe(EMAIL_PATTERN.test(t) && t.indexOf('@') <= 64);
    }
  });
});

describe('CALENDAR_DATE', () => {
  it('is every real day of years 0001 to 9999 and nothing else', () => {
    const days = (y: number, m: number) =>
      m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    for (const y of [0, 1, 4, 100, 200, 400, 1600, 1700, 1900, 2000, 2024, 2025, 2100, 2400, 9996, 9999]) {
      for (let m = 0; m <= 13; m++) {
        for (let d = 0; d <= 32; d++) {
          const s = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          expect(CALENDAR_DATE.test(s), s).toBe(y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= days(y, m));
        }
      }
    }
    for (const s of ['2026-1-01', ' 2026-01-01', '2026-01-01 ', '20260101', '2026-01-001'])
      expect(CALENDAR_DATE.test(s)).toBe(false);
  });
});

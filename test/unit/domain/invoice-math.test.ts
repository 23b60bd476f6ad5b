import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../domain/errors.js';
import { decimalToAtomic, formatUsdc, MAX_AMOUNT_ATOMIC } from '../../../domain/money.js';
import { DELTA_MAX, MAX_QUOTED_ATOMIC } from '../../../domain/proof/matching-delta.js';
import {
  MAX_INVOICE_TOTAL_ATOMIC,
  computeInvoiceTotals,
  evaluateInvoiceTotals,
  formatInvoiceTotals,
  formatQuantity,
  formatTaxRate,
  parseQuantity,
  parseTaxRate,
  roundHalfUp,
  type InvoiceTotalsInput,
  type TaxMode,
} from '../../../domain/proof/invoice-math.js';

const item = (quantity: string, unit_usdc: string, description = 'Work') => ({ description, quantity, unit_usdc });
const one = (unit_usdc: string) => [item('1', unit_usdc)];
const issuesOf = (input: InvoiceTotalsInput) => evaluateInvoiceTotals(input).issues.map((i) => i.path);

describe('half-up rounding at 0.000001 USDC', () => {
  it.each([
    [0n, 7n, 0n],
    [1n, 2n, 1n],
    [3n, 2n, 2n],
    [5n, 2n, 3n],
    [4n, 10n, 0n],
    [5n, 10n, 1n],
    [14n, 10n, 1n],
    [15n, 10n, 2n],
    [25n, 10n, 3n],
    [2n, 3n, 1n],
    [1n, 3n, 0n],
  ])('roundHalfUp(%i / %i) = %i', (num, den, expected) => {
    expect(roundHalfUp(num, den)).toBe(expected);
  });

  it.each([
    ['1', '1', 1_000_000n],
    ['0.5', '0.000001', 1n], // 0.5 atomic rounds up
    ['0.499999', '0.000001', 0n],
    ['0.500001', '0.000001', 1n],
    ['1.5', '0.000003', 5n], // 4.5 -> 5
    ['2.5', '0.000001', 3n], // half-up, not half-even (which would give 2)
    ['1.000001', '0.5', 500_001n], // 500,000.5 -> 500,001
    ['3', '0.333333', 999_999n],
    ['0.333333', '1', 333_333n],
    ['1000000', '0.000001', 1_000_000n],
    ['0.000001', '1000000', 1_000_000n],
    ['2', '10.50', 21_000_000n],
    ['007', '1.0', 7_000_000n],
  ])('line %s × %s USDC = %i atomic', (quantity, unit, expected) => {
    const t = computeInvoiceTotals({ items: [item(quantity, unit), item('1', '1')] });
    expect(t.lines[0]!.line_total_atomic).toBe(expected);
    expect(t.subtotal_atomic).toBe(expected + 1_000_000n);
  });

  it('rounds per line, not on the sum: 100 lines of 0.999999 atomic are 100 atomic', () => {
    const t = computeInvoiceTotals({
      items: Array.from({ length: 100 }, (_, i) => item('0.333333', '0.000003', `Line ${i}`)),
    });
    expect(t.lines).toHaveLength(100);
    expect(t.lines.every((l) => l.line_total_atomic === 1n)).toBe(true);
    expect(t.subtotal_atomic).toBe(100n);
    expect(t.lines[99]!.description).toBe('Line 99');
  });
});

describe('tax modes', () => {
  it.each<[string, TaxMode | undefined, string | undefined, string | undefined, string, bigint, bigint, bigint]>([
    // label, mode, rate, tax_usdc, unit (one item), subtotal, tax, total
    ['none by default', undefined, undefined, undefined, '100', 100_000_000n, 0n, 100_000_000n],
    ['none explicit', 'none', undefined, undefined, '100', 100_000_000n, 0n, 100_000_000n],
    ['exclusive 19%', 'exclusive', '19', undefined, '100', 100_000_000n, 19_000_000n, 119_000_000n],
    ['exclusive 7.5%', 'exclusive', '7.5', undefined, '10', 10_000_000n, 750_000n, 10_750_000n],
    ['exclusive 0%', 'exclusive', '0', undefined, '10', 10_000_000n, 0n, 10_000_000n],
    ['exclusive 100%', 'exclusive', '100', undefined, '10', 10_000_000n, 10_000_000n, 20_000_000n],
    [
      'exclusive 0.0001% of 10,000',
      'exclusive',
      '0.0001',
      undefined,
      '10000',
      10_000_000_000n,
      10_000n,
      10_000_010_000n,
    ],
    ['exclusive 10% of 5 atomic: 0.5 -> 1', 'exclusive', '10', undefined, '0.000005', 5n, 1n, 6n],
    ['exclusive 10% of 4 atomic: 0.4 -> 0', 'exclusive', '10', undefined, '0.000004', 4n, 0n, 4n],
    ['exclusive 10% of 25 atomic: 2.5 -> 3', 'exclusive', '10', undefined, '0.000025', 25n, 3n, 28n],
    ['inclusive 19% of 119', 'inclusive', '19', undefined, '119', 119_000_000n, 19_000_000n, 119_000_000n],
    [
      'inclusive 19% of 100: net 84.033613',
      'inclusive',
      '19',
      undefined,
      '100',
      100_000_000n,
      15_966_387n,
      100_000_000n,
    ],
    ['inclusive 7.5% of 10: net 9.302326', 'inclusive', '7.5', undefined, '10', 10_000_000n, 697_674n, 10_000_000n],
    ['inclusive 100% of 1 atomic: net 0.5 -> 1', 'inclusive', '100', undefined, '0.000001', 1n, 0n, 1n],
    ['inclusive 100% of 3 atomic: net 1.5 -> 2', 'inclusive', '100', undefined, '0.000003', 3n, 1n, 3n],
    ['inclusive 0%', 'inclusive', '0', undefined, '10', 10_000_000n, 0n, 10_000_000n],
    ['fixed 1.5', 'fixed', undefined, '1.5', '10', 10_000_000n, 1_500_000n, 11_500_000n],
    ['fixed 0', 'fixed', undefined, '0', '10', 10_000_000n, 0n, 10_000_000n],
  ])('%s', (_label, tax_mode, tax_rate, tax_usdc, unit, subtotal, tax, total) => {
    const t = computeInvoiceTotals({ items: one(unit), tax_mode, tax_rate, tax_usdc });
    expect([t.subtotal_atomic, t.tax_atomic, t.total_atomic]).toEqual([subtotal, tax, total]);
    expect(t.tax_mode).toBe(tax_mode ?? 'none');
  });

  it('reports the normalized rate for rate modes only', () => {
    expect(computeInvoiceTotals({ items: one('1'), tax_mode: 'exclusive', tax_rate: '7.50' }).tax_rate).toBe('7.5');
    expect(computeInvoiceTotals({ items: one('1'), tax_mode: 'inclusive', tax_rate: '019.0000' }).tax_rate).toBe('19');
    expect(computeInvoiceTotals({ items: one('1'), tax_mode: 'fixed', tax_usdc: '1' }).tax_rate).toBeNull();
    expect(computeInvoiceTotals({ items: one('1') }).tax_rate).toBeNull();
  });

  it('inclusive back-calculation: net + tax = total, and net × (1 + rate) is within half an atomic unit per rounding', () => {
    let seed = 42;
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    for (let k = 0; k < 300; k++) {
      const unit = `${next(5000)}.${String(next(1_000_000)).padStart(6, '0')}`;
      const rate = `${next(101)}${next(2) ? `.${next(10_000)}` : ''}`;
      if (Number(rate) > 100) continue;
      const t = computeInvoiceTotals({
        items: [item('1', unit), item('1', '0.000001')],
        tax_mode: 'inclusive',
        tax_rate: rate,
      });
      const ppm = parseTaxRate(rate)!;
      const net = t.total_atomic - t.tax_atomic;
      expect(t.total_atomic).toBe(t.subtotal_atomic);
      // |net - subtotal / (1 + r)| <= 1/2  <=>  |2 net (1e6 + ppm) - 2 subtotal 1e6| <= 1e6 + ppm
      const diff = 2n * net * (1_000_000n + ppm) - 2n * t.subtotal_atomic * 1_000_000n;
      expect(diff <= 1_000_000n + ppm && -diff <= 1_000_000n + ppm).toBe(true);
      const ex = computeInvoiceTotals({
        items: [item('1', unit), item('1', '0.000001')],
        tax_mode: 'exclusive',
        tax_rate: rate,
      });
      const exDiff = 2n * ex.tax_atomic * 1_000_000n - 2n * ex.subtotal_atomic * ppm;
      expect(exDiff <= 1_000_000n && -exDiff <= 1_000_000n).toBe(true);
    }
  });

  it.each<[TaxMode | undefined, string | undefined, string | undefined, string[]]>([
    ['exclusive', undefined, undefined, ['tax_rate']],
    ['inclusive', undefined, '1', ['tax_rate', 'tax_usdc']],
    ['fixed', undefined, undefined, ['tax_usdc']],
    ['fixed', '19', '1', ['tax_rate']],
    ['none', '19', undefined, ['tax_rate']],
    [undefined, undefined, '1', ['tax_usdc']],
    [undefined, '19', '1', ['tax_rate', 'tax_usdc']],
  ])('mode %s with rate %s and tax_usdc %s -> issues at %j', (tax_mode, tax_rate, tax_usdc, paths) => {
    expect(issuesOf({ items: one('1'), tax_mode, tax_rate, tax_usdc })).toEqual(paths);
  });
});

describe('grammar, zero and bounds', () => {
  it.each([
    '0',
    '0.000000',
    '-1',
    '1e3',
    '1000000.000001',
    '1000001',
    '1.1234567',
    '',
    ' 1',
    '1,5',
    '.5',
    '1.',
    '+1',
    '10000000',
  ])('quantity %j is rejected', (q) => {
    expect(parseQuantity(q)).toBeNull();
    expect(issuesOf({ items: [item(q, '1')] })).toEqual(['items.0.quantity']);
  });

  it.each([
    ['1', 1_000_000n, '1'],
    ['1.500', 1_500_000n, '1.5'],
    ['0.000001', 1n, '0.000001'],
    ['1000000', 1_000_000_000_000n, '1000000'],
    ['0010.10', 10_100_000n, '10.1'],
  ])('quantity %j = %i millionths, shown as %s', (raw, micro, shown) => {
    expect(parseQuantity(raw)).toBe(micro);
    expect(formatQuantity(micro)).toBe(shown);
  });

  it.each(['1.1234567', '-1', '1e2', '', '1,00', '123456789012345678'])('unit_usdc %j is rejected', (u) => {
    expect(issuesOf({ items: [item('1', '1'), item('1', u)] })).toEqual(['items.1.unit_usdc']);
  });

  it.each([
    ['0', 0n, '0'],
    ['19', 190_000n, '19'],
    ['7.5', 75_000n, '7.5'],
    ['7.50', 75_000n, '7.5'],
    ['0.0001', 1n, '0.0001'],
    ['100', 1_000_000n, '100'],
    ['100.0000', 1_000_000n, '100'],
  ])('tax_rate %j = %i millionths, shown as %s', (raw, ppm, shown) => {
    expect(parseTaxRate(raw)).toBe(ppm);
    expect(formatTaxRate(ppm)).toBe(shown);
  });

  it.each(['100.0001', '101', '7.12345', '-1', 'abc', '', '19%', '1000'])('tax_rate %j is rejected', (r) => {
    expect(parseTaxRate(r)).toBeNull();
    expect(issuesOf({ items: one('1'), tax_mode: 'exclusive', tax_rate: r })).toEqual(['tax_rate']);
  });

  it('rejects a malformed tax_usdc in fixed mode', () => {
    expect(issuesOf({ items: one('1'), tax_mode: 'fixed', tax_usdc: '-1' })).toEqual(['tax_usdc']);
  });

  it('allows a zero-priced line only while the total stays above zero', () => {
    expect(computeInvoiceTotals({ items: [item('1', '0'), item('1', '0.000001')] }).total_atomic).toBe(1n);
    expect(issuesOf({ items: [item('1', '0')] })).toEqual(['items']);
    expect(issuesOf({ items: [item('0.000001', '0.499999')] })).toEqual(['items']); // rounds to 0
    expect(issuesOf({ items: [item('1', '0')], tax_mode: 'inclusive', tax_rate: '19' })).toEqual(['items']);
    expect(computeInvoiceTotals({ items: [item('1', '0')], tax_mode: 'fixed', tax_usdc: '0.5' }).total_atomic).toBe(
      500_000n,
    );
    expect(issuesOf({ items: [] })).toEqual(['items']);
  });

  it('accepts a total of exactly the largest quote and rejects one atomic unit more; the total plus any delta stays in the grammar', () => {
    const max = '10000000000000000';
    expect(MAX_INVOICE_TOTAL_ATOMIC).toBe(MAX_QUOTED_ATOMIC);
    expect(MAX_QUOTED_ATOMIC + DELTA_MAX).toBeLessThanOrEqual(MAX_AMOUNT_ATOMIC);
    expect(decimalToAtomic(formatUsdc(MAX_QUOTED_ATOMIC + DELTA_MAX))).toBe(MAX_QUOTED_ATOMIC + DELTA_MAX);
    expect(computeInvoiceTotals({ items: one(max) }).total_atomic).toBe(MAX_INVOICE_TOTAL_ATOMIC);
    expect(computeInvoiceTotals({ items: one(max), tax_mode: 'inclusive', tax_rate: '19' }).total_atomic).toBe(
      MAX_INVOICE_TOTAL_ATOMIC,
    );
    expect(issuesOf({ items: [item('1', max), item('1', '0.000001')] })).toEqual(['items']);
    expect(issuesOf({ items: one(max), tax_mode: 'fixed', tax_usdc: '0.000001' })).toEqual(['items']);
    expect(issuesOf({ items: one(max), tax_mode: 'exclusive', tax_rate: '0.0001' })).toEqual(['items']);
    expect(issuesOf({ items: [item('1000000', '9999999999.999999')] })).toEqual([]);
    expect(issuesOf({ items: [item('1000000', '10000000000.000001')] })).toEqual(['items']);
    // Unit prices and fixed tax are bounded like totals (a small quantity cannot carry a larger unit).
    expect(issuesOf({ items: [item('0.5', `${max}.000001`)] })).toEqual(['items.0.unit_usdc']);
    expect(issuesOf({ items: one('1'), tax_mode: 'fixed', tax_usdc: `${max}.000001` })).toEqual(['tax_usdc']);
  });

  it('computeInvoiceTotals throws validation_failed listing every issue', () => {
    try {
      computeInvoiceTotals({ items: [item('0', 'x'), item('2', '1')], tax_mode: 'exclusive' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('validation_failed');
      const issues = (e as DomainError).details['issues'] as Array<{ path: string }>;
      expect(issues.map((i) => i.path)).toEqual(['tax_rate', 'items.0.quantity', 'items.0.unit_usdc']);
    }
  });
});

describe('formatting', () => {
  it('prints six-decimal USDC strings and integer atomic strings', () => {
    const t = computeInvoiceTotals({
      items: [item('1.5', '3', 'Design'), item('2', '0.25')],
      tax_mode: 'exclusive',
      tax_rate: '19',
    });
    expect(formatInvoiceTotals(t)).toEqual({
      lines: [
        {
          description: 'Design',
          quantity: '1.5',
          unit_usdc: '3.000000',
          unit_atomic: '3000000',
          line_total_usdc: '4.500000',
          line_total_atomic: '4500000',
        },
        {
          description: 'Work',
          quantity: '2',
          unit_usdc: '0.250000',
          unit_atomic: '250000',
          line_total_usdc: '0.500000',
          line_total_atomic: '500000',
        },
      ],
      subtotal_usdc: '5.000000',
      subtotal_atomic: '5000000',
      tax_usdc: '0.950000',
      tax_atomic: '950000',
      total_usdc: '5.950000',
      total_atomic: '5950000',
      tax_mode: 'exclusive',
      tax_rate: '19',
    });
  });
});

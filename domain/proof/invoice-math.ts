import { DomainError } from '../errors.js';
import { decimalToAtomic, formatUsdc } from '../money.js';
import { MAX_QUOTED_ATOMIC, MAX_QUOTED_USDC } from './matching-delta.js';

/**
 * Exact invoice arithmetic in integer atomic USDC (1 USDC = 1,000,000 atomic units), never floats.
 *
 * Rounding: half-up (ties away from zero; every value here is non-negative) at the atomic unit,
 * 0.000001 USDC, applied per line and then once on the tax:
 *   line_total = round_half_up(quantity × unit)                      per line
 *   subtotal   = Σ line_total                                        exact, no rounding
 *   exclusive: tax = round_half_up(subtotal × rate);                  total = subtotal + tax
 *   inclusive: tax = subtotal − round_half_up(subtotal / (1 + rate)); total = subtotal
 *   fixed:     tax = tax_usdc (exact);                                total = subtotal + tax
 *   none:      tax = 0;                                               total = subtotal
 * Quantities carry up to 6 fraction digits (held as millionths) and percentages up to 4 (held as
 * millionths of 1, so 100% = 1,000,000), so every step is one exact integer division.
 */
export type TaxMode = 'none' | 'exclusive' | 'inclusive' | 'fixed';
export const TAX_MODES: readonly TaxMode[] = ['none', 'exclusive', 'inclusive', 'fixed'];

const MILLION = 1_000_000n;
/** Quantities are held in millionths: 1 = 1,000,000. */
export const MAX_QUANTITY_MICRO = 1_000_000n * MILLION;
/**
 * The largest total, unit price and fixed tax: the largest quote of a payment request (`MAX_QUOTED_ATOMIC`,
 * 10,000,000,000,000,000 USDC), so the total plus its matching delta stays within the amount grammar.
 */
export const MAX_INVOICE_TOTAL_ATOMIC = MAX_QUOTED_ATOMIC;
/** A unit price or fixed tax in the grammar and at most the maximum (zero allowed). */
export const isInvoiceAmount = (raw: string): boolean => {
  const atomic = decimalToAtomic(raw);
  return atomic !== null && atomic <= MAX_INVOICE_TOTAL_ATOMIC;
};

const QUANTITY_PATTERN = /^(\d{1,7})(?:\.(\d{1,6}))?$/;
const TAX_RATE_PATTERN = /^(\d{1,3})(?:\.(\d{1,4}))?$/;

export interface InvoiceItemInput {
  description: string;
  quantity: string;
  unit_usdc: string;
}

export interface InvoiceTotalsInput {
  items: readonly InvoiceItemInput[];
  tax_mode?: TaxMode | undefined;
  tax_rate?: string | undefined;
  tax_usdc?: string | undefined;
}

export interface InvoiceLine {
  description: string;
  /** Normalized decimal string, e.g. "1.5" for "1.500". */
  quantity: string;
  unit_atomic: bigint;
  line_total_atomic: bigint;
}

export interface InvoiceTotals {
  lines: InvoiceLine[];
  subtotal_atomic: bigint;
  tax_atomic: bigint;
  total_atomic: bigint;
  tax_mode: TaxMode;
  /** Normalized percentage ("19", "7.5") for exclusive and inclusive; null otherwise. */
  tax_rate: string | null;
}

/** Same shape as the body issues of `validation_failed` errors. */
export interface InvoiceIssue {
  path: string;
  message: string;
}

/** Round half-up of num / den for num >= 0, den > 0. */
export function roundHalfUp(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}

/** A quantity in millionths, or null unless it is a decimal > 0 and <= 1,000,000 with up to 6 fraction digits. */
export function parseQuantity(raw: string): bigint | null {
  const m = QUANTITY_PATTERN.exec(raw);
  if (!m) return null;
  const micro = BigInt(m[1]!) * MILLION + BigInt((m[2] ?? '').padEnd(6, '0'));
  return micro > 0n && micro <= MAX_QUANTITY_MICRO ? micro : null;
}

/** A percentage 0 to 100 with up to 4 fraction digits, as millionths of 1 ("19" -> 190,000), or null. */
export function parseTaxRate(raw: string): bigint | null {
  const m = TAX_RATE_PATTERN.exec(raw);
  if (!m) return null;
  const ppm = BigInt(m[1]!) * 10_000n + BigInt((m[2] ?? '').padEnd(4, '0'));
  return ppm <= MILLION ? ppm : null;
}

/** Shortest decimal of a fixed-point value: 1,500,000 at 6 digits -> "1.5". */
function trimDecimal(value: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const frac = (value % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return frac ? `${value / scale}.${frac}` : `${value / scale}`;
}

export const formatQuantity = (micro: bigint): string => trimDecimal(micro, 6);
export const formatTaxRate = (ppm: bigint): string => trimDecimal(ppm, 4);

export const QUANTITY_MESSAGE =
  'quantity must be a decimal string greater than 0 and at most 1000000, with up to 6 fraction digits';
export const UNIT_MESSAGE = `unit_usdc must be a decimal string of at most ${MAX_QUOTED_USDC} USDC: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits`;
export const TAX_RATE_MESSAGE =
  'tax_rate must be a percentage from 0 to 100 with up to 4 fraction digits, e.g. "19" or "7.5"';
export const TAX_USDC_MESSAGE = `tax_usdc must be a decimal string of at most ${MAX_QUOTED_USDC} USDC: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits`;

/** Which tax fields a mode requires and forbids: tax_rate for exclusive/inclusive only, tax_usdc for fixed only. */
export function taxFieldIssues(mode: TaxMode, present: { tax_rate: boolean; tax_usdc: boolean }): InvoiceIssue[] {
  const issues: InvoiceIssue[] = [];
  const wantsRate = mode === 'exclusive' || mode === 'inclusive';
  if (wantsRate && !present.tax_rate)
    issues.push({ path: 'tax_rate', message: `tax_rate is required when tax_mode is ${mode}` });
  if (!wantsRate && present.tax_rate)
    issues.push({ path: 'tax_rate', message: 'tax_rate is only accepted when tax_mode is exclusive or inclusive' });
  if (mode === 'fixed' && !present.tax_usdc)
    issues.push({ path: 'tax_usdc', message: 'tax_usdc is required when tax_mode is fixed' });
  if (mode !== 'fixed' && present.tax_usdc)
    issues.push({ path: 'tax_usdc', message: 'tax_usdc is only accepted when tax_mode is fixed' });
  return issues;
}

/** Computes the totals, or lists every numeric problem (grammar, tax fields, total out of bounds). */
export function evaluateInvoiceTotals(input: InvoiceTotalsInput): {
  totals: InvoiceTotals | null;
  issues: InvoiceIssue[];
} {
  const mode: TaxMode = input.tax_mode ?? 'none';
  const issues = taxFieldIssues(mode, {
    tax_rate: input.tax_rate !== undefined,
    tax_usdc: input.tax_usdc !== undefined,
  });
  const lines: InvoiceLine[] = [];
  input.items.forEach((item, i) => {
    const qty = parseQuantity(item.quantity);
    const unit = isInvoiceAmount(item.unit_usdc) ? decimalToAtomic(item.unit_usdc) : null;
    if (qty === null) issues.push({ path: `items.${i}.quantity`, message: QUANTITY_MESSAGE });
    if (unit === null) issues.push({ path: `items.${i}.unit_usdc`, message: UNIT_MESSAGE });
    if (qty !== null && unit !== null) {
      lines.push({
        description: item.description,
        quantity: formatQuantity(qty),
        unit_atomic: unit,
        line_total_atomic: roundHalfUp(qty * unit, MILLION),
      });
    }
  });
  const rate =
    mode === 'exclusive' || mode === 'inclusive'
      ? input.tax_rate === undefined
        ? null
        : parseTaxRate(input.tax_rate)
      : null;
  if (rate === null && input.tax_rate !== undefined && (mode === 'exclusive' || mode === 'inclusive')) {
    issues.push({ path: 'tax_rate', message: TAX_RATE_MESSAGE });
  }
  const fixed =
    mode === 'fixed' && input.tax_usdc !== undefined && isInvoiceAmount(input.tax_usdc)
      ? decimalToAtomic(input.tax_usdc)
      : null;
  if (mode === 'fixed' && input.tax_usdc !== undefined && fixed === null)
    issues.push({ path: 'tax_usdc', message: TAX_USDC_MESSAGE });
  if (input.items.length === 0) issues.push({ path: 'items', message: 'an invoice needs at least one item' });
  if (issues.length) return { totals: null, issues };

  const subtotal = lines.reduce((sum, l) => sum + l.line_total_atomic, 0n);
  let tax = 0n;
  if (mode === 'exclusive') tax = roundHalfUp(subtotal * rate!, MILLION);
  if (mode === 'inclusive') tax = subtotal - roundHalfUp(subtotal * MILLION, MILLION + rate!);
  if (mode === 'fixed') tax = fixed!;
  const total = mode === 'inclusive' ? subtotal : subtotal + tax;
  if (total <= 0n) issues.push({ path: 'items', message: 'the invoice total must be greater than zero' });
  if (total > MAX_INVOICE_TOTAL_ATOMIC) {
    issues.push({ path: 'items', message: `the invoice total must be at most ${MAX_QUOTED_USDC} USDC` });
  }
  if (issues.length) return { totals: null, issues };
  return {
    totals: {
      lines,
      subtotal_atomic: subtotal,
      tax_atomic: tax,
      total_atomic: total,
      tax_mode: mode,
      tax_rate: rate === null ? null : formatTaxRate(rate),
    },
    issues,
  };
}

/** The totals of a valid invoice; anything else is a 422 `validation_failed` listing every issue. */
export function computeInvoiceTotals(input: InvoiceTotalsInput): InvoiceTotals {
  const { totals, issues } = evaluateInvoiceTotals(input);
  if (!totals) {
    throw new DomainError(
      'validation_failed',
      `Invalid invoice: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      { issues },
    );
  }
  return totals;
}

export interface FormattedInvoiceLine {
  description: string;
  quantity: string;
  unit_usdc: string;
  unit_atomic: string;
  line_total_usdc: string;
  line_total_atomic: string;
}

export interface FormattedInvoiceTotals {
  lines: FormattedInvoiceLine[];
  subtotal_usdc: string;
  subtotal_atomic: string;
  tax_usdc: string;
  tax_atomic: string;
  total_usdc: string;
  total_atomic: string;
  tax_mode: TaxMode;
  tax_rate: string | null;
}

/** JSON-safe form: `_usdc` as six-decimal strings (formatUsdc), `_atomic` as integer strings. */
export function formatInvoiceTotals(t: InvoiceTotals): FormattedInvoiceTotals {
  return {
    lines: t.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit_usdc: formatUsdc(l.unit_atomic),
      unit_atomic: l.unit_atomic.toString(),
      line_total_usdc: formatUsdc(l.line_total_atomic),
      line_total_atomic: l.line_total_atomic.toString(),
    })),
    subtotal_usdc: formatUsdc(t.subtotal_atomic),
    subtotal_atomic: t.subtotal_atomic.toString(),
    tax_usdc: formatUsdc(t.tax_atomic),
    tax_atomic: t.tax_atomic.toString(),
    total_usdc: formatUsdc(t.total_atomic),
    total_atomic: t.total_atomic.toString(),
    tax_mode: t.tax_mode,
    tax_rate: t.tax_rate,
  };
}

import { z } from 'zod';
import { idRegex } from '../ids.js';
import { DomainError } from '../errors.js';
import {
  QUANTITY_MESSAGE,
  TAX_MODES,
  TAX_RATE_MESSAGE,
  TAX_USDC_MESSAGE,
  UNIT_MESSAGE,
  evaluateInvoiceTotals,
  isInvoiceAmount,
  parseQuantity,
  parseTaxRate,
  taxFieldIssues,
  type InvoiceIssue,
  type InvoiceItemInput,
  type InvoiceTotals,
  type TaxMode,
} from '../proof/invoice-math.js';

/**
 * Bodies of `POST /proof/v1/invoices` and `POST /proof/v1/contacts` (spec section 2), validated strictly: unknown
 * fields are rejected and every problem is reported at once as 422 `validation_failed` with `issues`.
 *
 * Choices where the spec says only "follow merchant invoice validation":
 * - `accounting` is a strict object of optional `reference`, `cost_center`, `ledger_account` (each at most 120
 *   characters): a small fixed set keeps buyer-visible documents predictable; an unknown key is an error.
 * - Optional free-text fields are trimmed; an empty result counts as absent (clients often send "").
 * - `null` counts as absent for every optional field a response shows as `null` (`tax_rate`, `tax_notes`,
 *   `accounting`, `memo`; a contact's `address` and `reference`), so a client may send back what it read.
 * - `send_now` may be given only as `false`: sending needs `POST /v1/invoices/{id}/send` with user approval.
 * - Dates are real calendar dates (`2026-02-30` is rejected); whether a due date may lie in the past is left
 *   to the caller, which owns the clock.
 */
export const SEND_NOW_MESSAGE =
  'send_now must be false: an invoice is never sent on creation; send it with POST /v1/invoices/{id}/send and {"user_approved": true} after the user approves';

const required = (name: string, what = 'a string') => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? `${name} is required` : `${name} must be ${what}`),
});

const prefixedId = (name: string, prefix: string, what: string) =>
  z
    .string(required(name))
    .regex(idRegex(prefix), `${name} must be ${what}: ${prefix}_ followed by 20 letters or digits`);

/** Trimmed text of 1..max characters (required). */
const text = (name: string, max: number) =>
  z
    .string(required(name))
    .trim()
    .min(1, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`);

/** Trimmed optional text of at most max characters; empty means absent. */
const optionalText = (name: string, max: number) =>
  z
    .string(required(name))
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .transform((s) => s || undefined)
    .optional();

/** `optionalText` that also takes null as absent (a field responses show as null). */
const nullableText = (name: string, max: number) =>
  z
    .string(required(name))
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .nullable()
    .transform((s) => s || undefined)
    .optional();

/** Null as absent for an optional field that responses show as null. */
const nullAsAbsent = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .transform((v) => v ?? undefined)
    .optional();

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `YYYY-MM-DD` naming a real day of the Gregorian calendar (years 0001 to 9999). */
export function isCalendarDate(raw: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

const item = z.strictObject({
  description: text('description', 300),
  quantity: z
    .string(required('quantity', 'a decimal string, e.g. "2" or "1.5"'))
    .refine((q) => parseQuantity(q) !== null, QUANTITY_MESSAGE),
  unit_usdc: z.string(required('unit_usdc', 'a decimal string, e.g. "10.50"')).refine(isInvoiceAmount, UNIT_MESSAGE),
});

const invoiceBody = z.strictObject({
  customer_id: prefixedId('customer_id', 'con', 'a contact id'),
  wallet_id: prefixedId('wallet_id', 'wal', 'a wallet id from /v1/me'),
  due_date: z
    .string(required('due_date'))
    .refine(isCalendarDate, 'due_date must be a calendar date YYYY-MM-DD, e.g. 2026-03-31'),
  items: z
    .array(item, required('items', 'an array of {description, quantity, unit_usdc}'))
    .min(1, 'an invoice needs at least one item')
    .max(100, 'an invoice has at most 100 items'),
  tax_mode: z
    .enum(TAX_MODES as [TaxMode, ...TaxMode[]], { message: `tax_mode must be one of ${TAX_MODES.join(', ')}` })
    .optional(),
  tax_rate: nullAsAbsent(
    z
      .string(required('tax_rate', 'a decimal string, e.g. "19"'))
      .refine((r) => parseTaxRate(r) !== null, TAX_RATE_MESSAGE),
  ),
  tax_usdc: z.string(required('tax_usdc', 'a decimal string')).refine(isInvoiceAmount, TAX_USDC_MESSAGE).optional(),
  tax_notes: nullableText('tax_notes', 500),
  accounting: nullAsAbsent(
    z.strictObject(
      {
        reference: optionalText('reference', 120),
        cost_center: optionalText('cost_center', 120),
        ledger_account: optionalText('ledger_account', 120),
      },
      {
        error: (iss) =>
          iss.code === 'invalid_type'
            ? 'accounting must be an object of reference, cost_center, ledger_account'
            : undefined,
      },
    ),
  ),
  send_now: z
    .boolean({ message: 'send_now must be a boolean (false)' })
    .refine((v) => v === false, SEND_NOW_MESSAGE)
    .optional(),
  memo: nullableText('memo', 1000),
});

export interface InvoiceAccounting {
  reference?: string | undefined;
  cost_center?: string | undefined;
  ledger_account?: string | undefined;
}

export interface InvoiceCreate {
  customer_id: string;
  wallet_id: string;
  due_date: string;
  /** Descriptions trimmed; amounts exactly as given. */
  items: InvoiceItemInput[];
  tax_mode: TaxMode;
  tax_rate?: string | undefined;
  tax_usdc?: string | undefined;
  tax_notes?: string | undefined;
  accounting?: InvoiceAccounting | undefined;
  memo?: string | undefined;
  send_now: false;
  /** Exact totals (computeInvoiceTotals) of the validated items and tax. */
  totals: InvoiceTotals;
}

const toIssues = (e: z.ZodError): InvoiceIssue[] =>
  e.issues.map((i) => ({ path: i.path.map(String).join('.') || '(body)', message: i.message }));

function invalid(issues: InvoiceIssue[]): never {
  throw new DomainError(
    'validation_failed',
    `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { issues },
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates an invoice create body and computes its totals; every problem is reported at once. */
export function parseInvoiceCreate(body: unknown): InvoiceCreate {
  const parsed = invoiceBody.safeParse(body);
  if (!parsed.success) {
    const issues = toIssues(parsed.error);
    // The tax-field pairing rules still apply when other fields are wrong, so a caller sees them in one round.
    const raw = isRecord(body) ? body : {};
    const mode = raw['tax_mode'] === undefined ? 'none' : raw['tax_mode'];
    if ((TAX_MODES as readonly unknown[]).includes(mode)) {
      issues.push(
        ...taxFieldIssues(mode as TaxMode, {
          tax_rate: raw['tax_rate'] != null,
          tax_usdc: raw['tax_usdc'] !== undefined,
        }),
      );
    }
    invalid(issues);
  }
  const b = parsed.data;
  const tax_mode = b.tax_mode ?? 'none';
  const { totals, issues } = evaluateInvoiceTotals({
    items: b.items,
    tax_mode,
    tax_rate: b.tax_rate,
    tax_usdc: b.tax_usdc,
  });
  if (!totals) invalid(issues);
  return {
    customer_id: b.customer_id,
    wallet_id: b.wallet_id,
    due_date: b.due_date,
    items: b.items,
    tax_mode,
    tax_rate: b.tax_rate,
    tax_usdc: b.tax_usdc,
    tax_notes: b.tax_notes,
    accounting: b.accounting,
    memo: b.memo,
    send_now: false,
    totals,
  };
}

// Dot-atom local part and an ASCII (punycode) host name of at least two labels; no quoted parts or IP literals.
export const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/** Lower-cases the domain of an address; the local part keeps its case (RFC 5321). */
const normalizeEmail = (email: string): string => {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, at)}${email.slice(at).toLowerCase()}`;
};

const contactBody = z.strictObject({
  legal_name: text('legal_name', 160),
  email: z
    .string(required('email'))
    .trim()
    .max(254, 'email must be at most 254 characters')
    .refine(
      (e) => EMAIL_PATTERN.test(e) && e.indexOf('@') <= 64,
      'email must be a valid address, e.g. billing@example.com',
    )
    .transform(normalizeEmail),
  address: nullableText('address', 600),
  reference: nullableText('reference', 120),
});

export type ContactCreate = z.output<typeof contactBody>;

/** Validates a contact create body (legal name, email with lower-cased domain, optional address and reference). */
export function parseContactCreate(body: unknown): ContactCreate {
  const parsed = contactBody.safeParse(body);
  if (!parsed.success) invalid(toIssues(parsed.error));
  return parsed.data;
}

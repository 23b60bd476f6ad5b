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
  taxFieldIssues,
  type InvoiceIssue,
  type InvoiceItemInput,
  type InvoiceTotals,
  type TaxMode,
} from '../proof/invoice-math.js';
import {
  AMOUNT_MAX_SENTENCE as MAX_SENTENCE,
  CALENDAR_DATE,
  EMAIL,
  INVOICE_AMOUNT,
  NOT_BLANK,
  QUANTITY,
  TAX_RATE,
  trimmedLength,
} from './patterns.js';

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

/** Text of at most `max` characters after trimming (the patterns count the trimmed value; the value is trimmed after). */
const atMost = (name: string, max: number) =>
  z.string(required(name)).regex(trimmedLength(0, max), `${name} must be at most ${max} characters`);

/** Trimmed text of 1..max characters (required). */
const text = (name: string, max: number, description: string) =>
  atMost(name, max)
    .regex(NOT_BLANK, `${name} must not be empty`)
    .transform((s) => s.trim())
    .meta({ description: `${description}; 1 to ${max} characters after trimming.` });

/** Trimmed optional text of at most max characters; empty means absent. */
const optionalText = (name: string, max: number, description: string) =>
  atMost(name, max)
    .transform((s) => s.trim() || undefined)
    .optional()
    .meta({ description: `${description}; at most ${max} characters after trimming (empty means absent).` });

/** `optionalText` that also takes null as absent (a field responses show as null). */
const nullableText = (name: string, max: number, description: string) =>
  atMost(name, max)
    .nullable()
    .transform((s) => s?.trim() || undefined)
    .optional()
    .meta({
      description: `${description}; at most ${max.toLocaleString('en-US')} characters after trimming. \`null\` is the same as leaving it out.`,
    });

/** Null as absent for an optional field that responses show as null. */
const nullAsAbsent = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .transform((v) => v ?? undefined)
    .optional();

/** `YYYY-MM-DD` naming a real day of the Gregorian calendar (years 0001 to 9999). */
export const isCalendarDate = (raw: string): boolean => CALENDAR_DATE.test(raw);

export const invoiceItemSchema = z.strictObject({
  description: text('description', 300, 'What was delivered'),
  quantity: z
    .string(required('quantity', 'a decimal string, e.g. "2" or "1.5"'))
    .regex(QUANTITY, QUANTITY_MESSAGE)
    .meta({
      description:
        'Decimal string greater than 0 and at most 1,000,000, up to 6 fraction digits, e.g. `"3"` or `"0.5"`.',
    }),
  unit_usdc: z
    .string(required('unit_usdc', 'a decimal string, e.g. "10.50"'))
    .regex(INVOICE_AMOUNT, UNIT_MESSAGE)
    .meta({
      description: `Unit price in USDC: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits; ${MAX_SENTENCE}.`,
    }),
});

const accountingText = (name: string, what: string) => optionalText(name, 120, what);

/**
 * The tax-field pairing (`taxFieldIssues`), which zod checks after the object: stated in the document as JSON
 * Schema conditionals beside the schema, since no zod rule of one field can say it.
 */
const TAX_PAIRING = [
  {
    if: { required: ['tax_mode'], properties: { tax_mode: { enum: ['exclusive', 'inclusive'] } } },
    then: { required: ['tax_rate'], properties: { tax_rate: { type: 'string' } } },
    else: { properties: { tax_rate: { type: 'null' } } },
  },
  {
    if: { required: ['tax_mode'], properties: { tax_mode: { const: 'fixed' } } },
    then: { required: ['tax_usdc'], properties: { tax_usdc: true } },
    else: { properties: { tax_usdc: false } },
  },
];

export const invoiceCreateSchema = z
  .strictObject({
    customer_id: prefixedId('customer_id', 'con', 'a contact id').meta({
      description: 'The buyer: one of your contacts. Any other well-formed id is 404.',
    }),
    wallet_id: prefixedId('wallet_id', 'wal', 'a wallet id from /v1/me').meta({
      description: 'One of the verified wallets of `GET /proof/v1/me`. Any other well-formed id is 404.',
    }),
    due_date: z
      .string(required('due_date'))
      .regex(CALENDAR_DATE, 'due_date must be a calendar date YYYY-MM-DD, e.g. 2026-03-31')
      .meta({
        format: 'date',
        description:
          "A calendar date `YYYY-MM-DD`, not before today (UTC). The invoice's payment request stays open until the end of that day (23:59:59 UTC), so its payment page never " +
          "expires while the invoice is due; a due date whose end is more than the plan's `max_valid_hours` ahead (720 hours, a trial 72) is refused (422 naming `due_date`, with the latest allowed date).",
      }),
    items: z
      .array(invoiceItemSchema, required('items', 'an array of {description, quantity, unit_usdc}'))
      .min(1, 'an invoice needs at least one item')
      .max(100, 'an invoice has at most 100 items'),
    tax_mode: z
      .enum(TAX_MODES as [TaxMode, ...TaxMode[]], { message: `tax_mode must be one of ${TAX_MODES.join(', ')}` })
      .optional()
      .meta({
        description:
          '`none` (default), `exclusive` (tax added to the subtotal), `inclusive` (tax contained in the subtotal), `fixed` (`tax_usdc` added).',
      }),
    tax_rate: nullAsAbsent(
      z.string(required('tax_rate', 'a decimal string, e.g. "19"')).regex(TAX_RATE, TAX_RATE_MESSAGE),
    ).meta({
      description:
        'Percentage 0 to 100 with up to 4 fraction digits, e.g. `"19"`. `null` is the same as leaving it out.',
    }),
    tax_usdc: z
      .string(required('tax_usdc', 'a decimal string'))
      .regex(INVOICE_AMOUNT, TAX_USDC_MESSAGE)
      .optional()
      .meta({ description: `Fixed tax amount in USDC; ${MAX_SENTENCE}.` }),
    tax_notes: nullableText('tax_notes', 500, 'Optional tax note printed on the invoice (e.g. reverse charge)'),
    accounting: nullAsAbsent(
      z.strictObject(
        {
          reference: accountingText('reference', 'Your reference'),
          cost_center: accountingText('cost_center', 'Cost center'),
          ledger_account: accountingText('ledger_account', 'Ledger account'),
        },
        {
          error: (iss) =>
            iss.code === 'invalid_type'
              ? 'accounting must be an object of reference, cost_center, ledger_account'
              : undefined,
        },
      ),
    ).meta({
      description:
        'Optional references printed on the invoice: `reference`, `cost_center`, `ledger_account`, each at most 120 characters; no other key. `null` is the same as leaving it out.',
    }),
    send_now: z
      .literal(false, {
        error: (iss) => (typeof iss.input === 'boolean' ? SEND_NOW_MESSAGE : 'send_now must be a boolean (false)'),
      })
      .optional()
      .meta({
        description:
          'Only `false` is accepted: an invoice is never e-mailed on creation; use `POST /proof/v1/invoices/{id}/send`.',
      }),
    memo: nullableText('memo', 1000, 'Optional note printed on the invoice'),
  })
  .meta({
    description:
      'Body of `POST /proof/v1/invoices`, validated strictly; every problem is reported at once. `tax_rate` is required with `tax_mode` ' +
      '`exclusive` or `inclusive` and refused otherwise; `tax_usdc` is required with `fixed` and refused otherwise. Checked by the server ' +
      "beyond this schema: the contact and wallet belong to your account (404 otherwise), `due_date` is not before today (UTC) and not past the plan's longest " +
      `payment window (\`max_valid_hours\` of \`/v1/me\`), and the total is greater than zero and ${MAX_SENTENCE} (422 naming \`items\`). ` +
      '`null` is accepted as absent for `tax_rate`, `tax_notes`, `accounting` and `memo` (responses show them as `null`).',
    allOf: TAX_PAIRING,
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
  const parsed = invoiceCreateSchema.safeParse(body);
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

/** Lower-cases the domain of an address; the local part keeps its case (RFC 5321). */
const normalizeEmail = (email: string): string => {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, at)}${email.slice(at).toLowerCase()}`;
};

export const contactCreateSchema = z
  .strictObject({
    legal_name: text('legal_name', 160, 'Legal name of the buyer'),
    email: z
      .string(required('email'))
      .regex(trimmedLength(0, 254), 'email must be at most 254 characters')
      .regex(EMAIL, 'email must be a valid address, e.g. billing@example.com')
      .transform((e) => normalizeEmail(e.trim()))
      .meta({
        description:
          'Billing address, e.g. `billing@example.com`: at most 254 characters after trimming; stored with the domain lower-cased.',
      }),
    address: nullableText('address', 600, 'Optional postal address'),
    reference: nullableText('reference', 120, 'Optional reference of yours, e.g. a customer number'),
  })
  .meta({ description: 'Body of `POST /proof/v1/contacts`, validated strictly. There is no public update or delete.' });

/** The body of `POST /proof/v1/invoices/{id}/send`. */
export const invoiceSendSchema = z
  .strictObject({
    user_approved: z.literal(true, { message: 'user_approved must be true: a person approved sending this invoice' }),
  })
  .meta({
    description:
      'Your assertion that a person approved sending this invoice by e-mail to the contact; it is stored with the key that sent it.',
  });

export type ContactCreate = z.output<typeof contactCreateSchema>;

/** Validates a contact create body (legal name, email with lower-cased domain, optional address and reference). */
export function parseContactCreate(body: unknown): ContactCreate {
  const parsed = contactCreateSchema.safeParse(body);
  if (!parsed.success) invalid(toIssues(parsed.error));
  return parsed.data;
}

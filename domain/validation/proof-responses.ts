import { z } from 'zod';
import { idRegex } from '../ids.js';
import { NETWORKS } from '../networks.js';
import { PROOF_API_VERSION } from '../proof/events.js';
import { TAX_MODES } from '../proof/invoice-math.js';
import { PAID_PLANS, type PaidPlan } from '../proof/plans.js';
import {
  INVOICE_STATUS_MEANINGS,
  INVOICE_STATUSES,
  REQUEST_STATUS_MEANINGS,
  REQUEST_STATUSES,
} from '../proof/statuses.js';
import { AMOUNT_MAX_SENTENCE } from './patterns.js';
import { MAX_VALID_HOURS } from './proof-request.js';

/**
 * The response bodies of `/proof/v1`, written once: the serializers (`requestJson`, `contactJson`, `invoiceJson`, the
 * `/v1/me` handler, `invoiceSendJson`) return these types, and the OpenAPI document is generated from these schemas
 * (api/shared/proof/openapi.schemas.ts names them). Objects are strict, so the generated document closes them
 * (`additionalProperties: false`) and the conformance test fails on any field the server sends that is not listed
 * here. Clients must still ignore fields they do not know (spec section 9).
 */

const prefixedId = (prefix: string, what: string) =>
  z
    .string()
    .regex(idRegex(prefix))
    .meta({ description: `${what} id: \`${prefix}_\` and 20 letters or digits.` });

export const merchantIdSchema = prefixedId('mer', 'Account');
export const walletIdSchema = prefixedId('wal', 'Verified wallet');
export const requestIdSchema = prefixedId('req', 'Payment request');
export const contactIdSchema = prefixedId('con', 'Contact');
export const invoiceIdSchema = prefixedId('inv', 'Invoice');

export const networkSchema = z.enum(NETWORKS).meta({ description: 'Network of the native USDC transfer.' });

/** `AWAITING` (…), `REVIEW` (…): each status with its meaning, for an enum's description. */
const statusList = (meanings: Readonly<Record<string, string>>) =>
  Object.entries(meanings)
    .map(([s, m]) => `\`${s}\`: ${m}`)
    .join(' ');

export const requestStatusSchema = z
  .enum(REQUEST_STATUSES)
  .meta({ description: `${statusList(REQUEST_STATUS_MEANINGS)} Only \`PAID\` means paid.` });

const dateTime = z.iso.datetime();
/** Integer atomic USDC (1 USDC = 1,000,000) as a decimal string of digits. */
export const atomic = (description: string) =>
  z
    .string()
    .regex(/^[0-9]{1,24}$/)
    .meta({ description });
/** A USDC amount printed with exactly six decimals. */
const usdc = (description: string) =>
  z
    .string()
    .regex(/^[0-9]{1,17}\.[0-9]{6}$/)
    .meta({ description });

export const paymentRequestSchema = z.strictObject({
  id: requestIdSchema,
  url: z
    .url()
    .regex(/\/proof\/pay\/req_[A-Za-z0-9]{20}$/)
    .meta({ format: 'uri', description: 'The public payment page (`GET /proof/pay/{id}`) to send to the payer.' }),
  status: requestStatusSchema,
  network: networkSchema,
  wallet_id: walletIdSchema,
  pay_to: z.string().meta({ description: 'The receiving address (of the verified wallet).' }),
  amount_atomic: atomic(
    'The exact amount to transfer, in atomic USDC: the quote plus a small unique matching delta (1 to 9,999 atomic units). Show and pay `amount_atomic / 1,000,000`, never a rounded amount.',
  ),
  quoted_amount_atomic: atomic(`The amount originally requested, in atomic USDC; ${AMOUNT_MAX_SENTENCE}.`),
  amount_usdc: usdc('`amount_atomic` in USDC with six decimals.'),
  description: z.string(),
  customer_label: z.string().nullable(),
  expected_payer: z.string().nullable(),
  valid_hours: z.int().min(1).max(MAX_VALID_HOURS),
  expires_at: dateTime.meta({ description: 'End of the payment window.' }),
  created_at: dateTime,
  invoice_id: z
    .string()
    .regex(idRegex('inv'))
    .nullable()
    .meta({ description: 'The invoice this request belongs to; null for a direct request.' }),
  tx_hash: z.string().nullable().meta({ description: 'The matched transaction once paid; null before.' }),
  verified_at: dateTime.nullable().meta({ description: 'When the payment was confirmed; null before.' }),
});
export type PaymentRequestJson = z.input<typeof paymentRequestSchema>;

export const contactSchema = z.strictObject({
  id: contactIdSchema,
  legal_name: z.string(),
  email: z.string(),
  address: z.string().nullable(),
  reference: z.string().nullable(),
  created_at: dateTime,
});
export type ContactJson = z.input<typeof contactSchema>;

const invoiceLineSchema = z.strictObject({
  description: z.string(),
  quantity: z
    .string()
    .regex(/^[0-9]+(\.[0-9]{1,6})?$/)
    .meta({ description: 'Normalized: `"1.500"` reads `"1.5"`.' }),
  unit_usdc: usdc('Unit price.'),
  amount_usdc: usdc('quantity × unit price, rounded half-up to 0.000001.'),
});

export const invoiceSchema = z
  .strictObject({
    id: invoiceIdSchema,
    number: z
      .string()
      .regex(/^INV-[0-9]{6,}$/)
      .meta({ description: 'Sequential per account: `INV-000001`, …' }),
    status: z
      .enum(INVOICE_STATUSES)
      .meta({ description: `${statusList(INVOICE_STATUS_MEANINGS)} The API cannot change it.` }),
    customer_id: contactIdSchema,
    wallet_id: walletIdSchema,
    request_id: requestIdSchema.meta({
      description: 'Its one payment request (`GET /proof/v1/requests/{id}`, `url` is the payment page).',
    }),
    network: networkSchema,
    due_date: z.iso.date(),
    issued_at: dateTime,
    items: z.array(invoiceLineSchema).min(1),
    subtotal_usdc: usdc('Sum of the item amounts.'),
    tax_mode: z.enum(TAX_MODES),
    tax_rate: z
      .string()
      .nullable()
      .meta({ description: 'The percentage for `exclusive` and `inclusive`; null otherwise.' }),
    tax_usdc: usdc('The tax.'),
    tax_notes: z.string().nullable(),
    total_usdc: usdc('Amount due: subtotal plus tax (`inclusive`: the subtotal).'),
    total_atomic: atomic('The total in atomic USDC; the quote of the payment request.'),
    amount_atomic: atomic('The exact amount to pay (the total plus the unique matching delta of its payment request).'),
    accounting: z
      .strictObject({
        reference: z.string().optional(),
        cost_center: z.string().optional(),
        ledger_account: z.string().optional(),
      })
      .nullable(),
    memo: z.string().nullable(),
    document_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: 'SHA-256 of the invoice document, rendered once at issue and never changed.' }),
    tx_hash: z.string().nullable().meta({ description: 'The paying transaction; null before settlement.' }),
    paid_at: dateTime.nullable(),
    voided_at: dateTime.nullable(),
  })
  .meta({
    description:
      'The public invoice: exact totals (rounded half-up at 0.000001 USDC per line, then once on the tax) and the linked payment request. ' +
      'Buyer and issuer identity snapshots and share capabilities are never shown.',
  });
export type InvoiceJson = z.input<typeof invoiceSchema>;

export const invoiceSendResultSchema = z.strictObject({
  id: invoiceIdSchema,
  mail_status: z.enum(['queued', 'sent']).meta({
    description:
      '`queued`: the e-mail waits in the outbox (sent asynchronously; one queued e-mail per invoice). `sent`: it was already sent and is not sent again.',
  }),
});

/** A limit that may be uncapped (`null`). */
const cap = z.int().min(0).nullable();

/** When no plan is active, `limits` and `plan_ends_at` are null; else both are set (stated beside the schema). */
const PLAN_DEPENDENT = [
  {
    if: { properties: { plan: { type: 'null' } } },
    then: { properties: { limits: { type: 'null' }, plan_ends_at: { type: 'null' } } },
    else: { properties: { limits: { type: 'object' }, plan_ends_at: { type: 'string' } } },
  },
];

/** The limits of a plan (`limitsJson`): `null` inside means no cap. */
export const planLimitsSchema = z.strictObject({
  requests_per_period: cap.meta({
    description: 'Payment requests (direct or by invoice) per rolling 30 days (a trial: since its start).',
  }),
  invoices_per_period: cap,
  keys: z.int().min(1).meta({ description: 'Usable API keys.' }),
  destinations: z.int().min(1).meta({ description: 'Webhook destinations.' }),
  max_valid_hours: z
    .int()
    .min(1)
    .max(MAX_VALID_HOURS)
    .meta({ description: 'Longest `valid_hours` of a payment request.' }),
  requests_per_hour: z
    .int()
    .min(1)
    .nullable()
    .meta({ description: 'Payment-request creations per hour (pro); null: none beyond the request throttles.' }),
});

export const meSchema = z
  .strictObject({
    api_version: z.literal(PROOF_API_VERSION).meta({ description: 'Version of this interface.' }),
    id: merchantIdSchema,
    name: z.string().meta({ description: 'Account name shown on payment pages and invoices.' }),
    plan: z
      .enum([...PAID_PLANS, 'trial'] as unknown as readonly [PaidPlan | 'trial', ...Array<PaidPlan | 'trial'>])
      .nullable()
      .meta({
        description:
          'The active paid plan, `trial`, or null when neither is active (reads still work; creations answer 422).',
      }),
    plan_ends_at: dateTime.nullable().meta({ description: 'End of the paid 30-day period or of the 7-day trial.' }),
    limits: planLimitsSchema
      .nullable()
      .meta({ description: 'Limits of the current plan; null without a plan. `null` inside means no cap.' }),
    usage: z.strictObject({
      requests: z.int().min(0),
      invoices: z.int().min(0),
      window_start: dateTime.nullable().meta({ description: 'Start of the counting window; null without a plan.' }),
    }),
    wallets: z
      .array(
        z.strictObject({
          id: walletIdSchema,
          network: networkSchema,
          address: z.string(),
          label: z.string().nullable(),
        }),
      )
      .meta({ description: 'Verified receiving wallets: the only allowed `wallet_id` values.' }),
  })
  .meta({ allOf: PLAN_DEPENDENT });
export type InvoiceSendResultJson = z.input<typeof invoiceSendResultSchema>;
export type MeJson = z.input<typeof meSchema>;

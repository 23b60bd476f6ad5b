import type { ErrorCode } from '../../domain/errors.js';
import { IDEMPOTENCY_RULES } from '../../domain/idempotency.js';
import { MAX_QUOTED_USDC } from '../../domain/proof/matching-delta.js';
import { NETWORKS } from '../../domain/networks.js';
import { TAX_MODES } from '../../domain/proof/invoice-math.js';
import { PROOF_API_VERSION } from '../../domain/proof/events.js';
import { PAID_PLANS } from '../../domain/proof/plans.js';
import { MAX_VALID_HOURS } from '../../domain/validation/proof-request.js';
import {
  INVOICE_STATUS_MEANINGS,
  INVOICE_STATUSES,
  REQUEST_STATUS_MEANINGS,
  REQUEST_STATUSES,
} from '../../domain/proof/statuses.js';
import { statusOf } from '../http/errors.js';
import { schemaRef, type Schema } from '../http/openapi-kit.js';
import { cursorPattern, type CursorList } from '../http/pagination.js';
import { eventSchemas } from './openapi.events.js';

/**
 * JSON Schemas (2020-12, the OpenAPI 3.1 dialect) of the `/proof/v1` bodies, written to match
 * `domain/validation/proof-request.ts`, `domain/validation/proof-invoice.ts` (request bodies, including their
 * trimming: a length applies to the trimmed text) and `requestJson`, `contactJson`, `invoiceJson`, the `/v1/me`
 * handler, `page()` and `errorBody` (responses). Response objects are closed (`additionalProperties: false`):
 * the conformance test fails on any field the server sends that is not listed here. Clients must still
 * ignore fields they do not know (spec section 9).
 */

export const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema['type'], 'null'] });
export const dateTime: Schema = { type: 'string', format: 'date-time' };
export const id = (prefix: string, what: string): Schema => ({
  type: 'string',
  pattern: `^${prefix}_[A-Za-z0-9]{20}$`,
  description: `${what} id: \`${prefix}_\` and 20 letters or digits.`,
});
/** Integer atomic USDC (1 USDC = 1,000,000) as a decimal string of digits. */
export const atomic = (description: string): Schema => ({ type: 'string', pattern: '^[0-9]{1,24}$', description });
/** A USDC amount printed with exactly six decimals. */
const usdc = (description: string): Schema => ({ type: 'string', pattern: '^[0-9]{1,17}\\.[0-9]{6}$', description });

/**
 * A string whose trimmed value (String.prototype.trim, the same whitespace as `\s`) has `min` to `max`
 * characters: the validators trim first, then count.
 */
export function trimmed(min: number, max: number, description: string): Schema {
  const inner = min >= 2 ? `\\S[\\s\\S]{${min - 2},${max - 2}}\\S` : `\\S(?:[\\s\\S]{0,${max - 2}}\\S)?`;
  return { type: 'string', pattern: `^\\s*${min === 0 ? `(?:${inner})?` : inner}\\s*$`, description };
}

/**
 * The USDC amount grammar (`AMOUNT_PATTERN`: 1 to 17 integer digits, up to 6 decimals), zero included, bounded by
 * the largest quote `MAX_QUOTED_USDC` (10000000000000000): up to 16 significant integer digits, or the maximum itself
 * with a zero fraction. A quote up to it plus its matching delta stays within the grammar of the answers.
 */
const AMOUNT = `^(?:0?[0-9]{1,16}(?:\\.[0-9]{1,6})?|${MAX_QUOTED_USDC}(?:\\.0{1,6})?)$`;
/** The same without zero. */
const POSITIVE_AMOUNT = AMOUNT.replace(/^\^/, '^(?!0+(?:\\.0+)?$)');
const MAX_SENTENCE = `at most ${MAX_QUOTED_USDC} USDC (10^16), so that the amount plus its matching delta always has at most 17 integer digits`;
/** A string field that also accepts `null`, read as absent (responses show the field as `null`). */
const orNull = (schema: Schema): Schema => ({
  ...schema,
  type: ['string', 'null'],
  description: `${String(schema['description'] ?? '')} \`null\` is the same as leaving it out.`.trim(),
});
/** Quantities: > 0 and <= 1,000,000, 1 to 7 integer digits and up to 6 fraction digits (`parseQuantity`). */
const QUANTITY = '^(?!0+(?:\\.0+)?$)(?:0?[0-9]{1,6}(?:\\.[0-9]{1,6})?|1000000(?:\\.0{1,6})?)$';
/** Percentages 0 to 100 with up to 4 fraction digits (`parseTaxRate`). */
const TAX_RATE = '^(?:0?[0-9]{1,2}(?:\\.[0-9]{1,4})?|100(?:\\.0{1,4})?)$';
/**
 * `parseContactCreate`'s e-mail rule on the trimmed value: at most 254 characters, a local part of at most 64,
 * a dot-atom local part and an ASCII (or punycode) host name of two or more labels.
 */
export const EMAIL =
  "^\\s*(?=\\S{1,254}\\s*$)(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@" +
  '(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})\\s*$';

export { INVOICE_STATUSES, REQUEST_STATUSES };

/** `AWAITING` (…), `REVIEW` (…): each status with its meaning, for an enum's description. */
const statusList = (meanings: Readonly<Record<string, string>>) =>
  Object.entries(meanings)
    .map(([s, m]) => `\`${s}\`: ${m}`)
    .join(' ');

/** The /proof error codes, each with when it happens; the status comes from the error middleware's own table. */
export const PROOF_ERRORS: ReadonlyArray<{ code: ErrorCode; when: string }> = [
  {
    code: 'unauthorized',
    when: 'No `Authorization: Bearer skp_…` header, or the key is malformed, unknown, revoked, expired, of another interface, or inactive because the current plan allows fewer keys (only the earliest keys stay usable after a downgrade).',
  },
  {
    code: 'api_key_in_url',
    when: 'A key (or a credential-named query parameter such as `api_key` or `token`) is in the URL; every `/proof` path refuses it. Revoke that key.',
  },
  { code: 'insufficient_scope', when: 'The key lacks the scope of the method: `read` for GET, `write` for POST.' },
  { code: 'forbidden', when: 'The account is suspended.' },
  {
    code: 'not_found',
    when: "An id in the path or in the body (`wallet_id`, `customer_id`) names nothing in your account: unknown, or another account's (the same answer for both; a body field is named in `issues`). Or the path is unknown.",
  },
  {
    code: 'method_not_allowed',
    when: 'The path exists, but not with this method (see `Allow`); there is no public update or delete.',
  },
  { code: 'conflict', when: 'Invalid state: a voided invoice cannot be sent.' },
  {
    code: 'idempotency_conflict',
    when: 'The `Idempotency-Key` was already used for another operation or another payload (keys are account-wide and never expire); use a new key.',
  },
  {
    code: 'idempotency_in_progress',
    when: 'A request with the same `Idempotency-Key` is still being processed; retry shortly.',
  },
  { code: 'payload_too_large', when: 'The JSON body is over the size limit.' },
  { code: 'unsupported_media_type', when: 'A body that is not `application/json`.' },
  { code: 'malformed_json', when: 'The body is not valid JSON.' },
  {
    code: 'validation_failed',
    when: 'Invalid body or query (`issues` lists every problem at once): a field breaks its rule (a malformed id included), an unknown field, `valid_hours` over the plan limit, a cursor of another list.',
  },
  { code: 'idempotency_key_required', when: 'A POST without an `Idempotency-Key` header.' },
  { code: 'idempotency_key_invalid', when: `The \`Idempotency-Key\` is not ${IDEMPOTENCY_RULES.proof.description}.` },
  {
    code: 'quota_exceeded',
    when: "No active plan or trial, the plan's payment-request or invoice allowance of the period is used up, or the account holds the fair-use maximum of stored idempotent responses.",
  },
  {
    code: 'rate_limited',
    when: 'Over a request limit (per key, per IP address, or pro creations per hour); wait for `Retry-After` seconds.',
  },
  {
    code: 'internal_error',
    when: 'Unexpected server error; retry with backoff (the same `Idempotency-Key` is safe), quoting `request_id` if it persists.',
  },
  {
    code: 'service_unavailable',
    when: 'Temporarily unavailable, e.g. the database cannot be reached; retry after `Retry-After` seconds (the same `Idempotency-Key` is safe).',
  },
];

export const proofStatus = (code: ErrorCode) => statusOf('proof', code);

const invoiceItemInput: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['description', 'quantity', 'unit_usdc'],
  properties: {
    description: trimmed(1, 300, 'What was delivered; 1 to 300 characters after trimming.'),
    quantity: {
      type: 'string',
      pattern: QUANTITY,
      description:
        'Decimal string greater than 0 and at most 1,000,000, up to 6 fraction digits, e.g. `"3"` or `"0.5"`.',
    },
    unit_usdc: {
      type: 'string',
      pattern: AMOUNT,
      description: `Unit price in USDC: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits; ${MAX_SENTENCE}.`,
    },
  },
};

const accountingText = (what: string) =>
  trimmed(0, 120, `${what}; at most 120 characters after trimming (empty means absent).`);

export function componentSchemas(): Record<string, Schema> {
  return {
    MerchantId: id('mer', 'Account'),
    WalletId: id('wal', 'Verified wallet'),
    RequestId: id('req', 'Payment request'),
    ContactId: id('con', 'Contact'),
    InvoiceId: id('inv', 'Invoice'),
    Network: { type: 'string', enum: [...NETWORKS], description: 'Network of the native USDC transfer.' },
    RequestStatus: {
      type: 'string',
      enum: [...REQUEST_STATUSES],
      description: `${statusList(REQUEST_STATUS_MEANINGS)} Only \`PAID\` means paid.`,
    },
    PaymentRequestCreate: {
      type: 'object',
      additionalProperties: false,
      required: ['wallet_id', 'amount_usdc', 'description'],
      description:
        'Body of `POST /proof/v1/requests`, validated strictly: an unknown field (e.g. a custom receiver) is a 422.',
      properties: {
        wallet_id: {
          ...schemaRef('WalletId'),
          description:
            'One of the verified wallets of `GET /proof/v1/me`; the request is paid to its address on its network. Any other well-formed id is 404.',
        },
        amount_usdc: {
          type: 'string',
          maxLength: 24,
          pattern: POSITIVE_AMOUNT,
          description: `Requested amount in USDC, greater than zero and ${MAX_SENTENCE}: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits (no sign, exponent or separators).`,
        },
        description: trimmed(
          3,
          350,
          'What the payment is for, shown on the payment page; 3 to 350 characters after trimming.',
        ),
        customer_label: orNull(
          trimmed(
            0,
            120,
            'Optional label of the payer shown on the payment page; at most 120 characters after trimming.',
          ),
        ),
        expected_payer: orNull(
          trimmed(
            0,
            64,
            'Optional address of the wallet expected to pay, checked by the server against the network of `wallet_id` (422 naming `expected_payer`): on EVM networks `0x` and 40 hex ' +
              'characters, all lower case, all upper case or with a valid EIP-55 checksum (mixed case that does not match is refused), never the zero address; on Solana a base58 ' +
              'public key of 32 bytes (the owner, not a token account), never the all-zero key. A payment from another address goes to `REVIEW`.',
          ),
        ),
        valid_hours: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_VALID_HOURS,
          description: 'Hours the request stays open (default 72); the plan may allow less (a trial: 72).',
        },
      },
    },
    PaymentRequest: {
      type: 'object',
      additionalProperties: false,
      required: [
        'id',
        'url',
        'status',
        'network',
        'wallet_id',
        'pay_to',
        'amount_atomic',
        'quoted_amount_atomic',
        'amount_usdc',
        'description',
        'customer_label',
        'expected_payer',
        'valid_hours',
        'expires_at',
        'created_at',
        'invoice_id',
        'tx_hash',
        'verified_at',
      ],
      properties: {
        id: schemaRef('RequestId'),
        url: {
          type: 'string',
          format: 'uri',
          pattern: '/proof/pay/req_[A-Za-z0-9]{20}$',
          description: 'The public payment page (`GET /proof/pay/{id}`) to send to the payer.',
        },
        status: schemaRef('RequestStatus'),
        network: schemaRef('Network'),
        wallet_id: schemaRef('WalletId'),
        pay_to: { type: 'string', description: 'The receiving address (of the verified wallet).' },
        amount_atomic: atomic(
          'The exact amount to transfer, in atomic USDC: the quote plus a small unique matching delta (1 to 9,999 atomic units). Show and pay `amount_atomic / 1,000,000`, never a rounded amount.',
        ),
        quoted_amount_atomic: atomic(`The amount originally requested, in atomic USDC; ${MAX_SENTENCE}.`),
        amount_usdc: usdc('`amount_atomic` in USDC with six decimals.'),
        description: { type: 'string' },
        customer_label: { type: ['string', 'null'] },
        expected_payer: { type: ['string', 'null'] },
        valid_hours: { type: 'integer', minimum: 1, maximum: MAX_VALID_HOURS },
        expires_at: { ...dateTime, description: 'End of the payment window.' },
        created_at: dateTime,
        invoice_id: {
          type: ['string', 'null'],
          pattern: '^inv_[A-Za-z0-9]{20}$',
          description: 'The invoice this request belongs to; null for a direct request.',
        },
        tx_hash: { type: ['string', 'null'], description: 'The matched transaction once paid; null before.' },
        verified_at: { ...nullable(dateTime), description: 'When the payment was confirmed; null before.' },
      },
    },
    ContactCreate: {
      type: 'object',
      additionalProperties: false,
      required: ['legal_name', 'email'],
      description: 'Body of `POST /proof/v1/contacts`, validated strictly. There is no public update or delete.',
      properties: {
        legal_name: trimmed(1, 160, 'Legal name of the buyer; 1 to 160 characters after trimming.'),
        email: {
          type: 'string',
          pattern: EMAIL,
          description:
            'Billing address, e.g. `billing@example.com`: at most 254 characters after trimming; stored with the domain lower-cased.',
        },
        address: orNull(trimmed(0, 600, 'Optional postal address; at most 600 characters after trimming.')),
        reference: orNull(
          trimmed(
            0,
            120,
            'Optional reference of yours, e.g. a customer number; at most 120 characters after trimming.',
          ),
        ),
      },
    },
    Contact: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'legal_name', 'email', 'address', 'reference', 'created_at'],
      properties: {
        id: schemaRef('ContactId'),
        legal_name: { type: 'string' },
        email: { type: 'string' },
        address: { type: ['string', 'null'] },
        reference: { type: ['string', 'null'] },
        created_at: dateTime,
      },
    },
    InvoiceCreate: {
      type: 'object',
      additionalProperties: false,
      required: ['customer_id', 'wallet_id', 'due_date', 'items'],
      description:
        'Body of `POST /proof/v1/invoices`, validated strictly; every problem is reported at once. `tax_rate` is required with `tax_mode` ' +
        '`exclusive` or `inclusive` and refused otherwise; `tax_usdc` is required with `fixed` and refused otherwise. Checked by the server ' +
        "beyond this schema: the contact and wallet belong to your account (404 otherwise), `due_date` is not before today (UTC) and not past the plan's longest " +
        `payment window (\`max_valid_hours\` of \`/v1/me\`), and the total is greater than zero and ${MAX_SENTENCE} (422 naming \`items\`). ` +
        '`null` is accepted as absent for `tax_rate`, `tax_notes`, `accounting` and `memo` (responses show them as `null`).',
      properties: {
        customer_id: {
          ...schemaRef('ContactId'),
          description: 'The buyer: one of your contacts. Any other well-formed id is 404.',
        },
        wallet_id: {
          ...schemaRef('WalletId'),
          description: 'One of the verified wallets of `GET /proof/v1/me`. Any other well-formed id is 404.',
        },
        due_date: {
          type: 'string',
          format: 'date',
          pattern: '^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}$',
          description:
            "A calendar date `YYYY-MM-DD`, not before today (UTC). The invoice's payment request stays open until the end of that day (23:59:59 UTC), so its payment page never " +
            "expires while the invoice is due; a due date whose end is more than the plan's `max_valid_hours` ahead (720 hours, a trial 72) is refused (422 naming `due_date`, with the latest allowed date).",
        },
        items: { type: 'array', minItems: 1, maxItems: 100, items: schemaRef('InvoiceItemInput') },
        tax_mode: {
          type: 'string',
          enum: [...TAX_MODES],
          description:
            '`none` (default), `exclusive` (tax added to the subtotal), `inclusive` (tax contained in the subtotal), `fixed` (`tax_usdc` added).',
        },
        tax_rate: orNull({
          type: 'string',
          pattern: TAX_RATE,
          description: 'Percentage 0 to 100 with up to 4 fraction digits, e.g. `"19"`.',
        }),
        tax_usdc: { type: 'string', pattern: AMOUNT, description: `Fixed tax amount in USDC; ${MAX_SENTENCE}.` },
        tax_notes: orNull(
          trimmed(
            0,
            500,
            'Optional tax note printed on the invoice (e.g. reverse charge); at most 500 characters after trimming.',
          ),
        ),
        accounting: {
          type: ['object', 'null'],
          additionalProperties: false,
          description:
            'Optional references printed on the invoice: `reference`, `cost_center`, `ledger_account`, each at most 120 characters; no other key. `null` is the same as leaving it out.',
          properties: {
            reference: accountingText('Your reference'),
            cost_center: accountingText('Cost center'),
            ledger_account: accountingText('Ledger account'),
          },
        },
        send_now: {
          type: 'boolean',
          const: false,
          description:
            'Only `false` is accepted: an invoice is never e-mailed on creation; use `POST /proof/v1/invoices/{id}/send`.',
        },
        memo: orNull(
          trimmed(0, 1000, 'Optional note printed on the invoice; at most 1,000 characters after trimming.'),
        ),
      },
      allOf: [
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
      ],
    },
    InvoiceItemInput: invoiceItemInput,
    Invoice: {
      type: 'object',
      additionalProperties: false,
      description:
        'The public invoice: exact totals (rounded half-up at 0.000001 USDC per line, then once on the tax) and the linked payment request. ' +
        'Buyer and issuer identity snapshots and share capabilities are never shown.',
      required: [
        'id',
        'number',
        'status',
        'customer_id',
        'wallet_id',
        'request_id',
        'network',
        'due_date',
        'issued_at',
        'items',
        'subtotal_usdc',
        'tax_mode',
        'tax_rate',
        'tax_usdc',
        'tax_notes',
        'total_usdc',
        'total_atomic',
        'amount_atomic',
        'accounting',
        'memo',
        'document_sha256',
        'tx_hash',
        'paid_at',
        'voided_at',
      ],
      properties: {
        id: schemaRef('InvoiceId'),
        number: { type: 'string', pattern: '^INV-[0-9]{6,}$', description: 'Sequential per account: `INV-000001`, …' },
        status: {
          type: 'string',
          enum: [...INVOICE_STATUSES],
          description: `${statusList(INVOICE_STATUS_MEANINGS)} The API cannot change it.`,
        },
        customer_id: schemaRef('ContactId'),
        wallet_id: schemaRef('WalletId'),
        request_id: {
          ...schemaRef('RequestId'),
          description: 'Its one payment request (`GET /proof/v1/requests/{id}`, `url` is the payment page).',
        },
        network: schemaRef('Network'),
        due_date: { type: 'string', format: 'date' },
        issued_at: dateTime,
        items: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['description', 'quantity', 'unit_usdc', 'amount_usdc'],
            properties: {
              description: { type: 'string' },
              quantity: {
                type: 'string',
                pattern: '^[0-9]+(\\.[0-9]{1,6})?$',
                description: 'Normalized: `"1.500"` reads `"1.5"`.',
              },
              unit_usdc: usdc('Unit price.'),
              amount_usdc: usdc('quantity × unit price, rounded half-up to 0.000001.'),
            },
          },
        },
        subtotal_usdc: usdc('Sum of the item amounts.'),
        tax_mode: { type: 'string', enum: [...TAX_MODES] },
        tax_rate: {
          type: ['string', 'null'],
          description: 'The percentage for `exclusive` and `inclusive`; null otherwise.',
        },
        tax_usdc: usdc('The tax.'),
        tax_notes: { type: ['string', 'null'] },
        total_usdc: usdc('Amount due: subtotal plus tax (`inclusive`: the subtotal).'),
        total_atomic: atomic('The total in atomic USDC; the quote of the payment request.'),
        amount_atomic: atomic(
          'The exact amount to pay (the total plus the unique matching delta of its payment request).',
        ),
        accounting: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            reference: { type: 'string' },
            cost_center: { type: 'string' },
            ledger_account: { type: 'string' },
          },
        },
        memo: { type: ['string', 'null'] },
        document_sha256: {
          type: 'string',
          pattern: '^[0-9a-f]{64}$',
          description: 'SHA-256 of the invoice document, rendered once at issue and never changed.',
        },
        tx_hash: { type: ['string', 'null'], description: 'The paying transaction; null before settlement.' },
        paid_at: nullable(dateTime),
        voided_at: nullable(dateTime),
      },
    },
    InvoiceSend: {
      type: 'object',
      additionalProperties: false,
      required: ['user_approved'],
      description:
        'Your assertion that a person approved sending this invoice by e-mail to the contact; it is stored with the key that sent it.',
      properties: { user_approved: { type: 'boolean', const: true } },
    },
    InvoiceSendResult: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'mail_status'],
      properties: {
        id: schemaRef('InvoiceId'),
        mail_status: {
          type: 'string',
          enum: ['queued', 'sent'],
          description:
            '`queued`: the e-mail waits in the outbox (sent asynchronously; one queued e-mail per invoice). `sent`: it was already sent and is not sent again.',
        },
      },
    },
    Me: {
      type: 'object',
      additionalProperties: false,
      required: ['api_version', 'id', 'name', 'plan', 'plan_ends_at', 'limits', 'usage', 'wallets'],
      properties: {
        api_version: { type: 'string', const: PROOF_API_VERSION, description: 'Version of this interface.' },
        id: schemaRef('MerchantId'),
        name: { type: 'string', description: 'Account name shown on payment pages and invoices.' },
        plan: {
          type: ['string', 'null'],
          enum: [...PAID_PLANS, 'trial', null],
          description:
            'The active paid plan, `trial`, or null when neither is active (reads still work; creations answer 422).',
        },
        plan_ends_at: { ...nullable(dateTime), description: 'End of the paid 30-day period or of the 7-day trial.' },
        limits: {
          type: ['object', 'null'],
          additionalProperties: false,
          description: 'Limits of the current plan; null without a plan. `null` inside means no cap.',
          required: [
            'requests_per_period',
            'invoices_per_period',
            'keys',
            'destinations',
            'max_valid_hours',
            'requests_per_hour',
          ],
          properties: {
            requests_per_period: {
              type: ['integer', 'null'],
              minimum: 0,
              description: 'Payment requests (direct or by invoice) per rolling 30 days (a trial: since its start).',
            },
            invoices_per_period: { type: ['integer', 'null'], minimum: 0 },
            keys: { type: 'integer', minimum: 1, description: 'Usable API keys.' },
            destinations: { type: 'integer', minimum: 1, description: 'Webhook destinations.' },
            max_valid_hours: {
              type: 'integer',
              minimum: 1,
              maximum: MAX_VALID_HOURS,
              description: 'Longest `valid_hours` of a payment request.',
            },
            requests_per_hour: {
              type: ['integer', 'null'],
              minimum: 1,
              description: 'Payment-request creations per hour (pro); null: none beyond the request throttles.',
            },
          },
        },
        usage: {
          type: 'object',
          additionalProperties: false,
          required: ['requests', 'invoices', 'window_start'],
          properties: {
            requests: { type: 'integer', minimum: 0 },
            invoices: { type: 'integer', minimum: 0 },
            window_start: { ...nullable(dateTime), description: 'Start of the counting window; null without a plan.' },
          },
        },
        wallets: {
          type: 'array',
          description: 'Verified receiving wallets: the only allowed `wallet_id` values.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'network', 'address', 'label'],
            properties: {
              id: schemaRef('WalletId'),
              network: schemaRef('Network'),
              address: { type: 'string' },
              label: { type: ['string', 'null'] },
            },
          },
        },
      },
      allOf: [
        {
          if: { properties: { plan: { type: 'null' } } },
          then: { properties: { limits: { type: 'null' }, plan_ends_at: { type: 'null' } } },
          else: { properties: { limits: { type: 'object' }, plan_ends_at: { type: 'string' } } },
        },
      ],
    },
    PaymentRequestList: list('PaymentRequest', 'requests'),
    ContactList: list('Contact', 'contacts'),
    InvoiceList: list('Invoice', 'invoices'),
    ...eventSchemas(),
    Error: {
      type: 'object',
      additionalProperties: false,
      required: ['error', 'code', 'request_id'],
      description: 'Every /proof error. `code` is stable; `error` is for people and never contains a secret.',
      properties: {
        error: { type: 'string' },
        code: { type: 'string', enum: PROOF_ERRORS.map((e) => e.code) },
        request_id: {
          type: 'string',
          description: 'Also in the `X-Request-Id` header; quote it when asking for help.',
        },
        issues: {
          type: 'array',
          minItems: 1,
          description: 'Validation errors: every problem at once. On a 404 for an id in the body: that field.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['path', 'message'],
            properties: {
              path: { type: 'string', description: 'e.g. `amount_usdc`, `items.0.quantity`, `limit`, `(body)`.' },
              message: { type: 'string' },
            },
          },
        },
      },
    },
  };
}

function list(item: string, kind: CursorList): Schema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'next_cursor'],
    properties: {
      data: {
        type: 'array',
        maxItems: 100,
        items: schemaRef(item),
        description: 'In descending id order (ids are random: not by creation time).',
      },
      next_cursor: {
        type: ['string', 'null'],
        pattern: cursorPattern(kind),
        description: 'Pass as `before` for the next page of this list; null when this page is not full (no more).',
      },
    },
  };
}

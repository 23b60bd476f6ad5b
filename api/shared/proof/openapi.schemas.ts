import { z } from 'zod';
import { IDEMPOTENCY_RULES } from '../../../domain/idempotency.js';
import { idPattern } from '../../../domain/ids.js';
import { PROOF_EVENT_TYPES } from '../../../domain/proof/events.js';
import {
  contactCreateSchema,
  invoiceCreateSchema,
  invoiceItemSchema,
  invoiceSendSchema,
} from '../../../domain/validation/proof-invoice.js';
import { requestCreateSchema } from '../../../domain/validation/proof-request.js';
import {
  contactIdSchema,
  contactSchema,
  invoiceIdSchema,
  invoiceSchema,
  invoiceSendResultSchema,
  merchantIdSchema,
  meSchema,
  networkSchema,
  paymentRequestSchema,
  requestIdSchema,
  requestStatusSchema,
  walletIdSchema,
} from '../../../domain/validation/proof-responses.js';
import {
  EVENT_SCHEMAS,
  eventIdSchema,
  eventListSchema,
  eventSchema,
  invoiceEventDataSchema,
  paymentConfirmedDataSchema,
  paymentRequestCreatedDataSchema,
} from '../../../domain/validation/proof-event-schemas.js';
import { Contract } from '../../http/contract.js';
import { errorCodeEnum, errorRows } from '../../http/error-table.js';
import type { Schema } from '../../http/openapi-kit.js';
import { pageSchema } from '../../http/pagination.js';
import { EVENT_DOCS } from './openapi.events.js';

/**
 * The contract of `/proof/v1`: the zod schemas the handlers parse with and the serializers return
 * (domain/validation/proof-*.ts), named as the components of the generated OpenAPI document. The request bodies
 * are read as zod reads them (before trimming), the responses as the server writes them. What no schema can say
 * (the error codes and when they happen) is metadata here.
 */

/** The /proof error codes, each with when it happens; the status comes from the error middleware's own table. */
export const PROOF_ERRORS = errorRows([
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
  'idempotency_in_progress',
  { code: 'payload_too_large', when: 'The JSON body is over the size limit.' },
  { code: 'unsupported_media_type', when: 'A body that is not `application/json`.' },
  'malformed_json',
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
]);

/** Every /proof error body (`errorBody` of api/http/errors.ts). */
export const proofErrorSchema = z
  .strictObject({
    error: z.string(),
    code: z.enum(errorCodeEnum(PROOF_ERRORS)),
    request_id: z.string().meta({ description: 'Also in the `X-Request-Id` header; quote it when asking for help.' }),
    issues: z
      .array(
        z.strictObject({
          path: z.string().meta({ description: 'e.g. `amount_usdc`, `items.0.quantity`, `limit`, `(body)`.' }),
          message: z.string(),
        }),
      )
      .min(1)
      .optional()
      .meta({ description: 'Validation errors: every problem at once. On a 404 for an id in the body: that field.' }),
  })
  .meta({ description: 'Every /proof error. `code` is stable; `error` is for people and never contains a secret.' });

export const paymentRequestListSchema = pageSchema(paymentRequestSchema, 'requests');
export const contactListSchema = pageSchema(contactSchema, 'contacts');
export const invoiceListSchema = pageSchema(invoiceSchema, 'invoices');

/** The `Idempotency-Key` header of every JSON POST (the /proof dialect of domain/idempotency.ts). */
export const idempotencyKeySchema = z.string().regex(IDEMPOTENCY_RULES.proof.pattern);

/** The named schemas of /proof (also the /proof objects of the /api/integrations contract). */
export const PROOF_COMPONENTS = {
  requests: {
    PaymentRequestCreate: requestCreateSchema,
    ContactCreate: contactCreateSchema,
    InvoiceCreate: invoiceCreateSchema,
    InvoiceItemInput: invoiceItemSchema,
    InvoiceSend: invoiceSendSchema,
  },
  responses: {
    MerchantId: merchantIdSchema,
    WalletId: walletIdSchema,
    RequestId: requestIdSchema,
    ContactId: contactIdSchema,
    InvoiceId: invoiceIdSchema,
    Network: networkSchema,
    RequestStatus: requestStatusSchema,
    PaymentRequest: paymentRequestSchema,
    Contact: contactSchema,
    Invoice: invoiceSchema,
    InvoiceSendResult: invoiceSendResultSchema,
    Me: meSchema,
    PaymentRequestList: paymentRequestListSchema,
    ContactList: contactListSchema,
    InvoiceList: invoiceListSchema,
    EventId: eventIdSchema,
    PaymentRequestCreatedData: paymentRequestCreatedDataSchema,
    InvoiceEventData: invoiceEventDataSchema,
    PaymentConfirmedData: paymentConfirmedDataSchema,
    ...Object.fromEntries(
      PROOF_EVENT_TYPES.map((t) => [
        EVENT_DOCS[t].schema,
        { schema: EVENT_SCHEMAS[t], description: EVENT_DOCS[t].when },
      ]),
    ),
    Event: eventSchema,
    EventList: eventListSchema,
    Error: proofErrorSchema,
  },
} satisfies ConstructorParameters<typeof Contract>[0];

export const proofContract = new Contract(PROOF_COMPONENTS);

/** `components/schemas` of the /proof document (also the /proof objects of the /api/integrations document). */
export function componentSchemas(): Record<string, Schema> {
  return proofContract.schemas();
}

// ---------------------------------------------------------------------------------------------------------
// Builders of JSON Schema for the document still partly written by hand (/api/company): each is
// derived from the rule the validators check (domain/validation/patterns.ts, domain/ids.ts), never a copy of it.
// They go when that document is generated from its zod schemas too.

export const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema['type'], 'null'] });
export const dateTime: Schema = { type: 'string', format: 'date-time' };
export const id = (prefix: string, what: string): Schema => ({
  type: 'string',
  pattern: idPattern(prefix),
  description: `${what} id: \`${prefix}_\` and 20 letters or digits.`,
});

import type { ErrorCode } from '../../domain/errors.js';
import { z } from 'zod';
import { IDEMPOTENCY_RULES } from '../../domain/idempotency.js';
import { PROOF_API_VERSION } from '../../domain/proof/events.js';
import { afterSchema, beforeSchema, encodeCursor, limitSchema } from '../http/pagination.js';
import {
  errorResponses,
  header,
  HEADER_VALUES,
  headerRef,
  htmlContent,
  idempotencyKeyParameter,
  json,
  pathParam,
  replayedHeader,
  responseRef,
  type Schema,
  standardHeaders,
} from '../http/openapi-kit.js';
import { PAYMENT_PAGE_HEADERS } from './payment-page.js';
import { contactCreateSchema, invoiceCreateSchema, invoiceSendSchema } from '../../domain/validation/proof-invoice.js';
import { requestCreateSchema } from '../../domain/validation/proof-request.js';
import {
  contactSchema,
  invoiceSchema,
  invoiceSendResultSchema,
  meSchema,
  paymentRequestSchema,
} from '../../domain/validation/proof-responses.js';
import { eventListSchema } from '../../domain/validation/proof-event-schemas.js';
import {
  componentSchemas,
  contactListSchema,
  invoiceListSchema,
  paymentRequestListSchema,
  proofContract,
  PROOF_ERRORS,
} from '../shared/proof/openapi.schemas.js';
import { webhooks } from '../shared/proof/openapi.events.js';
import { errorCodeRows } from '../http/error-table.js';
import {
  contactCreateExample,
  contactExample,
  EVENT_EXAMPLES,
  EXAMPLES,
  invoiceCreateExample,
  invoiceExample,
  meExample,
  requestCreateExample,
  requestExample,
} from '../shared/proof/openapi.examples.js';
import { paymentPagePath } from '../../domain/proof/payment-page.js';

/** What the document states about this server's configured limits. */
export interface ProofDocsSettings {
  rateLimits: { perKeyPerMinute: number; perIpPerMinute: number; proPerHour: number };
  bodyLimitJson: string;
}

export const OPENAPI_PATH = '/proof/openapi.json';
export const DEVELOPERS_PATH = '/proof/developers';

type Json = Schema;

const error = (code: ErrorCode, message: string, issues?: Json[]): Json => ({
  error: message,
  code,
  request_id: EXAMPLES.requestId,
  ...(issues ? { issues } : {}),
});

const HEADERS: Record<string, Json> = {
  ...standardHeaders(),
  'Idempotent-Replayed': replayedHeader(
    '`true` when this is the stored response of an earlier request with the same `Idempotency-Key` (same status, same body bytes).',
  ),
};
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
/** Headers of a /proof/v1 response: on success the rate-limit headers are always sent (the request passed the limiter). */
const limited = (success: boolean): Json => ({
  'X-Request-Id': headerRef('X-Request-Id'),
  ...Object.fromEntries(RATE_LIMIT_HEADERS.map((n) => [n, success ? { ...HEADERS[n], required: true } : headerRef(n)])),
});
const errorResponse = errorResponses('proof', () => limited(false));
const publicErrorResponse = errorResponses('proof', () => ({ 'X-Request-Id': headerRef('X-Request-Id') }));

const wwwAuthenticate = {
  'WWW-Authenticate': header('`Bearer`, on `unauthorized` and `api_key_in_url`.', HEADER_VALUES.bearer, false),
};

function componentResponses(): Record<string, Json> {
  return {
    Unauthorized: errorResponse(
      401,
      ['unauthorized', 'api_key_in_url', 'insufficient_scope'],
      'Missing, invalid, revoked, expired or inactive key, a key in the URL, or a key without the scope of the method (`read` for GET, `write` for POST).',
      error('unauthorized', 'Missing or invalid API key'),
      wwwAuthenticate,
    ),
    Forbidden: errorResponse(
      403,
      ['forbidden'],
      'The account is suspended.',
      error('forbidden', 'This account is suspended'),
    ),
    PayloadTooLarge: errorResponse(
      413,
      ['payload_too_large'],
      "A JSON body over the server's size limit (the developers page states it).",
      error('payload_too_large', 'Request body is too large'),
    ),
    UnsupportedMediaType: errorResponse(
      415,
      ['unsupported_media_type'],
      'A body that is not `application/json`.',
      error('unsupported_media_type', 'Request body must be application/json'),
    ),
    RateLimited: errorResponse(
      429,
      ['rate_limited'],
      'Over a request limit: per key and per IP address per minute (`RateLimit-Limit` gives the tightest in force); pro accounts also `requests_per_hour` of `GET /proof/v1/me` payment-request creations in any 60 minutes (only creations count; a replay is answered past it).',
      error('rate_limited', 'Too many requests; retry after the time in Retry-After'),
      { 'Retry-After': headerRef('Retry-After') },
    ),
    InternalError: errorResponse(
      500,
      ['internal_error'],
      'Unexpected server error; retry with backoff (with the same `Idempotency-Key` for a POST).',
      error('internal_error', 'Internal server error'),
    ),
    ServiceUnavailable: errorResponse(
      503,
      ['service_unavailable'],
      'Temporarily unavailable (e.g. the database cannot be reached); retry after `Retry-After` seconds (with the same `Idempotency-Key` for a POST).',
      error('service_unavailable', 'The service is temporarily unavailable; retry after the time in Retry-After'),
      { 'Retry-After': headerRef('Retry-After') },
    ),
    KeyInUrl: publicErrorResponse(
      401,
      ['api_key_in_url'],
      'A key or a credential-named parameter is in the URL: refused on every `/proof` path.',
      error(
        'api_key_in_url',
        'API keys must be sent in the Authorization header, never in the URL; revoke a key that was put in a URL',
      ),
      wwwAuthenticate,
    ),
  };
}

const common = (): Json => ({
  '401': responseRef('Unauthorized'),
  '403': responseRef('Forbidden'),
  '429': responseRef('RateLimited'),
  '500': responseRef('InternalError'),
  '503': responseRef('ServiceUnavailable'),
});
const readScope = [{ apiKey: ['read'] }];
const writeScope = [{ apiKey: ['write'] }];

const ok = (description: string, schema: z.ZodType, examples: Record<string, Json>, extraHeaders: Json = {}): Json => ({
  description,
  headers: { ...limited(true), ...extraHeaders },
  content: json(proofContract.ref(schema), examples),
});
const replayable = { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') };

const idParam = (prefix: string, what: string, example: string) =>
  pathParam(
    'id',
    { type: 'string' },
    `${what} id (\`${prefix}_…\`). An id of another account, or an unknown one, is 404.`,
    example,
  );
const notFound = (what: string) =>
  errorResponse(
    404,
    ['not_found'],
    `Unknown ${what}, or one of another account.`,
    error('not_found', `${what[0]!.toUpperCase()}${what.slice(1)} not found`),
  );
/** 404 for an id in the body that names nothing of your account (docs/platform.md, "Ids"): the field is named in `issues`. */
const bodyIdNotFound = (fields: string, path: string, message: string) =>
  errorResponse(
    404,
    ['not_found'],
    `${fields} names nothing in your account: unknown, or another account's (the same answer for both). The field is named in the message and in \`issues\`.`,
    error('not_found', `${path}: ${message}`, [{ path, message }]),
  );

const limitParam: Json = {
  name: 'limit',
  in: 'query',
  required: false,
  description: 'Page size, 1 to 100 (default 50).',
  schema: proofContract.parameterSchema(limitSchema),
  example: 25,
};
/** The last id of an example page of each list (its cursor is a `before` example). */
const LAST_IDS: Record<'requests' | 'contacts' | 'invoices', string> = {
  requests: EXAMPLES.request,
  contacts: EXAMPLES.contact,
  invoices: EXAMPLES.invoice,
};
const listParams = (kind: 'requests' | 'contacts' | 'invoices'): Json[] => [
  limitParam,
  {
    name: 'before',
    in: 'query',
    required: false,
    description:
      'The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value, a cursor of another list included, is 422.',
    schema: proofContract.parameterSchema(beforeSchema(kind)),
    examples: { next_page: { summary: 'A next_cursor of this list', value: encodeCursor(kind, LAST_IDS[kind]) } },
  },
];
const badQuery = (fields: string) =>
  errorResponse(
    422,
    ['validation_failed'],
    `Invalid ${fields} (named in \`issues\`).`,
    error('validation_failed', 'limit must be an integer from 1 to 100', [
      { path: 'limit', message: 'an integer from 1 to 100' },
    ]),
  );

const idempotencyKey: Json = idempotencyKeyParameter(
  `${IDEMPOTENCY_RULES.proof.description}; one new key per new resource or action, reused unchanged for retries. Keys are account-wide across ` +
    'API keys and operations and never expire: the same operation and payload returns the original status and body (`Idempotent-Replayed: true`); ' +
    'another operation or payload is 409. A rejected request (any error) stores and creates nothing.',
  IDEMPOTENCY_RULES.proof.pattern,
  EXAMPLES.idempotencyKey,
);
const body = (schema: z.ZodType, examples: Record<string, Json>): Json => ({
  required: true,
  content: json(proofContract.ref(schema), examples),
});
/** The failures every JSON POST of /proof/v1 may answer, besides its own 404, 409 and 422. */
const postErrors = (): Json => ({
  ...common(),
  '413': responseRef('PayloadTooLarge'),
  '415': responseRef('UnsupportedMediaType'),
});
const IDEMPOTENCY_409 = ['idempotency_conflict', 'idempotency_in_progress'] as ErrorCode[];
const idempotencyConflict = error(
  'idempotency_conflict',
  'This Idempotency-Key was already used for a different operation or payload; use a new key',
);
const POST_422: ErrorCode[] = [
  'validation_failed',
  'malformed_json',
  'idempotency_key_required',
  'idempotency_key_invalid',
  'quota_exceeded',
];

function paths(): Json {
  return {
    '/proof/v1/me': {
      get: {
        operationId: 'getMe',
        tags: ['Account'],
        summary: 'Your account, plan limits, usage and verified wallets',
        security: readScope,
        description:
          'Start here: the `api_version`, the limits of the current plan, what the current window has used, and the verified wallets whose ids `POST /proof/v1/requests` and `POST /proof/v1/invoices` accept.',
        responses: { '200': ok('The account.', meSchema, { business: meExample }), ...common() },
      },
    },
    '/proof/v1/requests': {
      post: {
        operationId: 'createPaymentRequest',
        tags: ['Payment requests'],
        summary: 'Create a payment request',
        security: writeScope,
        description:
          "A request for native USDC to one of your verified wallets. The response's `amount_atomic` is the exact amount to pay: the quote plus a small unique " +
          'matching delta, so the payment can be told apart. Send the payer the `url` (payment page). Consumes one payment-request allowance; a replay consumes none.',
        parameters: [idempotencyKey],
        requestBody: body(requestCreateSchema, { direct: requestCreateExample }),
        responses: {
          '201': ok(
            'Created (or the replay of the original response).',
            paymentRequestSchema,
            { awaiting: requestExample() },
            replayable,
          ),
          '404': bodyIdNotFound(
            '`wallet_id`',
            'wallet_id',
            'no verified wallet with this id in this account (see GET /proof/v1/me)',
          ),
          '409': errorResponse(
            409,
            IDEMPOTENCY_409,
            'The `Idempotency-Key` was used for another operation or payload, or is still in progress.',
            idempotencyConflict,
          ),
          '422': errorResponse(
            422,
            POST_422,
            "Invalid body (every problem in `issues`; a malformed `wallet_id` included), `valid_hours` over the plan limit, an `expected_payer` that is not a valid payer address on the wallet's network (bad EIP-55 checksum, zero address), the allowance used up or no active plan, or a missing or invalid `Idempotency-Key`.",
            error('validation_failed', 'Invalid request: amount_usdc: amount_usdc must be greater than zero', [
              { path: 'amount_usdc', message: 'amount_usdc must be greater than zero' },
            ]),
          ),
          ...postErrors(),
        },
      },
      get: {
        operationId: 'listPaymentRequests',
        tags: ['Payment requests'],
        summary: 'List payment requests',
        security: readScope,
        description:
          'Your payment requests (direct and invoice-backed), in descending id order (not by date), one bounded page at a time.',
        parameters: listParams('requests'),
        responses: {
          '200': ok('A page.', paymentRequestListSchema, { page: { data: [requestExample()], next_cursor: null } }),
          '422': badQuery('`limit` or `before`'),
          ...common(),
        },
      },
    },
    '/proof/v1/requests/{id}': {
      get: {
        operationId: 'getPaymentRequest',
        tags: ['Payment requests'],
        summary: 'Get a payment request',
        security: readScope,
        description:
          "One of your payment requests, with its current status. Only `PAID` means paid: it is set only from the service's own matching of verified transfer evidence.",
        parameters: [idParam('req', 'A payment request', EXAMPLES.request)],
        responses: {
          '200': ok('The payment request.', paymentRequestSchema, {
            awaiting: requestExample(),
            paid: requestExample({ status: 'PAID', tx_hash: EXAMPLES.txHash, verified_at: '2025-11-22T10:02:13.000Z' }),
          }),
          '404': notFound('payment request'),
          ...common(),
        },
      },
    },
    '/proof/v1/contacts': {
      post: {
        operationId: 'createContact',
        tags: ['Contacts'],
        summary: 'Create a contact (a buyer)',
        security: writeScope,
        description: 'A buyer to invoice. There is no public update or delete.',
        parameters: [idempotencyKey],
        requestBody: body(contactCreateSchema, { buyer: contactCreateExample }),
        responses: {
          '201': ok(
            'Created (or the replay of the original response).',
            contactSchema,
            { buyer: contactExample },
            replayable,
          ),
          '409': errorResponse(
            409,
            IDEMPOTENCY_409,
            'The `Idempotency-Key` was used for another operation or payload, or is still in progress.',
            idempotencyConflict,
          ),
          '422': errorResponse(
            422,
            POST_422,
            'Invalid body (every problem in `issues`), or a missing or invalid `Idempotency-Key`.',
            error(
              'validation_failed',
              'Invalid request: email: email must be a valid address, e.g. billing@example.com',
              [{ path: 'email', message: 'email must be a valid address, e.g. billing@example.com' }],
            ),
          ),
          ...postErrors(),
        },
      },
      get: {
        operationId: 'listContacts',
        tags: ['Contacts'],
        summary: 'List contacts',
        security: readScope,
        description: 'Your contacts, in descending id order (not by date), one bounded page at a time.',
        parameters: listParams('contacts'),
        responses: {
          '200': ok('A page.', contactListSchema, { page: { data: [contactExample], next_cursor: null } }),
          '422': badQuery('`limit` or `before`'),
          ...common(),
        },
      },
    },
    '/proof/v1/contacts/{id}': {
      get: {
        operationId: 'getContact',
        tags: ['Contacts'],
        summary: 'Get a contact',
        security: readScope,
        description: 'One of your contacts.',
        parameters: [idParam('con', 'A contact', EXAMPLES.contact)],
        responses: {
          '200': ok('The contact.', contactSchema, { buyer: contactExample }),
          '404': notFound('contact'),
          ...common(),
        },
      },
    },
    '/proof/v1/invoices': {
      post: {
        operationId: 'createInvoice',
        tags: ['Invoices'],
        summary: 'Issue an invoice',
        security: writeScope,
        description:
          "Issues an invoice with exact totals, creates exactly one payment request for its total (`request_id`; its payment page is the request's `url`) and " +
          'renders the invoice document once. Sends no e-mail. Consumes one payment-request and one invoice allowance; a replay consumes neither. ' +
          'Emits `payment_request.created`, then `invoice.issued`.',
        parameters: [idempotencyKey],
        requestBody: body(invoiceCreateSchema, { exclusive_tax: invoiceCreateExample }),
        responses: {
          '201': ok(
            'Issued (or the replay of the original response).',
            invoiceSchema,
            { issued: invoiceExample() },
            replayable,
          ),
          '404': bodyIdNotFound(
            '`customer_id` or `wallet_id`',
            'customer_id',
            'no contact with this id in this account',
          ),
          '409': errorResponse(
            409,
            IDEMPOTENCY_409,
            'The `Idempotency-Key` was used for another operation or payload, or is still in progress.',
            idempotencyConflict,
          ),
          '422': errorResponse(
            422,
            POST_422,
            "Invalid body (every problem in `issues`), a due date before today or past the plan's longest payment window (`due_date`), a total of zero or over the maximum, the allowances used up or no active plan, or a missing or invalid `Idempotency-Key`.",
            error('validation_failed', 'Invalid request: tax_rate: tax_rate is required when tax_mode is exclusive', [
              { path: 'tax_rate', message: 'tax_rate is required when tax_mode is exclusive' },
            ]),
          ),
          ...postErrors(),
        },
      },
      get: {
        operationId: 'listInvoices',
        tags: ['Invoices'],
        summary: 'List invoices',
        security: readScope,
        description: 'Your invoices, in descending id order (not by date), one bounded page at a time.',
        parameters: listParams('invoices'),
        responses: {
          '200': ok('A page.', invoiceListSchema, { page: { data: [invoiceExample()], next_cursor: null } }),
          '422': badQuery('`limit` or `before`'),
          ...common(),
        },
      },
    },
    '/proof/v1/invoices/{id}': {
      get: {
        operationId: 'getInvoice',
        tags: ['Invoices'],
        summary: 'Get an invoice',
        security: readScope,
        description: "One of your invoices, with its status and its payment request's amount and transaction.",
        parameters: [idParam('inv', 'An invoice', EXAMPLES.invoice)],
        responses: {
          '200': ok('The invoice.', invoiceSchema, {
            issued: invoiceExample(),
            paid: invoiceExample({ status: 'paid', tx_hash: EXAMPLES.txHash, paid_at: '2025-11-23T10:15:42.000Z' }),
          }),
          '404': notFound('invoice'),
          ...common(),
        },
      },
    },
    '/proof/v1/invoices/{id}/send': {
      post: {
        operationId: 'sendInvoice',
        tags: ['Invoices'],
        summary: 'E-mail an invoice after a person approved it',
        security: writeScope,
        description:
          'Queues the invoice e-mail to the contact. Send `{"user_approved": true}` only after a real person approved this e-mail: the API stores your ' +
          'assertion with the key that made it. The mail is queued and sent asynchronously; while one waits or once it was sent, calling again sends nothing more.',
        parameters: [idParam('inv', 'An invoice', EXAMPLES.invoice), idempotencyKey],
        requestBody: body(invoiceSendSchema, { approved: { user_approved: true } }),
        responses: {
          '200': ok(
            'Queued (or the replay of the original response).',
            invoiceSendResultSchema,
            { queued: { id: EXAMPLES.invoice, mail_status: 'queued' } },
            replayable,
          ),
          '404': notFound('invoice'),
          '409': errorResponse(
            409,
            ['conflict', ...IDEMPOTENCY_409],
            'The invoice is voided, or the `Idempotency-Key` was used for another operation or payload (or is still in progress).',
            error('conflict', 'A voided invoice cannot be sent'),
          ),
          '422': errorResponse(
            422,
            POST_422,
            'A body other than `{"user_approved": true}`, or a missing or invalid `Idempotency-Key`.',
            error(
              'validation_failed',
              'Invalid request: user_approved: user_approved must be true: a person approved sending this invoice',
              [
                {
                  path: 'user_approved',
                  message: 'user_approved must be true: a person approved sending this invoice',
                },
              ],
            ),
          ),
          ...postErrors(),
        },
      },
    },
    '/proof/v1/events': {
      get: {
        operationId: 'listEvents',
        tags: ['Events'],
        summary: 'Read your events after a cursor',
        security: readScope,
        description:
          'Your events after the cursor `after`, oldest first: the same bytes as the webhook bodies. Poll with the returned `next_cursor`. Events exist only ' +
          'while your account has an enabled webhook destination at the time of the change (no history before it); they are kept at least 30 days.',
        parameters: [
          {
            name: 'after',
            in: 'query',
            required: false,
            description:
              'Return events with a greater cursor (default 0: from the oldest kept); an integer from 0 to 2^53−1, anything else is 422.',
            schema: proofContract.parameterSchema(afterSchema),
            example: 0,
          },
          { ...limitParam, example: 50 },
        ],
        responses: {
          '200': ok('Events (possibly none).', eventListSchema, {
            events: {
              data: [
                { cursor: 41, event: EVENT_EXAMPLES['payment_request.created'] },
                { cursor: 42, event: EVENT_EXAMPLES['invoice.issued'] },
              ],
              next_cursor: 42,
            },
          }),
          '422': badQuery('`after` or `limit`'),
          ...common(),
        },
      },
    },
    [paymentPagePath('{id}')]: {
      get: {
        operationId: 'getPaymentPage',
        tags: ['Payment page'],
        summary: 'The payment page of a request (public HTML)',
        security: [],
        description:
          "The page a payer opens from a request's `url`: amount to pay exactly, network, receiving address, QR code while payable, expiry and status (403 with nothing to pay while the account is suspended). " +
          'No key: the unguessable request id is the capability. Server-rendered HTML without scripts or external resources.',
        parameters: [pathParam('id', { type: 'string' }, 'A payment request id (`req_…`).', EXAMPLES.request)],
        responses: {
          '200': {
            description: 'The page.',
            headers: pageHeaders(),
            content: htmlContent(),
          },
          '403': {
            description:
              'The account that made the request is suspended: a page that says "Not accepting payments: do not pay" and shows nothing to pay (no amount, address, QR code or payment link). ' +
              'A confirmed or reviewed payment is still mentioned. Once the account is active again, the same URL answers 200.',
            headers: pageHeaders(),
            content: htmlContent(),
          },
          '404': {
            description: 'No such payment request: a page that says so (without a reason).',
            headers: pageHeaders(),
            content: htmlContent(),
          },
          '401': responseRef('KeyInUrl'),
          '503': publicErrorResponse(
            503,
            ['service_unavailable'],
            'The database cannot be reached right now; reload after `Retry-After` seconds.',
            error('service_unavailable', 'The service is temporarily unavailable; retry after the time in Retry-After'),
            { 'Retry-After': headerRef('Retry-After') },
          ),
        },
      },
    },
    [OPENAPI_PATH]: {
      get: {
        operationId: 'getOpenApi',
        tags: ['Documentation'],
        summary: 'This OpenAPI document',
        security: [],
        description:
          'The machine-readable description of `/proof` (OpenAPI 3.1, JSON Schema 2020-12), including the webhooks. Public.',
        responses: {
          '200': {
            description: 'The OpenAPI 3.1 document.',
            headers: { 'X-Request-Id': headerRef('X-Request-Id') },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['openapi', 'paths', 'webhooks'],
                  properties: { openapi: { type: 'string' }, paths: { type: 'object' }, webhooks: { type: 'object' } },
                },
              },
            },
          },
          '401': responseRef('KeyInUrl'),
        },
      },
    },
    [DEVELOPERS_PATH]: {
      get: {
        operationId: 'getDevelopers',
        tags: ['Documentation'],
        summary: 'Developer documentation (HTML)',
        security: [],
        description:
          'The guide: authentication, idempotency, pagination, payment requests, invoices, events and receiving webhooks (with signature verification), every endpoint with examples, errors and limits. Public.',
        responses: {
          '200': {
            description: 'The documentation page.',
            headers: { 'X-Request-Id': headerRef('X-Request-Id') },
            content: htmlContent(),
          },
          '401': responseRef('KeyInUrl'),
        },
      },
    },
  };
}

/** The headers of the payment page and its 404 (`PAYMENT_PAGE_HEADERS`), each as sent. */
function pageHeaders(): Json {
  const described: Record<string, string> = {
    'Content-Security-Policy': "Nothing may load or run; only the page's own stylesheet applies; no framing.",
    'Cache-Control': 'Never cached: the status changes.',
    'Referrer-Policy': 'The URL holds the request id: never sent onwards.',
    'X-Frame-Options': "Never framed (for browsers without the CSP's frame-ancestors).",
    'X-Robots-Tag': 'Not indexed.',
  };
  return {
    'X-Request-Id': headerRef('X-Request-Id'),
    ...Object.fromEntries(
      Object.entries(described).map(([name, d]) => [name, header(d, z.literal(PAYMENT_PAGE_HEADERS[name]!), true)]),
    ),
  };
}

/** The OpenAPI 3.1 document of `/proof` as this server implements it. */
export function proofOpenApi(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment requests, invoices and webhooks (/proof/v1)',
      version: PROOF_API_VERSION,
      summary: 'Request native USDC payments, issue invoices, read events and receive signed webhooks.',
      description:
        'Server-to-server only: authenticate with `Authorization: Bearer skp_…` (never in a URL, browser or source control); no cookies, no CORS. ' +
        "`read` keys may GET, `write` keys may POST. Every JSON POST needs an `Idempotency-Key`. Every id belongs to your account: another account's id is 404. " +
        `Errors are \`{error, code, request_id}\` plus \`issues\` on validation errors. Requests per minute are limited per key and per IP address ` +
        "(the `RateLimit-*` headers give the limit in force; the developers page the server's figures). Payment is confirmed only by the service's own matching of verified transfer evidence: no endpoint " +
        'confirms a payment, changes an invoice status or signs a transaction. Clients ignore unknown response fields. ' +
        `Human-readable guide: ${DEVELOPERS_PATH}.`,
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [
      { name: 'Account', description: 'Your account, limits and verified wallets.' },
      { name: 'Payment requests', description: 'Requests for native USDC, each with a public payment page.' },
      { name: 'Contacts', description: 'Buyers to invoice.' },
      { name: 'Invoices', description: 'Invoices, each with exactly one payment request.' },
      { name: 'Events', description: 'The event log (the webhook bodies).' },
      { name: 'Payment page', description: 'What the payer sees (public).' },
      { name: 'Documentation', description: 'This document and the HTML guide (public).' },
      { name: 'Webhooks', description: 'What your destination receives.' },
    ],
    paths: paths(),
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'skp_…',
          description:
            'An account API key, shown once at creation. Scopes `read` (GET), `write` (POST) or both, independently: a `write`-only key cannot GET (401 `insufficient_scope`). Optional expiry. Keep it on your server.',
        },
      },
      schemas: componentSchemas(),
      responses: componentResponses(),
      headers: HEADERS,
    },
    'x-error-codes': errorCodeRows('proof', PROOF_ERRORS),
  };
}

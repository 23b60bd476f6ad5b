import type { ErrorCode } from '../../domain/errors.js';
import { NETWORKS } from '../../domain/networks.js';
import { PROOF_EVENT_TYPES } from '../../domain/proof/events.js';
import { PAID_PLANS } from '../../domain/proof/plans.js';
import { REQUEST_STATUSES } from '../../domain/proof/statuses.js';
import { PURCHASE_VALID_HOURS, WALLET_CHALLENGE_TTL_MS } from '../../domain/self-service.js';
import {
  closedObject,
  EMPTY_BODY,
  jsonBody,
  MUTATION,
  okResponse,
  plainHeaders,
  SESSION,
  sessionDocument,
  sessionHeaders,
} from '../http/session-document.js';
import {
  errorResponses,
  header,
  headerRef,
  json,
  pathParam,
  responseRef,
  schemaRef,
  type Schema,
} from '../http/openapi-kit.js';
import { cursorPattern, encodeCursor, type CursorList } from '../http/pagination.js';
import {
  EVENT_EXAMPLES,
  EXAMPLES,
  contactCreateExample,
  contactExample,
  invoiceCreateExample,
  invoiceExample,
  requestCreateExample,
  requestExample,
} from '../proof/openapi.examples.js';
import {
  atomic,
  componentSchemas as proofSchemas,
  dateTime,
  EMAIL,
  id,
  nullable,
  trimmed,
} from '../proof/openapi.schemas.js';
import { PURCHASE_STATUSES } from '../../services/self-service/purchases.js';
import { SESSION_COOKIE } from './guards.js';

/**
 * The OpenAPI 3.1 document of the /proof merchant dashboard's session routes (`/api/integrations`): what the web app
 * calls. Security is the session cookie and, on every mutation, the session's `X-CSRF-Token` (and an allowed
 * `Origin`, which browsers send by themselves). The payment-request, contact, invoice and event objects are the
 * /proof/v1 schemas (api/proof/openapi.schemas.ts): the session routes are the same handlers.
 */
export const INTEGRATIONS_OPENAPI_PATH = '/api/integrations/openapi.json';
export const INTEGRATIONS_DOCS_PATH = '/api/integrations/docs';
export const INTEGRATIONS_API_VERSION = '1.1.0';

/** Every code these routes answer, with when: the document's `x-error-codes` and the `Error` schema's enum. */
export const INTEGRATIONS_ERRORS: ReadonlyArray<{ code: ErrorCode; when: string }> = [
  { code: 'invalid_credentials', when: 'Sign-in: the address or the password is wrong (the same answer for both).' },
  { code: 'api_key_in_url', when: 'A credential-named parameter or an API key is in the query string.' },
  {
    code: 'authorization_header_rejected',
    when: 'An `Authorization` header was sent: these routes take the session cookie only (API keys are for `/proof/v1`).',
  },
  { code: 'origin_rejected', when: 'A mutation without an allowed `Origin` (or with a cross-site `Sec-Fetch-Site`).' },
  { code: 'session_required', when: 'No live session cookie (never signed in, signed out, expired or idle too long).' },
  { code: 'csrf_failed', when: "A mutation without the session's `X-CSRF-Token`." },
  {
    code: 'customer_access_required',
    when: 'The account is suspended, or (outside `/plan`) it has no active plan or trial.',
  },
  {
    code: 'not_found',
    when: "The id names nothing in your account (another account's id gets the same answer), or a body id (`wallet_id`, `customer_id`) is not yours.",
  },
  { code: 'method_not_allowed', when: 'The path exists, but not with this method (see `Allow`).' },
  {
    code: 'conflict',
    when: 'Invalid state: a paid invoice cannot be voided; an address another account receives on (in any spelling) cannot be claimed.',
  },
  {
    code: 'invalid_retry_state',
    when: 'A delivery can be retried only when it failed with attempts left, to an enabled destination the plan still allows.',
  },
  {
    code: 'purchase_unavailable',
    when: 'Self-service purchases are not offered on that network (the platform has no receiving wallet there, or it is held), or not at all.',
  },
  {
    code: 'too_many_open_purchases',
    when: 'The account holds 3 purchases awaiting payment or in review already: pay one or wait until one expires (24 hours after it was made).',
  },
  {
    code: 'idempotency_conflict',
    when: 'The `Idempotency-Key` was already used for another operation or payload (keys are account-wide, shared with `/proof/v1`, and never expire).',
  },
  {
    code: 'idempotency_in_progress',
    when: 'A request with the same `Idempotency-Key` is still being processed; retry shortly.',
  },
  { code: 'payload_too_large', when: 'A JSON body over the limit.' },
  { code: 'unsupported_media_type', when: 'A body not sent as `application/json`.' },
  { code: 'malformed_json', when: 'The body is not valid JSON.' },
  { code: 'validation_failed', when: 'Invalid body or query; `issues` names every field.' },
  { code: 'idempotency_key_required', when: 'A mutation without an `Idempotency-Key` header.' },
  { code: 'idempotency_key_invalid', when: 'The `Idempotency-Key` is not 16 to 80 letters, digits, `_` or `-`.' },
  {
    code: 'quota_exceeded',
    when: "The plan's payment-request or invoice allowance is used up, or the fair-use maximum of stored idempotent responses is reached.",
  },
  { code: 'limit_reached', when: "The plan's number of active keys or of webhook destinations is reached." },
  {
    code: 'challenge_invalid',
    when: "The wallet challenge is unknown or another account's, expired, or used already: ask for a new one.",
  },
  {
    code: 'signature_invalid',
    when: "The signature is malformed or is not the wallet's signature of the challenge message.",
  },
  {
    code: 'rate_limited',
    when: 'Over a request limit (per IP, sign-in attempts per address, or pro creations per hour); wait `Retry-After` seconds.',
  },
  { code: 'internal_error', when: 'Unexpected server error; quote `request_id`.' },
  {
    code: 'service_unavailable',
    when: 'Temporarily unavailable (the database, Temporal for a retry, or a stored document); retry after `Retry-After` seconds.',
  },
];

const CODES = INTEGRATIONS_ERRORS.map((e) => e.code);
const HEADERS: Record<string, Schema> = {
  ...sessionHeaders(),
  'Idempotent-Replayed': header(
    '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    { type: 'string', const: 'true' },
    false,
  ),
};
const plain = plainHeaders;
const errorResponse = errorResponses('integrations', plain);
const example = (code: ErrorCode): Schema => ({
  error: INTEGRATIONS_ERRORS.find((e) => e.code === code)!.when,
  code,
  request_id: EXAMPLES.requestId,
});
const errors = (status: number, codes: ErrorCode[], description: string, extraHeaders: Schema = {}) =>
  errorResponse(status, codes, description, example(codes[0]!), extraHeaders);

interface ErrorsOf {
  /** Sign-in: before the session guards. */
  public?: boolean;
  mutation?: boolean;
  /** Takes an Idempotency-Key. */
  idem?: boolean;
  /** A path id (404 when it is not the account's). */
  ids?: boolean;
  /** Query parameters (422 on a bad one). */
  query?: boolean;
  /** Behind the active-plan guard (everything but the session and `/plan`). */
  plan?: boolean;
  extra409?: ErrorCode[];
  extra422?: ErrorCode[];
  notFound?: boolean;
}

/** The errors of an operation, by what it is. */
function errorsOf(o: ErrorsOf): Record<string, Schema> {
  const forbidden: ErrorCode[] = ['authorization_header_rejected'];
  if (o.mutation) forbidden.push('origin_rejected');
  if (!o.public) forbidden.push('session_required', ...(o.mutation ? (['csrf_failed'] as const) : []));
  forbidden.push('customer_access_required');
  const out: Record<string, Schema> = {
    '401': errors(
      401,
      o.public ? ['invalid_credentials', 'api_key_in_url'] : ['api_key_in_url'],
      o.public ? 'Wrong address or password (or a credential in the URL).' : 'A credential in the URL.',
    ),
    '403': errors(403, forbidden, 'Refused by a guard: see `code`.'),
    '429': responseRef('RateLimited'),
    '500': responseRef('InternalError'),
    '503': responseRef('ServiceUnavailable'),
  };
  if (o.mutation) {
    out['413'] = errors(413, ['payload_too_large'], 'The body is over the limit.');
    out['415'] = errors(415, ['unsupported_media_type'], 'The body is not `application/json`.');
  }
  const unprocessable: ErrorCode[] = [];
  if (o.mutation) unprocessable.push('validation_failed', 'malformed_json');
  if (o.idem) unprocessable.push('idempotency_key_required', 'idempotency_key_invalid', 'quota_exceeded');
  if (o.query && !unprocessable.includes('validation_failed')) unprocessable.push('validation_failed');
  unprocessable.push(...(o.extra422 ?? []));
  if (unprocessable.length)
    out['422'] = errors(422, unprocessable, 'Invalid body, query or header; `issues` names each field.');
  const conflicts: ErrorCode[] = [
    ...(o.idem ? (['idempotency_conflict', 'idempotency_in_progress'] as const) : []),
    ...(o.extra409 ?? []),
  ];
  if (conflicts.length) out['409'] = errors(409, conflicts, 'A state or `Idempotency-Key` conflict: see `code`.');
  if (o.ids || o.notFound) out['404'] = errors(404, ['not_found'], 'Not found in your account.');
  return out;
}

const ok = okResponse;
const replayed = { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') };
const body = jsonBody;
const emptyBody = EMPTY_BODY;
const idParam = (prefix: string, what: string, value: string) =>
  pathParam('id', { type: 'string', pattern: `^${prefix}_[A-Za-z0-9]{20}$` }, `${what} id (\`${prefix}_…\`).`, value);
const idempotencyKey: Schema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,80}$' },
  example: EXAMPLES.idempotencyKey,
  description:
    'Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.',
};
const limitParam: Schema = {
  name: 'limit',
  in: 'query',
  required: false,
  schema: { type: 'integer', minimum: 1, maximum: 100 },
  description: 'Page size, 1 to 100 (default 50).',
};
const SAMPLE_IDS: Record<CursorList, string> = {
  requests: EXAMPLES.request,
  contacts: EXAMPLES.contact,
  invoices: EXAMPLES.invoice,
  deliveries: EXAMPLES.delivery,
  jobs: 'job_Vb7Nm2Xc4Lk9Jh3Gf6Ds',
  batches: 'bat_Vb7Nm2Xc4Lk9Jh3Gf6Ds',
  purchases: 'pur_Vb7Nm2Xc4Lk9Jh3Gf6Ds',
  uploads: 'upl_Vb7Nm2Xc4Lk9Jh3Gf6Ds',
};
const beforeParam = (list: CursorList): Schema => ({
  name: 'before',
  in: 'query',
  required: false,
  schema: { type: 'string', pattern: cursorPattern(list) },
  description:
    'The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422.',
  examples: { next_page: { summary: 'A next_cursor of this list', value: encodeCursor(list, SAMPLE_IDS[list]) } },
});
const NO_NUL = '^[^\\x00]*$';

const obj = closedObject;
const page = (item: string, list: CursorList): Schema =>
  obj(['data', 'next_cursor'], {
    data: { type: 'array', maxItems: 100, items: schemaRef(item) },
    next_cursor: {
      type: ['string', 'null'],
      pattern: cursorPattern(list),
      description: 'Pass as `before` for the next page; null on the last page.',
    },
  });
const usdc: Schema = { type: 'string', pattern: '^[0-9]{1,17}\\.[0-9]{6}$' };

const AT = '2025-11-22T09:05:00.000Z';
const EX = {
  user: 'usr_Xb7Nm2Xc4Lk9Jh3Gf6Ds',
  key: 'key_Rt2Wv8Yz1Ab43kQ9xLm7',
  webhook: 'whe_Hc5Tn0Pq8Ws2Ke6Uy4Gd',
  purchase: 'pur_Qm4Zr8Tv1Yx5Cb9Nd2Fh',
  challenge: 'wch_Nc7Xd2HmWq3Lk8Zt5Rb1',
  platform: '0x52908400098527886E0F7030069857D2E4169EE7',
  payer: '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF',
};
const merchantEx = { id: EXAMPLES.merchant, name: 'Example Shop GmbH' };
const userEx = { id: EX.user, email: 'owner@example.com' };
const keyEx = {
  id: EX.key,
  name: 'billing server',
  prefix: 'skp_Ab3x',
  last4: 'Qz9K',
  scopes: ['read', 'write'],
  status: 'active',
  usable: true,
  expires_at: null,
  created_at: AT,
  last_used_at: null,
  revoked_at: null,
};
const webhookEx = {
  id: EX.webhook,
  url: 'https://hooks.example.com/paycore',
  events: [...PROOF_EVENT_TYPES],
  status: 'enabled',
  key_version: 1,
  usable: true,
  created_at: AT,
};
const deliveryEx = {
  id: EXAMPLES.delivery,
  endpoint_id: EX.webhook,
  event_id: 'evt_StPKR0CsTy4Qwb8DwkNh',
  event_type: 'payment_request.created',
  status: 'failed',
  attempts: 1,
  max_attempts: 5,
  next_attempt_at: null,
  last_status_code: 302,
  last_error: null,
  created_at: AT,
  delivered_at: null,
  failed_at: AT,
  retryable: true,
};
const attemptEx = {
  attempt: 1,
  outcome: 'terminal',
  status_code: 302,
  error: null,
  duration_ms: 41,
  key_version: 1,
  started_at: AT,
};
export const purchaseEx = {
  id: EX.purchase,
  kind: 'plan',
  plan: 'business',
  pack: null,
  credits: null,
  status: 'awaiting_payment',
  network: 'base',
  pay_to: EX.platform,
  payer: EX.payer,
  price_usdc: '19.000000',
  amount_atomic: '19000001',
  amount_usdc: '19.000001',
  received_atomic: '0',
  payment_url: `https://pay.example.com/proof/pay/${EXAMPLES.request}`,
  request_id: EXAMPLES.request,
  review_reason: null,
  tx_hash: null,
  paid_at: null,
  period_start: null,
  period_end: null,
  expires_at: '2025-11-23T09:05:00.000Z',
  created_at: AT,
};
const paidPurchaseEx = {
  ...purchaseEx,
  status: 'paid',
  received_atomic: '19000001',
  tx_hash: EXAMPLES.txHash,
  paid_at: '2025-11-22T09:07:12.000Z',
  period_start: '2025-11-22T09:07:12.000Z',
  period_end: '2025-12-22T09:07:12.000Z',
};
const walletEx = {
  id: EXAMPLES.wallet,
  network: 'base',
  address: EX.payer,
  label: 'Main',
  verified_at: AT,
  created_at: AT,
};
const challengeMessage = [
  'paycore wallet verification',
  '',
  'Sign this message to prove that you control this receiving wallet. Signing it moves no funds and authorises no payment or transaction.',
  '',
  `Account: ${EXAMPLES.merchant}`,
  'Network: base',
  `Wallet: ${EX.payer}`,
  'Nonce: x6ZbQm1vR0c2Yd8Kp3LwT5hN9sUe7Gf4',
  'Expires: 2025-11-22T09:15:00.000Z',
].join('\n');
const evidenceEx = {
  tx_hash: EXAMPLES.txHash,
  log_index: 3,
  from: '0x9aF3bB3f2f1C1B7a6F0b2dC8a1e3F4C5d6E7a8B9',
  to: EXAMPLES.payTo,
  amount_atomic: '12500001',
  block_number: 23845102,
  block_time: '2025-11-22T10:01:55.000Z',
  decision: 'review',
  reason: 'unexpected_payer',
  recorded_at: '2025-11-22T10:02:13.000Z',
};

const KEY_FIELDS: Record<string, Schema> = {
  id: id('key', 'API key'),
  name: { type: 'string' },
  prefix: { type: 'string', pattern: '^skp_' },
  last4: { type: 'string' },
  scopes: { type: 'array', items: { enum: ['read', 'write'] } },
  status: { enum: ['active', 'revoked', 'expired'] },
  usable: {
    type: 'boolean',
    description: "False past the plan's limit after a downgrade (and for revoked or expired keys).",
  },
  expires_at: nullable(dateTime),
  created_at: dateTime,
  last_used_at: nullable(dateTime),
  revoked_at: nullable(dateTime),
};
const WEBHOOK_FIELDS: Record<string, Schema> = {
  id: id('whe', 'Destination'),
  url: { type: 'string' },
  events: { type: 'array', items: { enum: [...PROOF_EVENT_TYPES] } },
  status: { enum: ['enabled', 'disabled'] },
  key_version: { type: 'integer', minimum: 1 },
  usable: { type: 'boolean' },
  created_at: dateTime,
};
const DELIVERY_FIELDS: Record<string, Schema> = {
  id: id('dlv', 'Delivery'),
  endpoint_id: id('whe', 'Destination'),
  event_id: { type: 'string' },
  event_type: { enum: [...PROOF_EVENT_TYPES] },
  status: { enum: ['pending', 'retrying', 'delivered', 'failed'] },
  attempts: { type: 'integer', minimum: 0 },
  max_attempts: { type: 'integer', minimum: 1 },
  next_attempt_at: nullable(dateTime),
  last_status_code: nullable({ type: 'integer' }),
  last_error: nullable({ type: 'string' }),
  created_at: dateTime,
  delivered_at: nullable(dateTime),
  failed_at: nullable(dateTime),
  retryable: { type: 'boolean', description: 'Whether `POST /deliveries/{id}/retry` would be accepted now.' },
};
const USER = obj(['id', 'email'], { id: id('usr', 'User'), email: { type: 'string' } });
const MERCHANT = obj(['id', 'name'], { id: id('mer', 'Account'), name: { type: 'string' } });
const LIMITS = obj(
  ['requests_per_period', 'invoices_per_period', 'keys', 'destinations', 'max_valid_hours', 'requests_per_hour'],
  {
    requests_per_period: nullable({ type: 'integer' }),
    invoices_per_period: nullable({ type: 'integer' }),
    keys: { type: 'integer' },
    destinations: { type: 'integer' },
    max_valid_hours: { type: 'integer' },
    requests_per_hour: nullable({ type: 'integer' }),
  },
  '`null`: no cap.',
);
const USAGE = obj(['requests', 'invoices', 'window_start'], {
  requests: { type: 'integer', minimum: 0 },
  invoices: { type: 'integer', minimum: 0 },
  window_start: nullable(dateTime),
});
const PLAN_NAME = { type: ['string', 'null'], enum: [...PAID_PLANS, 'trial', null] };
/** The purchase object of both session interfaces (a merchant's plan here, a company's credit pack on /api/company). */
export const PURCHASE_FIELDS: Record<string, Schema> = {
  id: id('pur', 'Purchase'),
  kind: { enum: ['plan', 'credits'] },
  plan: {
    type: ['string', 'null'],
    enum: [...PAID_PLANS, null],
    description: 'The plan bought (once paid: the plan the period was granted at).',
  },
  pack: nullable({ type: 'string' }),
  credits: nullable({ type: 'string', pattern: '^[0-9]+$' }),
  status: {
    enum: [...PURCHASE_STATUSES],
    description:
      '`awaiting_payment`: pay `amount_atomic` exactly, from `payer`, before `expires_at`. `paid`: confirmed by the payment watcher and granted (once). `underpaid`: less arrived from `payer` (see `received_atomic`); nothing granted. `review`: a payment from another address or after expiry; nothing granted. `expired`: no payment in time.',
  },
  network: { enum: [...NETWORKS] },
  pay_to: { type: 'string', description: "The platform's receiving wallet." },
  payer: { type: 'string' },
  price_usdc: usdc,
  amount_atomic: atomic('The exact amount to pay, in atomic USDC: the price plus a small unique matching amount.'),
  amount_usdc: usdc,
  received_atomic: atomic('Every transfer the watcher attributed to this purchase, summed.'),
  payment_url: { type: 'string', format: 'uri', description: 'The public payment page (QR code, exact amount).' },
  request_id: id('req', 'Payment request of the platform'),
  review_reason: nullable({ type: 'string' }),
  tx_hash: nullable({ type: 'string' }),
  paid_at: nullable(dateTime),
  period_start: nullable(dateTime),
  period_end: nullable(dateTime),
  expires_at: dateTime,
  created_at: dateTime,
};
const WALLET_FIELDS: Record<string, Schema> = {
  id: id('wal', 'Verified wallet'),
  network: { enum: [...NETWORKS] },
  address: { type: 'string' },
  label: nullable({ type: 'string' }),
  verified_at: nullable(dateTime),
  created_at: dateTime,
};
const EVIDENCE = obj(Object.keys(evidenceEx), {
  tx_hash: { type: 'string' },
  log_index: { type: 'integer', minimum: 0 },
  from: { type: 'string' },
  to: { type: 'string' },
  amount_atomic: atomic('Amount transferred.'),
  block_number: { type: 'integer', minimum: 0 },
  block_time: dateTime,
  decision: { enum: ['paid', 'review', 'already_settled', 'unmatched'] },
  reason: nullable({ type: 'string' }),
  recorded_at: dateTime,
});
const SESSION_FIELDS = {
  csrf_token: {
    type: 'string',
    pattern: '^[0-9a-f]{64}$',
    description: 'Send it as `X-CSRF-Token` on every mutation.',
  },
  user: USER,
  merchant: MERCHANT,
};

function schemas(): Record<string, Schema> {
  const proof = proofSchemas();
  const paymentRequest = proof['PaymentRequest'] as { required: string[]; properties: Record<string, Schema> };
  return {
    ...proof,
    SignedIn: obj(['csrf_token', 'expires_at', 'user', 'merchant'], { ...SESSION_FIELDS, expires_at: dateTime }),
    Session: obj(['csrf_token', 'user', 'merchant'], SESSION_FIELDS),
    Overview: obj(['merchant', 'user', 'entitlements', 'keys', 'webhooks', 'event_types'], {
      merchant: MERCHANT,
      user: USER,
      entitlements: obj(
        ['plan', 'ends_at', 'keys', 'destinations', 'requests_per_period', 'invoices_per_period', 'usage'],
        {
          plan: PLAN_NAME,
          ends_at: nullable(dateTime),
          keys: obj(['limit', 'used'], { limit: { type: 'integer' }, used: { type: 'integer' } }),
          destinations: obj(['limit', 'used'], { limit: { type: 'integer' }, used: { type: 'integer' } }),
          requests_per_period: nullable({ type: 'integer' }),
          invoices_per_period: nullable({ type: 'integer' }),
          usage: USAGE,
        },
      ),
      keys: { type: 'array', items: schemaRef('Key') },
      webhooks: { type: 'array', items: schemaRef('Destination') },
      event_types: { type: 'array', items: { enum: [...PROOF_EVENT_TYPES] } },
    }),
    Key: obj(Object.keys(KEY_FIELDS), KEY_FIELDS),
    NewKey: obj([...Object.keys(KEY_FIELDS), 'secret'], {
      ...KEY_FIELDS,
      secret: { type: ['string', 'null'], pattern: '^skp_', description: 'Shown once; `null` in a replay.' },
    }),
    Destination: obj(Object.keys(WEBHOOK_FIELDS), WEBHOOK_FIELDS),
    NewDestination: obj([...Object.keys(WEBHOOK_FIELDS), 'secret'], {
      ...WEBHOOK_FIELDS,
      secret: {
        type: ['string', 'null'],
        pattern: '^whsec_',
        description: 'The signing secret; shown once, `null` in a replay.',
      },
    }),
    RotatedDestination: obj(['id', 'key_version', 'secret'], {
      id: id('whe', 'Destination'),
      key_version: { type: 'integer', minimum: 2 },
      secret: { type: ['string', 'null'], pattern: '^whsec_' },
    }),
    DeletedDestination: obj(['id', 'status', 'deleted_at'], {
      id: id('whe', 'Destination'),
      status: { const: 'deleted' },
      deleted_at: dateTime,
    }),
    Delivery: obj(Object.keys(DELIVERY_FIELDS), DELIVERY_FIELDS),
    DeliveryPage: page('Delivery', 'deliveries'),
    DeliveryDetail: obj([...Object.keys(DELIVERY_FIELDS), 'attempts_detail'], {
      ...DELIVERY_FIELDS,
      attempts_detail: {
        type: 'array',
        description: 'Every attempt, oldest first: outcome, HTTP status, error class and duration. Never a body.',
        items: obj(['attempt', 'outcome', 'status_code', 'error', 'duration_ms', 'key_version', 'started_at'], {
          attempt: { type: 'integer', minimum: 1 },
          outcome: { enum: ['in_flight', 'delivered', 'retry', 'terminal', 'interrupted'] },
          status_code: nullable({ type: 'integer' }),
          error: nullable({ type: 'string' }),
          duration_ms: nullable({ type: 'integer' }),
          key_version: nullable({ type: 'integer' }),
          started_at: dateTime,
        }),
      },
    }),
    Plan: obj(
      [
        'plan',
        'ends_at',
        'paid_plan',
        'paid_until',
        'queued',
        'limits',
        'usage',
        'prices',
        'trial_days',
        'purchase_networks',
      ],
      {
        plan: PLAN_NAME,
        ends_at: nullable(dateTime),
        paid_plan: { type: ['string', 'null'], enum: [...PAID_PLANS, null] },
        paid_until: nullable(dateTime),
        queued: {
          type: 'array',
          description:
            'Paid periods that follow the running one, in the order they run (a lower plan paid while a higher one runs, or the days of a lower plan a higher one was bought over). A payment buys 30 days of the plan it was for, never of a higher one.',
          items: obj(['plan', 'starts_at', 'ends_at'], {
            plan: { enum: [...PAID_PLANS] },
            starts_at: dateTime,
            ends_at: dateTime,
          }),
        },
        limits: { oneOf: [LIMITS, { type: 'null' }] },
        usage: USAGE,
        prices: {
          type: 'array',
          items: obj(['plan', 'price_usdc', 'period_days'], {
            plan: { enum: [...PAID_PLANS] },
            price_usdc: usdc,
            period_days: { type: 'integer' },
          }),
        },
        trial_days: { type: 'integer' },
        purchase_networks: { type: 'array', items: { enum: [...NETWORKS] } },
      },
    ),
    Purchase: obj(Object.keys(PURCHASE_FIELDS), PURCHASE_FIELDS),
    PurchasePage: page('Purchase', 'purchases'),
    Wallet: obj(Object.keys(WALLET_FIELDS), WALLET_FIELDS),
    WalletList: obj(['data'], { data: { type: 'array', items: schemaRef('Wallet') } }),
    WalletChallenge: obj(['id', 'network', 'address', 'label', 'message', 'expires_at'], {
      id: id('wch', 'Challenge'),
      network: { enum: [...NETWORKS] },
      address: { type: 'string' },
      label: nullable({ type: 'string' }),
      message: {
        type: 'string',
        description:
          'Sign exactly this text in the wallet: EIP-191 `personal_sign` on EVM networks, `signMessage` (ed25519 over its UTF-8 bytes) on Solana.',
      },
      expires_at: dateTime,
    }),
    ReviewPage: obj(['data', 'next_cursor'], {
      data: {
        type: 'array',
        maxItems: 100,
        items: {
          ...paymentRequest,
          required: [...paymentRequest.required, 'review_reason', 'evidence'],
          properties: {
            ...paymentRequest.properties,
            review_reason: nullable({ type: 'string' }),
            evidence: { type: 'array', items: EVIDENCE },
          },
        },
      },
      next_cursor: { type: ['string', 'null'], pattern: cursorPattern('requests') },
    }),
    Error: {
      type: 'object',
      additionalProperties: false,
      required: ['error', 'code', 'request_id'],
      properties: {
        error: { type: 'string' },
        code: { type: 'string', enum: CODES },
        request_id: { type: 'string' },
        issues: {
          type: 'array',
          minItems: 1,
          items: obj(['path', 'message'], { path: { type: 'string' }, message: { type: 'string' } }),
        },
      },
    },
  };
}

const P = '/api/integrations';

function paths(): Record<string, Schema> {
  const t = (tag: string) => [tag];
  const requestsList = [
    limitParam,
    beforeParam('requests'),
    {
      name: 'status',
      in: 'query',
      required: false,
      schema: { enum: [...REQUEST_STATUSES] },
      description:
        'Only requests that read as this status now (an `AWAITING` request past its expiry reads `EXPIRED`).',
    },
  ];
  return {
    [`${P}/session`]: {
      post: {
        operationId: 'signIn',
        tags: t('Session'),
        summary: 'Sign in',
        security: [],
        description: `Sets the session cookie \`${SESSION_COOKIE}\` (HttpOnly, Secure, SameSite=Strict, Path=/) and returns the CSRF token every mutation must send as \`X-CSRF-Token\`. A wrong address and a wrong password get the same 401. Attempts per address are limited. Needs an allowed \`Origin\`; no Idempotency-Key.`,
        requestBody: body(
          obj(['email', 'password'], {
            email: { type: 'string', pattern: EMAIL },
            password: { type: 'string', minLength: 1, maxLength: 1024, pattern: NO_NUL },
          }),
          { signIn: { email: 'owner@example.com', password: 'correct horse battery staple' } },
        ),
        responses: {
          ...ok(
            'Signed in.',
            schemaRef('SignedIn'),
            { signedIn: { csrf_token: 'f'.repeat(64), expires_at: AT, user: userEx, merchant: merchantEx } },
            '201',
            { 'Set-Cookie': header('The session cookie.', { type: 'string', pattern: `^${SESSION_COOKIE}=` }, true) },
          ),
          ...errorsOf({ public: true, mutation: true }),
        },
      },
      get: {
        operationId: 'getSession',
        tags: t('Session'),
        summary: 'Who is signed in',
        security: SESSION,
        responses: {
          ...ok('The session.', schemaRef('Session'), {
            session: { csrf_token: 'f'.repeat(64), user: userEx, merchant: merchantEx },
          }),
          ...errorsOf({}),
        },
      },
      delete: {
        operationId: 'signOut',
        tags: t('Session'),
        summary: 'Sign out',
        security: MUTATION,
        responses: { '204': { description: 'Signed out.', headers: plain() }, ...errorsOf({ mutation: true }) },
      },
    },
    [P]: {
      get: {
        operationId: 'getOverview',
        tags: t('Account'),
        summary: 'Account overview: entitlements, keys, destinations, event types',
        security: SESSION,
        responses: { ...ok('The overview.', schemaRef('Overview'), {}), ...errorsOf({ plan: true }) },
      },
    },
    [`${P}/plan`]: {
      get: {
        operationId: 'getPlan',
        tags: t('Plan'),
        summary: 'Plan, limits, usage and prices',
        security: SESSION,
        description:
          'Answers without an active plan or trial too (so a lapsed account can buy one). `purchase_networks` lists where the platform accepts payment; empty: purchases are granted by an operator.',
        responses: { ...ok('The plan.', schemaRef('Plan'), {}), ...errorsOf({}) },
      },
    },
    [`${P}/plan/purchases`]: {
      post: {
        operationId: 'buyPlan',
        tags: t('Plan'),
        summary: 'Buy or renew a plan (30 days, paid in USDC)',
        security: MUTATION,
        description: `A payment request to the platform's receiving wallet, payable for ${PURCHASE_VALID_HOURS} hours from \`payer\` only. When the payment watcher confirms the exact amount, 30 days are granted once: from the end of the running paid period (a renewal), else from the confirmation. A lower plan than the one running is refused. Less from \`payer\` shows as \`underpaid\`; a payment from another address or after expiry as \`review\`; neither grants anything.`,
        parameters: [idempotencyKey],
        requestBody: body(
          obj(['plan', 'network', 'payer'], {
            plan: { enum: [...PAID_PLANS] },
            network: { enum: [...NETWORKS] },
            payer: {
              type: 'string',
              minLength: 1,
              maxLength: 64,
              description:
                'The wallet you will pay from (EVM: 0x and 40 hex, EIP-55 if mixed case; Solana: base58 owner address).',
            },
          }),
          { renew: { plan: 'business', network: 'base', payer: EX.payer } },
        ),
        responses: {
          ...ok('Awaiting payment (or the replay).', schemaRef('Purchase'), { awaiting: purchaseEx }, '201', replayed),
          ...errorsOf({ mutation: true, idem: true, extra409: ['purchase_unavailable', 'too_many_open_purchases'] }),
        },
      },
      get: {
        operationId: 'listPlanPurchases',
        tags: t('Plan'),
        summary: 'Plan purchases',
        security: SESSION,
        parameters: [limitParam, beforeParam('purchases')],
        responses: {
          ...ok('A page, by id descending.', schemaRef('PurchasePage'), {
            page: { data: [paidPurchaseEx], next_cursor: null },
          }),
          ...errorsOf({ query: true }),
        },
      },
    },
    [`${P}/plan/purchases/{id}`]: {
      get: {
        operationId: 'getPlanPurchase',
        tags: t('Plan'),
        summary: 'A plan purchase',
        security: SESSION,
        parameters: [idParam('pur', 'Purchase', EX.purchase)],
        responses: {
          ...ok('The purchase.', schemaRef('Purchase'), { awaiting: purchaseEx, paid: paidPurchaseEx }),
          ...errorsOf({ ids: true }),
        },
      },
    },
    [`${P}/keys`]: {
      post: {
        operationId: 'createKey',
        tags: t('API keys'),
        summary: 'Create an API key',
        security: MUTATION,
        description:
          "An `skp_` key for `/proof/v1`; the secret is in this response only (a replay answers `secret: null`). Within the plan's active keys (422 `limit_reached`). `expires_at`: Unix seconds, at most 366 days ahead.",
        parameters: [idempotencyKey],
        requestBody: body(
          obj(['name', 'scopes'], {
            name: trimmed(1, 80, 'A name for the key, 1 to 80 characters after trimming.'),
            scopes: { type: 'array', minItems: 1, maxItems: 2, uniqueItems: true, items: { enum: ['read', 'write'] } },
            expires_at: { type: 'integer', minimum: 1 },
          }),
          { create: { name: 'billing server', scopes: ['read', 'write'] } },
        ),
        responses: {
          ...ok(
            'Created.',
            schemaRef('NewKey'),
            { created: { ...keyEx, secret: 'skp_Ab3xExampleExampleExampleQz9K' } },
            '201',
            replayed,
          ),
          ...errorsOf({ mutation: true, idem: true, plan: true, extra422: ['limit_reached'] }),
        },
      },
    },
    [`${P}/keys/{id}/revoke`]: {
      post: {
        operationId: 'revokeKey',
        tags: t('API keys'),
        summary: 'Revoke an API key',
        security: MUTATION,
        parameters: [idParam('key', 'API key', EX.key), idempotencyKey],
        requestBody: emptyBody,
        responses: {
          ...ok(
            'Revoked.',
            schemaRef('Key'),
            { revoked: { ...keyEx, status: 'revoked', usable: false, revoked_at: AT } },
            '200',
            replayed,
          ),
          ...errorsOf({ mutation: true, idem: true, ids: true, plan: true }),
        },
      },
    },
    [`${P}/webhooks`]: {
      post: {
        operationId: 'createDestination',
        tags: t('Webhooks'),
        summary: 'Create a webhook destination',
        security: MUTATION,
        description:
          'A public HTTPS URL (the destination policy of spec section 6) and the event types it receives (a non-empty list, no repeats). The signing secret is in this response only.',
        parameters: [idempotencyKey],
        requestBody: body(
          obj(['url', 'events'], {
            url: trimmed(1, 2048, 'The destination URL (at most 2048 characters after trimming).'),
            events: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...PROOF_EVENT_TYPES] } },
          }),
          { create: { url: 'https://hooks.example.com/paycore', events: ['payment.confirmed', 'invoice.paid'] } },
        ),
        responses: {
          ...ok(
            'Created.',
            schemaRef('NewDestination'),
            { created: { ...webhookEx, secret: 'whsec_Q2xhc3NpYy1leGFtcGxlLXNlY3JldC1zaG93bi1vbmNl' } },
            '201',
            replayed,
          ),
          ...errorsOf({ mutation: true, idem: true, plan: true, extra422: ['limit_reached'] }),
        },
      },
    },
    ...Object.fromEntries(
      (['disable', 'delete', 'rotate'] as const).map((action) => [
        `${P}/webhooks/{id}/${action}`,
        {
          post: {
            operationId: `${action}Destination`,
            tags: t('Webhooks'),
            security: MUTATION,
            summary: {
              disable: 'Disable a destination (final)',
              delete: 'Delete a destination (soft)',
              rotate: "Rotate a destination's signing secret",
            }[action],
            parameters: [idParam('whe', 'Destination', EX.webhook), idempotencyKey],
            requestBody: emptyBody,
            responses: {
              ...(action === 'disable'
                ? ok(
                    'Disabled.',
                    schemaRef('Destination'),
                    { disabled: { ...webhookEx, status: 'disabled', usable: false } },
                    '200',
                    replayed,
                  )
                : action === 'delete'
                  ? ok(
                      'Deleted.',
                      schemaRef('DeletedDestination'),
                      { deleted: { id: EX.webhook, status: 'deleted', deleted_at: AT } },
                      '200',
                      replayed,
                    )
                  : ok(
                      'Rotated; the new secret is shown once.',
                      schemaRef('RotatedDestination'),
                      {
                        rotated: {
                          id: EX.webhook,
                          key_version: 2,
                          secret: 'whsec_Um90YXRlZC1leGFtcGxlLXNlY3JldC1zaG93bi1vbmNl',
                        },
                      },
                      '200',
                      replayed,
                    )),
              ...errorsOf({ mutation: true, idem: true, ids: true, plan: true }),
            },
          },
        },
      ]),
    ),
    [`${P}/deliveries`]: {
      get: {
        operationId: 'listDeliveries',
        tags: t('Webhooks'),
        summary: 'Delivery history',
        security: SESSION,
        parameters: [limitParam, beforeParam('deliveries')],
        responses: {
          ...ok('A page, by id descending. Bodies are never stored or shown.', schemaRef('DeliveryPage'), {
            page: { data: [deliveryEx], next_cursor: null },
          }),
          ...errorsOf({ query: true, plan: true }),
        },
      },
    },
    [`${P}/deliveries/{id}`]: {
      get: {
        operationId: 'getDelivery',
        tags: t('Webhooks'),
        summary: 'A delivery with every attempt',
        security: SESSION,
        parameters: [idParam('dlv', 'Delivery', EXAMPLES.delivery)],
        responses: {
          ...ok('The delivery.', schemaRef('DeliveryDetail'), {
            failed: { ...deliveryEx, attempts_detail: [attemptEx] },
          }),
          ...errorsOf({ ids: true, plan: true }),
        },
      },
    },
    [`${P}/deliveries/{id}/retry`]: {
      post: {
        operationId: 'retryDelivery',
        tags: t('Webhooks'),
        summary: 'Retry a failed delivery',
        security: MUTATION,
        description:
          'The same delivery (ids, bytes) goes on from its next attempt: the remaining budget, not a new one. Only a `failed` delivery with attempts left to an enabled destination the plan allows (else 409 `invalid_retry_state`).',
        parameters: [idParam('dlv', 'Delivery', EXAMPLES.delivery), idempotencyKey],
        requestBody: emptyBody,
        responses: {
          ...ok(
            'Retrying.',
            schemaRef('Delivery'),
            { retrying: { ...deliveryEx, status: 'retrying', retryable: false } },
            '202',
            replayed,
          ),
          ...errorsOf({ mutation: true, idem: true, ids: true, plan: true, extra409: ['invalid_retry_state'] }),
        },
      },
    },
    [`${P}/wallets`]: {
      get: {
        operationId: 'listWallets',
        tags: t('Wallets'),
        summary: 'Verified receiving wallets',
        security: SESSION,
        responses: {
          ...ok('The verified wallets, oldest first.', schemaRef('WalletList'), { wallets: { data: [walletEx] } }),
          ...errorsOf({ plan: true }),
        },
      },
    },
    [`${P}/wallets/challenges`]: {
      post: {
        operationId: 'createWalletChallenge',
        tags: t('Wallets'),
        summary: 'Ask for a wallet challenge',
        security: MUTATION,
        description: `A one-time message bound to your account, the network and the address, with a random nonce; sign it in the wallet within ${WALLET_CHALLENGE_TTL_MS / 60_000} minutes and send the signature to \`POST /wallets/verify\`. No private key is ever sent. A wallet verified by another account is refused (409).`,
        parameters: [idempotencyKey],
        requestBody: body(
          obj(['network', 'address'], {
            network: { enum: [...NETWORKS] },
            address: { type: 'string', minLength: 1, maxLength: 64 },
            label: nullable(trimmed(1, 80, 'An optional label, 1 to 80 characters after trimming; null for none.')),
          }),
          { base: { network: 'base', address: EX.payer, label: 'Main' } },
        ),
        responses: {
          ...ok(
            'The challenge.',
            schemaRef('WalletChallenge'),
            {
              challenge: {
                id: EX.challenge,
                network: 'base',
                address: EX.payer,
                label: 'Main',
                message: challengeMessage,
                expires_at: '2025-11-22T09:15:00.000Z',
              },
            },
            '201',
            replayed,
          ),
          ...errorsOf({ mutation: true, idem: true, plan: true, extra409: ['conflict'] }),
        },
      },
    },
    [`${P}/wallets/verify`]: {
      post: {
        operationId: 'verifyWallet',
        tags: t('Wallets'),
        summary: 'Verify a wallet by its signature of the challenge',
        security: MUTATION,
        description:
          'EVM networks: the 65-byte EIP-191 `personal_sign` signature as 0x hex. Solana: the 64-byte ed25519 signature in base58. The challenge must be yours, unexpired and unused (422 `challenge_invalid`); a wrong or malformed signature is 422 `signature_invalid` and leaves the challenge usable until it expires. Verified: the challenge is used and the wallet can receive payment requests.',
        parameters: [idempotencyKey],
        requestBody: body(
          obj(['challenge_id', 'signature'], {
            challenge_id: { type: 'string', pattern: '^wch_[A-Za-z0-9]{20}$' },
            signature: { type: 'string', minLength: 1, maxLength: 200 },
          }),
          { evm: { challenge_id: EX.challenge, signature: `0x${'ab'.repeat(65)}` } },
        ),
        responses: {
          ...ok('The verified wallet.', schemaRef('Wallet'), { verified: walletEx }, '201', replayed),
          ...errorsOf({
            mutation: true,
            idem: true,
            plan: true,
            extra409: ['conflict'],
            extra422: ['challenge_invalid', 'signature_invalid'],
          }),
        },
      },
    },
    [`${P}/requests`]: {
      post: {
        operationId: 'createPaymentRequest',
        tags: t('Payment requests'),
        summary: 'Create a payment request',
        security: MUTATION,
        description: 'The `POST /proof/v1/requests` handler: same body, rules, quota and answer.',
        parameters: [idempotencyKey],
        requestBody: body(schemaRef('PaymentRequestCreate'), { direct: requestCreateExample }),
        responses: {
          ...ok('Created.', schemaRef('PaymentRequest'), { awaiting: requestExample() }, '201', replayed),
          ...errorsOf({ mutation: true, idem: true, plan: true, notFound: true }),
        },
      },
      get: {
        operationId: 'listPaymentRequests',
        tags: t('Payment requests'),
        summary: 'List payment requests',
        security: SESSION,
        parameters: requestsList,
        responses: {
          ...ok('A page, by id descending.', schemaRef('PaymentRequestList'), {
            page: { data: [requestExample()], next_cursor: null },
          }),
          ...errorsOf({ query: true, plan: true }),
        },
      },
    },
    [`${P}/requests/{id}`]: {
      get: {
        operationId: 'getPaymentRequest',
        tags: t('Payment requests'),
        summary: 'A payment request',
        security: SESSION,
        parameters: [idParam('req', 'Payment request', EXAMPLES.request)],
        responses: {
          ...ok('The request.', schemaRef('PaymentRequest'), { awaiting: requestExample() }),
          ...errorsOf({ ids: true, plan: true }),
        },
      },
    },
    [`${P}/reviews`]: {
      get: {
        operationId: 'listReviews',
        tags: t('Payment requests'),
        summary: 'Requests in REVIEW, with reason and evidence',
        security: SESSION,
        description:
          'Your requests in `REVIEW` (in descending id order; ids are random, so not by date), each with `review_reason` (`unexpected_payer`, `after_expiry`, `invoice_voided`) and every transfer the payment watcher attributed to it.',
        parameters: [limitParam, beforeParam('requests')],
        responses: {
          ...ok('A page.', schemaRef('ReviewPage'), {
            page: {
              data: [
                {
                  ...requestExample({ status: 'REVIEW', tx_hash: EXAMPLES.txHash }),
                  review_reason: 'unexpected_payer',
                  evidence: [evidenceEx],
                },
              ],
              next_cursor: null,
            },
          }),
          ...errorsOf({ query: true, plan: true }),
        },
      },
    },
    [`${P}/contacts`]: {
      post: {
        operationId: 'createContact',
        tags: t('Contacts'),
        summary: 'Create a contact',
        security: MUTATION,
        parameters: [idempotencyKey],
        requestBody: body(schemaRef('ContactCreate'), { buyer: contactCreateExample }),
        responses: {
          ...ok('Created.', schemaRef('Contact'), { buyer: contactExample }, '201', replayed),
          ...errorsOf({ mutation: true, idem: true, plan: true }),
        },
      },
      get: {
        operationId: 'listContacts',
        tags: t('Contacts'),
        summary: 'List contacts',
        security: SESSION,
        parameters: [limitParam, beforeParam('contacts')],
        responses: {
          ...ok('A page.', schemaRef('ContactList'), { page: { data: [contactExample], next_cursor: null } }),
          ...errorsOf({ query: true, plan: true }),
        },
      },
    },
    [`${P}/contacts/{id}`]: {
      get: {
        operationId: 'getContact',
        tags: t('Contacts'),
        summary: 'A contact',
        security: SESSION,
        parameters: [idParam('con', 'Contact', EXAMPLES.contact)],
        responses: {
          ...ok('The contact.', schemaRef('Contact'), { buyer: contactExample }),
          ...errorsOf({ ids: true, plan: true }),
        },
      },
    },
    [`${P}/invoices`]: {
      post: {
        operationId: 'createInvoice',
        tags: t('Invoices'),
        summary: 'Issue an invoice',
        security: MUTATION,
        description:
          'The `POST /proof/v1/invoices` handler: one payment request for the total, the document rendered once, no e-mail.',
        parameters: [idempotencyKey],
        requestBody: body(schemaRef('InvoiceCreate'), { exclusive_tax: invoiceCreateExample }),
        responses: {
          ...ok('Issued.', schemaRef('Invoice'), { issued: invoiceExample() }, '201', replayed),
          ...errorsOf({ mutation: true, idem: true, plan: true, notFound: true }),
        },
      },
      get: {
        operationId: 'listInvoices',
        tags: t('Invoices'),
        summary: 'List invoices',
        security: SESSION,
        parameters: [limitParam, beforeParam('invoices')],
        responses: {
          ...ok('A page.', schemaRef('InvoiceList'), { page: { data: [invoiceExample()], next_cursor: null } }),
          ...errorsOf({ query: true, plan: true }),
        },
      },
    },
    [`${P}/invoices/{id}`]: {
      get: {
        operationId: 'getInvoice',
        tags: t('Invoices'),
        summary: 'An invoice',
        security: SESSION,
        parameters: [idParam('inv', 'Invoice', EXAMPLES.invoice)],
        responses: {
          ...ok('The invoice.', schemaRef('Invoice'), { issued: invoiceExample() }),
          ...errorsOf({ ids: true, plan: true }),
        },
      },
    },
    [`${P}/invoices/{id}/document`]: {
      get: {
        operationId: 'getInvoiceDocument',
        tags: t('Invoices'),
        summary: 'Download the issued invoice PDF',
        security: SESSION,
        description:
          'The document as rendered once at issue, checked against `document_sha256` before it is sent (never rendered again). A dashboard download: `/proof/v1` has no PDF route.',
        parameters: [idParam('inv', 'Invoice', EXAMPLES.invoice)],
        responses: {
          '200': {
            description: 'The PDF.',
            headers: {
              ...plain(),
              'Content-Disposition': header(
                '`attachment; filename="INV-000001.pdf"`.',
                { type: 'string', pattern: '^attachment; filename="INV-[0-9]+\\.pdf"$' },
                true,
              ),
              'X-Content-SHA256': header(
                "The document's SHA-256 (`document_sha256`).",
                { type: 'string', pattern: '^[0-9a-f]{64}$' },
                true,
              ),
              'Cache-Control': header(
                'Never cached by shared caches.',
                { type: 'string', const: 'private, no-store' },
                true,
              ),
            },
            content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
          },
          ...errorsOf({ ids: true, plan: true }),
        },
      },
    },
    [`${P}/invoices/{id}/void`]: {
      post: {
        operationId: 'voidInvoice',
        tags: t('Invoices'),
        summary: 'Void an invoice, with a reason',
        security: MUTATION,
        description:
          'Its payment request becomes `VOIDED` (its amount is free again), `invoice.voided` is emitted, the quota is not restored. The reason (at most 500 characters) is stored for you and operators, never in an event. Voiding a voided invoice answers it unchanged; a paid invoice is 409.',
        parameters: [idParam('inv', 'Invoice', EXAMPLES.invoice), idempotencyKey],
        requestBody: {
          required: false,
          content: json(
            obj([], {
              reason: nullable(trimmed(0, 500, 'Why, at most 500 characters after trimming; empty or null for none.')),
            }),
            { reason: { reason: 'Issued to the wrong buyer' } },
          ),
        },
        responses: {
          ...ok(
            'Voided.',
            schemaRef('Invoice'),
            { voided: invoiceExample({ status: 'voided', voided_at: AT }) },
            '200',
            replayed,
          ),
          ...errorsOf({ mutation: true, idem: true, ids: true, plan: true, extra409: ['conflict'] }),
        },
      },
    },
    [`${P}/events`]: {
      get: {
        operationId: 'listEvents',
        tags: t('Events'),
        summary: 'Events after a cursor',
        security: SESSION,
        description: 'The `GET /proof/v1/events` handler: the stored event bytes, oldest first.',
        parameters: [
          {
            name: 'after',
            in: 'query',
            required: false,
            description: 'An integer from 0 to 2^53−1 (default 0).',
            schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
          },
          limitParam,
        ],
        responses: {
          ...ok('Events.', schemaRef('EventList'), {
            events: { data: [{ cursor: 41, event: EVENT_EXAMPLES['payment_request.created'] }], next_cursor: 41 },
          }),
          ...errorsOf({ query: true, plan: true }),
        },
      },
    },
    [INTEGRATIONS_OPENAPI_PATH]: {
      get: {
        operationId: 'getOpenApi',
        tags: t('Documentation'),
        summary: 'This OpenAPI document',
        security: [],
        responses: {
          '200': {
            description: 'The document.',
            headers: plain(),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['openapi', 'paths'],
                  properties: { openapi: { type: 'string' }, paths: { type: 'object' } },
                },
              },
            },
          },
        },
      },
    },
    [INTEGRATIONS_DOCS_PATH]: {
      get: {
        operationId: 'getDocs',
        tags: t('Documentation'),
        summary: 'This document as a page',
        security: [],
        responses: {
          '200': {
            description: 'The page.',
            headers: plain(),
            content: { 'text/html': { schema: { type: 'string' } } },
          },
        },
      },
    },
  };
}

/** The document, built once at mount. */
export function integrationsOpenApi(): Schema {
  return sessionDocument({
    iface: 'integrations',
    info: {
      title: 'Merchant dashboard session (/proof management)',
      version: INTEGRATIONS_API_VERSION,
      summary:
        'Sign-in of merchant users; plan and its purchase in USDC, wallets verified by signature, API keys, webhooks and deliveries, payment requests, invoices, events and reviews.',
      description:
        "The /proof merchant dashboard's routes: what its web pages call, never an API key. Sign in at `POST /api/integrations/session`; the cookie then " +
        "authenticates, and every mutation also sends the session's `X-CSRF-Token` from an allowed `Origin` and an `Idempotency-Key` (account-wide, shared with " +
        '`/proof/v1`). Any `Authorization` header is refused. Everything but the session and `/plan` needs an active plan or trial. Errors are ' +
        '`{error, code, request_id}` as on `/proof/v1`. Payment requests, contacts, invoices and events are the `/proof/v1` handlers and objects. ' +
        `Human-readable page: ${INTEGRATIONS_DOCS_PATH}.`,
    },
    tags: [
      { name: 'Account', description: 'The overview.' },
      { name: 'Plan', description: 'The plan and its purchase in USDC (no active plan needed).' },
      { name: 'Wallets', description: 'Receiving wallets, verified by signature.' },
      { name: 'API keys', description: '`/proof/v1` keys.' },
      { name: 'Webhooks', description: 'Destinations, deliveries and their attempts.' },
      { name: 'Payment requests', description: 'Requests and the review queue.' },
      { name: 'Contacts', description: 'Buyers.' },
      { name: 'Invoices', description: 'Invoices, their documents and voiding.' },
      { name: 'Events', description: 'The event log.' },
    ],
    paths: paths(),
    schemas: schemas(),
    headers: HEADERS,
    cookieName: SESSION_COOKIE,
    signInPath: '/api/integrations/session',
    errors,
    errorList: INTEGRATIONS_ERRORS,
  });
}

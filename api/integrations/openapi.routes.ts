import { PURCHASE_VALID_HOURS } from '../../domain/self-service.js';
import { routeTable, type RouteRow, type SessionRoute } from '../http/session-document.js';
import { header } from '../http/openapi-kit.js';
import { signInCookieSchema } from '../http/browser-session.js';
import {
  deletedDestinationSchema,
  deliveryDetailSchema,
  deliverySchema,
  destinationSchema,
  merchantKeySchema,
  newDestinationSchema,
  newMerchantKeySchema,
  overviewSchema,
  planSchema,
  purchaseSchema,
  rotatedDestinationSchema,
  sessionSchema,
  signedInSchema,
} from '../../domain/validation/integrations-responses.js';
import { keyCreateSchema, signInSchema, webhookCreateSchema } from '../../domain/validation/integrations.js';
import { planPurchaseSchema } from '../../domain/validation/self-service.js';
import { deliveryPageSchema, purchasePageSchema } from './openapi.contract.js';
import type { ErrorsOf } from './openapi.errors.js';
import {
  AT,
  attemptEx,
  deliveryEx,
  EX,
  keyEx,
  merchantEx,
  paidPurchaseEx,
  purchaseEx,
  userEx,
  webhookEx,
} from './openapi.examples.js';
import { beforeParam, idempotencyKey, idParam, limitParam, replayed } from './openapi.parameters.js';
import { SESSION_COOKIE } from './guards.js';
import { EXAMPLES } from '../shared/proof/openapi.examples.js';

/**
 * The operations of /api/integrations, as route tables (api/http/session-document.ts): prose, examples and what
 * each operation may refuse are metadata here; each request body and answer is a zod schema of the contract
 * (openapi.contract.ts) that its handler parses with or its serializer returns. This file: the session, the account
 * overview, the plan and its purchases, API keys, webhooks and deliveries; openapi.record-routes.ts: wallets, the
 * /proof records, the review queue and the documentation.
 */
export type IntegrationsRoute = SessionRoute<ErrorsOf>;

export const P = '/api/integrations';

/**
 * A route table of /api/integrations: each row says only what differs from `tag`, from the `errors` every row of the
 * table has, and from what every mutation has. With `idempotent` (every mutation but the session's), a mutation takes
 * an `Idempotency-Key`, may answer a replay (`Idempotent-Replayed`) and may refuse the key (`idem`). Paths are under
 * `P`.
 */
export const integrationsRoutes = (
  tag: string,
  rows: ReadonlyArray<RouteRow<ErrorsOf>>,
  { errors = {}, idempotent = true }: { errors?: ErrorsOf; idempotent?: boolean } = {},
): IntegrationsRoute[] =>
  routeTable<ErrorsOf>(
    {
      tag,
      prefix: P,
      errors,
      mutations: idempotent
        ? { parameters: [idempotencyKey], headers: replayed, errors: { mutation: true, idem: true } }
        : { errors: { mutation: true } },
    },
    rows,
  );

export const SESSION_ROUTES = integrationsRoutes(
  'Session',
  [
    {
      method: 'post',
      path: '/session',
      operationId: 'signIn',
      summary: 'Sign in',
      security: 'public',
      description: `Sets the session cookie \`${SESSION_COOKIE}\` (HttpOnly, Secure, SameSite=Strict, Path=/) and returns the CSRF token every mutation must send as \`X-CSRF-Token\`. A wrong address and a wrong password get the same 401. Attempts per address are limited. Needs an allowed \`Origin\`; no Idempotency-Key.`,
      body: {
        schema: signInSchema,
        examples: { signIn: { email: 'owner@example.com', password: 'correct horse battery staple' } },
      },
      response: {
        status: '201',
        description: 'Signed in.',
        schema: signedInSchema,
        examples: { signedIn: { csrf_token: 'f'.repeat(64), expires_at: AT, user: userEx, merchant: merchantEx } },
        headers: {
          'Set-Cookie': header('The session cookie.', signInCookieSchema(SESSION_COOKIE), true),
        },
      },
      errors: { public: true },
    },
    {
      method: 'get',
      path: '/session',
      operationId: 'getSession',
      summary: 'Who is signed in',
      response: {
        description: 'The session.',
        schema: sessionSchema,
        examples: { session: { csrf_token: 'f'.repeat(64), user: userEx, merchant: merchantEx } },
      },
    },
    {
      method: 'delete',
      path: '/session',
      operationId: 'signOut',
      summary: 'Sign out',
      response: { status: '204', description: 'Signed out.' },
    },
    {
      method: 'get',
      path: '',
      operationId: 'getOverview',
      tag: 'Account',
      summary: 'Account overview: entitlements, keys, destinations, event types',
      response: { description: 'The overview.', schema: overviewSchema, examples: {} },
      errors: { plan: true },
    },
  ],
  { idempotent: false },
);

export const PLAN_ROUTES = integrationsRoutes('Plan', [
  {
    method: 'get',
    path: '/plan',
    operationId: 'getPlan',
    summary: 'Plan, limits, usage and prices',
    description:
      'Answers without an active plan or trial too (so a lapsed account can buy one). `purchase_networks` lists where the platform accepts payment; empty: purchases are granted by an operator.',
    response: { description: 'The plan.', schema: planSchema, examples: {} },
  },
  {
    method: 'post',
    path: '/plan/purchases',
    operationId: 'buyPlan',
    summary: 'Buy or renew a plan (30 days, paid in USDC)',
    description: `A payment request to the platform's receiving wallet, payable for ${PURCHASE_VALID_HOURS} hours from \`payer\` only. When the payment watcher confirms the exact amount, 30 days are granted once: from the end of the running paid period (a renewal), else from the confirmation. A lower plan than the one running is refused. Less from \`payer\` shows as \`underpaid\`; a payment from another address or after expiry as \`review\`; neither grants anything.`,
    body: { schema: planPurchaseSchema, examples: { renew: { plan: 'business', network: 'base', payer: EX.payer } } },
    response: {
      status: '201',
      description: 'Awaiting payment (or the replay).',
      schema: purchaseSchema,
      examples: { awaiting: purchaseEx },
    },
    errors: { extra409: ['purchase_unavailable', 'too_many_open_purchases'] },
  },
  {
    method: 'get',
    path: '/plan/purchases',
    operationId: 'listPlanPurchases',
    summary: 'Plan purchases',
    parameters: [limitParam, beforeParam('purchases')],
    response: {
      description: 'A page, by id descending.',
      schema: purchasePageSchema,
      examples: { page: { data: [paidPurchaseEx], next_cursor: null } },
    },
    errors: { query: true },
  },
  {
    method: 'get',
    path: '/plan/purchases/{id}',
    operationId: 'getPlanPurchase',
    summary: 'A plan purchase',
    parameters: [idParam('pur', 'Purchase', EX.purchase)],
    response: {
      description: 'The purchase.',
      schema: purchaseSchema,
      examples: { awaiting: purchaseEx, paid: paidPurchaseEx },
    },
    errors: { ids: true },
  },
]);

export const KEY_ROUTES = integrationsRoutes(
  'API keys',
  [
    {
      method: 'post',
      path: '/keys',
      operationId: 'createKey',
      summary: 'Create an API key',
      description:
        "An `skp_` key for `/proof/v1`; the secret is in this response only (a replay answers `secret: null`). Within the plan's active keys (422 `limit_reached`). `expires_at`: Unix seconds, at most 366 days ahead.",
      body: { schema: keyCreateSchema, examples: { create: { name: 'billing server', scopes: ['read', 'write'] } } },
      response: {
        status: '201',
        description: 'Created.',
        schema: newMerchantKeySchema,
        examples: { created: { ...keyEx, secret: 'skp_Ab3xExampleExampleExampleQz9K' } },
      },
      errors: { extra422: ['limit_reached'] },
    },
    {
      method: 'post',
      path: '/keys/{id}/revoke',
      operationId: 'revokeKey',
      summary: 'Revoke an API key',
      parameters: [idParam('key', 'API key', EX.key)],
      body: 'empty',
      response: {
        description: 'Revoked.',
        schema: merchantKeySchema,
        examples: { revoked: { ...keyEx, status: 'revoked', usable: false, revoked_at: AT } },
      },
      errors: { ids: true },
    },
  ],
  { errors: { plan: true } },
);

const destinationAction = (
  action: 'disable' | 'delete' | 'rotate',
  summary: string,
  response: IntegrationsRoute['response'],
): RouteRow<ErrorsOf> => ({
  method: 'post',
  path: `/webhooks/{id}/${action}`,
  operationId: `${action}Destination`,
  summary,
  parameters: [idParam('whe', 'Destination', EX.webhook)],
  body: 'empty',
  response,
  errors: { ids: true },
});

export const WEBHOOK_ROUTES = integrationsRoutes(
  'Webhooks',
  [
    {
      method: 'post',
      path: '/webhooks',
      operationId: 'createDestination',
      summary: 'Create a webhook destination',
      description:
        'A public HTTPS URL (the destination policy of spec section 6) and the event types it receives (a non-empty list, no repeats). The signing secret is in this response only.',
      body: {
        schema: webhookCreateSchema,
        examples: {
          create: { url: 'https://hooks.example.com/paycore', events: ['payment.confirmed', 'invoice.paid'] },
        },
      },
      response: {
        status: '201',
        description: 'Created.',
        schema: newDestinationSchema,
        examples: { created: { ...webhookEx, secret: 'whsec_Q2xhc3NpYy1leGFtcGxlLXNlY3JldC1zaG93bi1vbmNl' } },
      },
      errors: { extra422: ['limit_reached'] },
    },
    destinationAction('disable', 'Disable a destination (final)', {
      description: 'Disabled.',
      schema: destinationSchema,
      examples: { disabled: { ...webhookEx, status: 'disabled', usable: false } },
    }),
    destinationAction('delete', 'Delete a destination (soft)', {
      description: 'Deleted.',
      schema: deletedDestinationSchema,
      examples: { deleted: { id: EX.webhook, status: 'deleted', deleted_at: AT } },
    }),
    destinationAction('rotate', "Rotate a destination's signing secret", {
      description: 'Rotated; the new secret is shown once.',
      schema: rotatedDestinationSchema,
      examples: {
        rotated: { id: EX.webhook, key_version: 2, secret: 'whsec_Um90YXRlZC1leGFtcGxlLXNlY3JldC1zaG93bi1vbmNl' },
      },
    }),
    {
      method: 'get',
      path: '/deliveries',
      operationId: 'listDeliveries',
      summary: 'Delivery history',
      parameters: [limitParam, beforeParam('deliveries')],
      response: {
        description: 'A page, by id descending. Bodies are never stored or shown.',
        schema: deliveryPageSchema,
        examples: { page: { data: [deliveryEx], next_cursor: null } },
      },
      errors: { query: true },
    },
    {
      method: 'get',
      path: '/deliveries/{id}',
      operationId: 'getDelivery',
      summary: 'A delivery with every attempt',
      parameters: [idParam('dlv', 'Delivery', EXAMPLES.delivery)],
      response: {
        description: 'The delivery.',
        schema: deliveryDetailSchema,
        examples: { failed: { ...deliveryEx, attempts_detail: [attemptEx] } },
      },
      errors: { ids: true },
    },
    {
      method: 'post',
      path: '/deliveries/{id}/retry',
      operationId: 'retryDelivery',
      summary: 'Retry a failed delivery',
      description:
        'The same delivery (ids, bytes) goes on from its next attempt: the remaining budget, not a new one. Only a `failed` delivery with attempts left to an enabled destination the plan allows (else 409 `invalid_retry_state`).',
      parameters: [idParam('dlv', 'Delivery', EXAMPLES.delivery)],
      body: 'empty',
      response: {
        status: '202',
        description: 'Retrying.',
        schema: deliverySchema,
        examples: { retrying: { ...deliveryEx, status: 'retrying', retryable: false } },
      },
      errors: { ids: true, extra409: ['invalid_retry_state'] },
    },
  ],
  { errors: { plan: true } },
);

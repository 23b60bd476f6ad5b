import { routeTablePaths, sessionDocument } from '../http/session-document.js';
import type { Schema } from '../http/openapi-kit.js';
import { integrationsContract } from './openapi.contract.js';
import { errors, errorsOf, INTEGRATIONS_ERRORS } from './openapi.errors.js';
import { HEADERS } from './openapi.parameters.js';
import { docRoutes, RECORD_ROUTES, WALLET_ROUTES } from './openapi.record-routes.js';
import { KEY_ROUTES, PLAN_ROUTES, SESSION_ROUTES, WEBHOOK_ROUTES } from './openapi.routes.js';
import { SESSION_COOKIE } from './guards.js';
import { PROOF_API_VERSION } from '../../domain/proof/events.js';

export { INTEGRATIONS_ERRORS } from './openapi.errors.js';

/**
 * The OpenAPI 3.1 document of the /proof merchant dashboard's session routes (`/api/integrations`): what the web app
 * calls, generated from its contract (openapi.contract.ts: the zod schemas its handlers parse with and its
 * serializers return) and its route tables (openapi.routes.ts, openapi.record-routes.ts: prose, examples and errors
 * as metadata). Security is the session cookie and, on every mutation, the session's `X-CSRF-Token` (and an allowed
 * `Origin`, which browsers send by themselves). The payment-request, contact, invoice and event objects are the
 * /proof/v1 schemas: the session routes are the same handlers.
 */
export const INTEGRATIONS_OPENAPI_PATH = '/api/integrations/openapi.json';
export const INTEGRATIONS_DOCS_PATH = '/api/integrations/docs';
/**
 * The specification's interface version: the management routes under `/api/integrations` are part of the payment-request
 * interface (proof-payments-api.md, its management routes; section 9: interface version `1.0`), as `/proof/v1` is. The
 * document said 1.1.0, a release no specification names.
 */
export const INTEGRATIONS_API_VERSION = PROOF_API_VERSION;

function paths(): Record<string, Schema> {
  const routes = [
    ...SESSION_ROUTES,
    ...PLAN_ROUTES,
    ...KEY_ROUTES,
    ...WEBHOOK_ROUTES,
    ...WALLET_ROUTES,
    ...RECORD_ROUTES,
    ...docRoutes(INTEGRATIONS_OPENAPI_PATH, INTEGRATIONS_DOCS_PATH),
  ];
  return routeTablePaths(routes, integrationsContract, errorsOf);
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
    schemas: integrationsContract.schemas(),
    headers: HEADERS,
    cookieName: SESSION_COOKIE,
    signInPath: '/api/integrations/session',
    errors,
    errorList: INTEGRATIONS_ERRORS,
  });
}

import { routeTablePaths, sessionDocument } from '../http/session-document.js';
import type { Schema } from '../http/openapi-kit.js';
import { componentSchemas as processingSchemas } from '../shared/processing/openapi.schemas.js';
import { COMPANY_SESSION_COOKIE } from './guards.js';
import { errors, errorsOf, HEADERS, COMPANY_ERRORS } from './openapi.errors.js';
import { companyContract, COMPANY_DOCS_PATH, COMPANY_API_VERSION } from './openapi.contract.js';
import { SESSION_ROUTES, DOCUMENTATION_ROUTES } from './openapi.session-routes.js';
import { JOB_ROUTES, REVIEW_ROUTES } from './openapi.job-routes.js';
import { TEAM_ROUTES } from './openapi.team-routes.js';
import { WEBHOOK_ROUTES, DELIVERY_ROUTES } from './openapi.webhook-routes.js';
import { WORKFLOW_ROUTES } from './openapi.saved-workflow-routes.js';
import { CREDIT_PACK_ROUTES } from './openapi.credit-routes.js';

export { COMPANY_API_VERSION, COMPANY_DOCS_PATH, COMPANY_OPENAPI_PATH } from './openapi.contract.js';
export { COMPANY_ERRORS } from './openapi.errors.js';

function paths(): Record<string, Schema> {
  return routeTablePaths(
    [
      ...SESSION_ROUTES,
      ...JOB_ROUTES,
      ...REVIEW_ROUTES,
      ...TEAM_ROUTES,
      ...WORKFLOW_ROUTES,
      ...WEBHOOK_ROUTES,
      ...DELIVERY_ROUTES,
      ...CREDIT_PACK_ROUTES,
      ...DOCUMENTATION_ROUTES,
    ],
    companyContract,
    errorsOf,
  );
}

function schemas(): Record<string, Schema> {
  return {
    ...processingSchemas(), // the result-file schemas of adapters/documents (the /v1 Error is replaced below)
    ...companyContract.schemas(),
  };
}

/** The document, built once at mount. */
export function companyOpenApi(): Schema {
  return sessionDocument({
    iface: 'company',
    info: {
      title: 'Company session (processing interface)',
      version: COMPANY_API_VERSION,
      summary: 'Sign-in of company members; API keys, members, invitations and webhooks for billing administrators.',
      description:
        "The interactive same-origin session of a processing company (spec section 5): what the company's web pages call, never an API key. " +
        "Sign in at `POST /api/company/session`; the cookie then authenticates, and every mutation also sends the session's `X-CSRF-Token` " +
        'from an allowed `Origin`. Any `Authorization` header is refused. Errors are `{detail, code, request_id}` as on `/v1`. ' +
        `Human-readable guide: ${COMPANY_DOCS_PATH}.`,
    },
    tags: [
      { name: 'Jobs', description: "The company's jobs, batches and credits (every member)." },
      { name: 'Extraction review', description: 'Review corrections of `flow-extract` results (every member).' },
      { name: 'API keys', description: '`/v1` keys (billing administrators).' },
      { name: 'Members', description: 'Members and invitations (billing administrators; accepting is public).' },
      { name: 'Webhooks', description: '`/v1` webhooks and their deliveries (billing administrators).' },
      { name: 'Credits', description: 'Credit packs paid in USDC (any member reads; billing administrators buy).' },
      {
        name: 'Saved workflows',
        description:
          'Extraction settings under a name, for `workflow_id` (every member reads; billing administrators change).',
      },
    ],
    paths: paths(),
    schemas: schemas(),
    headers: HEADERS,
    cookieName: COMPANY_SESSION_COOKIE,
    signInPath: '/api/company/session',
    errors,
    errorList: COMPANY_ERRORS,
  });
}

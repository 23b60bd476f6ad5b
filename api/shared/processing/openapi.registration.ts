import { LIMITS } from '../../../domain/accounts.js';
import type { ErrorCode } from '../../../domain/errors.js';
import { newV1WebhookSchema, v1WebhookCreateSchema } from '../../../domain/validation/company.js';
import { v1Contract } from './openapi.contract.js';
import { errorResponses, headerRef, json, locationHeader, responseRef, type Schema } from '../../http/openapi-kit.js';
import { errorRows } from '../../http/error-table.js';

/**
 * `POST /v1/webhooks` in the /v1 document (spec section 4: a route of `/v1`, answered for the company session of a
 * billing administrator, never for an API key). Its request and response are the zod schemas the handler parses
 * with and returns (domain/validation/company.ts), named in the /v1 contract.
 */

/** The company session's cookie (`COMPANY_SESSION_COOKIE` of api/company/guards.ts; the OpenAPI test checks it). */
export const SESSION_COOKIE_NAME = '__Host-paycore_company_session';

export const SESSION_SECURITY_SCHEMES: Record<string, Schema> = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE_NAME,
    description: 'The session cookie set by `POST /api/company/session` (documented at `/api/company/docs`).',
  },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description: "The session's CSRF token (`csrf_token` of the sign-in), on every mutation.",
  },
};

/** The codes only `POST /v1/webhooks` answers among the /v1 routes (the company session's guards). */
export const REGISTRATION_ERRORS = errorRows([
  {
    code: 'session_required',
    when: '`POST /v1/webhooks` without a live company session cookie (never signed in, signed out, expired, idle too long, or the member was removed).',
  },
  'api_key_not_accepted',
  {
    code: 'origin_rejected',
    when: '`POST /v1/webhooks` without an allowed `Origin` (or with a cross-site `Sec-Fetch-Site`).',
  },
  { code: 'csrf_failed', when: "`POST /v1/webhooks` without the session's `X-CSRF-Token`." },
  { code: 'billing_admin_required', when: '`POST /v1/webhooks` by a member who is not a billing administrator.' },
  {
    code: 'limit_reached',
    when: `\`POST /v1/webhooks\` when the company has ${LIMITS.webhooksPerCompany} webhooks already (disabled ones included).`,
  },
]);

const REQUEST_ID = '5f0c6c1e-3a51-4f7e-9b8e-2d1f7c0a9e44';
const error = (code: ErrorCode, detail: string): Schema => ({ detail, code, request_id: REQUEST_ID });
const errorResponse = errorResponses('v1', () => ({ 'X-Request-Id': headerRef('X-Request-Id') }));

/** The path item of `POST /v1/webhooks`. */
export function registrationPath(): Schema {
  const created = {
    id: 'whe_Hc5Tn0Pq8Ws2Ke6Uy4Gd',
    url: 'https://hooks.example.com/paycore',
    events: ['job.completed', 'job.failed', 'batch.completed', 'batch.partial', 'batch.failed'],
    status: 'enabled',
    key_version: 1,
    created_at: '2025-03-04T09:15:02.118Z',
    secret: 'whsec_Q2xhc3NpYy1leGFtcGxlLXNlY3JldC1zaG93bi1vbmNl',
  };
  return {
    post: {
      operationId: 'createWebhook',
      tags: ['Webhooks'],
      summary: 'Register a webhook',
      security: [{ session: [], csrf: [] }],
      description: `A public HTTPS URL (port 443, a public host name, no credentials; the same destination policy as \`/proof\`; DNS is checked again on every delivery). The signing secret is in this response only. At most ${LIMITS.webhooksPerCompany} per company. A job or batch names it with \`webhook_id\`; which events it receives is decided there. Answered for the company session of a billing administrator (sign in at \`POST /api/company/session\`, documented at \`/api/company/docs\`, which also lists, rotates, disables and deletes webhooks); an API key gets 403 \`api_key_not_accepted\`.`,
      requestBody: {
        required: true,
        content: json(v1Contract.ref(v1WebhookCreateSchema), {
          create: { url: 'https://hooks.example.com/paycore' },
        }),
      },
      responses: {
        '201': {
          description: 'Registered; the secret is shown once.',
          headers: {
            'X-Request-Id': headerRef('X-Request-Id'),
            Location: locationHeader('The webhook under `/api/company/webhooks`.', '/api/company/webhooks', 'whe'),
          },
          content: json(v1Contract.ref(newV1WebhookSchema), { created }),
        },
        '401': errorResponse(
          401,
          ['session_required', 'api_key_in_url'],
          'Not signed in (or a credential in the URL).',
          error('session_required', 'Sign in to continue'),
        ),
        '403': errorResponse(
          403,
          ['api_key_not_accepted', 'origin_rejected', 'csrf_failed', 'forbidden', 'billing_admin_required'],
          'Refused by a guard: see `code`.',
          error('api_key_not_accepted', 'API keys cannot register webhooks; sign in to the company session'),
        ),
        '409': errorResponse(
          409,
          ['limit_reached'],
          `The company has ${LIMITS.webhooksPerCompany} webhooks already (disabled ones included).`,
          error('limit_reached', `A company has at most ${LIMITS.webhooksPerCompany} webhooks`),
        ),
        '413': errorResponse(
          413,
          ['payload_too_large'],
          "JSON body over the server's size limit.",
          error('payload_too_large', 'Request body is too large'),
        ),
        '415': errorResponse(
          415,
          ['unsupported_media_type'],
          'Body not `application/json`.',
          error('unsupported_media_type', 'Request body must be application/json'),
        ),
        '422': errorResponse(
          422,
          ['validation_failed', 'malformed_json'],
          'Invalid body (`issues` names each field), a URL outside the destination policy, or malformed JSON.',
          error('validation_failed', 'url: must use https'),
        ),
        '429': responseRef('RateLimited'),
        '500': responseRef('InternalError'),
        '503': responseRef('ServiceUnavailable'),
      },
    },
  };
}

import { z } from 'zod';
import type { ErrorCode } from '../../domain/errors.js';
import { LIMITS } from '../../domain/accounts.js';
import { idRegex } from '../../domain/ids.js';
import {
  companyKeyListSchema,
  companyKeySchema,
  deletedV1WebhookSchema,
  invitationAcceptSchema,
  invitationCreateSchema,
  invitationListSchema,
  invitationSchema,
  memberListSchema,
  newCompanyKeySchema,
  newV1WebhookSchema,
  removedMemberSchema,
  revokedInvitationSchema,
  rotatedV1WebhookSchema,
  V1_WEBHOOK_EVENT_TYPES,
  v1WebhookCreateSchema,
  v1WebhookListSchema,
  v1WebhookSchema,
} from '../../domain/validation/company.js';
import {
  companySessionSchema,
  companySignedInSchema,
  extractionReviewSchema,
  joinedSchema,
  v1DeliveryDetailSchema,
  v1DeliverySchema,
} from '../../domain/validation/company-responses.js';
import { correctionsSchema } from '../../domain/validation/extraction-corrections.js';
import {
  deletedSavedWorkflowSchema,
  savedWorkflowCreateSchema,
  savedWorkflowListSchema,
  savedWorkflowSchema,
  savedWorkflowUpdateSchema,
} from '../../domain/validation/saved-workflows.js';
import { MAX_REVIEW_REVISIONS } from '../../domain/extraction-review.js';
import { BATCH_LIMITS } from '../../domain/batches.js';
import { batchSchema, jobSchema } from '../../domain/validation/job-records.js';
import { creditsSchema } from '../../domain/validation/processing-responses.js';
import { creditPacksSchema, packPurchaseSchema } from '../../domain/validation/self-service.js';
import { keyCreateSchema, signInSchema } from '../../domain/validation/integrations.js';
import { PURCHASE_VALID_HOURS } from '../../domain/self-service.js';
import { purchaseSchema } from '../../domain/validation/integrations-responses.js';
import {
  plainHeaders,
  routeTablePaths,
  sessionDocument,
  sessionHeaders,
  type SessionRoute,
} from '../http/session-document.js';
import { errorResponses, header, headerRef, pathParam, responseRef, type Schema } from '../http/openapi-kit.js';
import {
  afterSchema,
  beforeSchema,
  childrenLimitSchema,
  CURSOR_LISTS,
  encodeCursor,
  limitSchema,
} from '../http/pagination.js';
import { resultIndexSchema } from '../http/result-files.js';
import { Contract, type Components } from '../http/contract.js';
import { componentSchemas as processingSchemas } from '../processing/openapi.schemas.js';
import { uploadPageSchema, V1_ONLY, V1_REQUESTS, V1_RESPONSES } from '../processing/openapi.contract.js';
import { purchaseEx } from '../integrations/openapi.examples.js';
import { COMPANY_SESSION_COOKIE } from './guards.js';
import { batchPageSchema, deliveryPageSchema, jobPageSchema, purchasePageSchema } from './responses.js';

const packPurchaseEx = {
  ...purchaseEx,
  id: 'pur_Vb7Nm2Xc4Lk9Jh3Gf6Ds',
  kind: 'credits',
  plan: null,
  pack: 'credits_30000',
  credits: '30000',
  price_usdc: '29.000000',
  amount_atomic: '29000001',
  amount_usdc: '29.000001',
};

/**
 * The OpenAPI 3.1 document of the company administrators' session (`/api/company` and `POST /v1/webhooks`): what a
 * browser page of the processing interface calls. Security is the session cookie and, on every mutation, the
 * `X-CSRF-Token` of the session (and an `Origin` the server allows, which browsers send by themselves).
 */
export const COMPANY_OPENAPI_PATH = '/api/company/openapi.json';
export const COMPANY_DOCS_PATH = '/api/company/docs';
export const COMPANY_API_VERSION = '1.0.0';

const REQUEST_ID = '5f0c6c1e-3a51-4f7e-9b8e-2d1f7c0a9e44';

/** Every code these routes answer, with when: the document's `x-error-codes` and the `Error` schema's enum. */
export const COMPANY_ERRORS: ReadonlyArray<{ code: ErrorCode; when: string }> = [
  {
    code: 'session_required',
    when: 'No live session cookie (never signed in, signed out, expired, idle too long, or the member was removed).',
  },
  { code: 'invalid_credentials', when: 'Sign-in: the address or the password is wrong (the same answer for both).' },
  { code: 'api_key_in_url', when: 'A credential-named parameter or an API key is in the query string.' },
  {
    code: 'authorization_header_rejected',
    when: 'An `Authorization` header was sent to `/api/company`: these routes take the session cookie only.',
  },
  {
    code: 'api_key_not_accepted',
    when: '`POST /v1/webhooks` with an `Authorization` header: an API key cannot register webhooks.',
  },
  { code: 'origin_rejected', when: 'A mutation without an allowed `Origin` (or with a cross-site `Sec-Fetch-Site`).' },
  { code: 'csrf_failed', when: "A mutation without the session's `X-CSRF-Token`." },
  {
    code: 'billing_admin_required',
    when: 'Keys, members, invitations, webhooks and changes to saved workflows are for billing administrators; this member is not one.',
  },
  { code: 'forbidden', when: 'The company is suspended.' },
  {
    code: 'not_found',
    when: "The key, member, invitation, webhook, delivery or saved workflow does not exist in your company (another company's id gets the same answer).",
  },
  {
    code: 'conflict',
    when: "A saved workflow of that name exists already (names are compared whatever their case); a job's results asked for before it completed; an extraction review of a job that is not a completed `flow-extract`, or corrections sent for another revision than the current one (the body's `revision` says which it is).",
  },
  {
    code: 'gone',
    when: "The job's results passed retention (7 days) or are no longer stored; the corrections log is kept.",
  },
  { code: 'batch_not_terminal', when: "A batch's results ZIP asked for, or its failed items retried, while it runs." },
  {
    code: 'batch_has_no_failed_items',
    when: 'retry-failed: no item of the batch failed or was cancelled; there is nothing to retry.',
  },
  {
    code: 'batch_retry_needs_password',
    when: 'retry-failed of a `pdf-protect`/`pdf-unlock` batch: the password is not kept once a job ends; submit a new batch with it.',
  },
  {
    code: 'batch_retry_in_progress',
    when: 'retry-failed while an earlier retry of the same batch is still queued or processing (a double click makes one retry batch); wait for it to end.',
  },
  { code: 'insufficient_credits', when: "retry-failed: the wallet's available credits do not cover the new quote." },
  {
    code: 'queue_full',
    when: "retry-failed: the company's pending jobs and the retried items would be over the queue limit; wait `Retry-After` seconds.",
  },
  {
    code: 'batch_zip_too_large',
    when: "A batch's results ZIP would be over 1 GB: download the jobs' results one by one.",
  },
  {
    code: 'invitation_invalid',
    when: 'The invitation token is unknown, used, revoked or expired (one answer for all).',
  },
  {
    code: 'limit_reached',
    when: `A company limit: ${LIMITS.activeKeysPerCompany} active keys, ${LIMITS.membersPerCompany} members (open invitations included), ${LIMITS.webhooksPerCompany} webhooks (disabled ones included), ${LIMITS.savedWorkflowsPerCompany} saved workflows; ${MAX_REVIEW_REVISIONS} review revisions per job.`,
  },
  { code: 'invitation_pending', when: 'The address has an open invitation already; revoke it to invite again.' },
  {
    code: 'invitation_undeliverable',
    when: 'The mail server refused the invited address for good (e.g. no such mailbox): no invitation was made; `issues` names `email`.',
  },
  {
    code: 'mail_unavailable',
    when: 'The invitation e-mail could not be sent (the mail server did not take it for now, or this server sends no e-mail): no invitation was made; retry after `Retry-After` seconds when it is sent.',
  },
  { code: 'account_in_other_company', when: 'The address belongs to a company already (one company per account).' },
  { code: 'last_billing_admin', when: "Removing the company's last billing administrator." },
  {
    code: 'purchase_unavailable',
    when: 'Credit packs are not sold for USDC on that network (the platform has no receiving wallet there), or not at all: an operator grants credits.',
  },
  {
    code: 'too_many_open_purchases',
    when: 'The company holds 3 credit-pack purchases awaiting payment or in review already: pay one or wait until one expires (24 hours after it was made).',
  },
  { code: 'payload_too_large', when: 'A JSON body over the limit.' },
  { code: 'unsupported_media_type', when: 'A body not sent as `application/json`.' },
  { code: 'validation_failed', when: 'Invalid body or query; `issues` names every field.' },
  { code: 'malformed_json', when: 'The body is not valid JSON.' },
  {
    code: 'rate_limited',
    when: 'Over the request limit (per IP, per session, or sign-in attempts per address); wait `Retry-After` seconds.',
  },
  { code: 'internal_error', when: 'Unexpected server error; quote `request_id`.' },
  { code: 'service_unavailable', when: 'The database is temporarily unavailable; retry after `Retry-After` seconds.' },
];

const CODES = COMPANY_ERRORS.map((e) => e.code);

const errorSchema = z
  .looseObject({
    detail: z.string(),
    code: z.enum(CODES as [ErrorCode, ...ErrorCode[]]),
    request_id: z.string(),
    issues: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ description: 'Every error of these routes: `{detail, code, request_id}` as on `/v1`; `issues` on a 422.' });

/** The /v1 components this document shows too (the /v1-only ones, e.g. the webhook bodies, left out). */
const v1Only = <T extends Components>(set: T): Components =>
  Object.fromEntries(Object.entries(set).filter(([name]) => !V1_ONLY.has(name)));

/**
 * The company session's contract: every request body and answer of its routes as the zod schemas the handlers parse
 * with and the serializers are typed by, named as the document's components; the /v1 resources (jobs, batches,
 * uploads, credits) are the /v1 contract's own.
 */
const companyContract = new Contract({
  requests: {
    ...v1Only(V1_REQUESTS),
    WebhookCreate: v1WebhookCreateSchema,
    SignIn: signInSchema,
    InvitationAccept: invitationAcceptSchema,
    KeyCreate: keyCreateSchema,
    InvitationCreate: invitationCreateSchema,
    PackPurchaseCreate: packPurchaseSchema,
    SavedWorkflowCreate: savedWorkflowCreateSchema,
    SavedWorkflowUpdate: savedWorkflowUpdateSchema,
    ExtractionCorrections: correctionsSchema,
  },
  responses: {
    ...v1Only(V1_RESPONSES),
    SignedIn: companySignedInSchema,
    Session: companySessionSchema,
    Joined: joinedSchema,
    JobPage: jobPageSchema,
    BatchPage: batchPageSchema,
    ExtractionReview: extractionReviewSchema,
    Webhook: v1WebhookSchema,
    NewWebhook: newV1WebhookSchema,
    RotatedWebhook: rotatedV1WebhookSchema,
    DeletedWebhook: deletedV1WebhookSchema,
    WebhookList: v1WebhookListSchema,
    Key: companyKeySchema,
    NewKey: newCompanyKeySchema,
    KeyList: companyKeyListSchema,
    Invitation: invitationSchema,
    RevokedInvitation: revokedInvitationSchema,
    InvitationList: invitationListSchema,
    MemberList: memberListSchema,
    Removed: removedMemberSchema,
    CreditPacks: creditPacksSchema,
    Purchase: purchaseSchema,
    PurchasePage: purchasePageSchema,
    SavedWorkflow: savedWorkflowSchema,
    SavedWorkflowList: savedWorkflowListSchema,
    DeletedSavedWorkflow: deletedSavedWorkflowSchema,
    Delivery: v1DeliverySchema,
    DeliveryPage: deliveryPageSchema,
    DeliveryDetail: v1DeliveryDetailSchema,
    Error: errorSchema,
  },
});
const parameter = companyContract.parameterSchema.bind(companyContract);

const HEADERS: Record<string, Schema> = {
  ...sessionHeaders(),
};
const plain = plainHeaders;
const errorResponse = errorResponses('company', plain);
const example = (code: ErrorCode): Schema => ({
  detail: COMPANY_ERRORS.find((e) => e.code === code)!.when,
  code,
  request_id: REQUEST_ID,
});
const errors = (status: number, codes: ErrorCode[], description: string, extraHeaders: Schema = {}) =>
  errorResponse(status, codes, description, example(codes[0]!), extraHeaders);

/** The errors of an operation, by what it is: public or behind the session, a mutation, an admin's, with an id or a query. */
interface ErrorsOf {
  public?: boolean;
  mutation?: boolean;
  admin?: boolean;
  ids?: boolean;
  query?: boolean;
  codes409?: ErrorCode[];
  v1?: boolean;
  notFound?: ErrorCode[];
  /** No error response (the public documentation routes). */
  none?: boolean;
}
function errorsOf(o: ErrorsOf): Record<string, Schema> {
  if (o.none) return {};
  const forbidden: ErrorCode[] = [o.v1 ? 'api_key_not_accepted' : 'authorization_header_rejected'];
  if (o.mutation) forbidden.push('origin_rejected');
  if (!o.public)
    forbidden.push(
      ...(o.mutation ? (['csrf_failed'] as const) : []),
      'forbidden',
      ...(o.admin ? (['billing_admin_required'] as const) : []),
    );
  const out: Record<string, Schema> = {
    '401': errors(
      401,
      o.public
        ? ['api_key_in_url', ...(o.notFound ? [] : (['invalid_credentials'] as const))]
        : ['session_required', 'api_key_in_url'],
      'Not signed in (or a credential in the URL).',
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
  if (o.mutation || o.query)
    out['422'] = errors(
      422,
      ['validation_failed', 'malformed_json'],
      'Invalid body or query; `issues` names each field.',
    );
  if (o.ids || o.notFound) out['404'] = errors(404, o.notFound ?? ['not_found'], 'Not found in your company.');
  if (o.codes409) out['409'] = errors(409, o.codes409, 'A company limit or rule: see `code`.');
  return out;
}

const idParam = (name: string, prefix: string, what: string) =>
  pathParam(
    name,
    parameter(z.string().regex(idRegex(prefix))),
    `${what} id (\`${prefix}_…\`).`,
    `${prefix}_${'Ab3'.repeat(6)}Cd`,
  );
const jobIdParam = idParam('job_id', 'job', 'Job');
const limitParam: Schema = {
  name: 'limit',
  in: 'query',
  required: false,
  schema: parameter(limitSchema),
  description: 'Page size, 1 to 100 (default 50).',
};
const beforeParam = (list: 'jobs' | 'deliveries' | 'batches' | 'purchases' | 'uploads'): Schema => ({
  name: 'before',
  in: 'query',
  required: false,
  schema: parameter(beforeSchema(list)),
  description:
    'The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422.',
  examples: {
    next_page: {
      summary: 'A next_cursor of this list',
      value: encodeCursor(list, `${CURSOR_LISTS[list]}_${'Vb7Nm2Xc4Lk9Jh3Gf6Ds'}`),
    },
  },
});
const emptyPage = { data: [], next_cursor: null };

const EX = {
  member: 'mem_Xb7Nm2Xc4Lk9Jh3Gf6Ds',
  company: 'co_Lk9Jh3Gf6DsXb7Nm2Xc4',
  key: 'key_Rt2Wv8Yz1Ab43kQ9xLm7',
  webhook: 'whe_Hc5Tn0Pq8Ws2Ke6Uy4Gd',
  invitation: 'cin_Qm4Zr8Tv1Yx5Cb9Nd2Fh',
  delivery: 'dlv_Wq3Lk8Zt5Rb1Nc7Xd2Hm',
  workflow: 'wfl_Nc7Xd2HmWq3Lk8Zt5Rb1',
  at: '2025-03-04T09:15:02.118Z',
};
const memberEx = { id: EX.member, email: 'ops@example.com', role: 'billing_admin' };
const companyEx = { id: EX.company, name: 'Example GmbH' };
const keyEx = {
  id: EX.key,
  name: 'ci pipeline',
  prefix: 'sk_live_Ab3x',
  last4: 'Qz9K',
  scopes: ['read', 'write'],
  status: 'active',
  expires_at: null,
  created_at: EX.at,
  last_used_at: null,
  revoked_at: null,
  created_by: EX.member,
};
const webhookEx = {
  id: EX.webhook,
  url: 'https://hooks.example.com/paycore',
  events: [...V1_WEBHOOK_EVENT_TYPES],
  status: 'enabled',
  key_version: 1,
  created_at: EX.at,
};
const invitationEx = {
  id: EX.invitation,
  email: 'new.colleague@example.com',
  role: 'member',
  invited_by: EX.member,
  created_at: EX.at,
  expires_at: '2025-03-07T09:15:02.118Z',
};
const deliveryEx = {
  id: EX.delivery,
  webhook_id: EX.webhook,
  event_id: 'evt_Wq3Lk8Zt5Rb1Nc7Xd2Hm',
  event_type: 'job.completed',
  status: 'delivered',
  attempts: 2,
  max_attempts: 6,
  next_attempt_at: null,
  last_status_code: 200,
  last_error: null,
  created_at: EX.at,
  delivered_at: '2025-03-04T09:16:05.000Z',
  failed_at: null,
};
const secret = 'whsec_Q2xhc3NpYy1leGFtcGxlLXNlY3JldC1zaG93bi1vbmNl';
const workflowEx = {
  id: EX.workflow,
  name: 'Supplier invoices',
  operation: 'flow-extract',
  fields: ['invoice_number', 'invoice_date', 'total', 'currency'],
  instructions: 'Dates as printed; totals include tax.',
  options: {},
  revision: 1,
  created_by: EX.member,
  updated_by: EX.member,
  created_at: EX.at,
  updated_at: EX.at,
};
type CompanyRoute = SessionRoute<ErrorsOf>;

/** API keys, members and invitations (billing administrators). */
const TEAM_ROUTES: CompanyRoute[] = [
  {
    method: 'get',
    path: '/api/company/keys',
    operationId: 'listKeys',
    tag: 'API keys',
    summary: 'API keys',
    security: 'session',
    description: 'Active keys, then the 20 most recent revoked or expired ones. Never a secret.',
    response: { description: 'The keys.', schema: companyKeyListSchema, examples: { keys: { data: [keyEx] } } },
    errors: { admin: true },
  },
  {
    method: 'post',
    path: '/api/company/keys',
    operationId: 'createKey',
    tag: 'API keys',
    summary: 'Create an API key',
    security: 'mutation',
    description: `An \`sk_live_\` key of the company, created by (and belonging to) the signed-in administrator: removing that member revokes it. The secret is in this response only. At most ${LIMITS.activeKeysPerCompany} active keys per company. \`expires_at\`: Unix seconds, in the future.`,
    body: {
      schema: keyCreateSchema,
      examples: { create: { name: 'ci pipeline', scopes: ['read', 'write'] } },
    },
    response: {
      status: '201',
      description: 'Created; the secret is shown once.',
      schema: newCompanyKeySchema,
      examples: { created: { ...keyEx, secret: 'sk_live_Ab3xExampleExampleExampleQz9K' } },
    },
    errors: { admin: true, mutation: true, codes409: ['limit_reached'] },
  },
  {
    method: 'post',
    path: '/api/company/keys/{key_id}/revoke',
    operationId: 'revokeKey',
    tag: 'API keys',
    summary: 'Revoke an API key',
    security: 'mutation',
    description: 'The key answers 401 from the next request on. Revoking a revoked key changes nothing.',
    parameters: [idParam('key_id', 'key', 'API key')],
    body: 'empty',
    response: {
      description: 'Revoked.',
      schema: companyKeySchema,
      examples: { revoked: { ...keyEx, status: 'revoked', revoked_at: EX.at } },
    },
    errors: { admin: true, mutation: true, ids: true },
  },
  {
    method: 'get',
    path: '/api/company/members',
    operationId: 'listMembers',
    tag: 'Members',
    summary: 'Members',
    security: 'session',
    response: {
      description: 'The members.',
      schema: memberListSchema,
      examples: { members: { data: [{ ...memberEx, created_at: EX.at }] } },
    },
    errors: { admin: true },
  },
  {
    method: 'post',
    path: '/api/company/members/{member_id}/remove',
    operationId: 'removeMember',
    tag: 'Members',
    summary: 'Remove a member',
    security: 'mutation',
    description:
      'In one transaction: the membership ends, every API key the member created is revoked, every invitation they issued that is still open is revoked, ' +
      'their sessions end. The last billing administrator cannot be removed (409).',
    parameters: [idParam('member_id', 'mem', 'Member')],
    body: 'empty',
    response: {
      description: 'Removed.',
      schema: removedMemberSchema,
      examples: { removed: { id: EX.member, removed_at: EX.at, revoked_keys: 2, revoked_invitations: 1 } },
    },
    errors: { admin: true, mutation: true, ids: true, codes409: ['last_billing_admin'] },
  },
  {
    method: 'get',
    path: '/api/company/invitations',
    operationId: 'listInvitations',
    tag: 'Members',
    summary: 'Open invitations',
    security: 'session',
    response: {
      description: 'Open invitations, newest first.',
      schema: invitationListSchema,
      examples: { invitations: { data: [invitationEx] } },
    },
    errors: { admin: true },
  },
  {
    method: 'post',
    path: '/api/company/invitations',
    operationId: 'invite',
    tag: 'Members',
    summary: 'Invite a member',
    security: 'mutation',
    description:
      "Invites an address: a single-use token (stored as a digest) is e-mailed to it, with a link to the dashboard's acceptance page, and shown to " +
      'nobody else (not in this answer): accepting it at `POST /api/company/invitations/accept` before `expires_at` proves control of the address. ' +
      'The e-mail is sent before this answer; if the mail server does not take it, no invitation is made (422 `invitation_undeliverable` for an address ' +
      `it refuses, 503 \`mail_unavailable\` otherwise, or when this server sends no e-mail). Members and open invitations together stay within ${LIMITS.membersPerCompany}. ` +
      '`role`: `member` (default) or `billing_admin`.',
    body: {
      schema: invitationCreateSchema,
      examples: { invite: { email: 'new.colleague@example.com', role: 'member' } },
    },
    response: {
      status: '201',
      description: 'Invited: the invitation was e-mailed to the address (its token is in that e-mail only).',
      schema: invitationSchema,
      examples: { invited: invitationEx },
    },
    errors: {
      admin: true,
      mutation: true,
      codes409: ['limit_reached', 'invitation_pending', 'account_in_other_company'],
    },
    moreErrors: {
      '422': errors(
        422,
        ['validation_failed', 'malformed_json', 'invitation_undeliverable'],
        'Invalid body (`issues` names each field), or the mail server refused the address (`issues` names `email`).',
      ),
      '503': errors(
        503,
        ['mail_unavailable', 'service_unavailable'],
        'The invitation e-mail was not sent (no invitation was made), or the database is unavailable: retry after `Retry-After` seconds.',
        {
          'Retry-After': header(
            'Seconds to wait before retrying; absent when this server sends no e-mail at all.',
            { type: 'integer', minimum: 0 },
            false,
          ),
        },
      ),
    },
  },
  {
    method: 'post',
    path: '/api/company/invitations/{invitation_id}/revoke',
    operationId: 'revokeInvitation',
    tag: 'Members',
    summary: 'Revoke an invitation',
    security: 'mutation',
    parameters: [idParam('invitation_id', 'cin', 'Invitation')],
    body: 'empty',
    response: {
      description: 'Revoked.',
      schema: revokedInvitationSchema,
      examples: { revoked: { ...invitationEx, revoked_at: EX.at } },
    },
    errors: { admin: true, mutation: true, ids: true },
  },
];

const webhookIdParam = idParam('webhook_id', 'whe', 'Webhook');

/** The company's /v1 webhooks (billing administrators); registering one is `POST /v1/webhooks`. */
const WEBHOOK_ROUTES: CompanyRoute[] = [
  {
    method: 'post',
    path: '/v1/webhooks',
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Register a webhook',
    security: 'mutation',
    description: `A public HTTPS URL (port 443, a public host name, no credentials; the same destination policy as \`/proof\`; DNS is checked again on every delivery). The signing secret is in this response only. At most ${LIMITS.webhooksPerCompany} per company. A job or batch names it with \`webhook_id\`; which events it receives is decided there. An API key gets 403 \`api_key_not_accepted\`.`,
    body: { schema: v1WebhookCreateSchema, examples: { create: { url: 'https://hooks.example.com/paycore' } } },
    response: {
      status: '201',
      description: 'Registered; the secret is shown once.',
      schema: newV1WebhookSchema,
      examples: { created: { ...webhookEx, secret } },
      headers: { Location: header('The webhook under `/api/company/webhooks`.', { type: 'string' }, true) },
    },
    errors: { admin: true, mutation: true, v1: true, codes409: ['limit_reached'] },
  },
  {
    method: 'get',
    path: '/api/company/webhooks',
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'Webhooks',
    security: 'session',
    response: {
      description: 'Enabled and disabled webhooks (deleted ones are gone).',
      schema: v1WebhookListSchema,
      examples: { webhooks: { data: [webhookEx] } },
    },
    errors: { admin: true },
  },
  {
    method: 'get',
    path: '/api/company/webhooks/{webhook_id}',
    operationId: 'getWebhook',
    tag: 'Webhooks',
    summary: 'A webhook',
    security: 'session',
    parameters: [webhookIdParam],
    response: {
      description: 'The webhook (never its secret).',
      schema: v1WebhookSchema,
      examples: { webhook: webhookEx },
    },
    errors: { admin: true, ids: true },
  },
  {
    method: 'post',
    path: '/api/company/webhooks/{webhook_id}/disable',
    operationId: 'disableWebhook',
    tag: 'Webhooks',
    summary: 'Disable a webhook',
    security: 'mutation',
    description: 'No more deliveries, retries included. There is no way back: register a new one.',
    parameters: [webhookIdParam],
    body: 'empty',
    response: {
      description: 'Disabled.',
      schema: v1WebhookSchema,
      examples: { disabled: { ...webhookEx, status: 'disabled' } },
    },
    errors: { admin: true, mutation: true, ids: true },
  },
  {
    method: 'post',
    path: '/api/company/webhooks/{webhook_id}/delete',
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    security: 'mutation',
    description: 'No more deliveries; it is no longer listed nor counted. Its delivery history stays.',
    parameters: [webhookIdParam],
    body: 'empty',
    response: {
      description: 'Deleted.',
      schema: deletedV1WebhookSchema,
      examples: { deleted: { id: EX.webhook, status: 'deleted', deleted_at: EX.at } },
    },
    errors: { admin: true, mutation: true, ids: true },
  },
  {
    method: 'post',
    path: '/api/company/webhooks/{webhook_id}/rotate',
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    security: 'mutation',
    description:
      'A new secret, in this response only; every later attempt (pending retries included) is signed with it.',
    parameters: [webhookIdParam],
    body: 'empty',
    response: {
      description: 'Rotated.',
      schema: rotatedV1WebhookSchema,
      examples: { rotated: { id: EX.webhook, key_version: 2, secret } },
    },
    errors: { admin: true, mutation: true, ids: true },
  },
];

const workflowIdParam = idParam('workflow_id', 'wfl', 'Saved workflow');

/** Saved workflows: every member reads them, billing administrators change them. */
const WORKFLOW_ROUTES: CompanyRoute[] = [
  {
    method: 'get',
    path: '/api/company/workflows',
    operationId: 'listSavedWorkflows',
    tag: 'Saved workflows',
    summary: 'Saved workflows',
    security: 'session',
    description: "The company's saved workflows (every member), oldest first; deleted ones are gone.",
    response: {
      description: 'Saved workflows.',
      schema: savedWorkflowListSchema,
      examples: { workflows: { data: [workflowEx] } },
    },
    errors: {},
  },
  {
    method: 'post',
    path: '/api/company/workflows',
    operationId: 'createSavedWorkflow',
    tag: 'Saved workflows',
    summary: 'Save a workflow',
    security: 'mutation',
    description: `An extraction's fields, instructions and options under a name (billing administrators). A job, estimate or batch names it with \`workflow_id\`; its settings take precedence over the request's. At most ${LIMITS.savedWorkflowsPerCompany} per company.`,
    body: {
      schema: savedWorkflowCreateSchema,
      examples: { create: { name: workflowEx.name, fields: workflowEx.fields, instructions: workflowEx.instructions } },
    },
    response: { status: '201', description: 'Saved.', schema: savedWorkflowSchema, examples: { created: workflowEx } },
    errors: { admin: true, mutation: true, codes409: ['conflict', 'limit_reached'] },
  },
  {
    method: 'get',
    path: '/api/company/workflows/{workflow_id}',
    operationId: 'getSavedWorkflow',
    tag: 'Saved workflows',
    summary: 'A saved workflow',
    security: 'session',
    parameters: [workflowIdParam],
    response: { description: 'The saved workflow.', schema: savedWorkflowSchema, examples: { workflow: workflowEx } },
    errors: { ids: true },
  },
  {
    method: 'patch',
    path: '/api/company/workflows/{workflow_id}',
    operationId: 'updateSavedWorkflow',
    tag: 'Saved workflows',
    summary: 'Edit a saved workflow',
    security: 'mutation',
    description:
      'Changes what the body names (billing administrators); `revision` goes up by one. Requests made before keep what they were quoted with.',
    parameters: [workflowIdParam],
    body: {
      schema: savedWorkflowUpdateSchema,
      examples: { rename: { name: 'Supplier invoices (EU)' } },
    },
    response: {
      description: 'Changed.',
      schema: savedWorkflowSchema,
      examples: { changed: { ...workflowEx, name: 'Supplier invoices (EU)', revision: 2 } },
    },
    errors: { admin: true, mutation: true, ids: true, codes409: ['conflict'] },
  },
  {
    method: 'post',
    path: '/api/company/workflows/{workflow_id}/delete',
    operationId: 'deleteSavedWorkflow',
    tag: 'Saved workflows',
    summary: 'Delete a saved workflow',
    security: 'mutation',
    description:
      'It is no longer listed nor usable in requests, and its name is free again; jobs that used it keep their results.',
    parameters: [workflowIdParam],
    body: 'empty',
    response: {
      description: 'Deleted.',
      schema: deletedSavedWorkflowSchema,
      examples: { deleted: { id: EX.workflow, status: 'deleted', deleted_at: EX.at } },
    },
    errors: { admin: true, mutation: true, ids: true },
  },
];

/**
 * Credit packs paid in USDC. `Purchase` is the zod schema the /api/integrations document shares
 * (domain/validation/integrations-responses.ts).
 */
const CREDIT_PACK_ROUTES: CompanyRoute[] = [
  {
    method: 'get',
    path: '/api/company/credit-packs',
    operationId: 'listCreditPacks',
    tag: 'Credits',
    summary: 'Credit packs for sale',
    security: 'session',
    description:
      'The packs sold for USDC, and the networks the platform accepts payment on (empty: an operator grants credits). Card checkout is not offered (`card_checkout: false`) until a card processor is configured.',
    response: {
      description: 'The packs.',
      schema: creditPacksSchema,
      examples: {
        packs: {
          packs: [{ id: 'credits_30000', credits: '30000', price_usdc: '29.000000' }],
          purchase_networks: ['base'],
          card_checkout: false,
        },
      },
    },
    errors: {},
  },
  {
    method: 'post',
    path: '/api/company/credit-packs/purchases',
    operationId: 'buyCreditPack',
    tag: 'Credits',
    summary: 'Buy a credit pack (paid in USDC)',
    security: 'mutation',
    description: `A payment request to the platform's receiving wallet, payable for ${PURCHASE_VALID_HOURS} hours from \`payer\` only. When the payment watcher confirms the exact amount, the pack's credits are added to the wallet once (a \`grant\` ledger entry with reason \`pack:<purchase id>\`). Less from \`payer\` shows as \`underpaid\`; a payment from another address or after expiry as \`review\`; neither grants anything.`,
    body: {
      schema: packPurchaseSchema,
      examples: {
        buy: { pack: 'credits_30000', network: 'base', payer: '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF' },
      },
    },
    response: {
      status: '201',
      description: 'Awaiting payment.',
      schema: purchaseSchema,
      examples: { awaiting: packPurchaseEx },
    },
    errors: {
      admin: true,
      mutation: true,
      notFound: ['not_found'],
      codes409: ['purchase_unavailable', 'too_many_open_purchases'],
    },
  },
  {
    method: 'get',
    path: '/api/company/credit-packs/purchases',
    operationId: 'listCreditPackPurchases',
    tag: 'Credits',
    summary: 'Credit pack purchases',
    security: 'session',
    parameters: [limitParam, beforeParam('purchases')],
    response: {
      description: 'A page, by id descending.',
      schema: purchasePageSchema,
      examples: { page: { data: [packPurchaseEx], next_cursor: null } },
    },
    errors: { query: true },
  },
  {
    method: 'get',
    path: '/api/company/credit-packs/purchases/{purchase_id}',
    operationId: 'getCreditPackPurchase',
    tag: 'Credits',
    summary: 'A credit pack purchase',
    security: 'session',
    parameters: [idParam('purchase_id', 'pur', 'Purchase')],
    response: { description: 'The purchase.', schema: purchaseSchema, examples: { awaiting: packPurchaseEx } },
    errors: { ids: true },
  },
];

const sessionEx = { csrf_token: 'f'.repeat(64), member: memberEx, company: companyEx };

/** Sign-in, the session and accepting an invitation. */
const SESSION_ROUTES: CompanyRoute[] = [
  {
    method: 'post',
    path: '/api/company/session',
    operationId: 'signIn',
    tag: 'Session',
    summary: 'Sign in',
    security: 'public',
    description: `Sets the session cookie \`${COMPANY_SESSION_COOKIE}\` (HttpOnly, Secure, SameSite=Strict, Path=/) and returns the CSRF token every mutation must send as \`X-CSRF-Token\`. A wrong address and a wrong password get the same 401. Attempts per address are limited (429 with Retry-After). Needs an allowed \`Origin\`.`,
    body: {
      schema: signInSchema,
      examples: { signIn: { email: 'ops@example.com', password: 'correct horse battery staple' } },
    },
    response: {
      status: '201',
      description: 'Signed in.',
      schema: companySignedInSchema,
      examples: { signedIn: { ...sessionEx, expires_at: EX.at } },
      headers: {
        'Set-Cookie': header('The session cookie.', { type: 'string', pattern: `^${COMPANY_SESSION_COOKIE}=` }, true),
      },
    },
    errors: { public: true, mutation: true },
  },
  {
    method: 'get',
    path: '/api/company/session',
    operationId: 'getSession',
    tag: 'Session',
    summary: 'Who is signed in',
    security: 'session',
    description: 'The member, the company and the CSRF token again (for a reloaded page).',
    response: { description: 'The session.', schema: companySessionSchema, examples: { session: sessionEx } },
    errors: {},
  },
  {
    method: 'delete',
    path: '/api/company/session',
    operationId: 'signOut',
    tag: 'Session',
    summary: 'Sign out',
    security: 'mutation',
    description: 'Ends the session and clears the cookie.',
    response: { status: '204', description: 'Signed out.' },
    errors: { mutation: true },
  },
  {
    method: 'post',
    path: '/api/company/invitations/accept',
    operationId: 'acceptInvitation',
    tag: 'Members',
    summary: 'Accept an invitation',
    security: 'public',
    description:
      "Joins the company with the role of the invitation and sets the account's password (12 to 256 characters once NFKC-normalised); then sign in. Once per invitation, before it expires; an unknown, used, revoked or expired token is one answer (404 `invitation_invalid`).",
    body: {
      schema: invitationAcceptSchema,
      examples: {
        accept: { token: 'Zm9yLWV4YW1wbGUtb25seS1ub3QtYS1yZWFsLXRva2V', password: 'a long and personal passphrase' },
      },
    },
    response: {
      status: '201',
      description: 'Joined.',
      schema: joinedSchema,
      examples: { joined: { member: { ...memberEx, role: 'member' }, company: companyEx } },
    },
    errors: {
      public: true,
      mutation: true,
      notFound: ['invitation_invalid'],
      codes409: ['limit_reached', 'account_in_other_company'],
    },
  },
];

const gone = { '410': errors(410, ['gone'], 'The results passed retention.') };
const batchIdParam = idParam('batch_id', 'bat', 'Batch');

/** The company's jobs, uploads, batches and credits (every member; retrying a batch's failures: administrators). */
const JOB_ROUTES: CompanyRoute[] = [
  {
    method: 'get',
    path: '/api/company/jobs',
    operationId: 'listJobs',
    tag: 'Jobs',
    summary: "The company's jobs",
    security: 'session',
    description: "Every member may list the company's jobs, newest first, in the `/v1` job format.",
    parameters: [limitParam, beforeParam('jobs')],
    response: { description: 'A page of jobs.', schema: jobPageSchema, examples: { empty: emptyPage } },
    errors: { query: true },
  },
  {
    method: 'get',
    path: '/api/company/uploads',
    operationId: 'listUploads',
    tag: 'Jobs',
    summary: "The company's uploads",
    security: 'session',
    description:
      "Every member may list the company's uploads that still hold storage, newest first, as `GET /v1/uploads` lists them (with " +
      '`in_use`, `job_count` and `batch_count`). Only `limit` and `before` are taken; any other or a repeated parameter is 422.',
    parameters: [limitParam, beforeParam('uploads')],
    response: { description: 'A page of uploads.', schema: uploadPageSchema, examples: { empty: emptyPage } },
    errors: { query: true },
  },
  {
    method: 'get',
    path: '/api/company/batches',
    operationId: 'listBatches',
    tag: 'Jobs',
    summary: "The company's batches",
    security: 'session',
    description:
      "Every member may list the company's batches, newest first, each with its progress and credits but without its children (those are the `/v1` jobs with its `batch_id`).",
    parameters: [limitParam, beforeParam('batches')],
    response: { description: 'A page of batches.', schema: batchPageSchema, examples: { empty: emptyPage } },
    errors: { query: true },
  },
  {
    method: 'get',
    path: '/api/company/jobs/{job_id}',
    operationId: 'getJob',
    tag: 'Jobs',
    summary: 'A job',
    security: 'session',
    description:
      "One of the company's jobs (every member), in the `/v1` job format; its `download_path`s are the `/v1` ones, and the same files download in this session at `/api/company/jobs/{job_id}/results/{index}`.",
    parameters: [jobIdParam],
    response: { description: 'The job.', schema: jobSchema },
    errors: { ids: true },
  },
  {
    method: 'get',
    path: '/api/company/jobs/{job_id}/results/{index}',
    operationId: 'downloadResult',
    tag: 'Jobs',
    summary: 'Download a result file',
    security: 'session',
    description:
      "The bytes of a completed job's result file `index` (from 0, the order of `result.files`), as an attachment (every member).",
    parameters: [
      jobIdParam,
      pathParam('index', parameter(resultIndexSchema), 'The 0-based position in `result.files`.', '0'),
    ],
    response: {
      description: 'The file.',
      content: {
        'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
      },
    },
    errors: { ids: true, codes409: ['conflict'] },
    moreErrors: gone,
  },
  {
    method: 'get',
    path: '/api/company/batches/{batch_id}',
    operationId: 'getBatch',
    tag: 'Jobs',
    summary: 'A batch',
    security: 'session',
    description:
      "One of the company's batches with its progress, credits and children, as `GET /v1/batches/{batch_id}` (every member).",
    parameters: [
      batchIdParam,
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Children per page, 1 to ${BATCH_LIMITS.maxItems} (default ${BATCH_LIMITS.childrenPageDefault}).`,
        schema: parameter(childrenLimitSchema),
      },
      {
        name: 'after',
        in: 'query',
        required: false,
        description: 'The first `item_index` of the page (default 0): the `next_after` of the previous page.',
        schema: parameter(afterSchema),
      },
    ],
    response: { description: 'The batch.', schema: batchSchema },
    errors: { ids: true, query: true },
  },
  {
    method: 'get',
    path: '/api/company/batches/{batch_id}/results.zip',
    operationId: 'downloadBatchResults',
    tag: 'Jobs',
    summary: "A batch's results ZIP",
    security: 'session',
    description:
      'Once the batch has ended: its successful results in one folder per item plus `manifest.json`, as `GET /v1/batches/{batch_id}/results.zip` (every member).',
    parameters: [batchIdParam],
    response: {
      description: 'The ZIP.',
      content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
    },
    errors: { ids: true, codes409: ['batch_not_terminal'] },
    moreErrors: { ...gone, '413': errors(413, ['batch_zip_too_large'], 'Over 1 GB.') },
  },
  {
    method: 'post',
    path: '/api/company/batches/{batch_id}/retry-failed',
    operationId: 'retryFailedBatchItems',
    tag: 'Jobs',
    summary: 'Re-run the failed items as a new batch',
    security: 'mutation',
    description:
      'Billing administrators: what `POST /v1/batches/{batch_id}/retry-failed` does (a new batch, `retry_of` the original, of its failed and cancelled items, each quoted and ' +
      'reserved anew, atomically), recorded as submitted by the member instead of an API key. No body and no `Idempotency-Key`: a second request while a retry of the same ' +
      'batch is still queued or processing gets 409 `batch_retry_in_progress`, so a double click makes one retry batch. Once that retry has ended, the original may be retried again.',
    parameters: [batchIdParam],
    body: 'empty',
    response: {
      status: '202',
      description: 'Accepted: the failed items are queued again as a new batch (its path in `Location`).',
      schema: batchSchema,
      headers: { Location: header('`/api/company/batches/{id}` of the new batch.', { type: 'string' }, true) },
    },
    errors: {
      admin: true,
      mutation: true,
      ids: true,
      codes409: [
        'batch_not_terminal',
        'batch_has_no_failed_items',
        'batch_retry_needs_password',
        'batch_retry_in_progress',
      ],
    },
    moreErrors: {
      '402': errors(402, ['insufficient_credits'], 'Not enough credits for the new quote.'),
      '410': errors(410, ['gone'], 'A source of a failed item is past its 7-day retention.'),
      '429': errors(429, ['rate_limited', 'queue_full'], 'Over a request limit, or the queue limit.', {
        'Retry-After': headerRef('Retry-After'),
      }),
    },
  },
  {
    method: 'get',
    path: '/api/company/credits',
    operationId: 'getCredits',
    tag: 'Jobs',
    summary: 'Credits and the ledger',
    security: 'session',
    description:
      "The company's available and reserved credits and its ledger as a feed, as `GET /v1/credits` (every member).",
    parameters: [
      {
        name: 'after',
        in: 'query',
        required: false,
        description: 'Return entries with a greater id (default 0: from the first).',
        schema: parameter(afterSchema),
      },
      limitParam,
    ],
    response: { description: 'Credits.', schema: creditsSchema },
    errors: { query: true },
  },
];

/** The review of a `flow-extract` job and its corrections (every member). */
const REVIEW_ROUTES: CompanyRoute[] = [
  {
    method: 'get',
    path: '/api/company/jobs/{job_id}/extraction',
    operationId: 'getExtractionReview',
    tag: 'Extraction review',
    summary: 'The review of an extraction',
    security: 'session',
    description:
      "A completed `flow-extract` job's values beside the evidence each was read from, with the evidence check's flags, the corrections made so far (who, when, old, new) and the result files: the originals and the latest revision's regenerated exports (every member).",
    parameters: [jobIdParam],
    response: { description: 'The review.', schema: extractionReviewSchema },
    errors: { ids: true, codes409: ['conflict'] },
    moreErrors: gone,
  },
  {
    method: 'post',
    path: '/api/company/jobs/{job_id}/extraction/corrections',
    operationId: 'correctExtraction',
    tag: 'Extraction review',
    summary: 'Correct extracted fields',
    security: 'mutation',
    description:
      'One revision of corrections of scalar fields (every member). Each is recorded with the member, the time, the value before and after; the three exports are rendered again ' +
      "with the corrections as new result files (`<name>-reviewed.xlsx`, `-reviewed-csv.zip`, `-reviewed.json`) beside the originals, which never change; the previous revision's " +
      "regenerated files are replaced. No credits are charged. `revision` must be the review's current revision (409 otherwise, nothing changed). A value is given in the form the " +
      "exports hold it (dates `YYYY-MM-DD`, amounts `1234.50`, currencies ISO 4217, IBANs and VAT numbers compact), or null to clear the field; a correction with the field's " +
      'current value confirms it. A corrected field has no evidence and is no longer flagged.',
    parameters: [jobIdParam],
    body: {
      schema: correctionsSchema,
      examples: {
        correct: {
          revision: 0,
          corrections: [
            { document: 0, field: 'total', value: '1234.50' },
            { document: 0, field: 'due_date', value: null },
          ],
        },
      },
    },
    response: { status: '201', description: 'The review at its new revision.', schema: extractionReviewSchema },
    errors: { mutation: true, ids: true, codes409: ['conflict', 'limit_reached'] },
    moreErrors: gone,
  },
];

/** The /v1 webhooks' delivery history (billing administrators). */
const DELIVERY_ROUTES: CompanyRoute[] = [
  {
    method: 'get',
    path: '/api/company/deliveries',
    operationId: 'listDeliveries',
    tag: 'Webhooks',
    summary: 'Delivery history',
    security: 'session',
    parameters: [limitParam, beforeParam('deliveries')],
    response: {
      description: 'A page of deliveries (never a body).',
      schema: deliveryPageSchema,
      examples: { page: { data: [deliveryEx], next_cursor: null } },
    },
    errors: { admin: true, query: true },
  },
  {
    method: 'get',
    path: '/api/company/deliveries/{delivery_id}',
    operationId: 'getDelivery',
    tag: 'Webhooks',
    summary: 'A delivery with its attempts',
    security: 'session',
    parameters: [idParam('delivery_id', 'dlv', 'Delivery')],
    response: {
      description: 'The delivery and every attempt.',
      schema: v1DeliveryDetailSchema,
      examples: {
        delivery: {
          ...deliveryEx,
          attempts_detail: [
            {
              attempt: 1,
              outcome: 'retry',
              status_code: 503,
              error: null,
              duration_ms: 120,
              key_version: 1,
              started_at: EX.at,
            },
            {
              attempt: 2,
              outcome: 'delivered',
              status_code: 200,
              error: null,
              duration_ms: 85,
              key_version: 1,
              started_at: '2025-03-04T09:16:05.000Z',
            },
          ],
        },
      },
    },
    errors: { admin: true, ids: true },
  },
];

/** This document and its page (public). */
const DOCUMENTATION_ROUTES: CompanyRoute[] = [
  {
    method: 'get',
    path: COMPANY_OPENAPI_PATH,
    operationId: 'getOpenApi',
    tag: 'Documentation',
    summary: 'This document',
    security: 'public',
    response: {
      description: 'The OpenAPI 3.1 document.',
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
    errors: { none: true },
  },
  {
    method: 'get',
    path: COMPANY_DOCS_PATH,
    operationId: 'getDocs',
    tag: 'Documentation',
    summary: 'This guide (HTML)',
    security: 'public',
    response: { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } },
    errors: { none: true },
  },
];

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

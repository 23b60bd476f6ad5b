import { LIMITS } from '../../domain/accounts.js';
import {
  companyKeyListSchema,
  companyKeySchema,
  deletedV1WebhookSchema,
  invitationCreateSchema,
  invitationListSchema,
  invitationSchema,
  memberListSchema,
  newCompanyKeySchema,
  newV1WebhookSchema,
  removedMemberSchema,
  revokedInvitationSchema,
  rotatedV1WebhookSchema,
  v1WebhookCreateSchema,
  v1WebhookListSchema,
  v1WebhookSchema,
} from '../../domain/validation/company.js';
import {
  deletedSavedWorkflowSchema,
  savedWorkflowCreateSchema,
  savedWorkflowListSchema,
  savedWorkflowSchema,
  savedWorkflowUpdateSchema,
} from '../../domain/validation/saved-workflows.js';
import { creditPacksSchema, packPurchaseSchema } from '../../domain/validation/self-service.js';
import { keyCreateSchema } from '../../domain/validation/integrations.js';
import { PURCHASE_VALID_HOURS } from '../../domain/self-service.js';
import { purchaseSchema } from '../../domain/validation/integrations-responses.js';
import { type SessionRoute } from '../http/session-document.js';
import { header } from '../http/openapi-kit.js';
import { purchasePageSchema } from './responses.js';
import { errors, type ErrorsOf } from './openapi.errors.js';
import { idParam, limitParam, beforeParam } from './openapi.contract.js';
import {
  packPurchaseEx,
  EX,
  memberEx,
  keyEx,
  webhookEx,
  invitationEx,
  secret,
  workflowEx,
} from './openapi.examples.js';

export type CompanyRoute = SessionRoute<ErrorsOf>;

/** API keys, members and invitations (billing administrators). */
export const TEAM_ROUTES: CompanyRoute[] = [
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
export const WEBHOOK_ROUTES: CompanyRoute[] = [
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
export const WORKFLOW_ROUTES: CompanyRoute[] = [
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
export const CREDIT_PACK_ROUTES: CompanyRoute[] = [
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

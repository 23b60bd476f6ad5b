import { LIMITS } from '../../domain/accounts.js';
import {
  companyKeyListSchema,
  companyKeySchema,
  invitationCreateSchema,
  invitationListSchema,
  invitationSchema,
  memberListSchema,
  newCompanyKeySchema,
  removedMemberSchema,
  revokedInvitationSchema,
} from '../../domain/validation/company.js';
import { keyCreateSchema } from '../../domain/validation/integrations.js';
import { header, HEADER_VALUES } from '../http/openapi-kit.js';
import { errors } from './openapi.errors.js';
import { idParam, companyRoutes } from './openapi.contract.js';
import { EX, memberEx, keyEx, invitationEx } from './openapi.examples.js';

/** API keys, members and invitations (billing administrators). */
export const TEAM_ROUTES = companyRoutes(
  'Members',
  [
    {
      method: 'get',
      path: '/api/company/keys',
      operationId: 'listKeys',
      tag: 'API keys',
      summary: 'API keys',
      description: 'Active keys, then the 20 most recent revoked or expired ones. Never a secret.',
      response: { description: 'The keys.', schema: companyKeyListSchema, examples: { keys: { data: [keyEx] } } },
    },
    {
      method: 'post',
      path: '/api/company/keys',
      operationId: 'createKey',
      tag: 'API keys',
      summary: 'Create an API key',
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
      errors: { codes409: ['limit_reached'] },
    },
    {
      method: 'post',
      path: '/api/company/keys/{key_id}/revoke',
      operationId: 'revokeKey',
      tag: 'API keys',
      summary: 'Revoke an API key',
      description: 'The key answers 401 from the next request on. Revoking a revoked key changes nothing.',
      parameters: [idParam('key_id', 'key', 'API key')],
      body: 'empty',
      response: {
        description: 'Revoked.',
        schema: companyKeySchema,
        examples: { revoked: { ...keyEx, status: 'revoked', revoked_at: EX.at } },
      },
      errors: { ids: true },
    },
    {
      method: 'get',
      path: '/api/company/members',
      operationId: 'listMembers',
      summary: 'Members',
      response: {
        description: 'The members.',
        schema: memberListSchema,
        examples: { members: { data: [{ ...memberEx, created_at: EX.at }] } },
      },
    },
    {
      method: 'post',
      path: '/api/company/members/{member_id}/remove',
      operationId: 'removeMember',
      summary: 'Remove a member',
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
      errors: { ids: true, codes409: ['last_billing_admin'] },
    },
    {
      method: 'get',
      path: '/api/company/invitations',
      operationId: 'listInvitations',
      summary: 'Open invitations',
      response: {
        description: 'Open invitations, newest first.',
        schema: invitationListSchema,
        examples: { invitations: { data: [invitationEx] } },
      },
    },
    {
      method: 'post',
      path: '/api/company/invitations',
      operationId: 'invite',
      summary: 'Invite a member',
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
              HEADER_VALUES.seconds,
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
      summary: 'Revoke an invitation',
      parameters: [idParam('invitation_id', 'cin', 'Invitation')],
      body: 'empty',
      response: {
        description: 'Revoked.',
        schema: revokedInvitationSchema,
        examples: { revoked: { ...invitationEx, revoked_at: EX.at } },
      },
      errors: { ids: true },
    },
  ],
  { admin: true },
);

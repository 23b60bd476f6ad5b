import type { z } from 'zod';
import type {
  companyKeyListSchema,
  companyKeySchema,
  invitationListSchema,
  invitationSchema,
  memberListSchema,
  newCompanyKeySchema,
  removedMemberSchema,
  revokedInvitationSchema,
} from '../../domain/validation/company.js';
import type Router from '@koa/router';
import { validateExpiry } from '../../domain/api-keys.js';
import { DomainError } from '../../domain/errors.js';
import { parseEmptyBody, parseKeyCreate } from '../../domain/validation/integrations.js';
import { parseInvitationCreate } from '../../domain/validation/company.js';
import type { Db } from '../../db/connection.js';
import { listApiKeys, revokeApiKey, type ApiKeyRecord } from '../../db/repositories/api-keys.repo.js';
import { listMembers, type Member } from '../../db/repositories/companies.repo.js';
import { issueCompanyKey, removeMember } from '../../services/company/memberships.js';
import { listOpenInvitations, type Invitation } from '../../db/repositories/company-invitations.repo.js';
import { revokeInvitation } from '../../services/company/invitations.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { AppState } from '../http/context.js';
import { memberOf } from '../http/context.js';
import { publicOrigin } from '../http/public-origin.js';
import { inviteMember, type InvitationMail } from '../../services/company/invitation-mail.js';
import { keyJson } from '../../services/keys/records.js';

export interface TeamDeps {
  db: Db;
  logger: Logger;
  /** How long an invitation can be accepted. */
  invitationTtlMs: number;
  /** Invitations go to the invited address by e-mail; null: none is configured, and nobody can be invited. */
  mail: InvitationMail | null;
  /** The dashboard's origin in the invitation's link (else the request's own). */
  publicBaseUrl: string | undefined;
  now: () => Date;
}

/** Inactive (revoked or expired) keys listed after the active ones: the most recent, bounded. */
const INACTIVE_KEYS_SHOWN = 20;

/** A `/v1` key's metadata and the member who created it; never the secret or its hash. */
function companyKeyJson(k: ApiKeyRecord, now: Date): z.input<typeof companyKeySchema> {
  const { usable: _plan, ...view } = keyJson(k, now, true); // `usable` is the /proof plan rule; /v1 keys have none
  return { ...view, created_by: k.ownerId };
}

const memberJson = (m: Member): z.input<typeof memberListSchema>['data'][number] => ({
  id: m.id,
  email: m.email,
  role: m.role,
  created_at: m.createdAt.toISOString(),
});

const invitationJson = (i: Invitation): z.input<typeof invitationSchema> => ({
  id: i.id,
  email: i.email,
  role: i.role,
  invited_by: i.invitedBy,
  created_at: i.createdAt.toISOString(),
  expires_at: i.expiresAt.toISOString(),
});

/** API keys (create: secret shown once; revoke), members (list, remove) and invitations (create: token e-mailed to the invitee; list, revoke). */
export function mountTeam(router: Router<AppState>, deps: TeamDeps): void {
  router.get('/keys', async (ctx) => {
    const now = deps.now();
    const keys = (await listApiKeys(deps.db, 'v1', memberOf(ctx).companyId)).map((k) => companyKeyJson(k, now));
    const active = keys.filter((k) => k.status === 'active');
    const list: z.input<typeof companyKeyListSchema> = {
      data: [
        ...active,
        ...keys
          .filter((k) => k.status !== 'active')
          .reverse()
          .slice(0, INACTIVE_KEYS_SHOWN),
      ],
    };
    ctx.body = list;
  });

  router.post('/keys', async (ctx) => {
    const body = parseKeyCreate(ctx.request.body);
    const now = deps.now();
    const me = memberOf(ctx);
    const expiresAt = validateExpiry('v1', body.expires_at, now);
    const { key, secret } = await issueCompanyKey(
      deps.db,
      { companyId: me.companyId, memberId: me.id, name: body.name, scopes: body.scopes, expiresAt },
      now,
    );
    ctx.status = 201;
    const created: z.input<typeof newCompanyKeySchema> = { ...companyKeyJson(key, now), secret };
    ctx.body = created;
  });

  router.post('/keys/:id/revoke', async (ctx) => {
    parseEmptyBody(ctx.request.body);
    const now = deps.now();
    const key = await revokeApiKey(deps.db, 'v1', memberOf(ctx).companyId, ctx.params['id'] ?? '', now);
    if (!key) throw new DomainError('not_found', 'API key not found');
    ctx.body = companyKeyJson(key, now);
  });

  router.get('/members', async (ctx) => {
    const list: z.input<typeof memberListSchema> = {
      data: (await listMembers(deps.db, memberOf(ctx).companyId)).map(memberJson),
    };
    ctx.body = list;
  });

  // The member's keys and open invitations are revoked and their sessions end in the same transaction.
  router.post('/members/:id/remove', async (ctx) => {
    parseEmptyBody(ctx.request.body);
    const id = ctx.params['id'] ?? '';
    const { revokedKeys, revokedInvitations } = await removeMember(deps.db, memberOf(ctx).companyId, id, deps.now(), {
      keepABillingAdmin: true,
    });
    const removed: z.input<typeof removedMemberSchema> = {
      id,
      removed_at: deps.now().toISOString(),
      revoked_keys: revokedKeys,
      revoked_invitations: revokedInvitations,
    };
    ctx.body = removed;
  });

  router.get('/invitations', async (ctx) => {
    const list: z.input<typeof invitationListSchema> = {
      data: (await listOpenInvitations(deps.db, memberOf(ctx).companyId, deps.now())).map(invitationJson),
    };
    ctx.body = list;
  });

  // The token goes to the invited address by e-mail and nowhere else (not to the administrator); stored is its SHA-256.
  router.post('/invitations', async (ctx) => {
    const body = parseInvitationCreate(ctx.request.body);
    const me = memberOf(ctx);
    const invitation = await inviteMember(
      { ...deps, now: deps.now(), requestId: ctx.state.requestId },
      {
        companyId: me.companyId,
        email: body.email,
        role: body.role,
        inviter: { id: me.id, email: me.email },
        companyName: me.companyName,
        dashboardOrigin: publicOrigin(deps.publicBaseUrl, ctx),
      },
    );
    ctx.status = 201;
    ctx.body = invitationJson(invitation);
  });

  router.post('/invitations/:id/revoke', async (ctx) => {
    parseEmptyBody(ctx.request.body);
    const now = deps.now();
    const invitation = await revokeInvitation(deps.db, memberOf(ctx).companyId, ctx.params['id'] ?? '', now);
    const revoked: z.input<typeof revokedInvitationSchema> = {
      ...invitationJson(invitation),
      revoked_at: now.toISOString(),
    };
    ctx.body = revoked;
  });
}

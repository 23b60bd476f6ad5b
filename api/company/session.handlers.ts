import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { parseSignIn } from '../../domain/validation/integrations.js';
import { parseInvitationAccept } from '../../domain/validation/company.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { hashPassword } from '../../adapters/crypto/password.js';
import { sha256Hex } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import { getCompany } from '../../db/repositories/companies.repo.js';
import {
  createCompanySession,
  endCompanySession,
  findLiveCompanySession,
  findMemberCredential,
  type CompanyMemberIdentity,
} from '../../db/repositories/company-sessions.repo.js';
import { acceptInvitation } from '../../db/repositories/company-invitations.repo.js';
import { DomainError } from '../../domain/errors.js';
import type { AppState } from '../http/context.js';
import { memberOf, sessionOf } from '../http/context.js';
import { checkCredentials, endBrowserSession, signInThrottle, startBrowserSession, type SessionStore } from '../http/browser-session.js';
import { COMPANY_SESSION_COOKIE } from './guards.js';

export interface CompanySessionDeps {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  sessionTtlMs: number;
  sessionIdleMs: number;
  signInPerEmailPer15Minutes: number;
  now: () => Date;
}

const memberJson = (m: { id: string; email: string; role: string }) => ({ id: m.id, email: m.email, role: m.role });

/**
 * Public routes: `POST /session` `{email, password}` (sign-in: an HttpOnly, Secure, SameSite=Strict `__Host-` cookie
 * and the CSRF token) and `POST /invitations/accept` `{token, password}` (joins the company and sets the password;
 * then sign in). Both are mutations, so they pass the Origin check.
 */
export function mountPublicSession(router: Router<AppState>, deps: CompanySessionDeps, origin: Middleware<AppState>): CompanySessionStore {
  const store: CompanySessionStore = {
    cookieName: COMPANY_SESSION_COOKIE,
    ttlMs: deps.sessionTtlMs,
    idleMs: deps.sessionIdleMs,
    findLive: (tokenHash, now) => findLiveCompanySession(deps.db, tokenHash, now, deps.sessionIdleMs),
    end: (id, now) => endCompanySession(deps.db, id, now),
    create: async ({ tokenHash, user, expiresAt }, now) => {
      await createCompanySession(deps.db, { tokenHash, memberId: user.memberId, companyId: user.companyId, expiresAt }, now);
    },
  };

  router.post('/session', origin, signInThrottle(deps.db, 'company:sign-in:email:15min', deps.signInPerEmailPer15Minutes, deps.now), async (ctx) => {
    const body = parseSignIn(ctx.request.body);
    const found = await findMemberCredential(deps.db, body.email);
    const member = await checkCredentials(found && { user: found.member, passwordHash: found.passwordHash, disabled: false }, body.password, deps.logger, ctx, 'company');
    const company = await getCompany(deps.db, member.companyId);
    if (!company || company.status !== 'active') throw new DomainError('forbidden', 'This company is suspended');
    const { csrfToken, expiresAt } = await startBrowserSession(ctx, store, deps.secretBox, member, deps.now());
    deps.logger.info({ requestId: ctx.state.requestId, memberId: member.memberId, companyId: company.id }, 'company sign-in');
    ctx.status = 201;
    ctx.body = {
      csrf_token: csrfToken,
      expires_at: expiresAt.toISOString(),
      member: memberJson({ id: member.memberId, email: member.email, role: member.role }),
      company: { id: company.id, name: company.name },
    };
  });

  router.post('/invitations/accept', origin, async (ctx) => {
    const body = parseInvitationAccept(ctx.request.body);
    const { member } = await acceptInvitation(deps.db, sha256Hex(body.token), await hashPassword(body.password), deps.now());
    const company = (await getCompany(deps.db, member.companyId))!;
    deps.logger.info({ requestId: ctx.state.requestId, memberId: member.id, companyId: company.id }, 'company invitation accepted');
    ctx.status = 201;
    ctx.body = { member: memberJson(member), company: { id: company.id, name: company.name } };
  });
  return store;
}

export type CompanySessionStore = SessionStore<CompanyMemberIdentity>;

/** Behind the session guard: who is signed in (and the CSRF token again, for a reloaded page), and sign-out. */
export function mountSession(router: Router<AppState>, store: CompanySessionStore, now: () => Date): void {
  const view: Middleware<AppState> = async (ctx) => {
    const m = memberOf(ctx);
    ctx.body = { csrf_token: sessionOf(ctx).csrfToken, member: memberJson(m), company: { id: m.companyId, name: m.companyName } };
  };
  router.get('/session', view);
  router.delete('/session', async (ctx) => {
    await endBrowserSession(ctx, store, now());
  });
}

import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { parseSignIn } from '../../domain/validation/integrations.js';
import { parseInvitationAccept } from '../../domain/validation/company.js';
import { hashPassword } from '../../adapters/crypto/password.js';
import { sha256Hex } from '../../adapters/crypto/tokens.js';
import { getCompany } from '../../db/repositories/companies.repo.js';
import {
  createCompanySession,
  endCompanySession,
  findLiveCompanySession,
  findMemberCredential,
  type CompanyMemberIdentity,
  type CompanySession,
} from '../../db/repositories/company-sessions.repo.js';
import { acceptInvitation } from '../../services/company/invitations.js';
import { DomainError } from '../../domain/errors.js';
import type { AppState } from '../http/context.js';
import { memberOf, sessionOf } from '../http/context.js';
import {
  endBrowserSession,
  sessionStore,
  signInRoute,
  type BrowserSessionDeps,
  type SessionStore,
} from '../http/browser-session.js';
import { COMPANY_SESSION_COOKIE } from './guards.js';
import type { z } from 'zod';
import { answer } from '../http/contract.js';
import {
  companySessionSchema,
  joinedSchema,
  type companySignedInSchema,
} from '../../domain/validation/company-responses.js';

export type CompanySessionDeps = BrowserSessionDeps;

const memberJson = (m: { id: string; email: string; role: 'member' | 'billing_admin' }) => ({
  id: m.id,
  email: m.email,
  role: m.role,
});

/**
 * Public routes: `POST /session` `{email, password}` (sign-in: an HttpOnly, Secure, SameSite=Strict `__Host-` cookie
 * and the CSRF token) and `POST /invitations/accept` `{token, password}` (joins the company and sets the password;
 * then sign in). Both are mutations, so they pass the Origin check.
 */
export function mountPublicSession(
  router: Router<AppState>,
  deps: CompanySessionDeps,
  origin: Middleware<AppState>,
): CompanySessionStore {
  const store: CompanySessionStore = sessionStore(COMPANY_SESSION_COOKIE, deps, {
    findLive: findLiveCompanySession,
    end: endCompanySession,
    create: (
      db,
      { tokenHash, user, expiresAt }: { tokenHash: string; user: CompanyMemberIdentity; expiresAt: Date },
      now,
    ) => createCompanySession(db, { tokenHash, memberId: user.memberId, companyId: user.companyId, expiresAt }, now),
  });

  router.post(
    '/session',
    origin,
    ...signInRoute(
      {
        db: deps.db,
        logger: deps.logger,
        secretBox: deps.secretBox,
        now: deps.now,
        store,
        throttle: { route: 'company', limits: deps.signIn },
        label: 'company',
        find: async (email) => {
          const found = await findMemberCredential(deps.db, email);
          return found && { user: found.member, passwordHash: found.passwordHash, disabled: false };
        },
        admit: async (member) => {
          const company = await getCompany(deps.db, member.companyId);
          if (!company || company.status !== 'active') throw new DomainError('forbidden', 'This company is suspended');
          const body: Omit<z.input<typeof companySignedInSchema>, 'csrf_token' | 'expires_at'> = {
            member: memberJson({ id: member.memberId, email: member.email, role: member.role }),
            company: { id: company.id, name: company.name },
          };
          return {
            body,
            log: { memberId: member.memberId, companyId: company.id },
          };
        },
      },
      parseSignIn,
    ),
  );

  router.post('/invitations/accept', origin, async (ctx) => {
    const body = parseInvitationAccept(ctx.request.body);
    const { member } = await acceptInvitation(
      deps.db,
      sha256Hex(body.token),
      await hashPassword(body.password),
      deps.now(),
    );
    const company = (await getCompany(deps.db, member.companyId))!;
    deps.logger.info(
      { requestId: ctx.state.requestId, memberId: member.id, companyId: company.id },
      'company invitation accepted',
    );
    ctx.status = 201;
    ctx.body = answer(joinedSchema, { member: memberJson(member), company: { id: company.id, name: company.name } });
  });
  return store;
}

export type CompanySessionStore = SessionStore<CompanyMemberIdentity, CompanySession>;

/** Behind the session guard: who is signed in (and the CSRF token again, for a reloaded page), and sign-out. */
export function mountSession(router: Router<AppState>, store: CompanySessionStore, now: () => Date): void {
  const view: Middleware<AppState> = async (ctx) => {
    const m = memberOf(ctx);
    ctx.body = answer(companySessionSchema, {
      csrf_token: sessionOf(ctx).csrfToken,
      member: memberJson(m),
      company: { id: m.companyId, name: m.companyName },
    });
  };
  router.get('/session', view);
  router.delete('/session', async (ctx) => {
    await endBrowserSession(ctx, store, now());
  });
}

import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import { parseSignIn } from '../../domain/validation/integrations.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { Db } from '../../db/connection.js';
import { getMerchant } from '../../db/repositories/merchants.repo.js';
import { findUserByEmail, type MerchantUser } from '../../db/repositories/merchant-users.repo.js';
import { createSession, endSession, findLiveSession } from '../../db/repositories/merchant-sessions.repo.js';
import type { AppState } from '../http/context.js';
import { merchantOf, sessionOf } from '../http/context.js';
import { checkCredentials, endBrowserSession, requireCsrfToken, signInThrottle, startBrowserSession, type SessionStore } from '../http/browser-session.js';
import { requireSession, SESSION_COOKIE } from './guards.js';

export interface SessionDeps {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  sessionTtlMs: number;
  sessionIdleMs: number;
  signInPerEmailPer15Minutes: number;
  now: () => Date;
}

/**
 * Dashboard sign-in and sign-out (not in the spec's table; docs/proof.md "Management routes"):
 * `POST /session` `{email, password}` sets an HttpOnly, Secure, SameSite=Strict cookie and returns the CSRF
 * token; `GET /session` tells who is signed in (and the token again, for a reloaded page); `DELETE /session`
 * signs out. Sign-in mutations go through the Origin check like every other mutation.
 */
export function mountSession(router: Router<AppState>, deps: SessionDeps): void {
  const store: SessionStore<MerchantUser> = {
    cookieName: SESSION_COOKIE,
    ttlMs: deps.sessionTtlMs,
    idleMs: deps.sessionIdleMs,
    findLive: (tokenHash, now) => findLiveSession(deps.db, tokenHash, now, deps.sessionIdleMs),
    end: (id, now) => endSession(deps.db, id, now),
    create: async ({ tokenHash, user, expiresAt }, now) => {
      await createSession(deps.db, { tokenHash, userId: user.id, merchantId: user.merchantId, expiresAt }, now);
    },
  };

  router.post('/session', signInThrottle(deps.db, 'integrations:sign-in:email:15min', deps.signInPerEmailPer15Minutes, deps.now), async (ctx) => {
    const body = parseSignIn(ctx.request.body);
    const found = await findUserByEmail(deps.db, body.email);
    const user = await checkCredentials(found && { user: found, passwordHash: found.passwordHash, disabled: found.disabledAt !== null }, body.password, deps.logger, ctx, 'dashboard');
    const merchant = await getMerchant(deps.db, user.merchantId);
    if (!merchant || merchant.status !== 'active') throw new DomainError('customer_access_required', 'This account is suspended');

    const { csrfToken, expiresAt } = await startBrowserSession(ctx, store, deps.secretBox, user, deps.now());
    deps.logger.info({ requestId: ctx.state.requestId, userId: user.id, merchantId: merchant.id }, 'dashboard sign-in');
    ctx.status = 201;
    ctx.body = {
      csrf_token: csrfToken,
      expires_at: expiresAt.toISOString(),
      user: { id: user.id, email: user.email },
      merchant: { id: merchant.id, name: merchant.name },
    };
  });

  const session = requireSession(deps.db, deps.secretBox, deps.sessionIdleMs, deps.now);

  router.get('/session', session, async (ctx) => {
    const s = sessionOf(ctx);
    ctx.body = { csrf_token: s.csrfToken, user: { id: s.userId, email: s.email }, merchant: { id: merchantOf(ctx).id, name: merchantOf(ctx).name } };
  });

  router.delete('/session', session, requireCsrfToken(), async (ctx) => {
    await endBrowserSession(ctx, store, deps.now());
  });
}

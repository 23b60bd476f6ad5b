import type { z } from 'zod';
import type Router from '@koa/router';
import { answer } from '../http/contract.js';
import type { signedInSchema } from '../../domain/validation/integrations-responses.js';
import { sessionSchema } from '../../domain/validation/integrations-responses.js';
import { DomainError } from '../../domain/errors.js';
import { parseSignIn } from '../../domain/validation/integrations.js';
import { getMerchant } from '../../db/repositories/merchants.repo.js';
import { findUserByEmail, type MerchantUser } from '../../db/repositories/merchant-users.repo.js';
import { createSession, endSession, findLiveSession } from '../../db/repositories/merchant-sessions.repo.js';
import type { AppState } from '../http/context.js';
import { merchantOf, sessionOf } from '../http/context.js';
import {
  endBrowserSession,
  requireCsrfToken,
  sessionStore,
  signInRoute,
  type BrowserSessionDeps,
} from '../http/browser-session.js';
import { requireSession, SESSION_COOKIE } from './guards.js';

export type SessionDeps = BrowserSessionDeps;

/**
 * Dashboard sign-in and sign-out (not in the spec's table; docs/proof.md "Management routes"):
 * `POST /session` `{email, password}` sets an HttpOnly, Secure, SameSite=Strict cookie and returns the CSRF
 * token; `GET /session` tells who is signed in (and the token again, for a reloaded page); `DELETE /session`
 * signs out. Sign-in mutations go through the Origin check like every other mutation.
 */
export function mountSession(router: Router<AppState>, deps: SessionDeps): void {
  const store = sessionStore<MerchantUser, { id: string }>(SESSION_COOKIE, deps, {
    findLive: findLiveSession,
    end: endSession,
    create: (db, { tokenHash, user, expiresAt }, now) =>
      createSession(db, { tokenHash, userId: user.id, merchantId: user.merchantId, expiresAt }, now),
  });

  router.post(
    '/session',
    ...signInRoute(
      {
        db: deps.db,
        logger: deps.logger,
        secretBox: deps.secretBox,
        now: deps.now,
        store,
        throttle: { route: 'integrations', limits: deps.signIn },
        label: 'dashboard',
        find: async (email) => {
          const found = await findUserByEmail(deps.db, email);
          return found && { user: found, passwordHash: found.passwordHash, disabled: found.disabledAt !== null };
        },
        admit: async (user) => {
          const merchant = await getMerchant(deps.db, user.merchantId);
          if (!merchant || merchant.status !== 'active')
            throw new DomainError('customer_access_required', 'This account is suspended');
          // The rest of `SignedIn` (`csrf_token`, `expires_at`) is added by signInRoute.
          const body: Omit<z.input<typeof signedInSchema>, 'csrf_token' | 'expires_at'> = {
            user: { id: user.id, email: user.email },
            merchant: { id: merchant.id, name: merchant.name },
          };
          return {
            body,
            log: { userId: user.id, merchantId: merchant.id },
          };
        },
      },
      parseSignIn,
    ),
  );

  const session = requireSession(deps.db, deps.secretBox, deps.sessionIdleMs, deps.now);

  router.get('/session', session, async (ctx) => {
    const s = sessionOf(ctx);
    ctx.body = answer(sessionSchema, {
      csrf_token: s.csrfToken,
      user: { id: s.userId, email: s.email },
      merchant: { id: merchantOf(ctx).id, name: merchantOf(ctx).name },
    });
  });

  router.delete('/session', session, requireCsrfToken(), async (ctx) => {
    await endBrowserSession(ctx, store, deps.now());
  });
}

import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { entitlementAt } from '../../domain/proof/plans.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { Db } from '../../db/connection.js';
import { getMerchant } from '../../db/repositories/merchants.repo.js';
import { findLiveSession } from '../../db/repositories/merchant-sessions.repo.js';
import type { AppContext, AppState } from '../http/context.js';
import { merchantOf } from '../http/context.js';
import {
  refuseAuthorizationHeader as refuseAuthorization,
  requireBrowserSession,
  sessionCookieValue,
} from '../http/browser-session.js';

/**
 * Guards of the management routes (spec sections 4 and 5): a dashboard cookie session, never an
 * Authorization header; on every mutation an allowed Origin and the session's `X-CSRF-Token` (both in
 * api/http/browser-session.ts, shared with `/api/company`); an active merchant with a plan or trial.
 */

/** The /proof dashboard's cookie (`/api/company` has its own, so the two sessions never mix). */
export const SESSION_COOKIE = '__Host-paycore_session';

export const sessionCookieOf = (ctx: AppContext): string | null => sessionCookieValue(ctx, SESSION_COOKIE);

/** The management routes are for the browser session only: a bearer (or any) Authorization header is refused. */
export const refuseAuthorizationHeader = (): Middleware<AppState> =>
  refuseAuthorization(
    'authorization_header_rejected',
    'Management routes use the dashboard session; an Authorization header is not accepted here (API keys are for /proof/v1)',
  );

/** A live dashboard session (cookie) and its merchant; a suspended merchant is refused. */
export function requireSession(db: Db, secretBox: SecretBox, idleMs: number, now: () => Date): Middleware<AppState> {
  const store = {
    cookieName: SESSION_COOKIE,
    findLive: (tokenHash: string, at: Date) => findLiveSession(db, tokenHash, at, idleMs),
  };
  return requireBrowserSession(
    store,
    secretBox,
    now,
    () => new DomainError('session_required', 'Sign in to the dashboard first (no valid session cookie)'),
    async (ctx, session) => {
      const merchant = await getMerchant(db, session.merchantId);
      if (!merchant || merchant.status !== 'active')
        throw new DomainError('customer_access_required', 'This account is suspended');
      ctx.state.merchant = merchant;
      return { userId: session.userId, email: session.email };
    },
  );
}

/** Management needs an active paid plan or trial (spec section 5). */
export function requireCustomerAccess(now: () => Date): Middleware<AppState> {
  return async (ctx, next) => {
    if (entitlementAt(merchantOf(ctx), now()).kind === 'none') {
      throw new DomainError('customer_access_required', 'Management needs an active plan or trial');
    }
    await next();
  };
}

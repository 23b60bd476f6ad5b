import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { Db } from '../../db/connection.js';
import { findLiveCompanySession } from '../../db/repositories/company-sessions.repo.js';
import type { AppContext, AppState } from '../http/context.js';
import { memberOf } from '../http/context.js';
import {
  refuseAuthorizationHeader as refuseWith,
  requireBrowserSession,
  sessionCookieValue,
} from '../http/browser-session.js';
import { rateLimit } from '../http/rate-limit.js';

/**
 * Guards of the company administrators' session (spec section 5): a cookie session of a company member, never an
 * API key; on every mutation an allowed Origin and the session's X-CSRF-Token (api/http/browser-session.ts, shared
 * with `/api/integrations`); billing administrators only for keys, members, invitations and webhooks.
 */

/** Its own cookie, apart from the /proof dashboard's `__Host-paycore_session`: the two sessions never mix. */
export const COMPANY_SESSION_COOKIE = '__Host-paycore_company_session';

export const companySessionToken = (ctx: AppContext): string | null => sessionCookieValue(ctx, COMPANY_SESSION_COOKIE);

export const refuseAuthorizationOnSession = (): Middleware<AppState> =>
  refuseWith(
    'authorization_header_rejected',
    'Company session routes use the sign-in cookie; an Authorization header is not accepted here (API keys are for the other /v1 routes)',
  );

/**
 * `POST /v1/webhooks` with an Authorization header: only a billing administrator's session registers webhooks, so an
 * API key (or any Authorization header) is refused with its own code, before any lookup (403 `api_key_not_accepted`).
 */
export const refuseApiKey = (): Middleware<AppState> =>
  refuseWith(
    'api_key_not_accepted',
    'An API key cannot register webhooks: a billing administrator does it in the company session (sign in at POST /api/company/session)',
  );

/** A live company session (cookie): its member, still a member, of a company that is not suspended. */
export function requireCompanySession(
  db: Db,
  secretBox: SecretBox,
  idleMs: number,
  now: () => Date,
): Middleware<AppState> {
  const store = {
    cookieName: COMPANY_SESSION_COOKIE,
    findLive: (tokenHash: string, at: Date) => findLiveCompanySession(db, tokenHash, at, idleMs),
  };
  const missing = () =>
    new DomainError('session_required', 'Sign in first (no valid company session cookie): POST /api/company/session');
  return requireBrowserSession(store, secretBox, now, missing, async (ctx, session) => {
    if (session.companyStatus !== 'active') throw new DomainError('forbidden', 'This company is suspended');
    ctx.state.member = {
      id: session.memberId,
      companyId: session.companyId,
      accountId: session.accountId,
      email: session.email,
      role: session.role,
      companyName: session.companyName,
    };
    return { userId: session.memberId, email: session.email };
  });
}

/** 120 requests per minute per session (spec section 8: per key or session), counted in PostgreSQL. */
export const perSessionLimit = (db: Db, perMinute: number, now: () => Date): Middleware<AppState> =>
  rateLimit(
    db,
    [
      {
        rule: { name: 'company:session:min', limit: perMinute, windowSeconds: 60 },
        subject: (ctx) => ctx.state.session?.id ?? null,
      },
    ],
    now,
  );

/** Keys, members, invitations and webhooks are a billing administrator's (spec section 5). */
export function requireBillingAdmin(): Middleware<AppState> {
  return async (ctx, next) => {
    if (memberOf(ctx).role !== 'billing_admin')
      throw new DomainError('billing_admin_required', 'Only a billing administrator of the company may do this');
    await next();
  };
}

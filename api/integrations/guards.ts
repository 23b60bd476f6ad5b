import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { entitlementAt } from '../../domain/proof/plans.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { sha256Hex, timingSafeEqualHex } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import { getMerchant } from '../../db/repositories/merchants.repo.js';
import { findLiveSession } from '../../db/repositories/merchant-sessions.repo.js';
import type { AppContext, AppState } from '../http/context.js';
import { merchantOf, sessionOf } from '../http/context.js';
import { publicOrigin } from '../http/public-origin.js';

/**
 * Guards of the management routes (spec sections 4 and 5): a dashboard cookie session, never an
 * Authorization header; on every mutation an allowed Origin and the session's `X-CSRF-Token`; an active
 * merchant with a plan or trial.
 */

/** `__Host-` pins the cookie to this host, path `/`, and Secure (browsers treat http://localhost as secure). */
export const SESSION_COOKIE = '__Host-paycore_session';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const isMutation = (ctx: AppContext): boolean => UNSAFE.has(ctx.method);

/** The CSRF token of a session: a keyed digest of its cookie token, so nothing more is stored. */
export const csrfTokenOf = (secretBox: SecretBox, sessionToken: string): string => secretBox.digest(`csrf:${sessionToken}`);

/**
 * Every token a session's page may hold: the one under the current secrets key, then those under previous keys,
 * so a `SECRETS_KEY` rotation does not break pages that read their token before it (docs/operations.md).
 */
const csrfTokensOf = (secretBox: SecretBox, sessionToken: string): string[] => secretBox.digests(`csrf:${sessionToken}`);

export function sessionCookieOf(ctx: AppContext): string | null {
  for (const part of (ctx.get('Cookie') || '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** The management routes are for the browser session only: a bearer (or any) Authorization header is refused. */
export function refuseAuthorizationHeader(): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.get('Authorization')) {
      throw new DomainError('authorization_header_rejected', 'Management routes use the dashboard session; an Authorization header is not accepted here (API keys are for /proof/v1)');
    }
    await next();
  };
}

/**
 * Every mutation must come from an allowed origin: the configured list, else PUBLIC_BASE_URL's origin, else the
 * origin the request was addressed to. A missing Origin is refused too (browsers send it on every POST).
 * `Sec-Fetch-Site`, when sent, must not be cross-site.
 */
export function requireAllowedOrigin(configured: readonly string[], publicBaseUrl: string | undefined): Middleware<AppState> {
  const fixed = configured.length > 0 ? configured : null;
  return async (ctx, next) => {
    if (isMutation(ctx)) {
      const origin = ctx.get('Origin').toLowerCase();
      // PUBLIC_BASE_URL's origin, else the one this request was addressed to (Koa 3's ctx.origin is the Origin header itself).
      const allowed = fixed ?? [publicOrigin(publicBaseUrl, ctx)];
      if (!origin || origin === 'null' || !allowed.includes(origin)) {
        throw new DomainError('origin_rejected', 'This request did not come from an allowed origin');
      }
      const site = ctx.get('Sec-Fetch-Site');
      if (site && site !== 'same-origin' && site !== 'same-site' && site !== 'none') {
        throw new DomainError('origin_rejected', 'Cross-site requests are not accepted');
      }
    }
    await next();
  };
}

/** A live dashboard session (cookie) and its merchant; a suspended merchant is refused. */
export function requireSession(db: Db, secretBox: SecretBox, idleMs: number, now: () => Date): Middleware<AppState> {
  return async (ctx, next) => {
    const token = sessionCookieOf(ctx);
    const session = token ? await findLiveSession(db, sha256Hex(token), now(), idleMs) : null;
    if (!token || !session) throw new DomainError('session_required', 'Sign in to the dashboard first (no valid session cookie)');
    const merchant = await getMerchant(db, session.merchantId);
    if (!merchant || merchant.status !== 'active') throw new DomainError('customer_access_required', 'This account is suspended');
    const accepted = csrfTokensOf(secretBox, token); // the current key's token first (csrfTokenOf)
    ctx.state.session = { id: session.id, userId: session.userId, email: session.email, csrfToken: accepted[0]!, csrfTokensAccepted: accepted };
    ctx.state.merchant = merchant;
    await next();
  };
}

/** On a mutation, `X-CSRF-Token` must equal one of the session's tokens (constant-time). */
export function requireCsrfToken(): Middleware<AppState> {
  return async (ctx, next) => {
    if (isMutation(ctx)) {
      const presented = ctx.get('X-CSRF-Token');
      const accepted = sessionOf(ctx).csrfTokensAccepted;
      if (!/^[0-9a-f]{64}$/.test(presented) || !accepted.map((expected) => timingSafeEqualHex(presented, expected)).includes(true)) {
        throw new DomainError('csrf_failed', 'Missing or invalid X-CSRF-Token header');
      }
    }
    await next();
  };
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

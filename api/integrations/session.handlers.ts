import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { emailSchema, parseSignIn } from '../../domain/validation/integrations.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { burnPasswordCheck, verifyPassword } from '../../adapters/crypto/password.js';
import { newSessionToken, sha256Hex } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import { getMerchant } from '../../db/repositories/merchants.repo.js';
import { findUserByEmail } from '../../db/repositories/merchant-users.repo.js';
import { createSession, endSession, findLiveSession } from '../../db/repositories/merchant-sessions.repo.js';
import type { AppContext, AppState } from '../http/context.js';
import { merchantOf, sessionOf } from '../http/context.js';
import { rateLimit } from '../http/rate-limit.js';
import { csrfTokenOf, requireCsrfToken, requireSession, SESSION_COOKIE, sessionCookieOf } from './guards.js';

export interface SessionDeps {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  sessionTtlMs: number;
  sessionIdleMs: number;
  signInPerEmailPer15Minutes: number;
  now: () => Date;
}

const cookie = (value: string, maxAgeSeconds: number) =>
  `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=${maxAgeSeconds}`;

/** The sign-in e-mail as the per-address throttle counts it: a digest, so counters never hold addresses. */
function signInSubject(ctx: AppContext): string | null {
  const raw = (ctx.request.body as { email?: unknown } | undefined)?.email;
  const parsed = emailSchema.safeParse(raw);
  return parsed.success ? sha256Hex(`sign-in:${parsed.data}`) : null;
}

/**
 * Dashboard sign-in and sign-out (not in the spec's table; docs/proof.md "Management routes"):
 * `POST /session` `{email, password}` sets an HttpOnly, Secure, SameSite=Strict cookie and returns the CSRF
 * token; `GET /session` tells who is signed in (and the token again, for a reloaded page); `DELETE /session`
 * signs out. Sign-in mutations go through the Origin check like every other mutation.
 */
export function mountSession(router: Router<AppState>, deps: SessionDeps): void {
  const throttle: Middleware<AppState> = rateLimit(
    deps.db,
    [{ rule: { name: 'integrations:sign-in:email:15min', limit: deps.signInPerEmailPer15Minutes, windowSeconds: 900 }, subject: signInSubject }],
    deps.now,
  );

  router.post('/session', throttle, async (ctx) => {
    const body = parseSignIn(ctx.request.body);
    const user = await findUserByEmail(deps.db, body.email);
    const ok = user && !user.disabledAt ? await verifyPassword(body.password, user.passwordHash) : await burnPasswordCheck(body.password);
    if (!user || !ok) {
      deps.logger.info({ requestId: ctx.state.requestId }, 'dashboard sign-in refused');
      throw new DomainError('invalid_credentials', 'The e-mail address or password is incorrect');
    }
    const merchant = await getMerchant(deps.db, user.merchantId);
    if (!merchant || merchant.status !== 'active') throw new DomainError('customer_access_required', 'This account is suspended');

    const now = deps.now();
    // A new token on every sign-in (no fixation); a session this browser still held ends.
    const previous = sessionCookieOf(ctx);
    if (previous) {
      const old = await findLiveSession(deps.db, sha256Hex(previous), now, deps.sessionIdleMs);
      if (old) await endSession(deps.db, old.id, now);
    }
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + deps.sessionTtlMs);
    await createSession(deps.db, { tokenHash: sha256Hex(token), userId: user.id, merchantId: merchant.id, expiresAt }, now);
    deps.logger.info({ requestId: ctx.state.requestId, userId: user.id, merchantId: merchant.id }, 'dashboard sign-in');
    ctx.append('Set-Cookie', cookie(token, Math.floor(deps.sessionTtlMs / 1000)));
    ctx.status = 201;
    ctx.body = {
      csrf_token: csrfTokenOf(deps.secretBox, token),
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
    await endSession(deps.db, sessionOf(ctx).id, deps.now());
    ctx.append('Set-Cookie', cookie('', 0));
    ctx.status = 204;
  });
}

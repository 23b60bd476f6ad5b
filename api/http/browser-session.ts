import type { Middleware } from 'koa';
import { z } from 'zod';
import { DomainError } from '../../domain/errors.js';
import type { SignInLimits } from '../../domain/sign-in.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { burnPasswordCheck, verifyPassword } from '../../adapters/crypto/password.js';
import { newSessionToken, sha256Hex, timingSafeEqualHex } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import type { AppContext, AppState } from './context.js';
import { sessionOf } from './context.js';
import { publicOrigin } from './public-origin.js';
import { signInThrottle } from './sign-in-throttle.js';

/**
 * What every interactive same-origin session of the app shares (the /proof dashboard's `/api/integrations` and the
 * processing companies' `/api/company` with `POST /v1/webhooks`): a `__Host-` cookie holding a random token of which
 * only the SHA-256 is stored, the CSRF token derived from it, the Origin check on every mutation, the refusal of an
 * Authorization header, and a sign-in whose failures are throttled per client address and account, per address and per
 * account (api/http/sign-in-throttle.ts), and whose password check costs the same whether or not the address has an
 * account.
 */

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const isMutation = (ctx: AppContext): boolean => UNSAFE.has(ctx.method);

/** The value of the session cookie `name`, if it has the shape of a session token (32 bytes, base64url). */
export function sessionCookieValue(ctx: AppContext, name: string): string | null {
  for (const part of (ctx.get('Cookie') || '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** `__Host-` pins the cookie to this host, path `/`, and Secure (browsers treat http://localhost as secure). */
export const sessionCookieHeader = (name: string, value: string, maxAgeSeconds: number): string =>
  `${name}=${value}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=${maxAgeSeconds}`;

/** The `Set-Cookie` of a sign-in as `sessionCookieHeader` writes it: a new token (32 random bytes, base64url). */
export const signInCookieSchema = (name: string) =>
  z
    .string()
    .regex(
      new RegExp(
        `^${name.replace(/[.$]/g, '\\$&')}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=[0-9]+$`,
      ),
    );

/** The CSRF token of a session: a keyed digest of its cookie token, so nothing more is stored. */
export const csrfTokenOf = (secretBox: SecretBox, sessionToken: string): string =>
  secretBox.digest(`csrf:${sessionToken}`);

/**
 * Every token a session's page may hold: the one under the current secrets key, then those under previous keys,
 * so a `SECRETS_KEY` rotation does not break pages that read their token before it (docs/operations.md).
 */
export const csrfTokensOf = (secretBox: SecretBox, sessionToken: string): string[] =>
  secretBox.digests(`csrf:${sessionToken}`);

/** `ctx.state.session` of a signed-in browser: who, and the CSRF tokens its mutations may carry. */
export function browserSessionState(
  secretBox: SecretBox,
  token: string,
  who: { id: string; userId: string; email: string },
): NonNullable<AppState['session']> {
  const accepted = csrfTokensOf(secretBox, token); // the current key's token first (csrfTokenOf)
  return { ...who, csrfToken: accepted[0]!, csrfTokensAccepted: accepted };
}

/** Session routes are for the browser only: a bearer (or any) Authorization header is refused with `code` and `message`. */
export function refuseAuthorizationHeader(
  code: 'authorization_header_rejected' | 'api_key_not_accepted',
  message: string,
): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.get('Authorization')) throw new DomainError(code, message);
    await next();
  };
}

/**
 * Every mutation must come from an allowed origin: the configured list, else PUBLIC_BASE_URL's origin, else the
 * origin the request was addressed to. A missing Origin is refused too (browsers send it on every POST).
 * `Sec-Fetch-Site`, when sent, must not be cross-site.
 */
export function requireAllowedOrigin(
  configured: readonly string[],
  publicBaseUrl: string | undefined,
): Middleware<AppState> {
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

/** On a mutation, `X-CSRF-Token` must equal one of the session's tokens (constant-time). */
export function requireCsrfToken(): Middleware<AppState> {
  return async (ctx, next) => {
    if (isMutation(ctx)) {
      const presented = ctx.get('X-CSRF-Token');
      const accepted = sessionOf(ctx).csrfTokensAccepted;
      if (
        !/^[0-9a-f]{64}$/.test(presented) ||
        !accepted.map((expected) => timingSafeEqualHex(presented, expected)).includes(true)
      ) {
        throw new DomainError('csrf_failed', 'Missing or invalid X-CSRF-Token header');
      }
    }
    await next();
  };
}

/** A sign-in candidate: the stored password hash (null: none set yet) and whether the user may sign in at all. */
export interface Credential<U> {
  user: U;
  passwordHash: string | null;
  disabled: boolean;
}

/** What a session interface is configured with (config `dashboard`, shared by both session interfaces). */
export interface BrowserSessionDeps {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  sessionTtlMs: number;
  sessionIdleMs: number;
  /** Failed sign-ins allowed in 15 minutes (domain/sign-in.ts). */
  signIn: SignInLimits;
  now: () => Date;
}

/** How one kind of session is stored: the repositories behind a sign-in (`S`: a live session as its repository reads it). */
export interface SessionStore<U, S extends { id: string } = { id: string }> {
  cookieName: string;
  ttlMs: number;
  idleMs: number;
  /** The live session of a token digest, if any. */
  findLive(tokenHash: string, now: Date): Promise<S | null>;
  end(id: string, now: Date): Promise<void>;
  create(input: { tokenHash: string; user: U; expiresAt: Date }, now: Date): Promise<void>;
}

/** A `SessionStore` over a session repository's functions, with the configured lifetimes. */
export function sessionStore<U, S extends { id: string }>(
  cookieName: string,
  deps: Pick<BrowserSessionDeps, 'db' | 'sessionTtlMs' | 'sessionIdleMs'>,
  repo: {
    findLive(db: Db, tokenHash: string, now: Date, idleMs: number): Promise<S | null>;
    end(db: Db, id: string, now: Date): Promise<void>;
    create(db: Db, input: { tokenHash: string; user: U; expiresAt: Date }, now: Date): Promise<unknown>;
  },
): SessionStore<U, S> {
  return {
    cookieName,
    ttlMs: deps.sessionTtlMs,
    idleMs: deps.sessionIdleMs,
    findLive: (tokenHash, now) => repo.findLive(deps.db, tokenHash, now, deps.sessionIdleMs),
    end: (id, now) => repo.end(deps.db, id, now),
    create: async (input, now) => {
      await repo.create(deps.db, input, now);
    },
  };
}

/**
 * A live session of `store` (its cookie): `admit` refuses a session whose user or tenant may not act, and puts them
 * in `ctx.state`; without a live session, `missing` is thrown.
 */
export function requireBrowserSession<S extends { id: string }>(
  store: Pick<SessionStore<unknown, S>, 'cookieName' | 'findLive'>,
  secretBox: SecretBox,
  now: () => Date,
  missing: () => DomainError,
  admit: (ctx: AppContext, session: S, token: string) => Promise<{ userId: string; email: string }>,
): Middleware<AppState> {
  return async (ctx, next) => {
    const token = sessionCookieValue(ctx, store.cookieName);
    const session = token ? await store.findLive(sha256Hex(token), now()) : null;
    if (!token || !session) throw missing();
    const who = await admit(ctx, session, token);
    ctx.state.session = browserSessionState(secretBox, token, { id: session.id, ...who });
    await next();
  };
}

/**
 * Checks an e-mail and password: the same `invalid_credentials` (and the same scrypt work) for an unknown address,
 * a disabled user, a user without a password and a wrong password. Nothing of the attempt is logged but its request id.
 */
export async function checkCredentials<U>(
  candidate: Credential<U> | null,
  password: string,
  logger: Logger,
  ctx: AppContext,
  label: string,
): Promise<U> {
  const usable = candidate && !candidate.disabled && candidate.passwordHash ? candidate : null;
  const ok = usable ? await verifyPassword(password, usable.passwordHash!) : await burnPasswordCheck(password);
  if (!usable || !ok) {
    logger.info({ requestId: ctx.state.requestId }, `${label} sign-in refused`);
    throw new DomainError('invalid_credentials', 'The e-mail address or password is incorrect');
  }
  return usable.user;
}

/**
 * Starts a session for `user`: a new token on every sign-in (no fixation), ending the session this browser still
 * held; sets the cookie and returns the CSRF token and the absolute end.
 */
export async function startBrowserSession<U>(
  ctx: AppContext,
  store: SessionStore<U, { id: string }>,
  secretBox: SecretBox,
  user: U,
  now: Date,
): Promise<{ csrfToken: string; expiresAt: Date }> {
  const previous = sessionCookieValue(ctx, store.cookieName);
  if (previous) {
    const old = await store.findLive(sha256Hex(previous), now);
    if (old) await store.end(old.id, now);
  }
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + store.ttlMs);
  await store.create({ tokenHash: sha256Hex(token), user, expiresAt }, now);
  ctx.append('Set-Cookie', sessionCookieHeader(store.cookieName, token, Math.floor(store.ttlMs / 1000)));
  return { csrfToken: csrfTokenOf(secretBox, token), expiresAt };
}

/** One kind of sign-in: where its users and sessions are, and what its answer says about the user. */
export interface SignInSpec<U> {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  now: () => Date;
  store: SessionStore<U, { id: string }>;
  /** Which sign-in its failure windows belong to (`company`, `integrations`), and their limits. */
  throttle: { route: string; limits: SignInLimits };
  /** Who this sign-in is for, in logs (`dashboard`, `company`). */
  label: string;
  find(email: string): Promise<Credential<U> | null>;
  /** Refuses a user whose tenant may not sign in (suspended); else the answer's members naming user and tenant, and ids to log. */
  admit(user: U): Promise<{ body: Record<string, unknown>; log: Record<string, string> }>;
}

/**
 * `POST …/session` `{email, password}`: `parse` validates the body; failed sign-ins are throttled (429 before the
 * password is checked); the same 401 for every wrong pair; then a new session (cookie) and
 * `201 {csrf_token, expires_at, …}`. Only a wrong pair counts as a failure.
 */
export function signInRoute<U>(
  spec: SignInSpec<U>,
  parse: (body: unknown) => { email: string; password: string },
): Middleware<AppState>[] {
  const throttle = signInThrottle(spec.db, spec.throttle.route, spec.throttle.limits, spec.now);
  const handler: Middleware<AppState> = async (ctx) => {
    const body = parse(ctx.request.body);
    const attempt = await throttle.begin(ctx.ip || 'unknown', body.email);
    let user: U;
    try {
      user = await checkCredentials(await spec.find(body.email), body.password, spec.logger, ctx, spec.label);
    } catch (e) {
      if (e instanceof DomainError && e.code === 'invalid_credentials') await attempt.failed();
      else await attempt.settled();
      throw e;
    }
    await attempt.settled();
    const admitted = await spec.admit(user);
    const { csrfToken, expiresAt } = await startBrowserSession(ctx, spec.store, spec.secretBox, user, spec.now());
    spec.logger.info({ requestId: ctx.state.requestId, ...admitted.log }, `${spec.label} sign-in`);
    ctx.status = 201;
    ctx.body = { csrf_token: csrfToken, expires_at: expiresAt.toISOString(), ...admitted.body };
  };
  return [handler];
}

/** Ends the signed-in session and clears the cookie (204). */
export async function endBrowserSession<U>(
  ctx: AppContext,
  store: Pick<SessionStore<U>, 'cookieName' | 'end'>,
  now: Date,
): Promise<void> {
  await store.end(sessionOf(ctx).id, now);
  ctx.append('Set-Cookie', sessionCookieHeader(store.cookieName, '', 0));
  ctx.status = 204;
}

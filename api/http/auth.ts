import type { Middleware } from 'koa';
import { looksLikeApiKey, requiredScope, type KeyInterface } from '../../domain/api-keys.js';
import { DomainError } from '../../domain/errors.js';
import { touchApiKey, verifyApiKey, type VerifyOutcome } from '../../db/repositories/api-keys.repo.js';
import type { Db } from '../../db/connection.js';
import type { AppContext, AppState } from './context.js';

/** last_used_at is kept to the minute. */
const TOUCH_INTERVAL_MS = 60_000;

/** Query parameter names that commonly carry credentials; any of them is refused outright. */
const CREDENTIAL_PARAMS = new Set(['api_key', 'apikey', 'key', 'access_token', 'token', 'authorization', 'bearer']);

/** Refuses a request that carries an API key (or a credential-named parameter) in its query string. */
export function refuseKeyInQuery(): Middleware<AppState> {
  return async (ctx, next) => {
    const params = new URLSearchParams(ctx.querystring);
    for (const [name, value] of params) {
      if (CREDENTIAL_PARAMS.has(name.toLowerCase()) || looksLikeApiKey(value) || looksLikeApiKey(name)) {
        throw new DomainError(
          'api_key_in_url',
          'API keys must be sent in the Authorization header, never in the URL; revoke a key that was put in a URL',
        );
      }
    }
    await next();
  };
}

/**
 * Bearer-key authentication for one interface: a key of another interface, a malformed, unknown, revoked
 * or expired key all answer 401 with the same message; a key lacking the method's scope answers
 * insufficient_scope (401 on /proof/v1, 403 on /v1).
 */
export function requireApiKey(
  db: Db,
  iface: KeyInterface,
  now: () => Date = () => new Date(),
  /** Replaces verifyApiKey, e.g. to read what a later guard needs in the same statement (api/proof/proof.routes.ts). */
  verify: (ctx: AppContext, token: string, at: Date) => Promise<VerifyOutcome> = (_ctx, token, at) =>
    verifyApiKey(db, iface, token, at),
): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    const match = /^Bearer +(\S+)$/i.exec(header); // the auth scheme is case-insensitive (RFC 9110)
    if (!match) throw new DomainError('unauthorized', 'Missing or invalid API key');
    const at = now();
    const outcome = await verify(ctx, match[1]!, at);
    if (!outcome.ok) throw new DomainError('unauthorized', 'Missing or invalid API key');
    const scope = requiredScope(ctx.method);
    if (!outcome.key.scopes.includes(scope)) {
      throw new DomainError('insufficient_scope', `This API key lacks the ${scope} scope`);
    }
    ctx.state.apiKey = outcome.key;
    // The row just read says whether last use is due for an update: no write on most requests.
    const lastUsed = outcome.key.lastUsedAt?.getTime();
    if (lastUsed === undefined || at.getTime() - lastUsed >= TOUCH_INTERVAL_MS) {
      void touchApiKey(db, outcome.key.id, at).catch(() => undefined);
    }
    await next();
  };
}

import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { retryAfterSeconds, type RateLimitRule } from '../../domain/rate-limits.js';
import type { Db } from '../../db/connection.js';
import type { AppContext, AppState } from './context.js';
import { createSharedCounters, type SharedCounters } from './shared-counters.js';

/** Hits one process reserves at most from a shared counter in one statement, unless the app says otherwise. */
export const DEFAULT_RESERVE_MAX = 64;

const COUNTERS = Symbol('sharedCounters');
const byDb = new WeakMap<Db, SharedCounters>();

/**
 * The app's counters (one set per app, i.e. per API process: buildApp installs them with `installSharedCounters`),
 * or, for a router mounted without buildApp, one set per database handle.
 */
function countersOf(ctx: AppContext, db: Db): SharedCounters {
  const installed = (ctx as unknown as { [COUNTERS]?: SharedCounters })[COUNTERS];
  if (installed) return installed;
  let counters = byDb.get(db);
  if (!counters) byDb.set(db, (counters = createSharedCounters(db, { reserveMax: DEFAULT_RESERVE_MAX })));
  return counters;
}

/** Every request of `app` counts through `counters` (api/server.ts: one set per app, shared by all its limiters). */
export function installSharedCounters(app: { context: object }, counters: SharedCounters): void {
  Object.defineProperty(app.context, COUNTERS, { value: counters, enumerable: false });
}

/** A rule and how to find the subject it counts (null skips the rule for this request). */
export interface RateLimitCheck {
  rule: RateLimitRule;
  subject: (ctx: AppContext) => string | null;
}

export const perIp = (name: string, limit: number, windowSeconds: number): RateLimitCheck => ({
  rule: { name, limit, windowSeconds },
  subject: (ctx) => ctx.ip || 'unknown',
});

export const perKey = (name: string, limit: number, windowSeconds: number): RateLimitCheck => ({
  rule: { name, limit, windowSeconds },
  subject: (ctx) => ctx.state.apiKey?.id ?? null,
});

/**
 * PostgreSQL-backed fixed windows shared by every API process, counted through reservations of hits
 * (api/http/shared-counters.ts: no upsert per request, the limit is never exceeded). Over any limit: 429 with
 * Retry-After (the longest wait among the exceeded windows) and RateLimit headers of the tightest rule.
 */
export function rateLimit(db: Db, checks: RateLimitCheck[], now: () => Date = () => new Date()): Middleware<AppState> {
  return async (ctx, next) => {
    const at = now();
    const active = checks
      .map((c) => ({ rule: c.rule, subject: c.subject(ctx) }))
      .filter((c): c is { rule: RateLimitRule; subject: string } => c.subject !== null);
    const hits = await countersOf(ctx, db).take(active, at);
    const exceeded = hits.filter((h) => h.exceeded);
    const tightest = hits.reduce<(typeof hits)[number] | undefined>(
      (best, h) => (!best || h.rule.limit - h.used < best.rule.limit - best.used ? h : best),
      undefined,
    );
    if (tightest) {
      ctx.set('RateLimit-Limit', String(tightest.rule.limit));
      ctx.set('RateLimit-Remaining', String(Math.max(0, tightest.rule.limit - tightest.used)));
      ctx.set('RateLimit-Reset', String(retryAfterSeconds(at, tightest.rule.windowSeconds)));
    }
    if (exceeded.length > 0) {
      const wait = Math.max(...exceeded.map((h) => retryAfterSeconds(at, h.rule.windowSeconds)));
      throw new DomainError('rate_limited', 'Too many requests; retry after the time in Retry-After', {
        retryAfterSeconds: wait,
      });
    }
    await next();
  };
}

/**
 * Failed API-key authentication per client IP, shared by /v1 and /proof/v1 (one bucket per IP). Mounted
 * before the key check: an address past its budget of failures in the window gets 429 without any key
 * lookup; every `unauthorized` answer behind it (missing, malformed, unknown, revoked, expired or inactive
 * key) counts one failure. A process reserves one failure of the address's window before letting its first
 * request through (one upsert per address, window and process); authenticated requests keep that reservation
 * and write nothing, a failure uses it (the next request reserves again). So each process's unreserved failure
 * may make the address's budget one smaller, never larger.
 */
export function authFailureThrottle(db: Db, limit: number, now: () => Date = () => new Date()): Middleware<AppState> {
  const rule: RateLimitRule = { name: 'auth:fail:ip', limit, windowSeconds: 60 };
  return async (ctx, next) => {
    const at = now();
    const check = { rule, subject: ctx.ip || 'unknown' };
    const counters = countersOf(ctx, db);
    if (!(await counters.hold(check, at))) {
      throw new DomainError('rate_limited', 'Too many failed authentication attempts from this address; retry after the time in Retry-After', {
        retryAfterSeconds: retryAfterSeconds(at, rule.windowSeconds),
      });
    }
    try {
      await next();
    } catch (e) {
      if (e instanceof DomainError && e.code === 'unauthorized') await counters.fail(check, at);
      throw e;
    }
  };
}

import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { secondsUntil, type RateLimitRule } from '../../domain/rate-limits.js';
import type { Db } from '../../db/connection.js';
import type { AppContext, AppState } from './context.js';
import { createSharedCounters, type CounterCheck, type CounterTake, type SharedCounters } from './shared-counters.js';

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
 * PostgreSQL-backed sliding windows shared by every API process (at most `limit` in any `windowSeconds`), counted
 * through reservations of hits (api/http/shared-counters.ts: no statement per request, the limit is never exceeded).
 * Over any limit: 429 with Retry-After (when the longest-refusing window has room again). Every limited response
 * carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds until every hit it counts has left its
 * window) of the tightest rule.
 */
export function rateLimit(db: Db, checks: RateLimitCheck[], now: () => Date = () => new Date()): Middleware<AppState> {
  return (ctx, next) => {
    const at = now();
    // Plain loops: this runs before every limited request, the unpaid x402 402 among them (issue 31 item 5).
    const active: CounterCheck[] = [];
    for (const c of checks) {
      const subject = c.subject(ctx);
      if (subject !== null) active.push({ rule: c.rule, subject });
    }
    const counters = countersOf(ctx, db);
    // A hit this process has in reserve is taken without waiting for anything (no promise, no extra turn).
    const reserved = active.length === 1 ? counters.takeReserved(active[0]!, at) : null;
    if (reserved) {
      setRateLimitHeaders(ctx, reserved, at);
      return next();
    }
    return takeThenNext(ctx, next, counters, active, at);
  };
}

/** RateLimit-Limit, -Remaining and -Reset of a take. */
function setRateLimitHeaders(ctx: AppContext, take: CounterTake, at: Date): void {
  ctx.set('RateLimit-Limit', String(take.rule.limit));
  ctx.set('RateLimit-Remaining', String(Math.max(0, take.rule.limit - take.used)));
  ctx.set('RateLimit-Reset', String(secondsUntil(at, take.until)));
}

/** The limiter when a window has no reserved hit (or several windows count): wait for the counters, then decide. */
async function takeThenNext(
  ctx: AppContext,
  next: () => Promise<unknown>,
  counters: SharedCounters,
  active: CounterCheck[],
  at: Date,
): Promise<void> {
  const hits = await counters.take(active, at);
  let tightest: CounterTake | undefined;
  let wait = 0;
  for (const h of hits) {
    if (!tightest || h.rule.limit - h.used < tightest.rule.limit - tightest.used) tightest = h;
    if (h.exceeded) wait = Math.max(wait, secondsUntil(at, h.until));
  }
  if (tightest) setRateLimitHeaders(ctx, tightest, at);
  if (wait > 0) {
    throw new DomainError('rate_limited', 'Too many requests; retry after the time in Retry-After', {
      retryAfterSeconds: wait,
    });
  }
  await next();
}

/**
 * Failed API-key authentication per client IP, shared by /v1 and /proof/v1 (one sliding window per IP). Mounted
 * before the key check: an address whose window of failures is full gets 429 without any key lookup, until it has
 * room again; every `unauthorized` answer behind it (missing, malformed, unknown, revoked, expired or inactive key)
 * counts one failure, at its time. A process reads an address's window once a window (authenticated requests then
 * write nothing) and learns it is full from the statement that counts a failure, so requests already under way when
 * it fills may still fail, each counted.
 */
export function authFailureThrottle(db: Db, limit: number, now: () => Date = () => new Date()): Middleware<AppState> {
  const rule: RateLimitRule = { name: 'auth:fail:ip', limit, windowSeconds: 60 };
  return async (ctx, next) => {
    const at = now();
    const check = { rule, subject: ctx.ip || 'unknown' };
    const counters = countersOf(ctx, db);
    const full = await counters.admitFailure(check, at);
    if (full !== null) {
      throw new DomainError(
        'rate_limited',
        'Too many failed authentication attempts from this address; retry after the time in Retry-After',
        {
          retryAfterSeconds: secondsUntil(at, full),
        },
      );
    }
    try {
      await next();
    } catch (e) {
      if (e instanceof DomainError && e.code === 'unauthorized') await counters.fail(check, at);
      throw e;
    }
  };
}

import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { retryAfterSeconds, type RateLimitRule } from '../../domain/rate-limits.js';
import { hitRateLimits, peekRateLimit } from '../../db/repositories/rate-limits.repo.js';
import type { Db } from '../../db/connection.js';
import type { AppContext, AppState } from './context.js';

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
 * PostgreSQL-backed fixed windows shared by every API process. Over any limit: 429 with Retry-After (the
 * longest wait among the exceeded windows) and RateLimit headers of the tightest rule.
 */
export function rateLimit(db: Db, checks: RateLimitCheck[], now: () => Date = () => new Date()): Middleware<AppState> {
  return async (ctx, next) => {
    const at = now();
    const active = checks
      .map((c) => ({ rule: c.rule, subject: c.subject(ctx) }))
      .filter((c): c is { rule: RateLimitRule; subject: string } => c.subject !== null);
    const hits = await hitRateLimits(db, active, at);
    const exceeded = hits.filter((h) => h.hits > h.rule.limit);
    const tightest = hits.reduce<(typeof hits)[number] | undefined>(
      (best, h) => (!best || h.rule.limit - h.hits < best.rule.limit - best.hits ? h : best),
      undefined,
    );
    if (tightest) {
      ctx.set('RateLimit-Limit', String(tightest.rule.limit));
      ctx.set('RateLimit-Remaining', String(Math.max(0, tightest.rule.limit - tightest.hits)));
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
 * key) counts one failure. Authenticated requests read the counter and write nothing.
 */
export function authFailureThrottle(db: Db, limit: number, now: () => Date = () => new Date()): Middleware<AppState> {
  const rule: RateLimitRule = { name: 'auth:fail:ip', limit, windowSeconds: 60 };
  return async (ctx, next) => {
    const at = now();
    const subject = ctx.ip || 'unknown';
    if ((await peekRateLimit(db, { rule, subject }, at)) >= limit) {
      throw new DomainError('rate_limited', 'Too many failed authentication attempts from this address; retry after the time in Retry-After', {
        retryAfterSeconds: retryAfterSeconds(at, rule.windowSeconds),
      });
    }
    try {
      await next();
    } catch (e) {
      if (e instanceof DomainError && e.code === 'unauthorized') await hitRateLimits(db, [{ rule, subject }], at);
      throw e;
    }
  };
}

import { windowStart, type RateLimitRule } from '../../domain/rate-limits.js';
import type { Db } from '../connection.js';
import { deleteInBatches } from '../batches.js';

export interface RateLimitHit {
  rule: RateLimitRule;
  bucket: string;
  hits: number;
}

/** The counter row of a rule for one subject (an IP, a key id, …): every read and write of it names it so. */
const bucketOf = (c: { rule: RateLimitRule; subject: string }): string => `${c.rule.name}:${c.subject}`;

/**
 * Counts one hit in every (rule, subject) bucket in a single statement and returns the new counts. Fixed
 * windows aligned to the epoch; every API process shares the same counters.
 */
export async function hitRateLimits(
  db: Db,
  checks: ReadonlyArray<{ rule: RateLimitRule; subject: string }>,
  now: Date,
): Promise<RateLimitHit[]> {
  // One row per bucket: ON CONFLICT cannot touch the same row twice in one statement.
  const unique = [...new Map(checks.map((c) => [bucketOf(c), c])).values()];
  const totals = await addRateLimitHits(db, unique.map((c) => ({ ...c, hits: 1 })), now);
  const byBucket = new Map(unique.map((c, i) => [bucketOf(c), totals[i]!]));
  return checks.map((c) => {
    const bucket = bucketOf(c);
    return { rule: c.rule, bucket, hits: byBucket.get(bucket) ?? 0 };
  });
}

/**
 * Adds `hits` to each (rule, subject) bucket of the window containing `now`, in one statement, and returns the new
 * counts in the order given (api/http/shared-counters.ts reserves hits for a process this way). Each bucket at most
 * once per call.
 */
export async function addRateLimitHits(
  db: Db,
  adds: ReadonlyArray<{ rule: RateLimitRule; subject: string; hits: number }>,
  now: Date,
): Promise<number[]> {
  if (adds.length === 0) return [];
  const values: unknown[] = [];
  const tuples = adds.map((c) => {
    const { rule } = c;
    const start = windowStart(now, rule.windowSeconds);
    values.push(bucketOf(c), start, c.hits, new Date(start.getTime() + rule.windowSeconds * 1000));
    return '(?, ?, ?::integer, ?)';
  });
  const result = await db.raw<{ rows: Array<{ bucket: string; hits: number }> }>(
    `INSERT INTO rate_limit_counters (bucket, window_start, hits, expires_at)
     VALUES ${tuples.join(', ')}
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + EXCLUDED.hits
     RETURNING bucket, hits`,
    values as never[],
  );
  const byBucket = new Map(result.rows.map((r) => [r.bucket, Number(r.hits)]));
  return adds.map((c) => byBucket.get(bucketOf(c)) ?? 0);
}

/** The hits of one (rule, subject) bucket in the current window, without counting one (0 when none). */
export async function peekRateLimit(db: Db, check: { rule: RateLimitRule; subject: string }, now: Date): Promise<number> {
  const row = await db('rate_limit_counters')
    .where({ bucket: bucketOf(check), window_start: windowStart(now, check.rule.windowSeconds) })
    .first<{ hits: number } | undefined>('hits');
  return row?.hits ?? 0;
}

/** Removes windows that have ended. Called by the maintenance sweep. */
export async function purgeExpiredRateLimits(db: Db, now: Date): Promise<number> {
  return deleteInBatches(db, 'rate_limit_counters', (q) => q.where('expires_at', '<', now));
}

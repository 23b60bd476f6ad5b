import type { RateLimitRule, WindowHits } from '../../domain/rate-limits.js';
import type { Db } from '../connection.js';
import { deleteInBatches } from '../batches.js';

/** The bucket of a rule for one subject (an IP, a key id, …): every read and write of it names it so. */
const bucketOf = (c: { rule: RateLimitRule; subject: string }): string => `${c.rule.name}:${c.subject}`;

/** What to do with one bucket's sliding window (`rate_limit_take`, migration 20261127130000). */
export interface WindowTake {
  rule: RateLimitRule;
  subject: string;
  /** Hits wanted: granted while the window holds fewer than the rule's limit (0: only read the window). */
  ask: number;
  /** Epoch milliseconds from which granted hits count (domain/rate-limits.ts `recordedTime`). */
  recordAt: number;
  /** Hits granted before and not used, given back: recorded time → hits. */
  refunds?: ReadonlyMap<number, number>;
  /** Record every asked hit whatever the limit (failures that happened). */
  force?: boolean;
}

/** A bucket's window after a take: what was granted, and the hits it now holds (oldest first) with their total. */
export interface WindowState {
  granted: number;
  total: number;
  entries: WindowHits[];
}

/**
 * Takes hits from each bucket's sliding window, in one statement (each bucket at most once per call). Buckets are
 * locked in the order of their names, so two calls never wait for each other crosswise. Every API process shares them.
 */
export async function takeRateLimitHits(db: Db, takes: readonly WindowTake[], now: Date): Promise<WindowState[]> {
  if (takes.length === 0) return [];
  const rows = takes
    .map((t, i) => ({
      i,
      bucket: bucketOf(t),
      window_ms: t.rule.windowSeconds * 1000,
      lim: t.force ? null : t.rule.limit,
      ask: t.ask,
      record_ms: t.recordAt,
      refunds: Object.fromEntries(
        [...(t.refunds ?? new Map<number, number>())].filter(([, n]) => n > 0).map(([at, n]) => [String(at), n]),
      ),
    }))
    .sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
  const result = await db.raw<{
    rows: Array<{ i: number; granted_hits: number; window_total: number; window_hits: Record<string, number> }>;
  }>(
    `SELECT x.i, t.granted_hits, t.window_total, t.window_hits
       FROM jsonb_to_recordset(?::jsonb) AS x(i integer, bucket text, window_ms bigint, lim integer, ask integer, record_ms bigint, refunds jsonb)
       CROSS JOIN LATERAL rate_limit_take(x.bucket, ?::bigint, x.window_ms, x.lim, x.ask, x.record_ms, x.refunds) t`,
    [JSON.stringify(rows), now.getTime()],
  );
  const byIndex = new Map(result.rows.map((r) => [r.i, r]));
  return takes.map((_, i) => {
    const r = byIndex.get(i)!;
    const entries = Object.entries(r.window_hits)
      .map(([at, hits]) => ({ at: Number(at), hits: Number(hits) }))
      .sort((a, b) => a.at - b.at);
    return { granted: Number(r.granted_hits), total: Number(r.window_total), entries };
  });
}

/** Removes buckets whose newest hit has left the window. Called by the maintenance sweep. */
export async function purgeExpiredRateLimits(db: Db, now: Date): Promise<number> {
  return deleteInBatches(db, 'rate_limit_windows', (q) => q.where('expires_at', '<', now));
}

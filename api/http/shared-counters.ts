import { windowStart, type RateLimitRule } from '../../domain/rate-limits.js';
import { addRateLimitHits } from '../../db/repositories/rate-limits.repo.js';
import type { Db } from '../../db/connection.js';

/** A rule and the subject (an IP, a key id, …) whose counter it is. */
export interface CounterCheck {
  rule: RateLimitRule;
  subject: string;
}

/** What one request took from a counter: `used` hits of the window as far as this process knows (this one included). */
export interface CounterTake {
  rule: RateLimitRule;
  used: number;
  exceeded: boolean;
}

/** This process's share of one counter in one window. */
interface Share {
  windowStart: number;
  windowEnd: number;
  /** Hits reserved in PostgreSQL by this process and not used yet. */
  available: number;
  /** The last reservation asked for (reservations double up to `reserveMax`). */
  lastAsked: number;
  /** The shared count after this process's last reservation. */
  seen: number;
  /** The shared count reached the limit: nothing more can be reserved in this window. */
  exhausted: boolean;
  /** The reservation in flight, shared by every request of this process waiting for it. */
  pending: Promise<void> | null;
}

export interface SharedCounters {
  /** Counts one hit in every check's window; `exceeded` when the limit is already used up. */
  take(checks: readonly CounterCheck[], at: Date): Promise<CounterTake[]>;
  /**
   * For a counter of failures: true while this process holds (or can reserve) one hit of the window, so the
   * request may go on; false once the shared count has reached the limit. Holding does not use the hit: only
   * `fail` does.
   */
  hold(check: CounterCheck, at: Date): Promise<boolean>;
  /** Counts one failure: the held hit when there is one, else one more hit in PostgreSQL. */
  fail(check: CounterCheck, at: Date): Promise<void>;
}

/** Entries of ended windows are dropped once the map holds this many (or twice as many as after the last sweep). */
const SWEEP_AT = 10_000;

/**
 * Rate-limit counters shared by every API process through PostgreSQL (`rate_limit_counters`, fixed windows aligned
 * to the epoch), without one upsert per request: a process reserves hits in advance (one upsert adds `n` to the
 * shared count) and hands them out to its requests until they are used, then reserves again. Reservations start at
 * one hit per window and double with each one (so a subject that sends a few requests reserves a few hits), up to
 * `reserveMax` and to an eighth of what is left of the limit (so near the limit they are one hit each again).
 *
 * The limit is never exceeded: a request is admitted only on a hit that the shared count granted (a reservation
 * that crosses the limit is granted only the part below it). A process's unused hits count as used for the others,
 * so with several processes a subject may be refused up to their unused reservations early (at most a few hits
 * each near the limit); with `reserveMax` 1 every request upserts, as exact as one counter can be. A window whose
 * shared count reached the limit is refused without a statement until it ends.
 */
export function createSharedCounters(db: Db, opts: { reserveMax: number }): SharedCounters {
  const shares = new Map<string, Share>();
  let sweepAt = SWEEP_AT;
  const reserveMax = Math.max(1, Math.floor(opts.reserveMax));
  const bucketOf = (c: CounterCheck) => `${c.rule.name}:${c.subject}`;

  const shareOf = (c: CounterCheck, at: Date): Share => {
    const start = windowStart(at, c.rule.windowSeconds).getTime();
    const key = bucketOf(c);
    let share = shares.get(key);
    if (!share || share.windowStart !== start) {
      if (shares.size >= sweepAt) {
        sweep(at);
        // Many live subjects in the current windows: sweep again only once the map has doubled (linear overall).
        sweepAt = Math.max(SWEEP_AT, shares.size * 2);
      }
      share = { windowStart: start, windowEnd: start + c.rule.windowSeconds * 1000, available: 0, lastAsked: 0, seen: 0, exhausted: false, pending: null };
      shares.set(key, share);
    }
    return share;
  };

  /** Forgets shares of ended windows (their unused hits were of that window only). */
  const sweep = (at: Date) => {
    for (const [key, share] of shares) if (share.pending === null && share.windowEnd <= at.getTime()) shares.delete(key);
  };

  /** One statement reserving hits for every share that needs them; each share's `pending` resolves with it. */
  const reserve = (needs: Array<{ check: CounterCheck; share: Share; asked: number }>, at: Date): void => {
    const run = addRateLimitHits(db, needs.map((n) => ({ rule: n.check.rule, subject: n.check.subject, hits: n.asked })), at).then((totals) => {
      needs.forEach((n, i) => {
        const total = totals[i]!;
        const before = total - n.asked;
        const granted = Math.max(0, Math.min(n.asked, n.check.rule.limit - before));
        n.share.available += granted;
        n.share.lastAsked = n.asked;
        n.share.seen = Math.max(n.share.seen, total);
        if (total >= n.check.rule.limit) n.share.exhausted = true;
      });
    });
    const done = run.finally(() => {
      for (const n of needs) if (n.share.pending === done) n.share.pending = null;
    });
    for (const n of needs) n.share.pending = done;
  };

  const nextAsk = (c: CounterCheck, share: Share) => {
    const left = c.rule.limit - share.seen;
    return Math.max(1, Math.min(reserveMax, Math.max(1, share.lastAsked * 2), Math.floor(left / 8)));
  };

  return {
    async take(checks, at) {
      const unique = [...new Map(checks.map((c) => [bucketOf(c), c])).values()];
      const taken = new Map<string, CounterTake>();
      for (;;) {
        const needs: Array<{ check: CounterCheck; share: Share; asked: number }> = [];
        const waits: Array<Promise<void>> = [];
        for (const c of unique) {
          const key = bucketOf(c);
          if (taken.has(key)) continue;
          const share = shareOf(c, at);
          if (share.available > 0) {
            share.available--;
            taken.set(key, { rule: c.rule, used: share.seen - share.available, exceeded: false });
          } else if (share.exhausted) {
            taken.set(key, { rule: c.rule, used: c.rule.limit + 1, exceeded: true });
          } else if (share.pending) {
            waits.push(share.pending);
          } else {
            needs.push({ check: c, share, asked: nextAsk(c, share) });
          }
        }
        if (needs.length > 0) {
          reserve(needs, at);
          waits.push(...needs.map((n) => n.share.pending!));
        }
        if (waits.length === 0) break;
        await Promise.all(waits);
      }
      return checks.map((c) => taken.get(bucketOf(c))!);
    },

    async hold(check, at) {
      for (;;) {
        const share = shareOf(check, at);
        if (share.available > 0) return true;
        if (share.exhausted) return false;
        if (!share.pending) reserve([{ check, share, asked: 1 }], at);
        await share.pending;
      }
    },

    async fail(check, at) {
      const share = shareOf(check, at);
      if (share.available > 0) {
        share.available--;
        return;
      }
      const [total] = await addRateLimitHits(db, [{ rule: check.rule, subject: check.subject, hits: 1 }], at);
      share.seen = Math.max(share.seen, total!);
      if (total! >= check.rule.limit) share.exhausted = true;
    },
  };
}

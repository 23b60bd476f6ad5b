import {
  emptyAtFromLatest,
  latestAt,
  recordedTime,
  roomAt,
  type RateLimitRule,
  type WindowHits,
} from '../../domain/rate-limits.js';
import { takeRateLimitHits, type WindowState } from '../../db/repositories/rate-limits.repo.js';
import type { Db } from '../../db/connection.js';

/** A rule and the subject (an IP, a key id, …) whose window it is. */
export interface CounterCheck {
  rule: RateLimitRule;
  subject: string;
}

/** What one request took from a window. */
export interface CounterTake {
  rule: RateLimitRule;
  /** Hits of the window as far as this process knows (this one included). */
  used: number;
  exceeded: boolean;
  /** Epoch ms: refused, when the window will have room again (Retry-After); admitted, when it will be empty (RateLimit-Reset). */
  until: number;
}

/** This process's share of one (rule, subject) window. */
interface Share {
  windowMs: number;
  /** Hits granted to this process and not used yet; usable up to `usableUntil`, the time they count from. */
  available: number;
  usableUntil: number;
  /** Hits of ended reservations never used, given back with the next statement: recorded time → hits. */
  refunds: Map<number, number>;
  /** The last reservation asked for, and how many of its hits were used. */
  lastAsked: number;
  usedOfLast: number;
  /** The window as the last statement left it (this process's unused hits included). */
  total: number;
  entries: WindowHits[];
  /** `latestAt(entries)`, kept with them: an admitted request's RateLimit-Reset is read from it without a walk. */
  latest: number;
  /** Epoch ms until which the window is full: refused without a statement until then (0: not known full). */
  fullUntil: number;
  /** Failure windows: when this process last read the window (epoch ms). */
  lookedAt: number;
  /** The statement in flight, shared by every request of this process waiting for it. */
  pending: Promise<void> | null;
}

export interface SharedCounters {
  /**
   * One hit of a window this process still has one reserved for, taken at once; null when it has none (then `take`,
   * which may wait for a statement, decides). Most requests count in one such window: they need no promise.
   */
  takeReserved(check: CounterCheck, at: Date): CounterTake | null;
  /** Takes one hit from every check's window; `exceeded` when it has no room. */
  take(checks: readonly CounterCheck[], at: Date): Promise<CounterTake[]>;
  /**
   * For a window of failures: null while it has room (the request may go on; only a failure counts, through `fail`),
   * else when it will have room again.
   */
  admitFailure(check: CounterCheck, at: Date): Promise<number | null>;
  /** Counts one failure at `at`, whatever the limit (it happened). */
  fail(check: CounterCheck, at: Date): Promise<void>;
}

/** Shares are swept once the map holds this many (or twice as many as after the last sweep). */
const SWEEP_AT = 10_000;

const windowMs = (c: CounterCheck) => c.rule.windowSeconds * 1000;

/**
 * Sliding rate-limit windows shared by every API process through PostgreSQL (`rate_limit_windows`, one row per rule and
 * subject: the hits of the last window by the time they count from), without one statement per request: a process
 * reserves hits in advance (one statement grants up to `n` while the window has room) and hands them out to its requests
 * until they are used or their time has passed, then reserves again, giving back in the same statement the hits it did
 * not use. Reservations start at one hit and double while they are used up (so a subject that sends a few requests
 * reserves a few hits), up to `reserveMax` and to an eighth of what is left of the limit (one at a time near it).
 *
 * The limit holds over every window, i.e. in any `windowSeconds`: a request is admitted only on a hit the shared window
 * granted, and a reserved hit is used no later than the time it counts from (domain/rate-limits.ts `recordedTime`: one
 * grain, a sixtieth of the window, after the reservation), so it counts for the whole window after its use. A process's
 * unused hits count as used for the others until it gives them back, so with several processes a subject may be refused
 * a few hits early, never late. A window known to be full is refused without a statement until it has room.
 */
export function createSharedCounters(db: Db, opts: { reserveMax: number }): SharedCounters {
  const shares = new Map<string, Share>();
  let sweepAt = SWEEP_AT;
  const reserveMax = Math.max(1, Math.floor(opts.reserveMax));
  const bucketOf = (c: CounterCheck) => `${c.rule.name}:${c.subject}`;

  const shareOf = (c: CounterCheck, at: Date): Share => {
    const key = bucketOf(c);
    let share = shares.get(key);
    if (!share) {
      if (shares.size >= sweepAt) {
        sweep(at.getTime());
        // Many live subjects: sweep again only once the map has doubled (linear overall).
        sweepAt = Math.max(SWEEP_AT, shares.size * 2);
      }
      share = {
        windowMs: windowMs(c),
        available: 0,
        usableUntil: 0,
        refunds: new Map(),
        lastAsked: 0,
        usedOfLast: 0,
        total: 0,
        entries: [],
        latest: -Infinity,
        fullUntil: 0,
        lookedAt: -Infinity,
        pending: null,
      };
      shares.set(key, share);
    }
    return share;
  };

  /** Forgets shares with nothing left to use, refuse or remember (their unused hits, if any, simply run out). */
  const sweep = (now: number) => {
    for (const [key, s] of shares) {
      if (s.pending === null && Math.max(s.usableUntil, s.fullUntil, s.lookedAt + s.windowMs) <= now)
        shares.delete(key);
    }
  };

  /** Hits whose time has passed are no longer usable: they are given back with the next statement. */
  const retire = (share: Share, at: number) => {
    if (share.available > 0 && at > share.usableUntil) {
      share.refunds.set(share.usableUntil, (share.refunds.get(share.usableUntil) ?? 0) + share.available);
      share.available = 0;
    }
  };

  /** Records what a statement left in the window; `full` when it had no room for what was asked. */
  const learn = (c: CounterCheck, share: Share, state: WindowState, at: number, full: boolean) => {
    share.total = state.total;
    share.entries = state.entries;
    share.latest = latestAt(state.entries);
    share.fullUntil = full ? roomAt(state.entries, c.rule.limit, c.rule.windowSeconds, at) : 0;
  };

  /** One statement reserving hits for every share that needs them; each share's `pending` resolves with it. */
  const reserve = (needs: Array<{ check: CounterCheck; share: Share; asked: number }>, at: Date): void => {
    const takes = needs.map((n) => {
      const refunds = n.share.refunds;
      n.share.refunds = new Map();
      return {
        rule: n.check.rule,
        subject: n.check.subject,
        ask: n.asked,
        recordAt: recordedTime(at, n.check.rule.windowSeconds, n.asked > 1),
        refunds,
      };
    });
    const run = takeRateLimitHits(db, takes, at).then(
      (states) => {
        needs.forEach((n, i) => {
          const state = states[i]!;
          n.share.available += state.granted;
          n.share.usableUntil = takes[i]!.recordAt;
          n.share.lastAsked = n.asked;
          n.share.usedOfLast = 0;
          learn(n.check, n.share, state, at.getTime(), state.granted < n.asked);
        });
      },
      (e: unknown) => {
        // Nothing was given back: keep the refunds for the next statement.
        needs.forEach((n, i) => {
          for (const [t, hits] of takes[i]!.refunds) n.share.refunds.set(t, (n.share.refunds.get(t) ?? 0) + hits);
        });
        throw e;
      },
    );
    const done = run.finally(() => {
      for (const n of needs) if (n.share.pending === done) n.share.pending = null;
    });
    for (const n of needs) n.share.pending = done;
  };

  const nextAsk = (c: CounterCheck, share: Share) => {
    const left = c.rule.limit - share.total;
    const want =
      share.lastAsked === 0
        ? 1
        : share.usedOfLast >= share.lastAsked
          ? share.lastAsked * 2
          : Math.max(1, share.usedOfLast);
    return Math.max(1, Math.min(reserveMax, want, Math.floor(left / 8)));
  };

  /** Hands out one of the share's reserved hits (`available` > 0) to a request. */
  const useHit = (c: CounterCheck, share: Share, now: number): CounterTake => {
    share.available--;
    share.usedOfLast++;
    return {
      rule: c.rule,
      used: share.total - share.available,
      exceeded: false,
      until: emptyAtFromLatest(share.entries, share.latest, c.rule.windowSeconds, now),
    };
  };

  const takeReserved = (check: CounterCheck, at: Date): CounterTake | null => {
    const now = at.getTime();
    const share = shareOf(check, at);
    retire(share, now);
    return share.available > 0 ? useHit(check, share, now) : null;
  };

  return {
    takeReserved,

    async take(checks, at) {
      const now = at.getTime();
      // Most requests count in one window that still has a reserved hit: nothing to wait for, nothing to collect.
      if (checks.length === 1) {
        const hit = takeReserved(checks[0]!, at);
        if (hit) return [hit];
      }
      const unique = [...new Map(checks.map((c) => [bucketOf(c), c])).values()];
      const taken = new Map<string, CounterTake>();
      for (;;) {
        const needs: Array<{ check: CounterCheck; share: Share; asked: number }> = [];
        const waits: Array<Promise<void>> = [];
        for (const c of unique) {
          const key = bucketOf(c);
          if (taken.has(key)) continue;
          const share = shareOf(c, at);
          retire(share, now);
          if (share.available > 0) {
            taken.set(key, useHit(c, share, now));
          } else if (share.fullUntil > now) {
            taken.set(key, { rule: c.rule, used: c.rule.limit, exceeded: true, until: share.fullUntil });
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

    async admitFailure(check, at) {
      const now = at.getTime();
      for (;;) {
        const share = shareOf(check, at);
        if (share.fullUntil > now) return share.fullUntil;
        // Read within the last window and not full then: go on (a failure is counted, and its statement tells).
        if (share.lookedAt > now - share.windowMs) return null;
        if (!share.pending) {
          const run = takeRateLimitHits(db, [{ ...check, ask: 0, recordAt: now }], at).then(([state]) => {
            share.lookedAt = now;
            learn(check, share, state!, now, state!.total >= check.rule.limit);
          });
          const done = run.finally(() => {
            if (share.pending === done) share.pending = null;
          });
          share.pending = done;
        }
        await share.pending;
      }
    },

    async fail(check, at) {
      const now = at.getTime();
      const share = shareOf(check, at);
      const [state] = await takeRateLimitHits(
        db,
        [{ ...check, ask: 1, recordAt: recordedTime(at, check.rule.windowSeconds, false), force: true }],
        at,
      );
      share.lookedAt = now;
      learn(check, share, state!, now, state!.total >= check.rule.limit);
    },
  };
}

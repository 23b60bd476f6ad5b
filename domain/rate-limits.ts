/**
 * A sliding-window limit: at most `limit` hits in any `windowSeconds`, counted per bucket key (a rule and a subject:
 * an IP, a key id, …). Hits are counted from a recorded time (epoch milliseconds) and leave the window `windowSeconds`
 * after it; the counts live in PostgreSQL (db/repositories/rate-limits.repo.ts), shared by every API process.
 */
export interface RateLimitRule {
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

/** Hits counted from one recorded time. */
export interface WindowHits {
  /** Epoch milliseconds from which they count; they leave the window `windowSeconds` later. */
  readonly at: number;
  readonly hits: number;
}

/**
 * The grain of recorded times: a sixtieth of the window, at least one second (1 s for a minute, 15 s for 15 minutes,
 * 1 minute for an hour). Recorded times are rounded up to it, so a bucket holds at most about 60 entries, and a hit may
 * count up to one grain longer than the window, never shorter.
 */
export function windowGrainMs(windowSeconds: number): number {
  return Math.max(1000, Math.ceil((windowSeconds * 1000) / 60));
}

/**
 * The time hits granted at `at` are recorded at: `at` rounded up to the grain, and for a reservation of hits that a
 * process hands out over time (`spread`), one grain later still. A hit may be used up to its recorded time, never later,
 * so it counts for at least the whole window after its use: no 60 s ever holds more than the limit.
 */
export function recordedTime(at: Date, windowSeconds: number, spread: boolean): number {
  const grain = windowGrainMs(windowSeconds);
  return Math.ceil((at.getTime() + (spread ? grain : 0)) / grain) * grain;
}

/**
 * The hits still in the window at `now`, oldest first: recorded after now − window, and not more than a window ahead
 * (only a clock that was set wrong records further ahead; the database drops such hits too).
 */
function inWindow(entries: readonly WindowHits[], windowSeconds: number, now: number): WindowHits[] {
  const ms = windowSeconds * 1000;
  return entries.filter((e) => e.at > now - ms && e.at <= now + ms && e.hits > 0).sort((a, b) => a.at - b.at);
}

/**
 * When the window has room for one more hit: `now` if it has already; else when the oldest hits have left it so that
 * fewer than `limit` remain (what Retry-After says).
 */
export function roomAt(entries: readonly WindowHits[], limit: number, windowSeconds: number, now: number): number {
  const live = inWindow(entries, windowSeconds, now);
  let total = live.reduce((s, e) => s + e.hits, 0);
  if (total < limit) return now;
  for (const e of live) {
    total -= e.hits;
    if (total < limit) return e.at + windowSeconds * 1000;
  }
  return now;
}

/** When every hit counted at `now` has left the window: the whole limit is available again (RateLimit-Reset). */
export function emptyAt(entries: readonly WindowHits[], windowSeconds: number, now: number): number {
  const live = inWindow(entries, windowSeconds, now);
  return live.length ? live[live.length - 1]!.at + windowSeconds * 1000 : now;
}

/** The latest recorded time that holds hits (-Infinity when none does). */
export function latestAt(entries: readonly WindowHits[]): number {
  let latest = -Infinity;
  for (const e of entries) if (e.hits > 0 && e.at > latest) latest = e.at;
  return latest;
}

/**
 * `emptyAt` of entries whose `latestAt` is known, without walking them: the same answer, unless hits were recorded
 * more than a window ahead (a clock set wrong), where it walks them as `emptyAt` does.
 */
export function emptyAtFromLatest(
  entries: readonly WindowHits[],
  latest: number,
  windowSeconds: number,
  now: number,
): number {
  const ms = windowSeconds * 1000;
  if (latest > now + ms) return emptyAt(entries, windowSeconds, now);
  return latest > now - ms ? latest + ms : now;
}

/** Whole seconds from `now` until `until`; at least 1 (Retry-After and RateLimit-Reset). */
export function secondsUntil(now: Date, until: number): number {
  return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
}

/** A fixed-window limit: at most `limit` hits per `windowSeconds`, counted per bucket key. */
export interface RateLimitRule {
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

/** Start of the fixed window containing `now` (windows are aligned to the Unix epoch). */
export function windowStart(now: Date, windowSeconds: number): Date {
  const ms = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / ms) * ms);
}

/** Whole seconds until the window containing `now` ends; at least 1. */
export function retryAfterSeconds(now: Date, windowSeconds: number): number {
  const end = windowStart(now, windowSeconds).getTime() + windowSeconds * 1000;
  return Math.max(1, Math.ceil((end - now.getTime()) / 1000));
}

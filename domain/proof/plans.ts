/**
 * Merchant plans of the payment-request interface (spec sections 1 and 8). A paid plan runs 30 days from its
 * payment; a trial runs 7 days from its start. Creation quotas count over a rolling 30-day window (a trial:
 * from the trial start). `null` means no cap.
 */
export type PaidPlan = 'starter' | 'business' | 'pro';
export const PAID_PLANS: readonly PaidPlan[] = ['starter', 'business', 'pro'];

export interface PlanLimits {
  requestsPerPeriod: number | null;
  invoicesPerPeriod: number | null;
  keys: number;
  destinations: number;
  /** Longest `valid_hours` of a payment request. */
  maxValidHours: number;
  /** Requests per hour per merchant on top of the per-key and per-IP throttles (pro only). */
  requestsPerHour: number | null;
}

export const PLAN_LIMITS: Readonly<Record<PaidPlan | 'trial', PlanLimits>> = {
  starter: {
    requestsPerPeriod: 50,
    invoicesPerPeriod: 50,
    keys: 1,
    destinations: 1,
    maxValidHours: 720,
    requestsPerHour: null,
  },
  business: {
    requestsPerPeriod: 200,
    invoicesPerPeriod: 200,
    keys: 3,
    destinations: 3,
    maxValidHours: 720,
    requestsPerHour: null,
  },
  pro: {
    requestsPerPeriod: null,
    invoicesPerPeriod: null,
    keys: 10,
    destinations: 10,
    maxValidHours: 720,
    requestsPerHour: 300,
  },
  // A trial's payment pages stay open at most 72 hours, so a trial cannot issue requests that outlive it by weeks.
  trial: {
    requestsPerPeriod: 12,
    invoicesPerPeriod: 12,
    keys: 1,
    destinations: 1,
    maxValidHours: 72,
    requestsPerHour: null,
  },
};

/** Plan prices in USDC per 30 days (spec section 1); informational until checkout exists. */
export const PLAN_PRICES_USDC: Readonly<Record<PaidPlan, number>> = { starter: 9, business: 19, pro: 29 };

export const PLAN_PERIOD_DAYS = 30;
export const TRIAL_DAYS = 7;
export const QUOTA_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** Paid time of a plan that follows the current period (docs/proof.md "Plans paid in USDC"): `ms` milliseconds of `plan`. */
export interface QueuedPeriod {
  plan: PaidPlan;
  ms: number;
}

export interface MerchantPlanState {
  plan: PaidPlan | null;
  /** End of the current paid period (of `plan`). */
  planPaidUntil: Date | null;
  trialStartedAt: Date | null;
  /**
   * Paid periods of other plans that run after the current one, back to back, in order (lower plans bought while a
   * higher one runs, and the days of a lower plan a higher one was bought over). Absent or empty: none.
   */
  planQueue?: readonly QueuedPeriod[];
}

/** A paid period of the merchant's schedule, in the order they run; `start` is null for the current period (it began before). */
export interface PaidPeriod {
  plan: PaidPlan;
  start: Date | null;
  end: Date;
}

/** The current paid period and the queued ones after it, each with its end (the periods run back to back). */
export function paidSchedule(m: MerchantPlanState): PaidPeriod[] {
  if (!m.plan || !m.planPaidUntil) return [];
  const out: PaidPeriod[] = [{ plan: m.plan, start: null, end: m.planPaidUntil }];
  let at = m.planPaidUntil.getTime();
  for (const q of m.planQueue ?? []) {
    out.push({ plan: q.plan, start: new Date(at), end: new Date(at + q.ms) });
    at += q.ms;
  }
  return out;
}

export type Entitlement =
  | { kind: 'plan'; plan: PaidPlan; limits: PlanLimits; quotaWindowStart: Date; endsAt: Date }
  | { kind: 'trial'; limits: PlanLimits; quotaWindowStart: Date; endsAt: Date }
  | { kind: 'none' };

/**
 * What a merchant may do now: the paid period running now (the current one, else the queued one whose time has come)
 * wins over a trial; neither means no creations.
 */
export function entitlementAt(m: MerchantPlanState, now: Date): Entitlement {
  const running = paidSchedule(m).find((p) => p.end.getTime() > now.getTime());
  if (running) {
    return {
      kind: 'plan',
      plan: running.plan,
      limits: PLAN_LIMITS[running.plan],
      quotaWindowStart: new Date(now.getTime() - QUOTA_WINDOW_DAYS * DAY_MS),
      endsAt: running.end,
    };
  }
  if (m.trialStartedAt) {
    const endsAt = new Date(m.trialStartedAt.getTime() + TRIAL_DAYS * DAY_MS);
    if (endsAt.getTime() > now.getTime())
      return { kind: 'trial', limits: PLAN_LIMITS.trial, quotaWindowStart: m.trialStartedAt, endsAt };
  }
  return { kind: 'none' };
}

/**
 * After a downgrade only the earliest allowed keys (or destinations) stay usable: `rank` is the 0-based
 * position of an item among the merchant's counted items ordered by creation.
 */
export const usableAfterDowngrade = (rank: number, allowed: number): boolean => rank < allowed;

/**
 * How many keys or webhook destinations are usable now: the plan's (or trial's) limit; once both have ended,
 * the earliest one stays usable so the merchant can still read and be notified of payments already requested.
 */
export function usableLimit(m: MerchantPlanState, now: Date, what: 'keys' | 'destinations'): number {
  const ent = entitlementAt(m, now);
  return ent.kind === 'none' ? 1 : ent.limits[what];
}

/** Stored idempotent responses per account: a fair-use bound, not a plan cap (spec section 8). */
export const RETAINED_RESPONSES_PER_ACCOUNT = 100_000;

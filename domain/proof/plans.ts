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
  starter: { requestsPerPeriod: 50, invoicesPerPeriod: 50, keys: 1, destinations: 1, maxValidHours: 720, requestsPerHour: null },
  business: { requestsPerPeriod: 200, invoicesPerPeriod: 200, keys: 3, destinations: 3, maxValidHours: 720, requestsPerHour: null },
  pro: { requestsPerPeriod: null, invoicesPerPeriod: null, keys: 10, destinations: 10, maxValidHours: 720, requestsPerHour: 300 },
  // A trial's payment pages stay open at most 72 hours, so a trial cannot issue requests that outlive it by weeks.
  trial: { requestsPerPeriod: 12, invoicesPerPeriod: 12, keys: 1, destinations: 1, maxValidHours: 72, requestsPerHour: null },
};

/** Plan prices in USDC per 30 days (spec section 1); informational until checkout exists. */
export const PLAN_PRICES_USDC: Readonly<Record<PaidPlan, number>> = { starter: 9, business: 19, pro: 29 };

export const PLAN_PERIOD_DAYS = 30;
export const TRIAL_DAYS = 7;
export const QUOTA_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

export interface MerchantPlanState {
  plan: PaidPlan | null;
  /** End of the paid 30-day period. */
  planPaidUntil: Date | null;
  trialStartedAt: Date | null;
}

export type Entitlement =
  | { kind: 'plan'; plan: PaidPlan; limits: PlanLimits; quotaWindowStart: Date; endsAt: Date }
  | { kind: 'trial'; limits: PlanLimits; quotaWindowStart: Date; endsAt: Date }
  | { kind: 'none' };

/** What a merchant may do now: an active paid plan wins over a trial; neither means no creations. */
export function entitlementAt(m: MerchantPlanState, now: Date): Entitlement {
  if (m.plan && m.planPaidUntil && m.planPaidUntil.getTime() > now.getTime()) {
    return { kind: 'plan', plan: m.plan, limits: PLAN_LIMITS[m.plan], quotaWindowStart: new Date(now.getTime() - QUOTA_WINDOW_DAYS * DAY_MS), endsAt: m.planPaidUntil };
  }
  if (m.trialStartedAt) {
    const endsAt = new Date(m.trialStartedAt.getTime() + TRIAL_DAYS * DAY_MS);
    if (endsAt.getTime() > now.getTime()) return { kind: 'trial', limits: PLAN_LIMITS.trial, quotaWindowStart: m.trialStartedAt, endsAt };
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

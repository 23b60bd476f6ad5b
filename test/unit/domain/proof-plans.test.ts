import { describe, expect, it } from 'vitest';
import { entitlementAt, PLAN_LIMITS, usableAfterDowngrade } from '../../../domain/proof/plans.js';
import { chooseMatchingDelta, DELTA_MAX, DELTA_MIN } from '../../../domain/proof/matching-delta.js';

const at = new Date('2026-11-22T12:00:00Z');
const days = (n: number) => new Date(at.getTime() + n * 86_400_000);

describe('entitlementAt', () => {
  it.each([
    ['a paid plan in its period', { plan: 'business' as const, planPaidUntil: days(10), trialStartedAt: null }, 'plan'],
    [
      'a paid plan past its period, no trial',
      { plan: 'business' as const, planPaidUntil: days(-1), trialStartedAt: null },
      'none',
    ],
    ['a trial on day 6', { plan: null, planPaidUntil: null, trialStartedAt: days(-6) }, 'trial'],
    ['a trial after 7 days', { plan: null, planPaidUntil: null, trialStartedAt: days(-7) }, 'none'],
    [
      'a plan wins over a running trial',
      { plan: 'pro' as const, planPaidUntil: days(1), trialStartedAt: days(-1) },
      'plan',
    ],
    [
      'a lapsed plan falls back to a running trial',
      { plan: 'starter' as const, planPaidUntil: days(-1), trialStartedAt: days(-2) },
      'trial',
    ],
    ['nothing', { plan: null, planPaidUntil: null, trialStartedAt: null }, 'none'],
  ])('%s → %s', (_label, state, kind) => {
    expect(entitlementAt(state, at).kind).toBe(kind);
  });

  it('counts a plan over the rolling 30 days and a trial since its start', () => {
    const plan = entitlementAt({ plan: 'starter', planPaidUntil: days(5), trialStartedAt: null }, at);
    expect(plan).toMatchObject({
      kind: 'plan',
      quotaWindowStart: days(-30),
      limits: PLAN_LIMITS.starter,
      endsAt: days(5),
    });
    const trial = entitlementAt({ plan: null, planPaidUntil: null, trialStartedAt: days(-2) }, at);
    expect(trial).toMatchObject({
      kind: 'trial',
      quotaWindowStart: days(-2),
      endsAt: days(5),
      limits: { requestsPerPeriod: 12, keys: 1, maxValidHours: 72 },
    });
  });

  it('has the spec table of limits', () => {
    expect(PLAN_LIMITS).toMatchObject({
      starter: { requestsPerPeriod: 50, invoicesPerPeriod: 50, keys: 1, destinations: 1 },
      business: { requestsPerPeriod: 200, invoicesPerPeriod: 200, keys: 3, destinations: 3 },
      pro: { requestsPerPeriod: null, invoicesPerPeriod: null, keys: 10, destinations: 10, requestsPerHour: 300 },
      trial: { requestsPerPeriod: 12, invoicesPerPeriod: 12, keys: 1, destinations: 1 },
    });
    expect([0, 1, 2, 3].map((rank) => usableAfterDowngrade(rank, 3))).toEqual([true, true, true, false]);
  });
});

describe('chooseMatchingDelta', () => {
  const q = 10_000_000n;
  it('takes the smallest free delta from 1', () => {
    expect(chooseMatchingDelta(q, new Set())).toBe(1n);
    expect(chooseMatchingDelta(q, new Set([q + 1n, q + 2n, q + 4n]))).toBe(3n);
    expect(chooseMatchingDelta(q, new Set([q]))).toBe(1n); // the bare quote is never used anyway
  });

  it('collides across quotes that are close, and never goes past 9,999', () => {
    // A request of 10.000001 with delta 1 holds 10.000002: a quote of 10.000000 must skip it.
    expect(chooseMatchingDelta(q, new Set([q + 2n, q + 1n]))).toBe(3n);
    const taken = new Set(Array.from({ length: Number(DELTA_MAX - DELTA_MIN) }, (_, i) => q + DELTA_MIN + BigInt(i)));
    expect(chooseMatchingDelta(q, taken)).toBe(DELTA_MAX);
    taken.add(q + DELTA_MAX);
    expect(() => chooseMatchingDelta(q, taken)).toThrow(/too many open payment requests/);
  });
});

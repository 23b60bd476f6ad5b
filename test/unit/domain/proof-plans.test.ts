import { describe, expect, it } from 'vitest';
import { entitlementAt, PLAN_LIMITS, usableAfterDowngrade } from '../../../domain/proof/plans.js';
import { assertQuotable, MAX_QUOTED_ATOMIC } from '../../../domain/proof/matching-delta.js';

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

describe('assertQuotable', () => {
  // The smallest free delta itself is chosen in the insert's statement: test/integration/payment-request-amounts.test.ts.
  it('accepts a quote above zero up to the largest, and refuses the rest with a 422', () => {
    expect(() => assertQuotable(1n)).not.toThrow();
    expect(() => assertQuotable(MAX_QUOTED_ATOMIC)).not.toThrow();
    for (const q of [0n, -1n, MAX_QUOTED_ATOMIC + 1n])
      expect(() => assertQuotable(q)).toThrow(/greater than zero and at most 10000000000000000 USDC/);
  });
});

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CREDIT_PACKS,
  DEFAULT_PLAN_PRICES_USDC,
  parseCreditPacks,
  parsePlanPrices,
  parsePlatformWallets,
  grantPlanPayment,
  planPurchaseIssue,
  walletChallengeMessage,
} from '../../../domain/self-service.js';
import { entitlementAt, paidSchedule, type MerchantPlanState, type PaidPlan } from '../../../domain/proof/plans.js';

const DAY = 86_400_000;
const now = new Date('2026-03-01T12:00:00.000Z');

describe('self-service configuration', () => {
  it('parses the defaults and refuses malformed values by variable name', () => {
    const issues: string[] = [];
    expect(parsePlanPrices(DEFAULT_PLAN_PRICES_USDC, issues)).toEqual({
      starter: '9000000',
      business: '19000000',
      pro: '29000000',
    });
    expect(parseCreditPacks(DEFAULT_CREDIT_PACKS, issues).map((p) => [p.id, p.credits, p.priceAtomic])).toEqual([
      ['credits_30000', '30000', '29000000'],
      ['credits_85000', '85000', '79000000'],
      ['credits_225000', '225000', '199000000'],
      ['credits_600000', '600000', '499000000'],
    ]);
    expect(parsePlatformWallets('', issues)).toEqual({});
    expect(
      parsePlatformWallets(
        'base:0x52908400098527886E0F7030069857D2E4169EE7, solana:7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
        issues,
      ),
    ).toEqual({
      base: '0x52908400098527886E0F7030069857D2E4169EE7',
      solana: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
    });
    expect(issues).toEqual([]);
    for (const [parse, raw, variable] of [
      [parsePlanPrices, 'starter:9,business:19', 'PLAN_PRICES_USDC'],
      [parsePlanPrices, 'starter:9,business:19,pro:0', 'PLAN_PRICES_USDC'],
      [parsePlanPrices, 'starter:9,business:19,pro:29,gold:1', 'PLAN_PRICES_USDC'],
      [parseCreditPacks, '30000:29,30000:30', 'CREDIT_PACKS'],
      [parseCreditPacks, '0:29', 'CREDIT_PACKS'],
      [parseCreditPacks, '100:-1', 'CREDIT_PACKS'],
      [parsePlatformWallets, 'base:0x1234', 'PLATFORM_RECEIVING_WALLETS'],
      [parsePlatformWallets, 'bitcoin:1abc', 'PLATFORM_RECEIVING_WALLETS'],
      [parsePlatformWallets, 'base', 'PLATFORM_RECEIVING_WALLETS'],
      [
        parsePlatformWallets,
        'base:0x52908400098527886E0F7030069857D2E4169EE7,base:0x52908400098527886E0F7030069857D2E4169EE7',
        'PLATFORM_RECEIVING_WALLETS',
      ],
    ] as const) {
      const found: string[] = [];
      (parse as (r: string, i: string[]) => unknown)(raw, found);
      expect(found.length, raw).toBeGreaterThan(0);
      expect(
        found.every((i) => i.startsWith(`${variable}:`)),
        raw,
      ).toBe(true);
    }
  });
});

describe('plan periods', () => {
  it('a payment buys 30 days of the plan it was for, decided at grant time: never a higher plan, no paid day lost', () => {
    const none = { plan: null, planPaidUntil: null, trialStartedAt: now };
    const d = (days: number) => new Date(now.getTime() + days * DAY);
    // A first payment starts at the confirmation.
    expect(grantPlanPayment(none, 'starter', now)).toEqual({
      plan: 'starter',
      period: { start: now, end: d(30) },
      current: { plan: 'starter', paidUntil: d(30) },
      queue: [],
    });
    const running = { plan: 'business' as const, planPaidUntil: d(10), trialStartedAt: null };
    // A renewal adds 30 days at the end of the running period.
    expect(grantPlanPayment(running, 'business', now)).toEqual({
      plan: 'business',
      period: { start: d(10), end: d(40) },
      current: { plan: 'business', paidUntil: d(40) },
      queue: [],
    });
    // An upgrade starts now; the 10 business days left follow it.
    expect(grantPlanPayment(running, 'pro', now)).toEqual({
      plan: 'pro',
      period: { start: now, end: d(30) },
      current: { plan: 'pro', paidUntil: d(30) },
      queue: [{ plan: 'business', ms: 10 * DAY }],
    });
    // A lower plan paid while a higher one runs is queued after it, as that plan (it was: 30 more days of business).
    expect(grantPlanPayment(running, 'starter', now)).toEqual({
      plan: 'starter',
      period: { start: d(10), end: d(40) },
      current: { plan: 'business', paidUntil: d(10) },
      queue: [{ plan: 'starter', ms: 30 * DAY }],
    });
    // An ended plan counts for nothing.
    const ended = { plan: 'pro' as const, planPaidUntil: d(-1), trialStartedAt: null };
    expect(grantPlanPayment(ended, 'starter', now)).toEqual({
      plan: 'starter',
      period: { start: now, end: d(30) },
      current: { plan: 'starter', paidUntil: d(30) },
      queue: [],
    });
    expect(planPurchaseIssue(running, 'starter', now)).toMatch(/business plan runs until/);
    expect(planPurchaseIssue(running, 'business', now)).toBeNull();
    expect(planPurchaseIssue(ended, 'starter', now)).toBeNull();
  });

  it('N starter payments are N x 30 days of starter whatever else is bought; the queue runs in order and the entitlement follows it', () => {
    let m: MerchantPlanState = { plan: null, planPaidUntil: null, trialStartedAt: now };
    const apply = (plan: PaidPlan, at: Date) => {
      const g = grantPlanPayment(m, plan, at);
      m = { ...m, plan: g.current.plan, planPaidUntil: g.current.paidUntil, planQueue: g.queue };
      return g;
    };
    for (let i = 0; i < 3; i++) apply('starter', now);
    expect(m).toMatchObject({ plan: 'starter', planPaidUntil: new Date(now.getTime() + 90 * DAY), planQueue: [] });
    // Ten days on, pro is bought: 30 days of pro now, then the 80 starter days left.
    const later = new Date(now.getTime() + 10 * DAY);
    expect(apply('pro', later).period).toEqual({ start: later, end: new Date(later.getTime() + 30 * DAY) });
    expect(m.planQueue).toEqual([{ plan: 'starter', ms: 80 * DAY }]);
    // Then business, paid while pro runs: after pro, before the starter days.
    expect(apply('business', later).period).toEqual({
      start: new Date(later.getTime() + 30 * DAY),
      end: new Date(later.getTime() + 60 * DAY),
    });
    expect(m.planQueue).toEqual([
      { plan: 'business', ms: 30 * DAY },
      { plan: 'starter', ms: 80 * DAY },
    ]);
    const at = (days: number) => entitlementAt(m, new Date(later.getTime() + days * DAY));
    expect(at(0)).toMatchObject({ kind: 'plan', plan: 'pro', endsAt: new Date(later.getTime() + 30 * DAY) });
    expect(at(30)).toMatchObject({ kind: 'plan', plan: 'business', endsAt: new Date(later.getTime() + 60 * DAY) });
    expect(at(59.9)).toMatchObject({ kind: 'plan', plan: 'business' });
    expect(at(60)).toMatchObject({ kind: 'plan', plan: 'starter', endsAt: new Date(later.getTime() + 140 * DAY) });
    expect(at(140)).toEqual({ kind: 'none' });
    // Paid days in all: 3 x 30 starter, 30 pro, 30 business — and not one day more of a higher plan than was paid for.
    const days = (plan: PaidPlan) =>
      paidSchedule(m)
        .filter((p) => p.plan === plan)
        .reduce(
          (sum, p) => sum + (p.end.getTime() - Math.max(p.start?.getTime() ?? later.getTime(), later.getTime())),
          0,
        ) / DAY;
    expect({ pro: days('pro'), business: days('business'), starter: days('starter') }).toEqual({
      pro: 30,
      business: 30,
      starter: 80,
    });
    // A grant half-way through a queued period counts only what is left of it.
    const inBusiness = new Date(later.getTime() + 45 * DAY);
    expect(grantPlanPayment(m, 'business', inBusiness)).toMatchObject({
      current: { plan: 'business', paidUntil: new Date(later.getTime() + 90 * DAY) },
      queue: [{ plan: 'starter', ms: 80 * DAY }],
    });
  });

  it('the challenge message names the account, network, wallet, nonce and expiry, and says it authorises nothing', () => {
    const text = walletChallengeMessage({
      service: 'paycore',
      merchantId: 'mer_x',
      network: 'base',
      address: '0xabc',
      nonce: 'n0nce',
      expiresAt: now,
    });
    for (const part of [
      'Account: mer_x',
      'Network: base',
      'Wallet: 0xabc',
      'Nonce: n0nce',
      `Expires: ${now.toISOString()}`,
      'authorises no payment',
    ])
      expect(text).toContain(part);
  });
});

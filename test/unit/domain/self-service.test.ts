import { describe, expect, it } from 'vitest';
import { DEFAULT_CREDIT_PACKS, DEFAULT_PLAN_PRICES_USDC, parseCreditPacks, parsePlanPrices, parsePlatformWallets, planPeriodAfterPayment, planPurchaseIssue, walletChallengeMessage } from '../../../domain/self-service.js';

const DAY = 86_400_000;
const now = new Date('2026-03-01T12:00:00.000Z');

describe('self-service configuration', () => {
  it('parses the defaults and refuses malformed values by variable name', () => {
    const issues: string[] = [];
    expect(parsePlanPrices(DEFAULT_PLAN_PRICES_USDC, issues)).toEqual({ starter: '9000000', business: '19000000', pro: '29000000' });
    expect(parseCreditPacks(DEFAULT_CREDIT_PACKS, issues).map((p) => [p.id, p.credits, p.priceAtomic])).toEqual([
      ['credits_30000', '30000', '29000000'], ['credits_85000', '85000', '79000000'], ['credits_225000', '225000', '199000000'], ['credits_600000', '600000', '499000000'],
    ]);
    expect(parsePlatformWallets('', issues)).toEqual({});
    expect(parsePlatformWallets('base:0x52908400098527886E0F7030069857D2E4169EE7, solana:7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', issues)).toEqual({
      base: '0x52908400098527886E0F7030069857D2E4169EE7', solana: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
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
      [parsePlatformWallets, 'base:0x52908400098527886E0F7030069857D2E4169EE7,base:0x52908400098527886E0F7030069857D2E4169EE7', 'PLATFORM_RECEIVING_WALLETS'],
    ] as const) {
      const found: string[] = [];
      (parse as (r: string, i: string[]) => unknown)(raw, found);
      expect(found.length, raw).toBeGreaterThan(0);
      expect(found.every((i) => i.startsWith(`${variable}:`)), raw).toBe(true);
    }
  });
});

describe('plan periods', () => {
  it('a first payment starts 30 days at the confirmation; a renewal extends from the end; an upgrade applies at once; a payment never lowers the plan', () => {
    const none = { plan: null, planPaidUntil: null, trialStartedAt: new Date(now.getTime() - DAY) };
    expect(planPeriodAfterPayment(none, 'starter', now)).toEqual({ plan: 'starter', start: now, end: new Date(now.getTime() + 30 * DAY) });
    const running = { plan: 'business' as const, planPaidUntil: new Date(now.getTime() + 10 * DAY), trialStartedAt: null };
    expect(planPeriodAfterPayment(running, 'business', now)).toEqual({ plan: 'business', start: running.planPaidUntil, end: new Date(now.getTime() + 40 * DAY) });
    expect(planPeriodAfterPayment(running, 'pro', now).plan).toBe('pro');
    expect(planPeriodAfterPayment(running, 'starter', now)).toEqual({ plan: 'business', start: running.planPaidUntil, end: new Date(now.getTime() + 40 * DAY) });
    const ended = { plan: 'pro' as const, planPaidUntil: new Date(now.getTime() - DAY), trialStartedAt: null };
    expect(planPeriodAfterPayment(ended, 'starter', now)).toEqual({ plan: 'starter', start: now, end: new Date(now.getTime() + 30 * DAY) });
    expect(planPurchaseIssue(running, 'starter', now)).toMatch(/business plan runs until/);
    expect(planPurchaseIssue(running, 'business', now)).toBeNull();
    expect(planPurchaseIssue(ended, 'starter', now)).toBeNull();
  });

  it('the challenge message names the account, network, wallet, nonce and expiry, and says it authorises nothing', () => {
    const text = walletChallengeMessage({ service: 'paycore', merchantId: 'mer_x', network: 'base', address: '0xabc', nonce: 'n0nce', expiresAt: now });
    for (const part of ['Account: mer_x', 'Network: base', 'Wallet: 0xabc', 'Nonce: n0nce', `Expires: ${now.toISOString()}`, 'authorises no payment']) expect(text).toContain(part);
  });
});

import { decimalToAtomic } from './money.js';
import { isNetwork, walletAddressIssue, type Network } from './networks.js';
import {
  entitlementAt,
  PAID_PLANS,
  paidSchedule,
  PLAN_PERIOD_DAYS,
  type MerchantPlanState,
  type PaidPlan,
  type QueuedPeriod,
} from './proof/plans.js';

/**
 * Self-service purchases paid in USDC to the platform's own receiving wallet (docs/proof.md "Plans paid in
 * USDC"): a merchant's 30-day plan period, a company's credit pack. Pure rules: prices, packs, the period a
 * confirmed payment adds, and the one-time message of a wallet verification.
 */

/**
 * Amounts in this configuration are whole numbers as decimal text (credits, atomic USDC): the Config is frozen plain
 * data that serializes (no bigint); callers read them with `BigInt`.
 */
export interface CreditPack {
  /** `credits_<n>`: the pack's id in requests and answers. */
  id: string;
  credits: string;
  priceAtomic: string;
}

export interface SelfServiceConfig {
  /** The platform's receiving wallet per network; a network without one sells nothing. */
  platformWallets: Partial<Record<Network, string>>;
  planPricesAtomic: Readonly<Record<PaidPlan, string>>;
  creditPacks: readonly CreditPack[];
}

/** Defaults: the plan prices of proof-payments-api.md section 1; the packs of processing-api.md section 8, 1 EUR read as 1 USDC. */
export const DEFAULT_PLAN_PRICES_USDC = 'starter:9,business:19,pro:29';
export const DEFAULT_CREDIT_PACKS = '30000:29,85000:79,225000:199,600000:499';
/**
 * Purchases one buyer (a merchant, or a company) may hold open at once: awaiting payment (until they expire, 24 hours)
 * or in review. Every open purchase holds one of the 9,999 matching amounts next to its price at the platform's
 * address; the cap keeps one buyer from holding more than a few of them, so no buyer can exhaust a price for others.
 */
export const MAX_OPEN_PURCHASES_PER_BUYER = 3;
/** How long the payment request of a purchase stays payable. */
export const PURCHASE_VALID_HOURS = 24;
/** How long a wallet-verification challenge may be signed and sent back. */
export const WALLET_CHALLENGE_TTL_MS = 10 * 60_000;

const pairs = (raw: string): Array<[string, string]> | null => {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out: Array<[string, string]> = [];
  for (const item of items) {
    const at = item.indexOf(':');
    if (at <= 0 || at === item.length - 1) return null;
    out.push([item.slice(0, at).trim(), item.slice(at + 1).trim()]);
  }
  return out;
};

/** `base:0x…,solana:…` → the wallet per network; problems are added to `issues` by variable name (addresses are public, but kept out anyway). */
export function parsePlatformWallets(raw: string, issues: string[]): Partial<Record<Network, string>> {
  const list = pairs(raw);
  const out: Partial<Record<Network, string>> = {};
  if (!list) {
    issues.push('PLATFORM_RECEIVING_WALLETS: network:address pairs separated by commas, e.g. base:0x…,solana:…');
    return out;
  }
  for (const [network, address] of list) {
    if (!isNetwork(network))
      issues.push(`PLATFORM_RECEIVING_WALLETS: unknown network ${JSON.stringify(network.slice(0, 20))}`);
    else if (out[network]) issues.push(`PLATFORM_RECEIVING_WALLETS: ${network} is given twice`);
    else if (walletAddressIssue(network, address))
      issues.push(`PLATFORM_RECEIVING_WALLETS: the ${network} address is not a wallet address of that network`);
    else out[network] = address;
  }
  return out;
}

/** A price in USDC → atomic USDC as text; null unless above zero and at most 10^16 USDC (the largest quote). */
const price = (raw: string): string | null => {
  const atomic = decimalToAtomic(raw);
  return atomic !== null && atomic > 0n && atomic <= 10n ** 22n ? atomic.toString() : null;
};

/** `starter:9,business:19,pro:29` (USDC) → atomic prices; every paid plan must be priced. */
export function parsePlanPrices(raw: string, issues: string[]): Record<PaidPlan, string> {
  const out = {} as Record<PaidPlan, string>;
  const problem = `PLAN_PRICES_USDC: plan:price pairs for ${PAID_PLANS.join(', ')} (USDC, up to 6 decimals, above zero)`;
  const list = pairs(raw);
  if (!list) issues.push(problem);
  for (const [plan, value] of list ?? []) {
    const atomic = price(value);
    if (!(PAID_PLANS as readonly string[]).includes(plan) || atomic === null || out[plan as PaidPlan] !== undefined) {
      issues.push(problem);
      return out;
    }
    out[plan as PaidPlan] = atomic;
  }
  if (list && PAID_PLANS.some((p) => out[p] === undefined)) issues.push(problem);
  return out;
}

/** `30000:29,85000:79` (credits:USDC) → packs, in the order given. */
export function parseCreditPacks(raw: string, issues: string[]): CreditPack[] {
  const problem =
    'CREDIT_PACKS: credits:price pairs (whole credits above zero, USDC price above zero), each number of credits once';
  const list = pairs(raw);
  if (!list) {
    issues.push(problem);
    return [];
  }
  const packs: CreditPack[] = [];
  for (const [credits, value] of list) {
    const atomic = price(value);
    if (!/^[1-9]\d{0,11}$/.test(credits) || atomic === null || packs.some((p) => p.credits === credits)) {
      issues.push(problem);
      return [];
    }
    packs.push({ id: `credits_${credits}`, credits, priceAtomic: atomic });
  }
  return packs;
}

const PLAN_RANK: Readonly<Record<PaidPlan, number>> = { starter: 0, business: 1, pro: 2 };
const DAY_MS = 86_400_000;
/** Plans from the highest down: the order paid time is used in. */
const BY_RANK: readonly PaidPlan[] = [...PAID_PLANS].sort((a, b) => PLAN_RANK[b] - PLAN_RANK[a]);

/** What one confirmed plan payment buys: its own 30 days (`period`) and the merchant's schedule after it. */
export interface PlanGrant {
  /** The plan paid for (never another), and the 30 days of it this payment added, as scheduled now. */
  plan: PaidPlan;
  period: { start: Date; end: Date };
  /** The merchant's new current period and the periods queued after it (merchants.plan, plan_paid_until, plan_queue). */
  current: { plan: PaidPlan; paidUntil: Date };
  queue: QueuedPeriod[];
}

/**
 * The rule of a confirmed plan payment, decided when it is granted (docs/proof.md "Plans paid in USDC"): a payment
 * buys 30 days of the plan it was for — never of a higher one — and no paid day is lost. The merchant's paid time left
 * at `now` is counted per plan, the 30 days are added to the plan bought, and the plans run from the highest down:
 * pro, then business, then starter. So
 * - a renewal adds 30 days at the end of the plan's time (from the end of the running period, or from `now`);
 * - an upgrade (a higher plan than the one running) starts now, and the days left of the lower plan follow it;
 * - a lower plan paid while a higher one runs (two purchases opened while neither ran, paid one after the other) is
 *   queued after the higher one's time, as that plan.
 * N starter payments are N x 30 days of starter, whatever else is bought.
 */
export function grantPlanPayment(m: MerchantPlanState, purchased: PaidPlan, now: Date): PlanGrant {
  const left: Record<PaidPlan, number> = { starter: 0, business: 0, pro: 0 };
  for (const p of paidSchedule(m)) {
    const from = Math.max(p.start?.getTime() ?? now.getTime(), now.getTime());
    left[p.plan] += Math.max(0, p.end.getTime() - from);
  }
  const higher = BY_RANK.filter((p) => PLAN_RANK[p] > PLAN_RANK[purchased]).reduce((sum, p) => sum + left[p], 0);
  const start = new Date(now.getTime() + higher + left[purchased]);
  const added = PLAN_PERIOD_DAYS * DAY_MS;
  left[purchased] += added;
  const [first, ...rest] = BY_RANK.filter((p) => left[p] > 0);
  return {
    plan: purchased,
    period: { start, end: new Date(start.getTime() + added) },
    current: { plan: first!, paidUntil: new Date(now.getTime() + left[first!]) },
    queue: rest.map((plan) => ({ plan, ms: left[plan] })),
  };
}

/** Why buying `plan` now is refused (null when it is not): a lower plan than the one still running. */
export function planPurchaseIssue(m: MerchantPlanState, plan: PaidPlan, now: Date): string | null {
  const ent = entitlementAt(m, now);
  if (ent.kind === 'plan' && PLAN_RANK[ent.plan] > PLAN_RANK[plan]) {
    return `the ${ent.plan} plan runs until ${ent.endsAt.toISOString()}: renew it or buy a higher plan; a lower plan can be bought once it has ended`;
  }
  return null;
}

/**
 * The text a merchant signs to prove control of a receiving wallet: bound to the merchant, the network, the
 * address, a random nonce and the expiry, and saying it authorises nothing. Signed as is (EIP-191 personal_sign
 * on EVM networks; ed25519 over its UTF-8 bytes on Solana).
 */
export function walletChallengeMessage(c: {
  service: string;
  merchantId: string;
  network: Network;
  address: string;
  nonce: string;
  expiresAt: Date;
}): string {
  return [
    `${c.service} wallet verification`,
    '',
    'Sign this message to prove that you control this receiving wallet. Signing it moves no funds and authorises no payment or transaction.',
    '',
    `Account: ${c.merchantId}`,
    `Network: ${c.network}`,
    `Wallet: ${c.address}`,
    `Nonce: ${c.nonce}`,
    `Expires: ${c.expiresAt.toISOString()}`,
  ].join('\n');
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { EVM } from '../../domain/networks.js';
import { grantPurchaseOnPayment, PLATFORM_MERCHANT_ID } from '../../db/repositories/platform-purchases.repo.js';
import { getCredits } from '../../services/processing/credits.js';
import { createCompanyAdmin, createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { startEvmNode, type EvmAccount, type EvmNode } from '../../support/evm-node.js';
import { ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { watchBase } from '../helpers/evm-watcher.js';
import { until } from '../helpers/until.js';
import { Conformance } from '../helpers/openapi-conformance.js';

/**
 * Self-service purchases end to end (docs/proof.md "Plans paid in USDC"): the real app on PostgreSQL, a real worker
 * running the payment watcher workflow on a local Hardhat chain (chain id 8453, a USDC-like token at Base's USDC
 * address), and the platform's receiving wallet configured. A merchant buys and renews a plan and a company buys a
 * credit pack by paying the purchase's payment request; duplicates, underpayments, late payments and other payers
 * grant nothing. Also: the merchant's review queue with the watcher's evidence.
 */
const CONFIRMATIONS = 3;
const DAY_MS = 86_400_000;
const h = new ProofHarness();
let node: EvmNode;
let payer: EvmAccount;
let stranger: EvmAccount;
let platform: Address;
let watcher: Awaited<ReturnType<typeof watchBase>> | undefined;
let app: Awaited<ReturnType<ProofHarness['startApp']>>;
let env: Record<string, string>;

beforeAll(async () => {
  [node] = await Promise.all([startEvmNode({ chainId: 8453 }), h.start({}, { workflows: true })]);
  payer = node.accounts[1]!;
  stranger = node.accounts[2]!;
  platform = node.accounts[6]!.address;
  await node.placeToken(EVM.base.usdc);
  await node.mint(EVM.base.usdc, payer.address, 1_000_000_000_000n);
  await node.mint(EVM.base.usdc, stranger.address, 1_000_000_000n);
  env = {
    PLATFORM_RECEIVING_WALLETS: `base:${platform}`,
    PLAN_PRICES_USDC: 'starter:9,business:19,pro:29.5',
    CREDIT_PACKS: '30000:29,85000:79',
  };
  app = await h.startApp(env);
  watcher = await watchBase(h, node, CONFIRMATIONS);
});
afterAll(async () => {
  await watcher?.stop();
  await app?.close();
  await node?.stop();
  await h.stop();
});

/** Polls `probe` until it gives something truthy (the purchase tests wait for the watcher). */
const waitFor = <T>(probe: () => Promise<T | null | undefined | false>, what: string): Promise<T> =>
  until(what, async () => (await probe()) || undefined);

async function json<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

interface PurchaseView {
  id: string;
  kind: string;
  plan: string | null;
  pack: string | null;
  credits: string | null;
  status: string;
  network: string;
  pay_to: string;
  payer: string;
  price_usdc: string;
  amount_atomic: string;
  amount_usdc: string;
  received_atomic: string;
  payment_url: string;
  request_id: string;
  review_reason: string | null;
  tx_hash: string | null;
  paid_at: string | null;
  period_start: string | null;
  period_end: string | null;
  expires_at: string;
  created_at: string;
}

async function signedIn(
  opts: { plan?: 'starter' | 'business' | 'pro'; on?: typeof app } = {},
): Promise<{ m: TestMerchant; dash: DashboardClient }> {
  const m = await h.merchant({ ...(opts.plan ? { plan: opts.plan } : {}), networks: [] });
  const u = await createDashboardUser(h.tdb.db, m.id);
  const dash = new DashboardClient((opts.on ?? app).url);
  expect((await dash.signIn(u.email, u.password)).status).toBe(201);
  return { m, dash };
}

/** Pays `amount` from `from` to the platform and mines the blocks that make it final; resolves once the watcher recorded it. */
async function pay(amount: bigint, from: EvmAccount = payer, to: Address = platform): Promise<string> {
  const hash = await node.transfer(EVM.base.usdc, from, to, amount);
  await node.mine(CONFIRMATIONS);
  await waitFor(
    async () => (await h.tdb.db('payment_evidence').where({ tx_hash: hash }).first()) ?? null,
    `the transfer ${hash} to be seen`,
  );
  return hash;
}

const purchaseOf = (dash: DashboardClient, id: string) =>
  dash.request('GET', `/plan/purchases/${id}`).then((r) => json<PurchaseView>(r, 200));
const buyPlan = async (dash: DashboardClient, plan: string, from: EvmAccount = payer) =>
  json<PurchaseView>(
    await dash.request('POST', '/plan/purchases', { plan, network: 'base', payer: from.address }),
    201,
  );
const grants = async (purchaseId: string) => h.tdb.db('platform_purchase_grants').where({ purchase_id: purchaseId });

describe('plans paid in USDC to the platform wallet', () => {
  it('a trial merchant buys starter: the exact payment starts 30 days once; a second payment grants nothing; a renewal extends from the end', async () => {
    const { m, dash } = await signedIn();
    const plan = await json<{
      plan: string;
      prices: Array<{ plan: string; price_usdc: string; period_days: number }>;
      purchase_networks: string[];
    }>(await dash.request('GET', '/plan'), 200);
    expect(plan.plan).toBe('trial');
    expect(plan.prices).toEqual([
      { plan: 'starter', price_usdc: '9.000000', period_days: 30 },
      { plan: 'business', price_usdc: '19.000000', period_days: 30 },
      { plan: 'pro', price_usdc: '29.500000', period_days: 30 },
    ]);
    expect(plan.purchase_networks).toEqual(['base']);

    const bought = await buyPlan(dash, 'starter');
    expect(bought).toMatchObject({
      kind: 'plan',
      plan: 'starter',
      status: 'awaiting_payment',
      network: 'base',
      pay_to: platform,
      payer: payer.address,
      price_usdc: '9.000000',
      received_atomic: '0',
      paid_at: null,
      period_start: null,
    });
    const amount = BigInt(bought.amount_atomic);
    expect(amount > 9_000_000n && amount < 9_010_000n).toBe(true);
    expect(bought.payment_url).toBe(`${app.url}/proof/pay/${bought.request_id}`);
    // The payment page of the purchase is the ordinary public page of a payment request.
    expect((await fetch(bought.payment_url)).status).toBe(200);

    const tx = await pay(amount);
    const paid = await waitFor(
      async () => ((await purchaseOf(dash, bought.id)).status === 'paid' ? purchaseOf(dash, bought.id) : null),
      'the purchase to be paid',
    );
    expect(paid).toMatchObject({
      status: 'paid',
      tx_hash: tx,
      received_atomic: amount.toString(),
      review_reason: null,
    });
    const start = new Date(paid.period_start!).getTime();
    expect(new Date(paid.period_end!).getTime() - start).toBe(30 * DAY_MS);
    expect(start).toBe(new Date(paid.paid_at!).getTime()); // a new period starts at the confirmation
    const now = await json<{ plan: string; ends_at: string; paid_plan: string; limits: { keys: number } }>(
      await dash.request('GET', '/plan'),
      200,
    );
    expect(now).toMatchObject({ plan: 'starter', paid_plan: 'starter', ends_at: paid.period_end, limits: { keys: 1 } });

    // The same amount paid again (a duplicate): recorded as evidence, grants nothing.
    await pay(amount);
    expect(await grants(bought.id)).toHaveLength(1);
    expect((await h.tdb.db('merchants').where({ id: m.id }).first()).plan_paid_until.toISOString()).toBe(
      paid.period_end,
    );

    // Renewal: the next 30 days start where the running period ends.
    const renewal = await buyPlan(dash, 'starter');
    await pay(BigInt(renewal.amount_atomic));
    const renewed = await waitFor(
      async () => ((await purchaseOf(dash, renewal.id)).status === 'paid' ? purchaseOf(dash, renewal.id) : null),
      'the renewal to be paid',
    );
    expect(renewed.period_start).toBe(paid.period_end);
    expect(new Date(renewed.period_end!).getTime()).toBe(new Date(paid.period_end!).getTime() + 30 * DAY_MS);
    expect((await json<{ ends_at: string }>(await dash.request('GET', '/plan'), 200)).ends_at).toBe(renewed.period_end);

    // The list pages by id, descending (the /proof rule: not creation time).
    const list = await json<{ data: PurchaseView[]; next_cursor: string | null }>(
      await dash.request('GET', '/plan/purchases?limit=1'),
      200,
    );
    const rest = await json<{ data: PurchaseView[]; next_cursor: string | null }>(
      await dash.request('GET', `/plan/purchases?limit=5&before=${list.next_cursor}`),
      200,
    );
    const ids = [...list.data, ...rest.data].map((p) => p.id);
    expect(ids).toEqual([bought.id, renewal.id].sort().reverse());
    expect(rest.next_cursor).toBeNull();
  });

  it('a payment buys the plan it was for, never a higher one: a starter payment while pro runs is queued after it', async () => {
    // While on trial both can be opened; pro is paid first, then starter.
    const { m, dash } = await signedIn();
    const starter = await buyPlan(dash, 'starter');
    const pro = await buyPlan(dash, 'pro');
    await pay(BigInt(pro.amount_atomic));
    const proPaid = await waitFor(
      async () => ((await purchaseOf(dash, pro.id)).status === 'paid' ? purchaseOf(dash, pro.id) : null),
      'pro to be paid',
    );
    await pay(BigInt(starter.amount_atomic));
    const starterPaid = await waitFor(
      async () => ((await purchaseOf(dash, starter.id)).status === 'paid' ? purchaseOf(dash, starter.id) : null),
      'starter to be paid',
    );
    // Starter's 30 days are starter days, after pro's: not 30 more days of pro.
    expect(starterPaid).toMatchObject({ plan: 'starter', period_start: proPaid.period_end });
    expect(new Date(starterPaid.period_end!).getTime() - new Date(proPaid.period_end!).getTime()).toBe(30 * DAY_MS);
    const plan = await json<{
      plan: string;
      ends_at: string;
      queued: Array<{ plan: string; starts_at: string; ends_at: string }>;
    }>(await dash.request('GET', '/plan'), 200);
    expect(plan).toMatchObject({
      plan: 'pro',
      ends_at: proPaid.period_end,
      queued: [{ plan: 'starter', starts_at: proPaid.period_end, ends_at: starterPaid.period_end }],
    });
    expect((await h.tdb.db('merchants').where({ id: m.id }).first()).plan_paid_until.toISOString()).toBe(
      proPaid.period_end,
    );
  });

  it('N starter payments never become N x 30 days of pro: an upgrade buys 30 days of pro now and the starter days follow', async () => {
    const { dash } = await signedIn();
    const periods: PurchaseView[] = [];
    for (let i = 0; i < 2; i++) {
      const bought = await buyPlan(dash, 'starter');
      await pay(BigInt(bought.amount_atomic));
      periods.push(
        await waitFor(
          async () => ((await purchaseOf(dash, bought.id)).status === 'paid' ? purchaseOf(dash, bought.id) : null),
          'starter to be paid',
        ),
      );
    }
    const starterEnd = new Date(periods[1]!.period_end!).getTime();
    const pro = await buyPlan(dash, 'pro');
    await pay(BigInt(pro.amount_atomic));
    const proPaid = await waitFor(
      async () => ((await purchaseOf(dash, pro.id)).status === 'paid' ? purchaseOf(dash, pro.id) : null),
      'pro to be paid',
    );
    expect(proPaid).toMatchObject({ plan: 'pro', period_start: proPaid.paid_at });
    expect(new Date(proPaid.period_end!).getTime() - new Date(proPaid.paid_at!).getTime()).toBe(30 * DAY_MS);
    const plan = await json<{
      plan: string;
      ends_at: string;
      queued: Array<{ plan: string; starts_at: string; ends_at: string }>;
    }>(await dash.request('GET', '/plan'), 200);
    expect(plan).toMatchObject({ plan: 'pro', ends_at: proPaid.period_end });
    // The starter days left when pro was bought follow it, none lost and none turned into pro.
    const left = starterEnd - new Date(proPaid.paid_at!).getTime();
    expect(plan.queued).toEqual([
      {
        plan: 'starter',
        starts_at: proPaid.period_end,
        ends_at: new Date(new Date(proPaid.period_end!).getTime() + left).toISOString(),
      },
    ]);
  });

  it('an underpayment from the named payer is visible (status and amounts) and grants nothing; so does a payment from another payer', async () => {
    const { m, dash } = await signedIn();
    const before = await h.tdb.db('merchants').where({ id: m.id }).first();
    const short = await buyPlan(dash, 'business');
    const hash = await pay(BigInt(short.amount_atomic) - 1_000_000n);
    const seen = await waitFor(
      async () => ((await purchaseOf(dash, short.id)).status === 'underpaid' ? purchaseOf(dash, short.id) : null),
      'the underpayment',
    );
    expect(seen).toMatchObject({
      status: 'underpaid',
      review_reason: 'underpaid',
      received_atomic: (BigInt(short.amount_atomic) - 1_000_000n).toString(),
      amount_atomic: short.amount_atomic,
      paid_at: null,
      period_start: null,
    });
    expect((await h.tdb.db('payment_evidence').where({ tx_hash: hash }).first()).decision).toBe('review');
    // The rest paid afterwards does not complete it: only a transfer of the full amount would (support resolves it).
    await pay(1_000_000n);
    expect((await purchaseOf(dash, short.id)).status).toBe('underpaid');

    const other = await buyPlan(dash, 'business');
    await pay(BigInt(other.amount_atomic), stranger);
    const review = await waitFor(
      async () => ((await purchaseOf(dash, other.id)).status === 'review' ? purchaseOf(dash, other.id) : null),
      'review of another payer',
    );
    expect(review).toMatchObject({ review_reason: 'unexpected_payer', paid_at: null });
    expect(await grants(short.id)).toHaveLength(0);
    expect(await grants(other.id)).toHaveLength(0);
    const after = await h.tdb.db('merchants').where({ id: m.id }).first();
    expect({ plan: after.plan, until: after.plan_paid_until }).toEqual({
      plan: before.plan,
      until: before.plan_paid_until,
    });
  });

  it('one buyer cannot block a price: at most 3 open purchases per account (409), and a dust transfer parks no amount', async () => {
    const { m, dash } = await signedIn();
    const open: PurchaseView[] = [];
    for (let i = 0; i < 3; i++) open.push(await buyPlan(dash, 'business'));
    const refused = await json<{ error: string; code: string; request_id: string }>(
      await dash.request('POST', '/plan/purchases', { plan: 'business', network: 'base', payer: payer.address }),
      409,
    );
    expect(refused).toMatchObject({ code: 'too_many_open_purchases', error: expect.stringMatching(/3 purchases/) });
    expect(await h.tdb.db('platform_purchases').where({ merchant_id: m.id })).toHaveLength(3);
    // Another buyer is not held up by this one.
    const other = await signedIn();
    await buyPlan(other.dash, 'business', stranger);

    // One unit from the named payer: the newest purchase is underpaid, but its amount is not parked in REVIEW for good:
    // the request stays open until it expires (24 hours) like any other, and a full payment still completes it.
    const dusted = open[2]!;
    await pay(1n);
    const seen = await waitFor(
      async () => ((await purchaseOf(dash, dusted.id)).status === 'underpaid' ? purchaseOf(dash, dusted.id) : null),
      'the dust to be seen',
    );
    expect(seen).toMatchObject({ received_atomic: '1', review_reason: 'underpaid' });
    expect((await h.tdb.db('payment_requests').where({ id: dusted.request_id }).first()).status).toBe('AWAITING');
    // Once it expires its amount is free, and it no longer counts against the buyer's open purchases.
    await h.tdb
      .db('payment_requests')
      .where({ id: dusted.request_id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await purchaseOf(dash, dusted.id)).status).toBe('underpaid');
    const again = await buyPlan(dash, 'business');
    expect(again.amount_atomic).toBe(dusted.amount_atomic);
    await json(
      await dash.request('POST', '/plan/purchases', { plan: 'business', network: 'base', payer: payer.address }),
      409,
    );
    // A full payment of an underpaid purchase that is still open completes it.
    const underpaid = open[1]!;
    await pay(1n);
    await waitFor(async () => (await purchaseOf(dash, again.id)).status === 'underpaid', 'the second dust');
    await pay(BigInt(again.amount_atomic));
    await waitFor(async () => (await purchaseOf(dash, again.id)).status === 'paid', 'the full payment after the dust');
    expect((await purchaseOf(dash, underpaid.id)).status).toBe('awaiting_payment');

    // Purchases a dust transfer parked in REVIEW before this rule are returned to it by a migration: open until they
    // expire, expired after, still shown as underpaid; nothing is granted.
    const release = await import('../../db/migrations/20261127100400_release_underpaid_purchase_amounts.js');
    const parked = [open[0]!, open[1]!];
    await h.tdb
      .db('payment_requests')
      .whereIn(
        'id',
        parked.map((p) => p.request_id),
      )
      .update({ status: 'REVIEW', review_reason: 'underpaid' });
    await h.tdb
      .db('payment_requests')
      .where({ id: parked[0]!.request_id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await release.up(h.tdb.db);
    const states = Object.fromEntries(
      (
        await h.tdb
          .db('payment_requests')
          .whereIn(
            'id',
            parked.map((p) => p.request_id),
          )
          .select('id', 'status')
      ).map((r) => [r.id, r.status]),
    );
    expect(states).toEqual({ [parked[0]!.request_id]: 'EXPIRED', [parked[1]!.request_id]: 'AWAITING' });
    for (const p of parked) expect((await purchaseOf(dash, p.id)).status).toBe('underpaid');
  });

  it('a payment after the purchase expired grants nothing (REVIEW after_expiry)', async () => {
    // A second app whose clock is 25 hours behind: its purchase's 24-hour window has closed by the chain's time.
    const behind = await h.startApp(env, { now: () => new Date(Date.now() - 25 * 3_600_000) });
    try {
      const { m, dash } = await signedIn({ plan: 'business', on: behind });
      await h.tdb
        .db('merchants')
        .where({ id: m.id })
        .update({ plan_paid_until: new Date(Date.now() + 60 * DAY_MS) });
      const late = await buyPlan(dash, 'business');
      expect(new Date(late.expires_at).getTime()).toBeLessThan(Date.now());
      await pay(BigInt(late.amount_atomic));
      const seen = await waitFor(async () => {
        const p = await purchaseOf(dash, late.id);
        return p.status === 'review' ? p : null;
      }, 'the late payment under review');
      expect(seen).toMatchObject({ review_reason: 'after_expiry', paid_at: null });
      expect(await grants(late.id)).toHaveLength(0);
    } finally {
      await behind.close();
    }
  });

  it('the database grants once whatever runs twice: a repeated grant call and a second grant row are refused', async () => {
    const { m, dash } = await signedIn();
    const bought = await buyPlan(dash, 'pro');
    await pay(BigInt(bought.amount_atomic));
    await waitFor(async () => (await purchaseOf(dash, bought.id)).status === 'paid', 'paid');
    const until = (await h.tdb.db('merchants').where({ id: m.id }).first()).plan_paid_until;
    const row = (await grants(bought.id))[0];
    expect(
      await h.tdb.db.transaction((trx) => grantPurchaseOnPayment(trx, bought.request_id, '0xagain', new Date())),
    ).toEqual({ granted: false });
    await expect(
      h.tdb
        .db('platform_purchase_grants')
        .insert({ purchase_id: bought.id, request_id: bought.request_id, tx_hash: '0xforged', granted_at: new Date() }),
    ).rejects.toThrow(/duplicate key|unique/);
    await expect(h.tdb.db('platform_purchase_grants').where({ purchase_id: bought.id }).delete()).rejects.toThrow(
      /append-only/,
    );
    expect((await h.tdb.db('merchants').where({ id: m.id }).first()).plan_paid_until).toEqual(until);
    expect(await grants(bought.id)).toEqual([row]);
    // The platform's account is not a merchant anyone signs in to, and its requests are not any merchant's.
    expect((await h.tdb.db('payment_requests').where({ id: bought.request_id }).first()).merchant_id).toBe(
      PLATFORM_MERCHANT_ID,
    );
    await json(await dash.request('GET', `/requests/${bought.request_id}`), 404);
  });

  it('a merchant whose plan and trial ended can still see its plan and buy one; other routes need it', async () => {
    const { m, dash } = await signedIn();
    await h.tdb
      .db('merchants')
      .where({ id: m.id })
      .update({ trial_started_at: new Date(Date.now() - 30 * DAY_MS) });
    expect((await json<{ plan: null }>(await dash.request('GET', '/plan'), 200)).plan).toBeNull();
    expect((await json<{ code: string }>(await dash.request('GET', '/wallets'), 403)).code).toBe(
      'customer_access_required',
    );
    const bought = await buyPlan(dash, 'starter');
    await pay(BigInt(bought.amount_atomic));
    await waitFor(async () => (await purchaseOf(dash, bought.id)).status === 'paid', 'paid');
    await json(await dash.request('GET', '/wallets'), 200);
  });

  it('refuses what cannot be bought: a lower plan while a higher one runs, an unconfigured network, a platform without wallets, bad payers', async () => {
    const { dash } = await signedIn({ plan: 'pro' });
    const lower = await json<{ code: string; issues: Array<{ path: string }> }>(
      await dash.request('POST', '/plan/purchases', { plan: 'starter', network: 'base', payer: payer.address }),
      422,
    );
    expect(lower.code).toBe('validation_failed');
    expect(lower.issues.map((i) => i.path)).toEqual(['plan']);
    const solana = await json<{ code: string; error: string }>(
      await dash.request('POST', '/plan/purchases', {
        plan: 'pro',
        network: 'solana',
        payer: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
      }),
      409,
    );
    expect(solana).toMatchObject({ code: 'purchase_unavailable' });
    expect(solana.error).toContain('available on: base');
    for (const body of [
      { plan: 'pro', network: 'base', payer: `0x${'0'.repeat(40)}` },
      { plan: 'pro', network: 'base', payer: 'nope' },
      { plan: 'gold', network: 'base', payer: payer.address },
      { plan: 'pro', network: 'base' },
      { plan: 'pro', network: 'base', payer: payer.address, price_usdc: '0.01' },
    ]) {
      expect((await json<{ code: string }>(await dash.request('POST', '/plan/purchases', body), 422)).code).toBe(
        'validation_failed',
      );
    }
    const bare = await h.startApp({});
    try {
      const { dash: d } = await signedIn({ on: bare });
      expect(
        (await json<{ purchase_networks: string[] }>(await d.request('GET', '/plan'), 200)).purchase_networks,
      ).toEqual([]);
      const refused = await json<{ code: string; error: string }>(
        await d.request('POST', '/plan/purchases', { plan: 'starter', network: 'base', payer: payer.address }),
        409,
      );
      expect(refused.code).toBe('purchase_unavailable');
      expect(refused.error).toMatch(/operator/);
    } finally {
      await bare.close();
    }
  });
});

describe('credit packs paid in USDC', () => {
  it('a billing administrator buys a pack; the confirmed payment adds its credits to the ledger once', async () => {
    const admin = await createCompanyAdmin(h.tdb.db, 'Pack Buyer Co');
    const dash = new DashboardClient(app.url, '/api/company');
    expect((await dash.signIn(admin.email, admin.password)).status).toBe(201);
    const packs = await json<{
      packs: Array<{ id: string; credits: string; price_usdc: string }>;
      purchase_networks: string[];
      card_checkout: boolean;
    }>(await dash.request('GET', '/credit-packs'), 200);
    expect(packs).toEqual({
      packs: [
        { id: 'credits_30000', credits: '30000', price_usdc: '29.000000' },
        { id: 'credits_85000', credits: '85000', price_usdc: '79.000000' },
      ],
      purchase_networks: ['base'],
      card_checkout: false,
    });
    const before = await getCredits(h.tdb.db, admin.companyId);

    // Every answer conforms to the company session's OpenAPI document.
    const c = new Conformance(
      (await (await fetch(`${app.url}/api/company/openapi.json`)).json()) as Record<string, unknown>,
    );
    await c.check('GET /api/company/credit-packs', await dash.request('GET', '/credit-packs'));
    const bought = (await c.check(
      'POST /api/company/credit-packs/purchases',
      await dash.request('POST', '/credit-packs/purchases', {
        pack: 'credits_30000',
        network: 'base',
        payer: payer.address,
      }),
    )) as PurchaseView;
    expect(bought).toMatchObject({
      kind: 'credits',
      pack: 'credits_30000',
      credits: '30000',
      plan: null,
      status: 'awaiting_payment',
      price_usdc: '29.000000',
    });
    await pay(BigInt(bought.amount_atomic));
    const paid = await waitFor(async () => {
      const p = await json<PurchaseView>(await dash.request('GET', `/credit-packs/purchases/${bought.id}`), 200);
      return p.status === 'paid' ? p : null;
    }, 'the pack to be paid');
    expect(paid.period_start).toBeNull();
    expect((await getCredits(h.tdb.db, admin.companyId)).available).toBe(before.available + 30_000n);
    // A duplicate payment adds nothing; the ledger holds one grant naming the purchase.
    await pay(BigInt(bought.amount_atomic));
    expect((await getCredits(h.tdb.db, admin.companyId)).available).toBe(before.available + 30_000n);
    expect(
      await h.tdb.db('credit_ledger').where({ company_id: admin.companyId, reason: `pack:${bought.id}` }),
    ).toHaveLength(1);
    await expect(
      h.tdb
        .db('credit_ledger')
        .insert({ company_id: admin.companyId, kind: 'grant', amount: '30000', reason: `pack:${bought.id}` }),
    ).rejects.toThrow(/duplicate key|unique/);

    await c.check(
      'GET /api/company/credit-packs/purchases/{purchase_id}',
      await dash.request('GET', `/credit-packs/purchases/${bought.id}`),
    );
    const list = (await c.check(
      'GET /api/company/credit-packs/purchases',
      await dash.request('GET', '/credit-packs/purchases'),
    )) as { data: PurchaseView[] };
    expect(list.data.map((p) => p.id)).toEqual([bought.id]);
    expect(
      (
        await json<{ code: string }>(
          await dash.request('POST', '/credit-packs/purchases', {
            pack: 'credits_1',
            network: 'base',
            payer: payer.address,
          }),
          404,
        )
      ).code,
    ).toBe('not_found');
    // Another company sees none of it.
    const other = await createCompanyAdmin(h.tdb.db, 'Other Co');
    const otherDash = new DashboardClient(app.url, '/api/company');
    expect((await otherDash.signIn(other.email, other.password)).status).toBe(201);
    await json(await otherDash.request('GET', `/credit-packs/purchases/${bought.id}`), 404);
  });
});

describe('open purchases of a company', () => {
  it('a company holds at most 3 open credit-pack purchases too (409 in the /api/company shape)', async () => {
    const admin = await createCompanyAdmin(h.tdb.db, 'Busy Buyer Co');
    const dash = new DashboardClient(app.url, '/api/company');
    expect((await dash.signIn(admin.email, admin.password)).status).toBe(201);
    const buy = () =>
      dash.request('POST', '/credit-packs/purchases', { pack: 'credits_30000', network: 'base', payer: payer.address });
    for (let i = 0; i < 3; i++) await json(await buy(), 201);
    expect(await json<{ detail: string; code: string }>(await buy(), 409)).toMatchObject({
      code: 'too_many_open_purchases',
      detail: expect.stringMatching(/3 purchases/),
    });
  });
});

describe('the review queue', () => {
  it("lists the merchant's requests in REVIEW with their reason and the watcher's evidence", async () => {
    const { m, dash } = await signedIn({ plan: 'business' });
    const receiver = node.accounts[7]!.address;
    const { addVerifiedWallet } = await import('../../services/proof/account.js');
    const wallet = await addVerifiedWallet(
      h.tdb.db,
      { merchantId: m.id, network: 'base', address: receiver },
      new Date(),
    );
    const request = await json<{ id: string; amount_atomic: string }>(
      await dash.request('POST', '/requests', {
        wallet_id: wallet.id,
        amount_usdc: '12',
        description: 'Expected from the payer only',
        expected_payer: payer.address,
      }),
      201,
    );
    const hash = await pay(BigInt(request.amount_atomic), stranger, receiver);
    const reviews = await waitFor(async () => {
      const page = await json<{
        data: Array<{ id: string; status: string; review_reason: string; evidence: Array<Record<string, unknown>> }>;
      }>(await dash.request('GET', '/reviews'), 200);
      return page.data.length ? page : null;
    }, 'the review');
    expect(reviews.data).toHaveLength(1);
    expect(reviews.data[0]).toMatchObject({ id: request.id, status: 'REVIEW', review_reason: 'unexpected_payer' });
    expect(reviews.data[0]!.evidence).toEqual([
      expect.objectContaining({
        tx_hash: hash,
        amount_atomic: request.amount_atomic,
        decision: 'review',
        reason: 'unexpected_payer',
      }),
    ]);
    expect(String(reviews.data[0]!.evidence[0]!['from']).toLowerCase()).toBe(stranger.address.toLowerCase());
    const filtered = await json<{ data: Array<{ id: string }> }>(
      await dash.request('GET', '/requests?status=REVIEW'),
      200,
    );
    expect(filtered.data.map((r) => r.id)).toEqual([request.id]);
    expect((await json<{ data: unknown[] }>(await dash.request('GET', '/requests?status=PAID'), 200)).data).toEqual([]);
    expect((await json<{ code: string }>(await dash.request('GET', '/requests?status=paid'), 422)).code).toBe(
      'validation_failed',
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FacilitatorTimeoutError, type FacilitatorClient } from '@x402/core/server';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import {
  USDC,
  payingClient,
  startX402Chain,
  type X402Chain,
  signTransferAuthorization,
} from '../../support/x402-harness.js';
import { TEST_ROUTE, paidTestRouter } from '../helpers/x402-paid-route.js';
import { createX402Payments } from '../../api/x402/payment.middleware.js';
import { findPayment } from '../../db/repositories/x402-payments.repo.js';
import { createMetrics } from '../../adapters/metrics/metrics.js';
import { createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** How the facilitator misbehaves at settlement in the current test. */
type Mode =
  | 'settle-then-timeout'
  | 'timeout-without-settling'
  | 'timeout-then-late-landing'
  | 'refuse-before-broadcast'
  | 'timeout-landing-after-answer';

let tdb: TestDatabase;
let chain: X402Chain;
let app: Awaited<ReturnType<typeof startTestApp>>;
/** An app whose requests wait only 300 ms for their settlement (the settlement goes on after the 503). */
let shortWaitApp: Awaited<ReturnType<typeof startTestApp>>;
let shortWaitPayments: ReturnType<typeof createX402Payments>;
/** `timeout-landing-after-answer`: the transaction the facilitator broadcast, landed by the test once the 503 is out. */
let landAfterAnswer: (() => Promise<unknown>) | null = null;
let mode: Mode = 'settle-then-timeout';
let settleCalls = 0;
/** What each chain-state read of the current payment answered, in order. */
let chainReads: string[] = [];
/** The late landing of `timeout-then-late-landing`: started by the first chain-state read, awaited by the next. */
let landing: Promise<unknown> | null = null;
let settleLate: (() => Promise<unknown>) | null = null;
const logs = capturingLogger();
const calls = { count: 0 };
const FEE = 20_000n;
// The reconciliation window. Long enough that a read of the chain on a busy machine ends well inside it; the test
// that watches it run out pays it once.
const RECONCILE_MS = 5_000;
const metrics = createMetrics();
/** paycore_x402_late_settlements_total{outcome, decided_by} as this process counted it so far. */
const lateSettlements = async (outcome: string, decidedBy: string) => {
  const metric = await metrics.registry.getSingleMetric('paycore_x402_late_settlements_total')?.get();
  return (
    metric?.values.find((v) => v.labels['outcome'] === outcome && v.labels['decided_by'] === decidedBy)?.value ?? 0
  );
};

beforeAll(async () => {
  // Each is kept as soon as it exists, so afterAll stops it even when the other failed to start.
  await Promise.all([createTestDatabase().then((d) => (tdb = d)), startX402Chain().then((c) => (chain = c))]);
  const real = chain.facilitator;
  const flaky: FacilitatorClient = {
    verify: (p, r) => real.verify(p, r),
    getSupported: () => real.getSupported(),
    async settle(p, r) {
      settleCalls += 1;
      if (mode === 'settle-then-timeout') {
        await real.settle(p, r);
        throw new FacilitatorTimeoutError('settle', 1_000);
      }
      if (mode === 'timeout-then-late-landing') {
        // The transaction lands after the timeout: once the reconciler has looked at the chain and seen nothing.
        settleLate = () => real.settle(p, r);
        throw new FacilitatorTimeoutError('settle', 1_000);
      }
      if (mode === 'timeout-landing-after-answer') {
        landAfterAnswer = () => real.settle(p, r);
        throw new FacilitatorTimeoutError('settle', 1_000);
      }
      if (mode === 'refuse-before-broadcast')
        return { success: false, errorReason: 'invalid_exact_evm_signature', transaction: '', network: r.network };
      throw new FacilitatorTimeoutError('settle', 1_000);
    },
  };
  // The real chain-state reader, recording what each read answered; in the late-landing mode the first read sets
  // the landing going and later reads wait for it, so "lands after a first empty look" holds on any machine.
  const observed: typeof chain.authorizationState = {
    async inspect(ref, hintTx) {
      if (landing) await landing;
      const state = await chain.authorizationState.inspect(ref, hintTx);
      chainReads.push(state.state);
      if (settleLate) {
        landing = settleLate();
        settleLate = null;
      }
      return state;
    },
  };
  // The same payments twice; the second waits only 300 ms for a settlement before answering 503.
  const paymentsWith = (timing: { settlementReconcileMs: number; settlementWaitMs?: number }) =>
    createX402Payments({
      db: tdb.db,
      logger: logs.logger,
      payTo: chain.payTo,
      facilitator: flaky,
      authorizationState: observed,
      paymentTimeoutSeconds: 120,
      reconcilePollMs: 100,
      metrics,
      ...timing,
    });
  const payments = paymentsWith({ settlementReconcileMs: RECONCILE_MS });
  app = await startTestApp({ db: tdb.db, logger: logs.logger, routers: [paidTestRouter(payments, calls)] });
  shortWaitPayments = paymentsWith({ settlementReconcileMs: 60_000, settlementWaitMs: 300 });
  shortWaitApp = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    routers: [paidTestRouter(shortWaitPayments, calls)],
  });
});
afterAll(async () => {
  await shortWaitApp?.close();
  await app?.close();
  await chain?.node.stop();
  await tdb?.drop();
});

const url = () => `${app.url}/x402${TEST_ROUTE.path}?tx_hash=0x${'cd'.repeat(32)}`;
const rowOf = (signature: string) => {
  const { from, nonce } = (
    JSON.parse(Buffer.from(signature, 'base64').toString()) as {
      payload: { authorization: { from: string; nonce: string } };
    }
  ).payload.authorization;
  return findPayment(tdb.db, { network: 'eip155:8453', asset: USDC, payer: from, nonce });
};
const pay = async (m: Mode) => {
  mode = m;
  settleCalls = 0;
  chainReads = [];
  landing = null;
  settleLate = null;
  const before = await chain.balances();
  const client = payingClient(chain.payer);
  const started = Date.now();
  const res = await client.fetch(url());
  return { res, before, client, ms: Date.now() - started };
};

/**
 * The payer spends the nonce of `signature`'s authorization on another transfer (1 atomic unit to someone else),
 * straight on chain: the authorization can then never pay this call.
 */
async function spendNonceElsewhere(signature: string): Promise<void> {
  const { authorization } = (
    JSON.parse(Buffer.from(signature, 'base64').toString()) as {
      payload: { authorization: { from: Hex; validBefore: string; nonce: Hex } };
    }
  ).payload;
  const account = privateKeyToAccount(chain.payer.privateKey);
  const other = {
    from: authorization.from,
    to: chain.facilitatorSigner.address,
    value: 1n,
    validAfter: 0n,
    validBefore: BigInt(authorization.validBefore),
    nonce: authorization.nonce,
  };
  const signed = await signTransferAuthorization(chain.payer, chain.node.chainId, other);
  const wallet = createWalletClient({ account, chain: chain.node.client.chain, transport: http(chain.node.url) });
  const hash = await wallet.writeContract({
    address: USDC,
    abi: chain.node.usdcAbi,
    functionName: 'transferWithAuthorization',
    args: [other.from, other.to, other.value, other.validAfter, other.validBefore, other.nonce, signed],
    gas: 500_000n,
    chain: chain.node.client.chain,
  } as never);
  expect((await chain.node.client.waitForTransactionReceipt({ hash })).status).toBe('success');
}

describe('x402 settlement with an unreliable facilitator', () => {
  it('reconciles a settle that timed out after executing: delivered once, charged once, from chain state', async () => {
    const { res, before, client } = await pay('settle-then-timeout');
    expect(res.status).toBe(200);
    const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(receipt).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: chain.payer.address,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(settleCalls).toBe(1);
    const after = await chain.balances();
    expect(after.payer).toBe(before.payer - FEE);
    expect(after.payTo).toBe(before.payTo + FEE);
    expect(await rowOf(client.signatures[0]!)).toMatchObject({
      status: 'settled',
      transaction: receipt.transaction,
      reason: expect.stringContaining('reconciled_after'),
    });
  });

  it('keeps watching the chain after a timeout and delivers when the authorization lands late', async () => {
    const { res, before, client } = await pay('timeout-then-late-landing');
    expect(res.status).toBe(200);
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!).success).toBe(true);
    expect(settleCalls).toBe(1);
    // It looked, saw the authorization unused, and kept watching until the transfer landed.
    expect(chainReads[0]).toBe('unused');
    expect(chainReads.at(-1)).toBe('paid');
    expect((await chain.balances()).payer).toBe(before.payer - FEE);
    expect(await rowOf(client.signatures[0]!)).toMatchObject({ status: 'settled' });
  });

  it('answers 503 with Retry-After when the chain shows nothing, keeps the answer, and delivers it to the same signature once the fee lands', async () => {
    const { res, before, client, ms } = await pay('timeout-without-settling');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({
      error: expect.stringContaining('same payment authorization again'),
      code: 'payment_settlement_uncertain',
      request_id: expect.any(String),
    });
    expect(res.headers.get('payment-response')).toBeNull();
    expect(ms).toBeGreaterThanOrEqual(RECONCILE_MS - 200);
    expect(settleCalls).toBe(1);
    expect(calls.count).toBeGreaterThan(0);
    const handlerRuns = calls.count;
    expect(await chain.balances()).toEqual(before);
    const signature = client.signatures[0]!;
    expect(await rowOf(signature)).toMatchObject({
      status: 'uncertain',
      reason: expect.stringContaining('chain:unused'),
      answerKept: true,
      withheldAt: expect.any(Date),
    });

    // Still undecided: the same signature is told to wait again; nothing is settled a second time.
    const waiting = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(waiting.status).toBe(503);
    expect(waiting.headers.get('retry-after')).toBe('5');
    expect(await waiting.json()).toMatchObject({ code: 'payment_settlement_uncertain' });
    expect(settleCalls).toBe(1);

    // The authorization executes late (as the facilitator's broadcast would): the kept answer goes to its signature.
    const payload = JSON.parse(Buffer.from(signature, 'base64').toString()) as Parameters<
      typeof chain.facilitator.settle
    >[0];
    expect((await chain.facilitator.settle(payload, payload.accepted)).success).toBe(true);
    const lateBefore = await lateSettlements('settled', 'representation');
    const fetched = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(fetched.status).toBe(200);
    // Settled late, decided by the re-presentation: counted once.
    expect((await lateSettlements('settled', 'representation')) - lateBefore).toBe(1);
    expect(await fetched.json()).toEqual({ tx_hash: `0x${'cd'.repeat(32)}`, status: 'confirmed' });
    const receipt = decodePaymentResponseHeader(fetched.headers.get('payment-response')!);
    expect(receipt).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: chain.payer.address,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(calls.count).toBe(handlerRuns);
    const after = await chain.balances();
    expect(after.payer).toBe(before.payer - FEE);
    expect(after.payTo).toBe(before.payTo + FEE);
    expect(await rowOf(signature)).toMatchObject({
      status: 'settled',
      transaction: receipt.transaction,
      answerKept: false,
      deliveredAt: expect.any(Date),
    });

    // Delivered: presenting it again is a replay, and a different request with it is one too.
    const again = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(again.status).toBe(402);
    expect((await lateSettlements('settled', 'representation')) - lateBefore).toBe(1);
    expect(await again.json()).toMatchObject({ code: 'payment_replayed' });
    expect(settleCalls).toBe(1);
    expect((await chain.balances()).payer).toBe(before.payer - FEE);
  });

  it('refuses a kept answer to the same signature presented for another request', async () => {
    const { res, client } = await pay('timeout-without-settling');
    expect(res.status).toBe(503);
    const other = await fetch(`${app.url}/x402${TEST_ROUTE.path}?tx_hash=0x${'ef'.repeat(32)}`, {
      headers: { 'PAYMENT-SIGNATURE': client.signatures[0]! },
    });
    expect(other.status).toBe(402);
    expect(await other.json()).toMatchObject({ code: 'payment_replayed' });
  });

  it('answers 402 payment_invalid at once for a refusal decided before broadcasting', async () => {
    const { res, before, client } = await pay('refuse-before-broadcast');
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'payment_invalid' });
    expect(decodePaymentRequiredHeader(res.headers.get('payment-required')!).error).toBe('invalid_exact_evm_signature');
    // At once: the chain is read one time (the fee was not paid after all) and not watched for the window.
    expect(chainReads).toEqual(['unused']);
    expect(await chain.balances()).toEqual(before);
    expect(await rowOf(client.signatures[0]!)).toMatchObject({ status: 'failed' });
  });

  it('counts a settlement its own call decides after answering 503 as settled late, once (decided_by call)', async () => {
    mode = 'timeout-landing-after-answer';
    settleCalls = 0;
    landing = null;
    settleLate = null;
    landAfterAnswer = null;
    const before = await lateSettlements('settled', 'call');
    const client = payingClient(chain.payer);
    const res = await client.fetch(`${shortWaitApp.url}/x402${TEST_ROUTE.path}?tx_hash=0x${'ab'.repeat(32)}`);
    expect(res.status).toBe(503);
    expect(await lateSettlements('settled', 'call')).toBe(before);
    // The answer is out; now the broadcast transaction lands, and the settlement still watching the chain sees it.
    expect(landAfterAnswer).not.toBeNull();
    landing = landAfterAnswer!();
    await shortWaitPayments.calls!.idle();
    expect(await rowOf(client.signatures[0]!)).toMatchObject({ status: 'settled' });
    expect((await lateSettlements('settled', 'call')) - before).toBe(1);
    expect(settleCalls).toBe(1);
  });

  it('counts a kept answer whose authorization the payer spent elsewhere as failed late, once (decided_by representation)', async () => {
    const { res, before, client } = await pay('timeout-without-settling');
    expect(res.status).toBe(503);
    const signature = client.signatures[0]!;
    await spendNonceElsewhere(signature);
    const lateBefore = await lateSettlements('failed', 'representation');
    const refused = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ code: 'payment_invalid' });
    expect(await rowOf(signature)).toMatchObject({
      status: 'failed',
      reason: 'authorization_used_or_canceled_elsewhere',
    });
    expect((await lateSettlements('failed', 'representation')) - lateBefore).toBe(1);
    // Asked again: the same refusal from the record, not counted again; never charged this fee.
    const again = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(again.status).toBe(402);
    expect((await lateSettlements('failed', 'representation')) - lateBefore).toBe(1);
    expect(settleCalls).toBe(1);
    expect((await chain.balances()).payTo).toBe(before.payTo);
  });

  it('counts a settlement its own call finds spent elsewhere after answering 503 as failed late, once (decided_by call)', async () => {
    mode = 'timeout-without-settling';
    settleCalls = 0;
    landing = null;
    settleLate = null;
    const lateBefore = await lateSettlements('failed', 'call');
    const before = await chain.balances();
    const client = payingClient(chain.payer);
    const res = await client.fetch(`${shortWaitApp.url}/x402${TEST_ROUTE.path}?tx_hash=0x${'ba'.repeat(32)}`);
    expect(res.status).toBe(503);
    expect(await lateSettlements('failed', 'call')).toBe(lateBefore);
    // The settlement still watches the chain (its window is 60 s); the payer spends the nonce elsewhere meanwhile.
    await spendNonceElsewhere(client.signatures[0]!);
    await shortWaitPayments.calls!.idle();
    expect(await rowOf(client.signatures[0]!)).toMatchObject({ status: 'failed' });
    expect((await lateSettlements('failed', 'call')) - lateBefore).toBe(1);
    expect(settleCalls).toBe(1);
    expect((await chain.balances()).payTo).toBe(before.payTo);
  });
});

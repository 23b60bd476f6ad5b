import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { USDC, payingClient, startX402Chain, type X402Chain } from '../../support/x402-harness.js';
import { TEST_ROUTE, paidTestRouter } from '../helpers/x402-paid-route.js';
import { createX402Payments, type X402Payments } from '../../api/x402/payment.middleware.js';
import { findPayment } from '../../db/repositories/x402-payments.repo.js';

/**
 * Issue 14: with a chain that stops mining, a paid call used to wait 71 s, answer 503 and withhold its result; the
 * settlement then confirmed and the payer was charged, and re-presenting the signature answered 402
 * payment_replayed: paid, no answer, no way to get it. Now the request waits a bounded time, answers 503 with
 * Retry-After, keeps the answer, and the same PAYMENT-SIGNATURE fetches it once the fee is settled.
 */
let tdb: TestDatabase;
let chain: X402Chain;
let payments: X402Payments;
let app: Awaited<ReturnType<typeof startTestApp>>;
const logs = capturingLogger();
const calls = { count: 0 };
const FEE = 20_000n;
const WAIT_MS = 1_500;

beforeAll(async () => {
  await Promise.all([createTestDatabase().then((d) => (tdb = d)), startX402Chain().then((c) => (chain = c))]);
  payments = createX402Payments({
    db: tdb.db,
    logger: logs.logger,
    payTo: chain.payTo,
    facilitator: chain.facilitator,
    authorizationState: chain.authorizationState,
    paymentTimeoutSeconds: 120,
    settlementWaitMs: WAIT_MS,
    settlementReconcileMs: 500,
    reconcilePollMs: 100,
  });
  app = await startTestApp({ db: tdb.db, logger: logs.logger, routers: [paidTestRouter(payments, calls)] });
});
afterAll(async () => {
  await chain?.node.setAutomine(true).catch(() => undefined);
  await payments?.calls?.idle();
  await app?.close();
  await chain?.node.stop();
  await tdb?.drop();
});

const TX = `0x${'ab'.repeat(32)}`;
const url = () => `${app.url}/x402${TEST_ROUTE.path}?tx_hash=${TX}`;

/** Presents `signature` until the answer is no longer 503 or the deadline passes. */
async function presentUntilDecided(signature: string, deadlineMs: number): Promise<Response> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': signature } });
    if (res.status !== 503 || Date.now() > deadline) return res;
    expect(res.headers.get('retry-after')).toBe('5');
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('x402 on a chain that stops mining', () => {
  it('answers within its wait, keeps the answer, and delivers it to the same signature once the settlement is mined', async () => {
    const before = await chain.balances();
    const client = payingClient(chain.payer);
    await chain.node.setAutomine(false);
    const first = await client.fetch(url());
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('5');
    expect(await first.json()).toMatchObject({ code: 'payment_settlement_uncertain' });
    expect(calls.count).toBe(1);
    const signature = client.signatures[0]!;
    const { from, nonce } = (
      JSON.parse(Buffer.from(signature, 'base64').toString()) as {
        payload: { authorization: { from: string; nonce: string } };
      }
    ).payload.authorization;
    const row = () => findPayment(tdb.db, { network: 'eip155:8453', asset: USDC, payer: from, nonce });
    // Answered after the configured wait while the facilitator still waits for its receipt (settling, not decided).
    expect(await row()).toMatchObject({ status: 'settling', answerKept: true, withheldAt: expect.any(Date) });

    // Nothing mined yet: the same signature waits again, and the payer is not charged.
    const waiting = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(waiting.status).toBe(503);
    expect(await chain.balances()).toEqual(before);

    // The chain mines again: the facilitator's transaction lands and the kept answer is delivered once.
    await chain.node.mine(1);
    const delivered = await presentUntilDecided(signature, 60_000);
    expect(delivered.status).toBe(200);
    expect(await delivered.json()).toEqual({ tx_hash: TX, status: 'confirmed' });
    const receipt = decodePaymentResponseHeader(delivered.headers.get('payment-response')!);
    expect(receipt).toMatchObject({
      success: true,
      payer: chain.payer.address,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(calls.count).toBe(1);
    const after = await chain.balances();
    expect(after.payer).toBe(before.payer - FEE);
    expect(after.payTo).toBe(before.payTo + FEE);
    expect(await row()).toMatchObject({ status: 'settled', transaction: receipt.transaction, answerKept: false });

    const replay = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(replay.status).toBe(402);
    expect(await replay.json()).toMatchObject({ code: 'payment_replayed' });
    await chain.node.setAutomine(true);
    await payments.calls!.idle();
    expect((await chain.balances()).payer).toBe(before.payer - FEE);
  });
});

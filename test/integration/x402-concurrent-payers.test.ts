import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { USDC, payingClient, startX402Chain, type X402Chain } from '../../support/x402-harness.js';
import { paidTestRouter } from '../helpers/x402-paid-route.js';
import type { EvmAccount } from '../../support/evm-node.js';
import { createFacilitator } from '../../adapters/x402/facilitator.js';
import type { SendingTurns } from '../../adapters/x402/settlement-sender.js';
import { createX402Payments } from '../../api/x402/payment.middleware.js';
import { findPayment } from '../../db/repositories/x402-payments.repo.js';
import { sendingTurnsIn } from '../../db/repositories/x402-sender-nonces.repo.js';

/**
 * Issue 28 item 2: several payers paying at the same moment through the self-hosted facilitator. Every settlement
 * of one facilitator key needs its own transaction nonce, also across API processes (here: two facilitator
 * instances with the same key behind two paid routes, as two processes would be), and a settlement that was never
 * broadcast is decided at once instead of leaving its payer on 503s until the authorization expires.
 */
let tdb: TestDatabase;
let chain: X402Chain;
let app: Awaited<ReturnType<typeof startTestApp>>;
const logs = capturingLogger();
const calls = { count: 0 };
const FEE = 20_000n;
const TX = `0x${'5a'.repeat(32)}`;
/** Long enough that an undecided settlement would answer 503 within the request's wait (15 s) rather than a refusal. */
const RECONCILE_MS = 60_000;

beforeAll(async () => {
  await Promise.all([createTestDatabase().then((d) => (tdb = d)), startX402Chain().then((c) => (chain = c))]);
  const common = {
    db: tdb.db,
    logger: logs.logger,
    payTo: chain.payTo,
    paymentTimeoutSeconds: 120,
    authorizationState: chain.authorizationState,
    settlementReconcileMs: RECONCILE_MS,
  };
  // Two "processes": each its own self-hosted facilitator (its own viem wallet and turns in PostgreSQL) with the same key.
  const facilitatorFor = (privateKey: `0x${string}`) =>
    createFacilitator(
      { kind: 'self', privateKey },
      { baseRpcUrls: [chain.node.url], pollingIntervalMs: 100, sendingTurns: observedTurns(sendingTurnsIn(tdb.db)) },
    )!.client;
  const processA = createX402Payments({ ...common, facilitator: facilitatorFor(chain.facilitatorSigner.privateKey) });
  const processB = createX402Payments({ ...common, facilitator: facilitatorFor(chain.facilitatorSigner.privateKey) });
  // A facilitator whose key holds no ether: the node refuses its settlement transaction before it is broadcast.
  const noGas = createX402Payments({ ...common, facilitator: facilitatorFor(generatePrivateKey()) });
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    routers: [
      paidTestRouter(processA, calls, '/test/a'),
      paidTestRouter(processB, calls, '/test/b'),
      paidTestRouter(noGas, calls, '/test/no-gas'),
    ],
  });
});
afterAll(async () => {
  await app?.close();
  await chain?.node.stop();
  await tdb?.drop();
});

/** Turns of every facilitator here: how many were in progress at once (across the "processes"), and the nonces they used. */
const turnsSeen = { active: 0, maxActive: 0, used: [] as bigint[] };
function observedTurns(inner: SendingTurns): SendingTurns {
  return {
    take: (key, send) =>
      inner.take(key, async (recorded) => {
        turnsSeen.active += 1;
        turnsSeen.maxActive = Math.max(turnsSeen.maxActive, turnsSeen.active);
        try {
          const result = await send(recorded);
          if (result.used !== null) turnsSeen.used.push(result.used);
          return result;
        } finally {
          turnsSeen.active -= 1;
        }
      }),
  };
}

/** A new payer key (not one of the node's accounts) holding `amount` of the USDC-like token and no ether. */
async function fundedPayer(amount: bigint): Promise<EvmAccount> {
  const privateKey = generatePrivateKey();
  const account = { address: privateKeyToAccount(privateKey).address, privateKey };
  await chain.node.mint(USDC, account.address, amount);
  return account;
}
const rowOf = (signature: string) => {
  const { from, nonce } = (
    JSON.parse(Buffer.from(signature, 'base64').toString()) as {
      payload: { authorization: { from: string; nonce: string } };
    }
  ).payload.authorization;
  return findPayment(tdb.db, { network: 'eip155:8453', asset: USDC, payer: from, nonce });
};

describe('x402 with concurrent payers (self-hosted facilitator, one key, two processes)', () => {
  it('serves 10 independent payers paying at the same moment, each charged exactly once', async () => {
    const payers: EvmAccount[] = [];
    for (let i = 0; i < 10; i++) payers.push(await fundedPayer(100_000n));
    const payToBefore = await chain.node.balanceOf(USDC, chain.payTo);
    const clients = payers.map((p) => payingClient(p));
    // Half through each "process", all at once.
    const responses = await Promise.all(
      clients.map((c, i) => c.fetch(`${app.url}/x402/test/${i % 2 ? 'b' : 'a'}?tx_hash=${TX}`)),
    );
    const statuses = await Promise.all(
      responses.map(async (r) => `${r.status}${r.status === 200 ? '' : ` ${JSON.stringify(await r.json())}`}`),
    );
    expect(statuses).toEqual(Array(10).fill('200'));
    const receipts = responses.map((r) => decodePaymentResponseHeader(r.headers.get('payment-response')!));
    expect(receipts.map((r) => [r.success, r.payer])).toEqual(payers.map((p) => [true, p.address]));
    expect(new Set(receipts.map((r) => r.transaction)).size).toBe(10);
    // One sending turn at a time across both processes, each with the next nonce of the key.
    expect(turnsSeen.maxActive).toBe(1);
    expect(turnsSeen.used).toEqual(Array.from({ length: 10 }, (_, i) => turnsSeen.used[0]! + BigInt(i)));
    for (const p of payers) expect(await chain.node.balanceOf(USDC, p.address)).toBe(100_000n - FEE);
    expect(await chain.node.balanceOf(USDC, chain.payTo)).toBe(payToBefore + 10n * FEE);
    for (const [i, c] of clients.entries()) {
      expect(c.signatures).toHaveLength(1);
      expect(await rowOf(c.signatures[0]!)).toMatchObject({ status: 'settled', transaction: receipts[i]!.transaction });
    }
  });

  it('refuses at once, uncharged, a settlement the node rejected before broadcasting, and says so again to the same signature', async () => {
    const payer = await fundedPayer(100_000n);
    const payToBefore = await chain.node.balanceOf(USDC, chain.payTo);
    const client = payingClient(payer);
    const res = await client.fetch(`${app.url}/x402/test/no-gas?tx_hash=${TX}`);
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'payment_invalid' });
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(settlement).toEqual({
      success: false,
      errorReason: 'settlement_not_broadcast',
      transaction: '',
      network: 'eip155:8453',
      payer: payer.address,
    });
    expect(await rowOf(client.signatures[0]!)).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('settlement_not_broadcast'),
    });

    // Re-presented as the docs say: a clear refusal at once, not a 503 until the authorization expires.
    const again = await fetch(`${app.url}/x402/test/no-gas?tx_hash=${TX}`, {
      headers: { 'PAYMENT-SIGNATURE': client.signatures[0]! },
    });
    expect(again.status).toBe(402);
    expect(await again.json()).toMatchObject({ code: 'payment_invalid' });
    expect(decodePaymentRequiredHeader(again.headers.get('payment-required')!).error).toBe('settlement_not_broadcast');
    expect(decodePaymentResponseHeader(again.headers.get('payment-response')!)).toMatchObject({
      success: false,
      errorReason: 'settlement_not_broadcast',
    });
    expect(await chain.node.balanceOf(USDC, payer.address)).toBe(100_000n);
    expect(await chain.node.balanceOf(USDC, chain.payTo)).toBe(payToBefore);
  });
});

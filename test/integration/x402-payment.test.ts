import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { USDC, payingClient, serveFacilitator, startX402Chain, type X402Chain } from '../../support/x402-harness.js';
import { TEST_ROUTE, paidTestRouter } from '../helpers/x402-paid-route.js';
import { createFacilitator } from '../../adapters/x402/facilitator.js';
import { createX402Payments } from '../../api/x402/payment.middleware.js';
import { findPayment } from '../../db/repositories/x402-payments.repo.js';

let tdb: TestDatabase;
let chain: X402Chain;
let app: Awaited<ReturnType<typeof startTestApp>>;
let remote: Awaited<ReturnType<typeof serveFacilitator>>;
const logs = capturingLogger();
const calls = { count: 0 };
const FEE = 20_000n;
const TX = `0x${'ab'.repeat(32)}`;

beforeAll(async () => {
  // Each is kept as soon as it exists, so afterAll stops it even when the other failed to start.
  await Promise.all([createTestDatabase().then((d) => (tdb = d)), startX402Chain().then((c) => (chain = c))]);
  remote = await serveFacilitator(chain.facilitator);
  const common = {
    db: tdb.db,
    logger: logs.logger,
    paymentTimeoutSeconds: 120,
    authorizationState: chain.authorizationState,
  };
  const payments = createX402Payments({ ...common, payTo: chain.payTo, facilitator: chain.facilitator });
  const noFacilitator = createX402Payments({ ...common, payTo: chain.payTo, facilitator: null });
  const noPayTo = createX402Payments({ ...common, payTo: undefined, facilitator: chain.facilitator });
  const viaRemote = createX402Payments({
    ...common,
    payTo: chain.payTo,
    facilitator: createFacilitator({ kind: 'remote', url: remote.url }, { baseRpcUrls: [chain.node.url] })!.client,
  });
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    routers: [
      paidTestRouter(payments, calls),
      paidTestRouter(noFacilitator, calls, '/test/no-facilitator'),
      paidTestRouter(noPayTo, calls, '/test/no-payto'),
      paidTestRouter(viaRemote, calls, '/test/remote'),
    ],
  });
});
afterAll(async () => {
  const settled = logs.lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'x402 payment settled');
  console.log(
    `x402 on Hardhat (verify ms / settle ms): ${settled.map((l) => `${l.verifyMs}/${l.settleMs}`).join(', ')}`,
  );
  await app?.close();
  await remote?.close();
  await chain?.node.stop();
  await tdb?.drop();
});

const url = (query = '') => `${app.url}/x402${TEST_ROUTE.path}?tx_hash=${TX}${query}`;
const paymentOf = (signature: string) => {
  const payload = JSON.parse(Buffer.from(signature, 'base64').toString()) as {
    payload: { authorization: { from: string; nonce: string } };
  };
  const { from, nonce } = payload.payload.authorization;
  return findPayment(tdb.db, { network: 'eip155:8453', asset: USDC, payer: from, nonce });
};

describe('x402 payment layer (self-hosted facilitator on a Base node)', () => {
  it('answers an unpaid request with 402 and a complete PAYMENT-REQUIRED, without running the handler', async () => {
    const res = await fetch(url());
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body).toEqual({ error: expect.any(String), code: 'payment_required', request_id: expect.any(String) });
    expect(res.headers.get('cache-control')).toContain('no-store');
    const required = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
    expect(required.x402Version).toBe(2);
    expect(required.error).toBe('Payment required');
    expect(required.resource).toEqual({
      url: `${app.url}/x402${TEST_ROUTE.path}`,
      description: TEST_ROUTE.description,
      mimeType: 'application/json',
    });
    expect(required.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:8453',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amount: '20000',
        payTo: chain.payTo,
        maxTimeoutSeconds: 120,
        extra: { name: 'USD Coin', version: '2' },
      },
    ]);
    const bazaar = required.extensions?.bazaar as {
      info: { input: Record<string, unknown> };
      schema: { properties: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(bazaar.info.input).toMatchObject({ type: 'http', method: 'GET' });
    const { input, output } = bazaar.schema.properties as Record<
      string,
      { properties: Record<string, Record<string, unknown>> }
    >;
    expect(input!.properties.queryParams).toMatchObject({ type: 'object', ...TEST_ROUTE.inputSchema });
    expect(output!.properties.example).toMatchObject(TEST_ROUTE.outputSchema);
    expect(calls.count).toBe(0);
  });

  it('runs the handler, settles exactly the fee and returns PAYMENT-RESPONSE; a replay of the same signature is 402', async () => {
    const before = await chain.balances();
    const client = payingClient(chain.payer);
    const res = await client.fetch(url());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ tx_hash: TX, status: 'confirmed' });
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(settlement).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: chain.payer.address,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const after = await chain.balances();
    expect(after.payer).toBe(before.payer - FEE);
    expect(after.payTo).toBe(before.payTo + FEE);
    expect(calls.count).toBe(1);
    expect(client.signatures).toHaveLength(1);
    expect(await paymentOf(client.signatures[0]!)).toMatchObject({
      status: 'settled',
      transaction: settlement.transaction,
      amountAtomic: '20000',
    });

    const replay = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': client.signatures[0]! } });
    expect(replay.status).toBe(402);
    expect(await replay.json()).toMatchObject({ code: 'payment_replayed' });
    expect(decodePaymentRequiredHeader(replay.headers.get('payment-required')!).error).toBe('payment_replayed');
    expect(replay.headers.get('payment-response')).toBeNull();
    expect(await chain.balances()).toEqual(after);
    expect(calls.count).toBe(1);
  });

  it.each([
    ['404', 404, 'not_found'],
    ['422', 422, 'validation_failed'],
    ['503', 503, 'service_unavailable'],
  ])('does not settle when the handler answers %s; the authorization is then spent', async (outcome, status, code) => {
    const before = await chain.balances();
    const callsBefore = calls.count;
    const client = payingClient(chain.payer);
    const res = await client.fetch(url(`&outcome=${outcome}`));
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ code, error: expect.any(String) });
    expect(res.headers.get('payment-response')).toBeNull();
    expect(calls.count).toBe(callsBefore + 1);
    expect(await chain.balances()).toEqual(before);
    expect(await paymentOf(client.signatures[0]!)).toMatchObject({ status: 'not_settled' });
    const again = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': client.signatures[0]! } });
    expect(again.status).toBe(402);
    expect(await again.json()).toMatchObject({ code: 'payment_replayed' });
    expect(await chain.balances()).toEqual(before);
    expect(calls.count).toBe(callsBefore + 1);
  });

  it('lets exactly one of several concurrent presentations of one signature through', async () => {
    const before = await chain.balances();
    const callsBefore = calls.count;
    const signature = await payingClient(chain.payer).sign(url());
    const responses = await Promise.all(
      [1, 2, 3].map(() => fetch(url(), { headers: { 'PAYMENT-SIGNATURE': signature } })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 402, 402]);
    for (const r of responses.filter((x) => x.status === 402))
      expect(await r.json()).toMatchObject({ code: 'payment_replayed' });
    expect(responses.filter((r) => r.headers.get('payment-response'))).toHaveLength(1);
    const after = await chain.balances();
    expect(after.payer).toBe(before.payer - FEE);
    expect(after.payTo).toBe(before.payTo + FEE);
    expect(calls.count).toBe(callsBefore + 1);
  });

  it('rejects a malformed payment with 402 payment_invalid before the handler', async () => {
    const callsBefore = calls.count;
    const garbage = await fetch(url(), { headers: { 'PAYMENT-SIGNATURE': 'bm90IGEgcGF5bWVudA==' } });
    expect(garbage.status).toBe(402);
    expect(await garbage.json()).toMatchObject({ code: 'payment_invalid' });
    expect(decodePaymentRequiredHeader(garbage.headers.get('payment-required')!).error).toBe(
      'invalid_payment_signature_header',
    );
    expect(calls.count).toBe(callsBefore);
  });

  it('withholds the result and charges nothing when settlement is refused (unfunded payer)', async () => {
    // On Base the facilitator's eth_call simulation refuses this at verify, before the handler. The Hardhat
    // harness answers reverted calls without an error (throwOnCallFailures: false), so here the refusal only
    // comes at settlement: the handler ran, but its result must not be delivered.
    const broke = payingClient(chain.node.accounts[7]!);
    const before = await chain.balances();
    const res = await broke.fetch(url());
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      error: expect.any(String),
      code: 'payment_invalid',
      request_id: expect.any(String),
    });
    // The HTTP transport spec: a failed settlement answers 402 with PAYMENT-RESPONSE {success: false} too.
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toEqual({
      success: false,
      errorReason: 'invalid_exact_evm_insufficient_balance',
      transaction: '',
      network: 'eip155:8453',
      payer: chain.node.accounts[7]!.address,
    });
    expect(decodePaymentRequiredHeader(res.headers.get('payment-required')!).error).toBe(
      'invalid_exact_evm_insufficient_balance',
    );
    expect(await paymentOf(broke.signatures[0]!)).toMatchObject({
      status: 'failed',
      reason: 'invalid_exact_evm_insufficient_balance',
    });
    expect(await chain.balances()).toEqual(before);
  });

  it('pays through a remote facilitator over HTTP (HTTPFacilitatorClient)', async () => {
    const before = await chain.balances();
    const res = await payingClient(chain.payer).fetch(`${app.url}/x402/test/remote?tx_hash=${TX}`);
    expect(res.status).toBe(200);
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toMatchObject({
      success: true,
      network: 'eip155:8453',
    });
    const after = await chain.balances();
    expect(after.payer).toBe(before.payer - FEE);
    expect(after.payTo).toBe(before.payTo + FEE);
  });

  it('answers 503 payments_not_configured without a facilitator or a payee', async () => {
    for (const path of ['/test/no-facilitator', '/test/no-payto']) {
      const res = await fetch(`${app.url}/x402${path}?tx_hash=${TX}`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        error: expect.any(String),
        code: 'payments_not_configured',
        request_id: expect.any(String),
      });
      expect(res.headers.get('payment-required')).toBeNull();
    }
  });

  it('never logs the facilitator key', () => {
    const key = chain.facilitatorSigner.privateKey.slice(2).toLowerCase();
    expect(logs.text().toLowerCase()).not.toContain(key);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { USDC, payingClient, startX402Chain, type X402Chain } from '../../support/x402-harness.js';
import { readAttachments } from '../helpers/pdf-attachments.js';
import { createX402Payments } from '../../api/x402/payment.middleware.js';
import { createChainReader } from '../../adapters/chains/index.js';
import { createEvmReader } from '../../adapters/chains/evm/evm-reader.js';
import { createSolanaReader } from '../../adapters/chains/solana/solana-reader.js';
import { EVM_NETWORKS, type EvmNetwork } from '../../domain/networks.js';

/**
 * A client pays real calls of /x402/v1/usdc/* with the official x402 client, through the self-hosted
 * facilitator, on a local Base (chain id 8453) where the inspected transactions also live.
 */
let tdb: TestDatabase;
let chain: X402Chain;
let app: Awaited<ReturnType<typeof startTestApp>>;
const logs = capturingLogger();

beforeAll(async () => {
  await Promise.all([createTestDatabase().then((d) => (tdb = d)), startX402Chain().then((c) => (chain = c))]);
  const urls = Object.fromEntries(EVM_NETWORKS.map((n) => [n, [chain.node.url]])) as Record<EvmNetwork, string[]>;
  const confirmations = Object.fromEntries(EVM_NETWORKS.map((n) => [n, 2])) as Record<EvmNetwork, number>;
  const reader = createChainReader({
    // Far above what the local node needs on a busy machine: a paid call must not fail by load.
    evm: createEvmReader({ rpcUrls: urls, requiredConfirmations: confirmations, timeoutMs: 30_000, retries: 0 }),
    solana: createSolanaReader({ endpoints: ['http://127.0.0.1:9'], timeoutMs: 500, retries: 0 }),
  });
  const payments = createX402Payments({
    db: tdb.db,
    logger: logs.logger,
    payTo: chain.payTo,
    facilitator: chain.facilitator,
    authorizationState: chain.authorizationState,
    paymentTimeoutSeconds: 120,
  });
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    chainReader: reader,
    payments,
    config: testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '10000' }),
  });
});
afterAll(async () => {
  await app?.close();
  await chain?.node.stop();
  await tdb?.drop();
});

describe('paid /x402/v1/usdc routes end to end', () => {
  it('asks for the exact fee, charges it once for a Verify, refuses a replay, and charges nothing for 404 or 422', async () => {
    // A real transfer to inspect, mined to finality.
    const [sender, receiver] = [chain.node.accounts[5]!, chain.node.accounts[6]!];
    await chain.node.mint(USDC, sender.address, 7_000_000n);
    const tx = await chain.node.transfer(USDC, sender, receiver.address, 7_000_000n);
    await chain.node.mine(2);
    const url = `${app.url}/x402/v1/usdc/verify?tx_hash=${tx}`;

    const unpaid = await fetch(url);
    expect(unpaid.status).toBe(402);
    const required = decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!);
    expect(required.x402Version).toBe(2);
    expect(required.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      asset: USDC,
      amount: '20000',
      payTo: chain.payTo,
    });
    // The resource is the route (x402 convention, without the query); each authorization is single-use anyway.
    expect(required.resource?.url).toBe(`${app.url}/x402/v1/usdc/verify`);

    const client = payingClient(chain.payer);
    const before = await chain.balances();
    const paid = await client.fetch(url);
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({
      network: 'base',
      tx_hash: tx.toLowerCase(),
      status: 'confirmed',
      transfers: [{ from: sender.address, to: receiver.address, amount_usdc: '7.000000', amount_atomic: '7000000' }],
    });
    expect(decodePaymentResponseHeader(paid.headers.get('payment-response')!)).toMatchObject({
      success: true,
      network: 'eip155:8453',
    });
    const after = await chain.balances();
    expect(before.payer - after.payer).toBe(20_000n);
    expect(after.payTo - before.payTo).toBe(20_000n);

    const replay = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': client.signatures.at(-1)! } });
    expect(replay.status).toBe(402);
    expect(await replay.json()).toMatchObject({ code: 'payment_replayed' });

    const unknown = await client.fetch(`${app.url}/x402/v1/usdc/verify?tx_hash=0x${'77'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('payment-response')).toBeNull();
    const reverted = await chain.node.transfer(USDC, chain.node.accounts[7]!, receiver.address, 5n);
    const failed = await client.fetch(`${app.url}/x402/v1/usdc/verify?tx_hash=${reverted}`);
    expect(failed.status).toBe(422);
    expect(await failed.json()).toMatchObject({ code: 'transaction_failed' });
    expect(await chain.balances()).toEqual(after);
  });

  it('charges Match and the evidence PDF their own fees', async () => {
    const [sender, receiver] = [chain.node.accounts[8]!, chain.node.accounts[9]!];
    await chain.node.mint(USDC, sender.address, 1_500_000n);
    const tx = await chain.node.transfer(USDC, sender, receiver.address, 1_500_000n);
    await chain.node.mine(2);
    const client = payingClient(chain.payer);

    let before = await chain.balances();
    const match = await client.fetch(
      `${app.url}/x402/v1/usdc/match?tx_hash=${tx}&recipient=${receiver.address.toLowerCase()}&amount=1.5`,
    );
    expect(match.status).toBe(200);
    expect(await match.json()).toMatchObject({
      matched: true,
      amount_usdc: '1.5',
      matching_transfers: [{ amount_atomic: '1500000' }],
    });
    let after = await chain.balances();
    expect(before.payer - after.payer).toBe(30_000n);

    before = after;
    const pdf = await client.fetch(`${app.url}/x402/v1/usdc/evidence.pdf?tx_hash=${tx}&network=base`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    const json = (await readAttachments(bytes)).get('evidence.json')!;
    expect(JSON.parse(json.toString())).toMatchObject({ tx_hash: tx.toLowerCase(), status: 'confirmed' });
    expect(pdf.headers.get('x-evidence-sha256')).toMatch(/^[0-9a-f]{64}$/);
    after = await chain.balances();
    expect(before.payer - after.payer).toBe(50_000n);
    expect(after.payTo - before.payTo).toBe(50_000n);
  });

  it('validates before asking for payment', async () => {
    const res = await fetch(`${app.url}/x402/v1/usdc/match?tx_hash=0x12&recipient=x&amount=0`);
    expect(res.status).toBe(422);
    expect(res.headers.get('payment-required')).toBeNull();
    expect(((await res.json()) as { issues: unknown[] }).issues).toHaveLength(3);
  });

  it('never logs payment signatures or addresses of the facilitator key', async () => {
    const text = logs.text();
    expect(text).not.toContain(chain.facilitatorSigner.privateKey);
    expect(text).not.toMatch(/payment-signature/i);
  });
});

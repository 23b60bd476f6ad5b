import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { EVM } from '../../domain/networks.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { addVerifiedWallet } from '../../services/proof/account.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { startReceiver, verifyReceived } from '../helpers/receiver.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { startEvmNode, type EvmAccount, type EvmNode } from '../../support/evm-node.js';
import { ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { testGateway, uniqueTaskQueue, type startTestWorker } from '../helpers/temporal.js';
import { startEvmWatcherWorker } from '../helpers/evm-watcher.js';

/**
 * End to end on a local EVM node (Hardhat, chain id 8453, a USDC-like token at Base's canonical USDC address):
 * a merchant issues an invoice, a payer sends exactly `amount_atomic`, blocks are mined to finality, and the
 * payment watcher workflow marks the request PAID with payment.confirmed and invoice.paid once each.
 */
const CONFIRMATIONS = 3;
const h = new ProofHarness();
const taskQueue = uniqueTaskQueue('watcher');
const watcherId = `watch:base:${taskQueue}`;
let node: EvmNode;
let payer: EvmAccount;
let receiver: Address;
let m: TestMerchant;
let walletId: string;
let gw: WorkflowGateway;
let worker: Awaited<ReturnType<typeof startTestWorker>> | undefined;
const rpcCalls: string[] = [];
const secretsKey = generateSecretsKey();
let receiver_: Awaited<ReturnType<typeof startReceiver>>;
const SCANS_PER_RUN = 5;
let firstRunId: string;

async function startWorker(): Promise<void> {
  worker = await startEvmWatcherWorker(
    taskQueue,
    { db: h.tdb.db, logger: h.logs.logger, secretBox: createSecretBox(secretsKey) },
    node,
    CONFIRMATIONS,
    (method) => rpcCalls.push(method),
  );
}

beforeAll(async () => {
  [node] = await Promise.all([startEvmNode({ chainId: 8453 }), h.start()]);
  payer = node.accounts[1]!;
  receiver = node.accounts[5]!.address;
  await node.placeToken(EVM.base.usdc);
  await node.mint(EVM.base.usdc, payer.address, 1_000_000_000_000n);
  m = await h.merchant({ plan: 'business', networks: [] });
  // The merchant's signed webhook destination: a receiver that follows the receiver rules (verify, then 2xx).
  receiver_ = await startReceiver(() => 200);
  await createEndpoint(h.tdb.db, {
    interface: 'proof',
    tenantId: m.id,
    url: `${receiver_.url}/hooks`,
    events: ['invoice.issued', 'payment.confirmed', 'invoice.paid'],
    secretSealed: createSecretBox(secretsKey).seal('whsec_watcher'),
  });
  walletId = (await addVerifiedWallet(h.tdb.db, { merchantId: m.id, network: 'base', address: receiver }, new Date()))
    .id;
  gw = await testGateway(taskQueue);
  await startWorker();
  // A few scans per run, so the tests run across continue-as-new as production does every 500 scans.
  firstRunId = (
    await gw.client.workflow.start('paymentWatcherWorkflow', {
      workflowId: watcherId,
      taskQueue,
      args: [{ network: 'base', pollIntervalMs: 150, maxBlocks: 20, scansPerRun: SCANS_PER_RUN }],
    })
  ).firstExecutionRunId;
});
afterAll(async () => {
  await gw?.client.workflow
    .getHandle(watcherId)
    .terminate('test finished')
    .catch(() => undefined);
  await worker?.stop();
  await gw?.close();
  await node?.stop();
  await receiver_?.close();
  await h.stop();
});

const waitFor = async <T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  ms = 120_000,
): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const statusOf = async (id: string) =>
  (await h.tdb.db('payment_requests').where({ id }).first('status')).status as string;
const scannedThrough = async () =>
  Number((await h.tdb.db('watcher_progress').where({ network: 'base' }).first())?.last_block ?? -1);

describe('the payment watcher on a local chain', () => {
  it('marks an invoice paid once the exact amount is final, with payment.confirmed and invoice.paid once each', async () => {
    const contact = (
      await h.ok<{ id: string }>(
        h.call(m.key, 'POST', '/v1/contacts', { legal_name: 'Chain Buyer', email: 'chain@buyer.example' }),
        201,
      )
    ).id;
    // Through an API instance with Temporal: the invoice.issued delivery starts right after the commit.
    const api = await h.startApp({}, { workflows: gw });
    const inv = await h.ok<{ id: string; request_id: string; amount_atomic: string }>(
      h.call(
        m.key,
        'POST',
        '/v1/invoices',
        {
          customer_id: contact,
          wallet_id: walletId,
          due_date: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
          items: [{ description: 'Chain work', quantity: '1', unit_usdc: '25' }],
        },
        undefined,
        api,
      ),
      201,
    );
    await api.close();
    await receiver_.waitForRequests(1);
    await waitFor(async () => (await scannedThrough()) >= 0, 'the watcher to start');

    const hash = await node.transfer(EVM.base.usdc, payer, receiver, BigInt(inv.amount_atomic));
    const txBlock = Number((await node.client.getTransactionReceipt({ hash })).blockNumber);
    // Not final yet: one block short of the required confirmations. A scan through txBlock - 1 can only have seen
    // the new head (the final height before it was txBlock - 2), and it did not take the payment's block.
    await node.mine(CONFIRMATIONS - 2);
    await waitFor(async () => (await scannedThrough()) >= txBlock - 1, 'the scan up to the block before the payment');
    expect(await scannedThrough()).toBe(txBlock - 1);
    expect(await statusOf(inv.request_id)).toBe('AWAITING');

    await node.mine(1); // now head - txBlock + 1 = CONFIRMATIONS
    await waitFor(async () => (await statusOf(inv.request_id)) === 'PAID', 'PAID');
    const request = await h.ok<{ status: string; tx_hash: string }>(
      h.call(m.key, 'GET', `/v1/requests/${inv.request_id}`),
    );
    expect(request).toMatchObject({ status: 'PAID', tx_hash: hash });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/invoices/${inv.id}`))).toMatchObject({ status: 'paid', tx_hash: hash });

    // More blocks and more scans add nothing.
    await node.mine(5);
    const through = Number(await node.blockNumber()) - CONFIRMATIONS + 1;
    await waitFor(async () => (await scannedThrough()) >= through, 'later scans');
    const events = await h.ok<{ data: Array<{ event: { type: string; data: Record<string, unknown> } }> }>(
      h.call(m.key, 'GET', '/v1/events?limit=100'),
    );
    const mine = events.data.map((e) => e.event).filter((e) => e.data['request_id'] === inv.request_id);
    expect(mine.map((e) => e.type)).toEqual([
      'payment_request.created',
      'invoice.issued',
      'payment.confirmed',
      'invoice.paid',
    ]);

    // The endpoint subscribed to these three (not payment_request.created): each arrives once, signed, with the
    // stored bytes.
    await receiver_.waitForRequests(3);
    const received = receiver_.requests.filter((r) => JSON.parse(r.body.toString()).data.request_id === inv.request_id);
    expect(received.map((r) => JSON.parse(r.body.toString()).type).sort()).toEqual([
      'invoice.issued',
      'invoice.paid',
      'payment.confirmed',
    ]);
    for (const r of received) {
      expect(verifyReceived(r, 'whsec_watcher').ok).toBe(true);
      expect(JSON.parse(r.body.toString()).id).toBe(r.headers['x-service-event-id']);
      const stored = await h.tdb
        .db('proof_events')
        .where({ id: r.headers['x-service-event-id'] as string })
        .first('body');
      expect(Buffer.compare(Buffer.from(stored.body), r.body)).toBe(0);
      expect(r.headers['x-service-key-version']).toBe('1');
    }
  });

  it('a wrong amount confirms nothing; a second payment is kept as evidence only', async () => {
    const r = await h.ok<{ id: string; amount_atomic: string }>(
      h.call(m.key, 'POST', '/v1/requests', {
        wallet_id: walletId,
        amount_usdc: '7',
        description: 'Wrong amount test',
      }),
      201,
    );
    const wrong = await node.transfer(EVM.base.usdc, payer, receiver, BigInt(r.amount_atomic) - 1n);
    await node.mine(CONFIRMATIONS);
    await waitFor(
      async () => (await h.tdb.db('payment_evidence').where({ tx_hash: wrong }).first()) ?? null,
      'the wrong amount to be seen',
    );
    expect(await statusOf(r.id)).toBe('AWAITING');
    expect((await h.tdb.db('payment_evidence').where({ tx_hash: wrong }).first()).decision).toBe('unmatched');

    const right = await node.transfer(EVM.base.usdc, payer, receiver, BigInt(r.amount_atomic));
    const again = await node.transfer(EVM.base.usdc, payer, receiver, BigInt(r.amount_atomic));
    await node.mine(CONFIRMATIONS);
    await waitFor(
      async () => (await h.tdb.db('payment_evidence').where({ tx_hash: again }).first()) ?? null,
      'the second payment to be seen',
    );
    expect(await h.tdb.db('payment_requests').where({ id: r.id }).first('status', 'tx_hash')).toEqual({
      status: 'PAID',
      tx_hash: right,
    });
    expect((await h.tdb.db('payment_evidence').where({ tx_hash: again }).first()).decision).toBe('unmatched');
  });

  it('a worker that was down catches up: nothing missed, nothing doubled; one eth_getLogs per range', async () => {
    const r = await h.ok<{ id: string; amount_atomic: string }>(
      h.call(m.key, 'POST', '/v1/requests', { wallet_id: walletId, amount_usdc: '3', description: 'Downtime test' }),
      201,
    );
    await worker!.stop();
    const hash = await node.transfer(EVM.base.usdc, payer, receiver, BigInt(r.amount_atomic));
    await node.mine(30);
    expect(await statusOf(r.id)).toBe('AWAITING');
    rpcCalls.length = 0;
    await startWorker();
    await waitFor(async () => (await statusOf(r.id)) === 'PAID', 'PAID after the restart');
    expect(await h.tdb.db('payment_evidence').where({ tx_hash: hash })).toHaveLength(1);
    const through = Number(await node.blockNumber()) - CONFIRMATIONS + 1;
    await waitFor(async () => (await scannedThrough()) >= through, 'caught up');
    const getLogs = rpcCalls.filter((c) => c === 'eth_getLogs').length;
    const blocksCaughtUp = 30;
    expect(getLogs).toBeGreaterThanOrEqual(Math.ceil(blocksCaughtUp / 20));
    expect(rpcCalls.filter((c) => c === 'eth_getBlockByNumber').length).toBeLessThanOrEqual(getLogs + 2);
  });

  it('a transfer removed by a reorganisation before finality never marks anything paid', async () => {
    const r = await h.ok<{ id: string; amount_atomic: string }>(
      h.call(m.key, 'POST', '/v1/requests', { wallet_id: walletId, amount_usdc: '4', description: 'Reorg test' }),
      201,
    );
    const snapshot = await node.client.snapshot();
    const orphan = await node.transfer(EVM.base.usdc, payer, receiver, BigInt(r.amount_atomic));
    const orphanBlock = Number((await node.client.getTransactionReceipt({ hash: orphan })).blockNumber);
    await node.mine(CONFIRMATIONS - 2); // seen by the node, not final
    // The watcher has looked at this chain (its final height is the block before the payment's) before it changes.
    await waitFor(async () => (await scannedThrough()) >= orphanBlock - 1, 'a scan of the chain holding the payment');
    await node.client.revert({ id: snapshot }); // the chain drops the payment's block
    await node.mine(CONFIRMATIONS + 5);
    const through = Number(await node.blockNumber()) - CONFIRMATIONS + 1;
    await waitFor(async () => (await scannedThrough()) >= through, 'scans past the reorganised height');
    expect(await statusOf(r.id)).toBe('AWAITING');
    expect(await h.tdb.db('payment_evidence').where({ tx_hash: orphan })).toHaveLength(0);
  });

  it('continues as new every scansPerRun scans, and the next run goes on from the recorded progress', async () => {
    await waitFor(
      async () => (await gw.client.workflow.getHandle(watcherId).describe()).runId !== firstRunId,
      'a second run',
    );
    expect((await gw.client.workflow.getHandle(watcherId, firstRunId).describe()).status.name).toBe('CONTINUED_AS_NEW');
    const r = await h.ok<{ id: string; amount_atomic: string }>(
      h.call(m.key, 'POST', '/v1/requests', {
        wallet_id: walletId,
        amount_usdc: '5',
        description: 'Continue-as-new test',
      }),
      201,
    );
    const hash = await node.transfer(EVM.base.usdc, payer, receiver, BigInt(r.amount_atomic));
    await node.mine(CONFIRMATIONS);
    await waitFor(async () => (await statusOf(r.id)) === 'PAID', 'PAID in a later run');
    expect(await h.tdb.db('payment_evidence').where({ tx_hash: hash })).toHaveLength(1);
    expect((await gw.client.workflow.getHandle(watcherId).describe()).status.name).toBe('RUNNING');
  });
});

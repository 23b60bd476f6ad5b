import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Address, Hash } from 'viem';
import { Connection } from '@temporalio/client';
import { ensureSearchAttributes } from '../../adapters/infra/temporal-dev-server.js';
import { EVM } from '../../domain/networks.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { addVerifiedWallet } from '../../services/proof/account.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { startEvmNode, type EvmNode } from '../../support/evm-node.js';
import { ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { startReceiver } from '../helpers/receiver.js';
import { spawnWorkerProcess, stopLiveWorkers, type WorkerProcess } from '../helpers/worker-process.js';

/**
 * The real worker entry point (workers/main.ts, WATCHER_NETWORKS=base) against a local Hardhat node with chain id
 * 8453 and the USDC-like token at Base's canonical USDC address. Six requests of four merchants are paid in one
 * range of final blocks. The test holds one merchant's row lock (as any event writer of that merchant would),
 * so the scan applies the transfers before it and then waits inside applyTransfer; the first worker process is
 * SIGKILLed right there: some transfers applied, the range not yet recorded in watcher_progress. A second
 * worker process finishes the range. Every request is PAID once, with one evidence row per transfer and one
 * payment.confirmed (and invoice.paid) each.
 *
 * `watch:<network>` is a fixed workflow id, so the worker processes run in a Temporal namespace of this run
 * (registered here, deleted at the end): no other run's watcher on the shared server can be reused or disturbed.
 */
const CONFIRMATIONS = 8;
const NETWORK = 'base';
const USDC = EVM.base.usdc;
const h = new ProofHarness();
const secretsKey = generateSecretsKey();
const taskQueue = `test-watcher-crash-${randomBytes(4).toString('hex')}`;
const namespace = `test-watcher-crash-${randomBytes(4).toString('hex')}`;
const workers: WorkerProcess[] = [];
let node: EvmNode;
let temporal: Connection | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

beforeAll(async () => {
  temporal = await Connection.connect({ address: inject('temporalAddress') });
  // protobufjs takes a plain number for this int64 field; the generated type names only its Long class.
  await temporal.workflowService.registerNamespace({
    namespace,
    workflowExecutionRetentionPeriod: { seconds: 86_400 as never },
  });
  // A worker refuses a namespace without the platform's search attributes (docs/operations.md, "Search attributes").
  await ensureSearchAttributes(inject('temporalAddress'), namespace);
  [node] = await Promise.all([startEvmNode({ chainId: EVM.base.chainId }), h.start()]);
  await node.placeToken(USDC);
  await node.mint(USDC, node.accounts[1]!.address, 1_000_000_000_000n);
  await node.mint(USDC, node.accounts[2]!.address, 1_000_000_000_000n);
  // Past the confirmations, so the watcher's first final height is a real block.
  await node.mine(CONFIRMATIONS);
  receiver = await startReceiver(() => 200);
});
afterAll(async () => {
  await stopLiveWorkers(workers);
  // The namespace holds this run's watcher, schedules and deliveries; deleting it removes them all.
  await temporal?.operatorService.deleteNamespace({ namespace }).catch(() => undefined);
  await temporal?.close();
  await receiver?.close();
  await node?.stop();
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
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const progress = async () =>
  Number((await h.tdb.db('watcher_progress').where({ network: NETWORK }).first('last_block'))?.last_block ?? -1);
const statuses = async (ids: string[]) => {
  const rows = await h.tdb.db('payment_requests').whereIn('id', ids).select('id', 'status');
  return Object.fromEntries(ids.map((id) => [id, rows.find((r) => r.id === id)?.status as string]));
};
/** Backends of worker processes (workers/main.ts names its pool `paycore-worker`) on this test's database. */
const workerBackends = async (filter: 'all' | 'waiting on a lock') => {
  const q = h.tdb
    .db('pg_stat_activity')
    .whereRaw('datname = current_database()')
    .where({ application_name: 'paycore-worker' });
  if (filter === 'waiting on a lock') q.where({ wait_event_type: 'Lock' });
  return Number((await q.count<Array<{ count: string }>>('* as count'))[0]!.count);
};

interface Paid {
  merchant: TestMerchant;
  address: Address;
  requestId: string;
  invoiceId: string | null;
  amount: bigint;
}

async function merchantWithWallet(): Promise<{ merchant: TestMerchant; address: Address; walletId: string }> {
  const merchant = await h.merchant({ plan: 'business', networks: [] });
  const address = `0x${randomBytes(20).toString('hex')}` as Address;
  const walletId = (
    await addVerifiedWallet(h.tdb.db, { merchantId: merchant.id, network: NETWORK, address }, new Date())
  ).id;
  // An enabled endpoint: the merchant's commits create events (and a delivery each) from now on.
  await createEndpoint(h.tdb.db, {
    interface: 'proof',
    tenantId: merchant.id,
    url: receiver!.url,
    events: ['payment.confirmed', 'invoice.paid'],
    secretSealed: createSecretBox(secretsKey).seal('whsec_watcher_crash'),
  });
  return { merchant, address, walletId };
}

async function directRequest(
  m: { merchant: TestMerchant; address: Address; walletId: string },
  usdc: string,
): Promise<Paid> {
  const r = await h.ok<{ id: string; amount_atomic: string }>(
    h.call(m.merchant.key, 'POST', '/v1/requests', {
      wallet_id: m.walletId,
      amount_usdc: usdc,
      description: `Crash test ${usdc}`,
    }),
    201,
  );
  return {
    merchant: m.merchant,
    address: m.address,
    requestId: r.id,
    invoiceId: null,
    amount: BigInt(r.amount_atomic),
  };
}

async function invoiceRequest(
  m: { merchant: TestMerchant; address: Address; walletId: string },
  usdc: string,
): Promise<Paid> {
  const contact = (
    await h.ok<{ id: string }>(
      h.call(m.merchant.key, 'POST', '/v1/contacts', { legal_name: 'Crash Buyer', email: 'crash@buyer.example' }),
      201,
    )
  ).id;
  const inv = await h.ok<{ id: string; request_id: string; amount_atomic: string }>(
    h.call(m.merchant.key, 'POST', '/v1/invoices', {
      customer_id: contact,
      wallet_id: m.walletId,
      due_date: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
      items: [{ description: 'Work', quantity: '1', unit_usdc: usdc }],
    }),
    201,
  );
  return {
    merchant: m.merchant,
    address: m.address,
    requestId: inv.request_id,
    invoiceId: inv.id,
    amount: BigInt(inv.amount_atomic),
  };
}

describe('the payment watcher: a worker killed mid-scan', () => {
  it('nothing missed, nothing doubled: a second worker process applies the rest of the range', async () => {
    const [m1, m2, m3, m4] = [
      await merchantWithWallet(),
      await merchantWithWallet(),
      await merchantWithWallet(),
      await merchantWithWallet(),
    ];
    const r1 = await invoiceRequest(m1, '25');
    const r2 = await directRequest(m2, '10');
    const r3 = await directRequest(m3, '11'); // m3's row is locked by the test: the scan stops here
    const r4 = await invoiceRequest(m4, '40');
    const r5 = await directRequest(m1, '12');
    const r6 = await directRequest(m2, '13');
    const all = [r1, r2, r3, r4, r5, r6];
    const ids = all.map((r) => r.requestId);

    const env = {
      DATABASE_URL: h.tdb.url,
      TEMPORAL_TASK_QUEUE: taskQueue,
      TEMPORAL_NAMESPACE: namespace,
      SECRETS_KEY: secretsKey,
      STORAGE_DIR: h.storageDir,
      WATCHER_NETWORKS: NETWORK,
      WATCHER_POLL_SECONDS: '1',
      RPC_URL_BASE: node.url,
      CONFIRMATIONS_BASE: String(CONFIRMATIONS),
    };
    workers.push(await spawnWorkerProcess(env));
    await waitFor(async () => (await progress()) >= 0, 'the watcher to record its starting height');

    // The test holds m3's row lock, as a creation or any event writer of m3 would while it commits.
    const lock = await h.tdb.db.transaction();
    try {
      await lock('merchants').where({ id: m3.merchant.id }).forUpdate().first('id');

      // Four blocks (fewer than the confirmations, so none is final yet): two single transfers, one transaction
      // with three Transfer logs (m3, m4's invoice, m1's second request), and one more single transfer.
      const [payer, batchPayer] = [node.accounts[1]!, node.accounts[2]!];
      const tx1 = await node.transfer(USDC, payer, r1.address, r1.amount);
      const tx2 = await node.transfer(USDC, payer, r2.address, r2.amount);
      const tx3 = await node.batchTransfer(
        USDC,
        batchPayer,
        [r3.address, r4.address, r5.address],
        [r3.amount, r4.amount, r5.amount],
      );
      const tx4 = await node.transfer(USDC, payer, r6.address, r6.amount);
      const blockOf = async (hash: Hash) => Number((await node.client.getTransactionReceipt({ hash })).blockNumber);
      const firstBlock = await blockOf(tx1);
      const lastBlock = await blockOf(tx4);
      expect(lastBlock - firstBlock).toBe(3);
      expect(await progress()).toBeLessThan(firstBlock);
      await node.mine(CONFIRMATIONS); // one call: the four blocks become final together, in one scan range
      const finalHeight = Number(await node.blockNumber()) - CONFIRMATIONS + 1;
      expect(finalHeight).toBeGreaterThanOrEqual(lastBlock);

      // The scan applied tx1 and tx2 and now waits for m3's lock inside applyTransfer(tx3, log 0).
      await waitFor(
        async () => (await workerBackends('waiting on a lock')) === 1,
        'the scan to wait on the merchant lock',
      );
      expect(await statuses(ids)).toEqual({
        [r1.requestId]: 'PAID',
        [r2.requestId]: 'PAID',
        [r3.requestId]: 'AWAITING',
        [r4.requestId]: 'AWAITING',
        [r5.requestId]: 'AWAITING',
        [r6.requestId]: 'AWAITING',
      });
      const progressAtKill = await progress();
      expect(progressAtKill).toBeLessThan(firstBlock);

      expect(await workers[0]!.kill('SIGKILL')).toBeNull();
      const killedAt = (await h.tdb.db.raw('select now() as now')).rows[0].now as Date;
      await lock.rollback();
      // The dead worker's backends go away (the one that waited on the lock rolls its transaction back).
      await waitFor(async () => (await workerBackends('all')) === 0, "the killed worker's database sessions to end");
      expect(await h.tdb.db('payment_evidence').select('tx_hash').orderBy('id')).toEqual([
        { tx_hash: tx1 },
        { tx_hash: tx2 },
      ]);
      expect(await progress()).toBe(progressAtKill);

      // A second worker process. Temporal learns that the first one's scan is lost when its heartbeats stop (the
      // scan's 10 s heartbeat timeout), then retries it here.
      workers.push(await spawnWorkerProcess(env));
      await waitFor(
        async () => Object.values(await statuses(ids)).every((s) => s === 'PAID') && (await progress()) >= finalHeight,
        'every request PAID and the range recorded',
        240_000,
      );

      // Every request PAID once, by its own transfer.
      const paid = await h.tdb.db('payment_requests').whereIn('id', ids).select('id', 'status', 'tx_hash');
      const txOf: Record<string, Hash> = {
        [r1.requestId]: tx1,
        [r2.requestId]: tx2,
        [r3.requestId]: tx3,
        [r4.requestId]: tx3,
        [r5.requestId]: tx3,
        [r6.requestId]: tx4,
      };
      expect(Object.fromEntries(paid.map((p) => [p.id, [p.status, p.tx_hash]]))).toEqual(
        Object.fromEntries(ids.map((id) => [id, ['PAID', txOf[id]]])),
      );
      expect(
        await h.tdb.db('invoices').whereIn('id', [r1.invoiceId!, r4.invoiceId!]).orderBy('id').select('status'),
      ).toEqual([{ status: 'paid' }, { status: 'paid' }]);

      // One evidence row per transfer (six Transfer logs), each decided 'paid' for its request; the four applied by
      // the second process were written after the kill.
      const evidence = await h.tdb
        .db('payment_evidence')
        .select('tx_hash', 'log_index', 'request_id', 'decision', 'created_at');
      expect(evidence).toHaveLength(6);
      expect(new Set(evidence.map((e) => `${e.tx_hash}:${e.log_index}`)).size).toBe(6);
      for (const r of all) {
        const rows = evidence.filter((e) => e.request_id === r.requestId);
        expect(rows.map((e) => [e.tx_hash, e.decision])).toEqual([[txOf[r.requestId], 'paid']]);
      }
      const afterKill = evidence
        .filter((e) => (e.created_at as Date) > killedAt)
        .map((e) => e.request_id as string)
        .sort();
      expect(afterKill).toEqual([r3.requestId, r4.requestId, r5.requestId, r6.requestId].sort());
      expect(await progress()).toBeGreaterThan(progressAtKill);

      // Exactly one payment.confirmed per request and one invoice.paid per invoice; one delivery per event.
      const events = (
        await h.tdb
          .db('proof_events')
          .whereIn(
            'merchant_id',
            [m1, m2, m3, m4].map((m) => m.merchant.id),
          )
          .select('id', 'type', 'body')
      ).map((e) => ({
        id: e.id as string,
        type: e.type as string,
        data: JSON.parse(Buffer.from(e.body).toString()).data as Record<string, unknown>,
      }));
      for (const r of all) {
        const mine = events.filter(
          (e) =>
            e.data['request_id'] === r.requestId && e.type !== 'payment_request.created' && e.type !== 'invoice.issued',
        );
        expect(mine.map((e) => e.type).sort()).toEqual(
          r.invoiceId ? ['invoice.paid', 'payment.confirmed'] : ['payment.confirmed'],
        );
        if (r.invoiceId) expect(mine.find((e) => e.type === 'invoice.paid')!.data['invoice_id']).toBe(r.invoiceId);
      }
      const settled = events.filter((e) => e.type === 'payment.confirmed' || e.type === 'invoice.paid');
      expect(settled).toHaveLength(8);
      const deliveries = await h.tdb
        .db('webhook_deliveries')
        .whereIn(
          'event_id',
          settled.map((e) => e.id),
        )
        .select('event_id');
      expect(deliveries.map((d) => d.event_id).sort()).toEqual(settled.map((e) => e.id).sort());

      // The second worker's scan started the deliveries of the events it recorded; none arrives twice.
      const late = settled
        .filter((e) => [r3, r4, r5, r6].some((r) => r.requestId === e.data['request_id']))
        .map((e) => e.id);
      await waitFor(
        async () => late.every((id) => receiver!.requests.some((q) => q.headers['x-service-event-id'] === id)),
        'the deliveries of the events of the second scan',
      );
      const received = receiver!.requests.map((q) => q.headers['x-service-event-id'] as string);
      expect(new Set(received).size).toBe(received.length);
    } finally {
      if (!lock.isCompleted()) await lock.rollback();
    }
  }, 360_000);
});

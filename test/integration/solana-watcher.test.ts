import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolanaTransferScanner } from '../../adapters/chains/solana/solana-transfer-scanner.js';
import { usdcTokenAccountOf } from '../../adapters/chains/solana/usdc-token-account.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { addVerifiedWallet } from '../../services/proof/account.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { ADDRESSES, ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { startReceiver } from '../helpers/receiver.js';
import {
  SOLANA_FIXTURES,
  loadSolanaFixture,
  randomSignature,
  startSolanaRpc,
  syntheticUsdcTransfer,
  type RecordedTransaction,
  type SignatureEntry,
  type SolanaRpcServer,
} from '../helpers/solana-rpc.js';
import { startTestWorker, testGateway, uniqueTaskQueue } from '../helpers/temporal.js';

/**
 * The Solana payment watcher end to end: a real worker runs `paymentWatcherWorkflow` for solana against the local
 * replay server, which serves the recorded mainnet transaction `mainnet-usdc-transfer-creates-ata` (1 USDC to the
 * associated token account of 9fE6…, here the merchant's verified wallet) and synthetic copies of it. The test moves
 * "the chain" on by adding signatures to the ledger and raising the finalized slot; `watcher_progress` reaching a
 * finalized slot means a complete scan of every watched account happened after that change.
 */
const ATA = SOLANA_FIXTURES.usdcTransferCreatesAta;
const OWNER = '9fE6zKgca6K2EEa3yjbcq7zGMusUNqSQeWQNL2YDZ2Yi';
const TOKEN_ACCOUNT = usdcTokenAccountOf(OWNER);
const START_SLOT = 339_540_900; // before the recorded transaction's slot 339540943

const h = new ProofHarness();
const taskQueue = uniqueTaskQueue('sol-watcher');
const watcherId = `watch:solana:${taskQueue}`;
const secretsKey = generateSecretsKey();
const recorded: Record<string, RecordedTransaction> = {};
let sol: SolanaRpcServer;
let m: TestMerchant;
let walletId: string;
let gw: WorkflowGateway;
let worker: Awaited<ReturnType<typeof startTestWorker>> | undefined;
let hooks: Awaited<ReturnType<typeof startReceiver>>;

async function startWorker(): Promise<void> {
  worker = await startTestWorker(taskQueue, {
    db: h.tdb.db,
    logger: h.logs.logger,
    secretBox: createSecretBox(secretsKey),
    resolver: createSystemResolver(),
    allowLoopbackForTests: true,
    // Pages of two signatures, so paging is exercised by every multi-signature step.
    watcher: {
      solana: createSolanaTransferScanner({
        endpoints: [sol.url],
        timeoutMs: 30_000,
        retries: 1,
        retryDelayMs: 0,
        pageSize: 2,
      }),
    },
  });
}
// A few scans per run: the tests run across continue-as-new, as production does every 500 scans.
const startWatcher = () =>
  gw.client.workflow.start('paymentWatcherWorkflow', {
    workflowId: watcherId,
    taskQueue,
    args: [{ network: 'solana', pollIntervalMs: 150, scansPerRun: 5 }],
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
const progress = async () =>
  Number((await h.tdb.db('watcher_progress').where({ network: 'solana' }).first())?.last_block ?? -1);
/** The chain finalizes up to `slot`; returns once the watcher has completed a scan of every account up to it. */
const finalizeThrough = async (slot: number) => {
  sol.ledger.finalizedSlot = slot;
  await waitFor(async () => (await progress()) >= slot, `a complete scan through slot ${slot}`);
};
const land = (account: string, ...entries: SignatureEntry[]) =>
  void (sol.ledger.signatures[account] ??= []).push(...entries);
const statusOf = async (id: string) =>
  (await h.tdb.db('payment_requests').where({ id }).first('status')).status as string;
const evidenceOf = (signature: string) =>
  h.tdb.db('payment_evidence').where({ network: 'solana', tx_hash: signature }).orderBy('log_index');
const txReads = (signature: string) =>
  sol.calls.filter((c) => c.method === 'getTransaction' && c.params[0] === signature).length;
const request = async (amountUsdc: string, wallet = walletId) =>
  h.ok<{ id: string; amount_atomic: string }>(
    h.call(m.key, 'POST', '/v1/requests', {
      wallet_id: wallet,
      amount_usdc: amountUsdc,
      description: `Solana ${amountUsdc}`,
    }),
    201,
  );
/** A synthetic successful USDC transfer of `amount` to OWNER's token account, recorded at finalized commitment. */
const transfer = (amount: bigint | string, slot: number, extra: { owner?: string; err?: unknown } = {}) => {
  const signature = randomSignature();
  recorded[signature] = {
    finalized: syntheticUsdcTransfer({
      signature,
      amount: BigInt(amount),
      slot,
      blockTime: Math.floor(Date.now() / 1000),
      ...extra,
    }),
  };
  return { signature, slot, blockTime: Math.floor(Date.now() / 1000), status: 'finalized' as const };
};

beforeAll(async () => {
  [sol] = await Promise.all([startSolanaRpc(recorded, { finalizedSlot: START_SLOT }), h.start()]);
  m = await h.merchant({ plan: 'business', networks: [] });
  hooks = await startReceiver(() => 200);
  await createEndpoint(h.tdb.db, {
    interface: 'proof',
    tenantId: m.id,
    url: `${hooks.url}/hooks`,
    events: ['payment.confirmed'],
    secretSealed: createSecretBox(secretsKey).seal('whsec_solana'),
  });
  walletId = (await addVerifiedWallet(h.tdb.db, { merchantId: m.id, network: 'solana', address: OWNER }, new Date()))
    .id;
  gw = await testGateway(taskQueue);
  await startWorker();
  await startWatcher();
  await waitFor(async () => (await progress()) >= START_SLOT, 'the watcher to start');
});
afterAll(async () => {
  await gw?.client.workflow
    .getHandle(watcherId)
    .terminate('test finished')
    .catch(() => undefined);
  await worker?.stop();
  await gw?.close();
  await sol?.close();
  await hooks?.close();
  await h.stop();
});

describe('the Solana payment watcher', () => {
  it("the recorded exact-amount transfer into the wallet's token account marks the request PAID with payment.confirmed once", async () => {
    const r = await request('0.999999');
    expect(r.amount_atomic).toBe('1000000'); // the recorded transfer's amount (quote + delta 1)
    // The recorded payment is from 2025-05-12: the request must have existed before it to be payable by it.
    await h.tdb
      .db('payment_requests')
      .where({ id: r.id })
      .update({ created_at: new Date(1_747_059_490_000 - 3_600_000) });
    recorded[ATA.signature] = { finalized: loadSolanaFixture(ATA.name) };
    land(TOKEN_ACCOUNT, { signature: ATA.signature, slot: 339540943, blockTime: 1747059490, status: 'finalized' });
    await finalizeThrough(339_541_000);
    await waitFor(async () => (await statusOf(r.id)) === 'PAID', 'PAID');

    expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${r.id}`))).toMatchObject({
      status: 'PAID',
      network: 'solana',
      tx_hash: ATA.signature,
      amount_atomic: '1000000',
    });
    const rows = await evidenceOf(ATA.signature);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      log_index: 0,
      from_address: 'FQT9SSwEZ6UUQxsmTzgt5JzjrS4M5zm13M1QiYF8TEo6',
      to_address: OWNER,
      amount_atomic: '1000000',
      block_number: '339540943',
      decision: 'paid',
      request_id: r.id,
    });
    const confirmedEvents = async () => {
      const page = await h.ok<{ data: Array<{ event: { type: string; data: Record<string, unknown> } }> }>(
        h.call(m.key, 'GET', '/v1/events?limit=100'),
      );
      return page.data
        .map((e) => e.event)
        .filter((e) => e.type === 'payment.confirmed' && e.data['request_id'] === r.id);
    };
    const events = await confirmedEvents();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      request_id: r.id,
      network: 'solana',
      amount_atomic: '1000000',
      quoted_amount_atomic: '999999',
      status: 'PAID',
      tx_hash: ATA.signature,
    });
    await hooks.waitForRequests(1);

    // Repeated scans read nothing again and emit nothing new.
    await finalizeThrough(339_541_010);
    await finalizeThrough(339_541_020);
    expect(await confirmedEvents()).toHaveLength(1);
    expect(await h.tdb.db('proof_events').where({ merchant_id: m.id, type: 'payment.confirmed' })).toHaveLength(1);
    expect(await evidenceOf(ATA.signature)).toHaveLength(1);
    expect(txReads(ATA.signature)).toBe(1);
    expect(hooks.requests.filter((q) => JSON.parse(q.body.toString()).data.request_id === r.id)).toHaveLength(1);
  });

  it('a failed transaction confirms nothing, whether the listing or only the transaction says so', async () => {
    const r = await request('2');
    const listedFailed = transfer(r.amount_atomic, 339_541_030, { err: { InstructionError: [2, { Custom: 1 }] } });
    const failedInside = transfer(r.amount_atomic, 339_541_031, { err: { InstructionError: [2, { Custom: 1 }] } });
    land(TOKEN_ACCOUNT, { ...listedFailed, err: { InstructionError: [2, { Custom: 1 }] } }, failedInside); // the second is listed without its error
    await finalizeThrough(339_541_040);
    expect(await statusOf(r.id)).toBe('AWAITING');
    expect(await evidenceOf(listedFailed.signature)).toHaveLength(0);
    expect(await evidenceOf(failedInside.signature)).toHaveLength(0);
    expect(txReads(listedFailed.signature)).toBe(0); // skipped from the listing
    expect(txReads(failedInside.signature)).toBe(1); // read once, decoded as failed, passed
    expect(
      await h.tdb.db('watcher_accounts').where({ network: 'solana', account: TOKEN_ACCOUNT }).first(),
    ).toMatchObject({ owner: OWNER, last_signature: failedInside.signature, last_slot: '339541031' });
  });

  it('a transaction only confirmed is not paid until it is finalized', async () => {
    const r = await request('3');
    const pending = transfer(r.amount_atomic, 339_541_060);
    const tx = recorded[pending.signature]!.finalized;
    recorded[pending.signature] = { confirmed: tx };
    const entry: SignatureEntry = { ...pending, status: 'confirmed' };
    land(TOKEN_ACCOUNT, entry);
    await finalizeThrough(339_541_050);
    await finalizeThrough(339_541_055);
    expect(await statusOf(r.id)).toBe('AWAITING');
    expect(txReads(pending.signature)).toBe(0);

    recorded[pending.signature] = { finalized: tx };
    entry.status = 'finalized';
    await finalizeThrough(339_541_100);
    await waitFor(async () => (await statusOf(r.id)) === 'PAID', 'PAID once finalized');
    expect(await h.tdb.db('payment_requests').where({ id: r.id }).first('tx_hash')).toEqual({
      tx_hash: pending.signature,
    });
  });

  it('misses nothing across several pages of signatures', async () => {
    const [r4, r5] = [await request('4'), await request('5')];
    const batch = [
      transfer(1n, 339_541_110),
      transfer(r4.amount_atomic, 339_541_110),
      transfer(BigInt(r4.amount_atomic) - 1n, 339_541_111),
      transfer(r5.amount_atomic, 339_541_112),
      transfer(7_000_000n, 339_541_112),
    ];
    const callsBefore = sol.calls.length;
    land(TOKEN_ACCOUNT, ...batch);
    await finalizeThrough(339_541_150);
    await waitFor(async () => (await statusOf(r5.id)) === 'PAID', 'the second request PAID');
    expect(await statusOf(r4.id)).toBe('PAID');
    const decisions = await Promise.all(
      batch.map(async (b) => (await evidenceOf(b.signature)).map((e: { decision: string }) => e.decision)),
    );
    expect(decisions).toEqual([['unmatched'], ['paid'], ['unmatched'], ['paid'], ['unmatched']]);
    const pages = sol.calls
      .slice(callsBefore)
      .filter(
        (c) => c.method === 'getSignaturesForAddress' && (c.params[1] as { before?: string }).before !== undefined,
      );
    expect(pages.length).toBeGreaterThanOrEqual(2);
    for (const b of batch) expect(txReads(b.signature)).toBe(1);
  });

  it('progress survives a worker restart and a new workflow run: nothing read twice, nothing missed', async () => {
    const r = await request('6');
    const lastBefore = (await h.tdb.db('watcher_accounts').where({ account: TOKEN_ACCOUNT }).first())
      .last_signature as string;
    await gw.client.workflow.getHandle(watcherId).terminate('restart test');
    await worker!.stop();
    const paid = transfer(r.amount_atomic, 339_541_160);
    land(TOKEN_ACCOUNT, paid);
    sol.ledger.finalizedSlot = 339_541_200;
    sol.calls.length = 0;
    await startWorker();
    await startWatcher();
    await waitFor(async () => (await statusOf(r.id)) === 'PAID', 'PAID after the restart');
    await finalizeThrough(339_541_210);
    expect(sol.calls.filter((c) => c.method === 'getTransaction').map((c) => c.params[0])).toEqual([paid.signature]);
    const firstListing = sol.calls.find((c) => c.method === 'getSignaturesForAddress')!;
    expect(firstListing.params).toEqual([TOKEN_ACCOUNT, { commitment: 'finalized', limit: 2, until: lastBefore }]);
    expect(await evidenceOf(paid.signature)).toHaveLength(1);
  });

  it("a wallet verified later is read from the network's progress on, not from its older history", async () => {
    const second = (
      await addVerifiedWallet(h.tdb.db, { merchantId: m.id, network: 'solana', address: ADDRESSES.solana }, new Date())
    ).id;
    const account = usdcTokenAccountOf(ADDRESSES.solana);
    const r = await request('8', second);
    const from = await progress();
    const old = transfer(r.amount_atomic, from - 1_000, { owner: ADDRESSES.solana });
    const fresh = transfer(r.amount_atomic, from + 5, { owner: ADDRESSES.solana });
    land(account, old, fresh);
    await finalizeThrough(from + 50);
    await waitFor(async () => (await statusOf(r.id)) === 'PAID', "the new wallet's request PAID");
    expect(await h.tdb.db('payment_requests').where({ id: r.id }).first('tx_hash')).toEqual({
      tx_hash: fresh.signature,
    });
    expect(txReads(old.signature)).toBe(0);
    expect(await evidenceOf(old.signature)).toHaveLength(0);
    expect(await h.tdb.db('watcher_accounts').where({ account }).first()).toMatchObject({
      owner: ADDRESSES.solana,
      last_signature: fresh.signature,
    });
  });
});

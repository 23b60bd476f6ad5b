/**
 * Payment watcher benchmark, in one run on a local Hardhat node (chain id 8453, the USDC-like token at Base's
 * canonical USDC address) with the real watcher workflow on an in-process worker (startBenchWorker) and real
 * PostgreSQL and Temporal:
 *   1. detection latency: payers send the exact amounts while blocks are mined at a steady interval; from the block
 *      that makes each transfer final (its required confirmation) to the request seen PAID, in blocks and in ms;
 *   2. JSON-RPC calls per scan with 10 open requests and with 1,000 (counted by method by a proxy in front of the
 *      node, the same blocks scanned and the same payments in each case), and their ratio, which should be 1.0.
 *
 * Run: npm run bench:watcher -- --n 20 --open 1000. See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import type { Hash } from 'viem';
import type { Config } from '../config/schema.js';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { createSecretBox, generateSecretsKey } from '../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../adapters/webhooks/http-delivery.js';
import { createEvmTransferScanner } from '../adapters/chains/evm/evm-transfer-scanner.js';
import { EVM, EVM_NETWORKS, type EvmNetwork } from '../domain/networks.js';
import { decimalToAtomic } from '../domain/money.js';
import type { Infrastructure } from '../cli/infrastructure.js';
import { benchInfrastructure } from './lib/bench-infrastructure.js';
import { migrateLatest } from '../db/migrate.js';
import { workflowsPath } from '../workers/worker.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { connectWorkflowGateway } from '../services/workflows/workflow-client.js';
import { startEvmNode, type EvmNode } from '../support/evm-node.js';
import { openBenchDatabase } from './lib/bench-db.js';
import { startBenchWorker } from './lib/bench-worker.js';
import { startCountingRpcProxy } from './lib/json-rpc-proxy.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { warningSink, withDeadline } from './lib/measure.js';
import { createBenchMerchant, type BenchMerchant } from './lib/proof-db.js';
import {
  createOpenRequests,
  evidenceCounts,
  oneOpenPerWallet,
  openRequestsPerWallet,
  paidAmong,
  watcherProgress,
  type OpenRequest,
} from './lib/watcher-db.js';
import {
  formatReport,
  isHealthy,
  splitScans,
  type Check,
  type LatencySample,
  type ScanCase,
} from './lib/watcher-report.js';

const NETWORK = 'base' satisfies EvmNetwork;
const USDC = EVM.base.usdc;
/** Merchants, one verified wallet each: the watched recipients in every phase. */
const WALLETS = 10;
/** Untimed payments before the measured ones (the first scans that find something pay for the JIT). */
const WARMUP = 2;
/** Part 1 sends one payment every this many blocks (not a divisor of the usual poll/block ratio, so phases rotate). */
const EVERY_BLOCKS = 3;
/** Part 2 pays this many requests per case, each in its own block (fewer than the confirmations). */
const PAYMENTS_PER_CASE = 4;
const QUOTED = decimalToAtomic('12.5')!;
const VALID_HOURS = 720;
/** How often the benchmark looks for PAID rows and for the watcher's progress. */
const DB_POLL_MS = 10;

interface Options {
  n: number;
  blockMs: number;
  confirmations: number;
  pollMs: number;
  open: number;
  scans: number;
  rangeBlocks: number;
}

const USAGE = `usage: tsx bench/watcher.ts [--n N] [--block-ms MS] [--confirmations C] [--poll-ms MS] [--open N] [--scans S] [--range-blocks R]
  --n              measured payments of part 1, 1..500 (default 20; plus ${WARMUP} warm-up), one every ${EVERY_BLOCKS} blocks
  --block-ms       part 1 mines a block every MS, 50..10000 (default 500)
  --confirmations  required confirmations of the scanner, 2..64 (default 5)
  --poll-ms        the watcher's wait between scans once caught up, 100..10000 (default 1000; WATCHER_POLL_SECONDS is 1..3600 s)
  --open           open requests of the large case of part 2, ${WALLETS + 1}..20000 (default 1000; the small case has ${WALLETS})
  --scans          full scans per case of part 2, 1..50 (default 5)
  --range-blocks   blocks per scan (the workflow's maxBlocks), 10..2000 (default 100)`;

function parseOptions(argv: string[]): Options {
  const v = benchArgs(argv, ['n', 'block-ms', 'confirmations', 'poll-ms', 'open', 'scans', 'range-blocks'], USAGE);
  return {
    n: intOption('--n', v.n, 20, 1, 500),
    blockMs: intOption('--block-ms', v['block-ms'], 500, 50, 10_000),
    confirmations: intOption('--confirmations', v.confirmations, 5, 2, 64),
    pollMs: intOption('--poll-ms', v['poll-ms'], 1000, 100, 10_000),
    open: intOption('--open', v.open, 1000, WALLETS + 1, 20_000),
    scans: intOption('--scans', v.scans, 5, 1, 50),
    rangeBlocks: intOption('--range-blocks', v['range-blocks'], 100, 10, 2000),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** `total` spread over `parts` as evenly as possible. */
const spread = (total: number, parts: number) =>
  Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));

async function startBackends(run: RunLifecycle): Promise<{ config: Config; infra: Infrastructure; node: EvmNode }> {
  const [servers, node] = await Promise.allSettled([
    benchInfrastructure(run, process.env),
    startEvmNode({ chainId: EVM.base.chainId }),
  ]);
  if (node.status === 'fulfilled') run.defer('stop the Hardhat node', () => node.value.stop());
  if (servers.status === 'rejected') throw servers.reason;
  if (node.status === 'rejected') throw node.reason;
  return { ...servers.value, node: node.value };
}

async function main(opts: Options, run: RunLifecycle): Promise<boolean> {
  const sink = warningSink();
  const logger = createLogger({ level: 'warn', name: 'bench-watcher' }, sink.stream);
  installTemporalRuntime(logger);
  progress('starting PostgreSQL, Temporal and a Hardhat node (chain id 8453)');
  const { config, infra, node } = await startBackends(run);
  run.signal.throwIfAborted();
  if (!infra.adminDatabaseUrl) {
    // watcher_progress is one row per network: a shared database's real progress would stop (or be moved by) this run.
    throw new Error(
      'bench:watcher needs a database of its own: unset DATABASE_URL so it creates one on the embedded server',
    );
  }
  const runId = randomBytes(4).toString('hex');
  const { db, description } = await openBenchDatabase(infra, config, `tenant_bench_watcher_${runId}`, run);
  await migrateLatest(db);

  const C = opts.confirmations;
  const payers = node.accounts.slice(1, 5);
  await node.placeToken(USDC);
  for (const p of payers) await node.mint(USDC, p.address, 1_000_000_000_000n);
  await node.mine(C); // the first final height is a real block

  const proxy = await startCountingRpcProxy(node.url);
  run.defer('close the RPC proxy', () => proxy.close());
  const secretBox = createSecretBox(generateSecretsKey());
  const merchants: BenchMerchant[] = [];
  for (let i = 0; i < WALLETS; i++)
    merchants.push(
      await createBenchMerchant(db, {
        name: `bench-watcher-${runId}-${i + 1}`,
        webhook: false,
        secretBox,
        now: new Date(),
      }),
    );

  progress('bundling workflows');
  const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: new DefaultLogger('WARN') });
  run.signal.throwIfAborted();
  const taskQueue = `bench-watcher-${runId}`;
  // Its own id (not watch:base), so a watcher of a real deployment on the same Temporal server is never touched.
  const watcherId = `watch:${NETWORK}:bench-${runId}`;
  // Terminated after the worker has stopped (clean-up runs in reverse), so no workflow task is in flight then.
  const admin = await connectWorkflowGateway({
    address: infra.temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue,
  });
  run.defer('close the admin client', () => admin.close());
  run.defer('terminate the watcher workflow', async () => {
    await admin.client.workflow
      .getHandle(watcherId)
      .terminate('benchmark finished')
      .catch(() => undefined);
  });
  const gw = await startBenchWorker(run, {
    address: infra.temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue,
    activityDeps: {
      db,
      logger,
      secretBox,
      resolver: createSystemResolver(),
      allowLoopbackForTests: false,
      watcher: {
        evm: createEvmTransferScanner({
          rpcUrls: { [NETWORK]: [proxy.url] },
          requiredConfirmations: Object.fromEntries(EVM_NETWORKS.map((n) => [n, C])) as Record<EvmNetwork, number>,
          timeoutMs: config.chains.rpcTimeoutMs,
          retries: config.chains.rpcRetries,
        }),
      },
    },
    workflowBundle: { code },
    shutdownGraceMs: 5000,
    identity: `bench-watcher-${process.pid}`,
  });
  await gw.client.workflow.start('paymentWatcherWorkflow', {
    workflowId: watcherId,
    taskQueue,
    args: [{ network: NETWORK, pollIntervalMs: opts.pollMs, maxBlocks: opts.rangeBlocks }],
  });

  const waitUntil = async (what: string, probe: () => Promise<boolean>, ms = 120_000) =>
    withDeadline(
      (async () => {
        while (!(await probe())) {
          run.signal.throwIfAborted();
          await sleep(DB_POLL_MS);
        }
      })(),
      ms,
      what,
      run.signal,
    );
  const finalHeight = async () => Number(await node.blockNumber()) - C + 1;
  const caughtUp = async () => (await watcherProgress(db, NETWORK)) >= (await finalHeight());
  await waitUntil('the watcher to start', caughtUp);

  const checks: Check[] = [];
  const check = (ok: boolean, text: string) => checks.push({ ok, text });

  // ---- 1. Detection latency: blocks mined by the benchmark at a steady interval, automine off.
  const total = WARMUP + opts.n;
  progress(`part 1: ${total} payments, one every ${EVERY_BLOCKS} blocks, a block every ${opts.blockMs} ms`);
  const toPay = await createOpenRequests(
    db,
    merchants,
    spread(total, WALLETS),
    { quotedAtomic: QUOTED, description: 'Bench watcher latency', validHours: VALID_HOURS },
    run.signal,
  );
  // Round-robin over the wallets.
  const order = spread(total, WALLETS)
    .flatMap((k, w) => Array.from({ length: k }, (_, j) => ({ w, j })))
    .sort((a, b) => a.j - b.j || a.w - b.w);
  const byWallet = merchants.map((m) => toPay.filter((r) => r.payTo === m.wallet.address));
  const payments: OpenRequest[] = order.map(({ w, j }) => byWallet[w]![j]!);

  await node.setAutomine(false);
  let head = Number(await node.blockNumber());
  const minedAt = new Map<number, number>();
  const sent: Array<{ req: OpenRequest; hash: Hash; afterBlock: number }> = [];
  const seen = new Map<string, { at: number; head: number; txHash: string }>();
  let mining = true;
  const watching = (async () => {
    while (mining) {
      const pending = sent.filter((s) => !seen.has(s.req.id)).map((s) => s.req.id);
      const paid = await paidAmong(db, pending);
      const at = performance.now();
      for (const [id, txHash] of paid) seen.set(id, { at, head, txHash });
      await sleep(DB_POLL_MS);
    }
  })();
  watching.catch(() => undefined); // awaited below
  const started = performance.now();
  const deadline = started + (total * EVERY_BLOCKS + C) * opts.blockMs + 60_000 + 5 * opts.pollMs;
  try {
    for (let tick = 1; seen.size < total; tick++) {
      run.signal.throwIfAborted();
      if (performance.now() > deadline) break;
      const wait = started + tick * opts.blockMs - performance.now();
      if (wait > 0) await sleep(wait);
      await node.mine(1);
      head++;
      minedAt.set(head, performance.now());
      const j = (tick - 1) / EVERY_BLOCKS;
      if (Number.isInteger(j) && j < total) {
        const req = payments[j]!;
        sent.push({
          req,
          hash: await node.transfer(USDC, payers[j % payers.length]!, req.payTo, req.amountAtomic),
          afterBlock: head,
        });
      }
    }
  } finally {
    mining = false;
    await watching;
  }
  const minedSeconds = (performance.now() - started) / 1000;
  check(
    Number(await node.blockNumber()) === head,
    `part 1: the benchmark mined every block of the phase (${minedAt.size} blocks in ${minedSeconds.toFixed(1)} s)`,
  );
  await node.setAutomine(true);

  const samples: LatencySample[] = [];
  let nextBlock = 0;
  let wrongTx = 0;
  for (const [i, s] of sent.entries()) {
    const block = Number((await node.client.getTransactionReceipt({ hash: s.hash })).blockNumber);
    if (block === s.afterBlock + 1) nextBlock++;
    const obs = seen.get(s.req.id);
    if (obs && obs.txHash !== s.hash) wrongTx++;
    const finalBlock = block + C - 1;
    const finalAt = minedAt.get(finalBlock);
    if (i >= WARMUP && obs && finalAt !== undefined)
      samples.push({ blocks: obs.head - finalBlock, ms: obs.at - finalAt });
  }
  check(
    seen.size === total && wrongTx === 0,
    `part 1: ${seen.size}/${total} requests seen PAID, ${wrongTx} by another transaction than their payment`,
  );
  check(
    nextBlock === sent.length,
    `part 1: ${nextBlock}/${sent.length} payments were mined in the block after they were sent (the steady cadence held)`,
  );
  const ev1 = await evidenceCounts(
    db,
    sent.map((s) => s.hash),
  );
  check(
    ev1.rows === sent.length && ev1.distinct === sent.length && ev1.paid === sent.length,
    `part 1: ${ev1.rows} evidence rows for ${sent.length} transfers (${ev1.distinct} distinct, ${ev1.paid} decided paid)`,
  );

  // ---- 2. RPC calls per scan: 10 open requests, then 1,000, the same blocks scanned and the same payments.
  let failedCalls = 0;
  const takeCalls = () => {
    const calls = proxy.take();
    failedCalls += calls.filter((c) => c.failed).length;
    return calls;
  };
  takeCalls(); // part 1's calls: only their failures count
  const cases: ScanCase[] = [];
  let creation = '';
  const payments2 = Math.min(PAYMENTS_PER_CASE, C - 1);
  const blocksPerCase = opts.scans * opts.rangeBlocks;
  for (const target of [WALLETS, opts.open]) {
    const label = `${target.toLocaleString('en-US')} open requests`;
    progress(`part 2: ${label}, ${opts.scans} scans of ${opts.rangeBlocks} blocks`);
    const open = await openRequestsPerWallet(db, merchants);
    const missing = spread(target, WALLETS).map((t, i) => Math.max(0, t - open[i]!));
    const t0 = performance.now();
    await createOpenRequests(
      db,
      merchants,
      missing,
      { quotedAtomic: QUOTED, description: 'Bench watcher open request', validHours: VALID_HOURS },
      run.signal,
    );
    if (target !== WALLETS) {
      creation =
        `open requests made through the repository (wallet row lock + insertPaymentRequest in one transaction, as the API does; ` +
        `${WALLETS} wallets in parallel), not HTTP: ${missing.reduce((a, b) => a + b, 0)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
    }
    const chosen = await oneOpenPerWallet(db, merchants.slice(0, payments2));

    await waitUntil(`the watcher to catch up before ${label}`, caughtUp);
    const hashes: Hash[] = [];
    for (const [i, r] of chosen.entries())
      hashes.push(await node.transfer(USDC, payers[i % payers.length]!, r.payTo, r.amountAtomic)); // one block each, none final yet
    await waitUntil(`the watcher to catch up after the payments of ${label}`, caughtUp);
    takeCalls();
    const openNow = (await openRequestsPerWallet(db, merchants)).reduce((a, b) => a + b, 0);
    const from = await watcherProgress(db, NETWORK);
    await node.mine(blocksPerCase); // one call: the head jumps by S x R blocks at once
    const to = from + blocksPerCase;
    await waitUntil(
      `the watcher to scan the blocks of ${label}`,
      async () =>
        (await watcherProgress(db, NETWORK)) >= to &&
        (
          await paidAmong(
            db,
            chosen.map((r) => r.id),
          )
        ).size === chosen.length,
    );
    const done = performance.now();
    const scans = splitScans(takeCalls());
    const working = scans.filter((s) => s.blocks > 0);
    const partial = scans.filter((s) => !['eth_blockNumber', 'eth_chainId'].includes(s.calls[0]!.method)).length;
    cases.push({
      label,
      open: openNow,
      wallets: WALLETS,
      payments: chosen.length,
      working,
      idle: scans.length - working.length - partial,
      seconds: working.length ? (done - working[0]!.calls[0]!.at) / 1000 : Number.NaN,
    });

    const scanned = working.reduce((n, s) => n + s.blocks, 0);
    check(
      openNow === target &&
        scanned === blocksPerCase &&
        working[0]?.fromBlock === from + 1 &&
        working.at(-1)?.toBlock === to &&
        partial === 0,
      `${label}: ${openNow} open when mined; the scans covered blocks ${working[0]?.fromBlock ?? '?'}..${working.at(-1)?.toBlock ?? '?'} (${scanned} blocks, expected ${from + 1}..${to}) in ${working.length} scans`,
    );
    const paid = await paidAmong(
      db,
      chosen.map((r) => r.id),
    );
    const ev = await evidenceCounts(db, hashes);
    check(
      chosen.every((r, i) => paid.get(r.id) === hashes[i]) && ev.rows === hashes.length && ev.paid === hashes.length,
      `${label}: ${paid.size}/${chosen.length} paid requests PAID by their own transfer; ${ev.rows} evidence rows for ${hashes.length} transfers`,
    );
  }
  const [small, large] = cases;
  check(
    small !== undefined && large !== undefined && small.working.length === large.working.length,
    `part 2: the same number of working scans in both cases (${small?.working.length} and ${large?.working.length})`,
  );
  takeCalls();
  check(failedCalls === 0, `no JSON-RPC call through the proxy failed or answered an error (${failedCalls})`);

  const cpu = os.cpus();
  const report = {
    machine: `node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    chain: `Hardhat at ${node.url} behind a counting JSON-RPC proxy, chain id ${node.chainId}, USDC-like token at ${USDC}, ${C} confirmations required`,
    watcher:
      `paymentWatcherWorkflow ${watcherId} on an in-process worker (task queue ${taskQueue}, Temporal ${infra.temporalAddress}), ` +
      `poll ${opts.pollMs} ms when caught up, ranges of up to ${opts.rangeBlocks} blocks; ${WALLETS} merchants with one verified wallet each`,
    database: `${description}, pool max ${config.database.poolMax}`,
    latency: {
      n: opts.n,
      warmup: WARMUP,
      everyBlocks: EVERY_BLOCKS,
      blockMs: opts.blockMs,
      confirmations: C,
      pollMs: opts.pollMs,
      samples,
      minedSeconds,
      blocksMined: minedAt.size,
    },
    cases,
    scansPerCase: opts.scans,
    rangeBlocks: opts.rangeBlocks,
    requestCreation: creation,
    checks,
    warnings: sink.warnings(),
  };
  process.stdout.write(formatReport(report));
  return isHealthy(report);
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });

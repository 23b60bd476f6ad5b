/**
 * x402 benchmark, in one run on this machine:
 *   1. requests/s of the unpaid 402 path (GET /x402/v1/usdc/verify without payment -> 402 + PAYMENT-REQUIRED) on
 *      the real app (buildApp + listen, real PostgreSQL rate limiter) beside a bare Koa app answering a trivial
 *      JSON route, with the same keep-alive client loop, printed as a ratio;
 *   2. latency p50/p95 of a paid Verify end to end through @x402/fetch on a local Base (Hardhat, chain id 8453,
 *      EIP-3009 USDC at the canonical address) with the self-hosted facilitator, split into payment
 *      verification, chain read and settlement by timing decorators around the facilitator client and the
 *      chain reader (each call inspects a transaction never read before, so the chain read is real);
 *   3. the JSON-RPC calls of an uncached EVM Verify (createEvmReader's onRpcCall), first read and later reads.
 *
 * Run: npm run bench:x402 -- --duration 5 --concurrency 16 --n 30. See bench/README.md.
 */
import os from 'node:os';
import Koa from 'koa';
import Router from '@koa/router';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { PAID_ROUTES } from '../services/x402/route-table.js';
import { USDC } from '../support/x402-harness.js';
import { runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { mainThreadCpuUs, withDeadline } from './lib/measure.js';
import { serveKoa } from './lib/http-stack.js';
import { runHttpLoad, runHttpLoadSpread } from './lib/http-load.js';
import { startApiProcesses } from './lib/api-processes.js';
import { timedPayingClient } from './lib/x402-client.js';
import { BENCH_RATE_LIMIT, parsePaidBenchOptions, startX402BenchApp, type PaidBenchOptions } from './lib/x402-app.js';
import { deleteX402RunRows, x402RunStats, type X402RunRows } from './lib/x402-db.js';
import {
  formatReport,
  isHealthy,
  type Check,
  type PaidCall,
  type ScaledRows,
  type ThroughputSide,
} from './lib/x402-report.js';

const WARMUP_SECONDS = 1;
const PAID_WARMUP = 3;
/** The reader's documented cost of one read once the endpoint's chain id is known (evm-reader.ts). */
const RPC_AIM = 3;

const USAGE = `usage: tsx bench/x402.ts [--duration S] [--concurrency C] [--n N] [--processes P]
  --duration     measured seconds per throughput row, 1..60 (default 5; each row also gets ${WARMUP_SECONDS} s of warm-up)
  --concurrency  requests in flight in the throughput rows, 1..256 (default 16)
  --n            measured paid Verify calls, 1..300 (default 30; plus ${PAID_WARMUP} warm-up calls)
  --processes    also measure the app as P separate API processes (api/main.ts) on the same database, 0..4 (default 0)`;

// The payer holds 10 USDC: 500 calls at 0.02.
const parseOptions = (argv: string[]) => parsePaidBenchOptions(argv, USAGE, 300, true);

async function main(opts: PaidBenchOptions, run: RunLifecycle): Promise<boolean> {
  // Transactions to inspect: one for the unpaid path, then one per paid call, each read for the first time by its call.
  const {
    config,
    infra,
    chain,
    db,
    database,
    url: appUrl,
    since,
    hashes,
    amount,
    confirmations: required,
    rec,
    warnings,
    appEnv,
    databaseUrl,
  } = await startX402BenchApp({ name: 'bench-x402', txCount: 1 + PAID_WARMUP + opts.n }, progress, run);
  const verifyPath = `/x402${PAID_ROUTES.verify.path}`;
  const runRows: X402RunRows = { resource: `${appUrl}${verifyPath}`, since, txHashes: hashes };
  if (!infra.adminDatabaseUrl) run.defer("delete this run's x402 rows", () => deleteX402RunRows(db, runRows));

  // ---- The bare Koa app: one JSON route, the same listen() as the app.
  const bare = new Koa();
  const router = new Router();
  router.get('/ok', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  bare.use(router.routes());
  const bareUrl = await serveKoa(run, bare, 'stop the bare Koa app');

  const checks: Check[] = [];
  const check = (ok: boolean, text: string) => checks.push({ ok, text });

  // ---- 1. Throughput. One look at each answer first; the load loop then checks status (and header) only.
  const unpaidUrl = `${appUrl}${verifyPath}?tx_hash=${hashes[0]}`;
  const probe = await fetch(unpaidUrl);
  const probeBody = (await probe.json()) as { code?: string };
  const challenge = probe.headers.get('payment-required');
  const accept = challenge ? decodePaymentRequiredHeader(challenge).accepts[0] : undefined;
  check(
    probe.status === 402 &&
      probeBody.code === 'payment_required' &&
      accept?.scheme === 'exact' &&
      accept.network === 'eip155:8453' &&
      accept.asset === USDC &&
      accept.amount === PAID_ROUTES.verify.priceAtomic &&
      accept.payTo === chain.payTo,
    `unpaid Verify answers 402 payment_required with PAYMENT-REQUIRED: exact, eip155:8453, USDC, ${PAID_ROUTES.verify.priceAtomic}, payTo (got ${probe.status}, ${accept?.amount ?? 'no requirement'})`,
  );
  const bareProbe = await fetch(`${bareUrl}/ok`);
  check(
    bareProbe.status === 200 && ((await bareProbe.json()) as { status?: string }).status === 'ok',
    'bare Koa answers 200 {"status":"ok"}',
  );

  const load = { concurrency: opts.concurrency, warmupMs: WARMUP_SECONDS * 1000, durationMs: opts.duration * 1000 };
  const side = async (
    label: string,
    url: string,
    expectStatus: number,
    expectHeader?: string,
  ): Promise<ThroughputSide> => {
    progress(`throughput: ${label}`);
    const cpuBefore = mainThreadCpuUs();
    const result = await runHttpLoad(
      { ...load, url, expectStatus, ...(expectHeader ? { expectHeader } : {}) },
      run.signal,
    );
    const cpuAfter = mainThreadCpuUs();
    if (result.stoppedEarly)
      throw new Error(`${label}: the load stopped early, the server kept failing (first: ${result.firstProblem})`);
    check(
      result.ok > 0 && result.unexpected + result.errors === 0,
      `${label}: ${result.ok}/${result.requests} answered ${expectStatus}${expectHeader ? ` with ${expectHeader}` : ''}${result.firstProblem ? ` (first problem: ${result.firstProblem})` : ''}`,
    );
    check(
      result.connections <= opts.concurrency,
      `${label}: keep-alive, ${result.connections} connections for ${opts.concurrency} in flight`,
    );
    return {
      label,
      result,
      ...(cpuBefore !== undefined && cpuAfter !== undefined && result.completed > 0
        ? { cpuUsPerRequest: (cpuAfter - cpuBefore) / result.completed }
        : {}),
    };
  };
  const bareSide = await side('bare Koa  GET /ok -> 200 JSON', `${bareUrl}/ok`, 200);
  const healthSide = await side('app  GET /x402/health -> 200', `${appUrl}/x402/health`, 200);
  const unpaidSide = await side(`app  GET ${verifyPath} -> 402`, unpaidUrl, 402, 'payment-required');

  // ---- 1b. The same app as 1 and as P API processes (api/main.ts, as deployed), the load spread over them.
  const scaled: ScaledRows[] = [];
  if (opts.processes > 0) {
    const urls = await startApiProcesses(
      { n: opts.processes, databaseUrl, env: appEnv, readyPath: '/x402/health' },
      progress,
      run,
    );
    for (const k of [...new Set([1, opts.processes])]) {
      const some = urls.slice(0, k);
      const spread = async (
        label: string,
        path: string,
        expectStatus: number,
        expectHeader?: string,
      ): Promise<ThroughputSide> => {
        progress(`throughput: ${label}`);
        const result = await runHttpLoadSpread(
          { ...load, expectStatus, ...(expectHeader ? { expectHeader } : {}) },
          some.map((u) => `${u}${path}`),
          run.signal,
        );
        if (result.stoppedEarly) throw new Error(`${label}: the load stopped early (first: ${result.firstProblem})`);
        check(
          result.ok > 0 && result.unexpected + result.errors === 0,
          `${label}: ${result.ok}/${result.requests} answered ${expectStatus}${result.firstProblem ? ` (first problem: ${result.firstProblem})` : ''}`,
        );
        return { label, result };
      };
      const processes = `${k} API process${k > 1 ? 'es' : ''}`;
      scaled.push({
        processes: k,
        health: await spread(`${processes}  GET /x402/health -> 200`, '/x402/health', 200),
        unpaid: await spread(
          `${processes}  GET ${verifyPath} -> 402`,
          `${verifyPath}?tx_hash=${hashes[0]}`,
          402,
          'payment-required',
        ),
      });
    }
  }

  // ---- 2 and 3. Paid Verify calls, one at a time; warm-up calls first (the very first makes the first chain read).
  progress(`paid Verify: ${PAID_WARMUP} warm-up + ${opts.n} calls, one at a time`);
  const client = timedPayingClient(chain.payer.privateKey);
  const before = await chain.balances();
  const calls: PaidCall[] = [];
  const rpcReads: string[][] = [];
  const problems: string[] = [];
  for (let i = 0; i < PAID_WARMUP + opts.n; i++) {
    run.signal.throwIfAborted();
    const hash = hashes[1 + i]!;
    rec.begin();
    const started = performance.now();
    const call = (async () => {
      const res = await client.fetch(`${appUrl}${verifyPath}?tx_hash=${hash}`);
      return { res, body: (await res.json()) as Record<string, unknown> };
    })();
    call.catch(() => undefined);
    const { res, body } = await withDeadline(call, 60_000, `paid Verify #${i + 1}`, run.signal);
    const e2eMs = performance.now() - started;
    const sample = rec.end();
    const hops = client.takeHops();
    if (sample.calls.read > 0) rpcReads.push(sample.rpc);

    const settlement = res.headers.get('payment-response');
    const transfers = body.transfers as Array<Record<string, unknown>> | undefined;
    const problem =
      res.status !== 200
        ? `status ${res.status} ${JSON.stringify(body).slice(0, 200)}`
        : body.tx_hash !== hash.toLowerCase() || body.status !== 'confirmed'
          ? `unexpected evidence ${JSON.stringify(body).slice(0, 200)}`
          : transfers?.length !== 1 || transfers[0]?.amount_atomic !== amount.toString()
            ? 'unexpected transfers'
            : !settlement || !decodePaymentResponseHeader(settlement).success
              ? 'no successful PAYMENT-RESPONSE'
              : hops.length !== 2 || hops[0]!.paid || !hops[1]!.paid
                ? `${hops.length} HTTP exchanges instead of unpaid + paid`
                : sample.calls.verify !== 1 || sample.calls.read !== 1 || sample.calls.settle !== 1
                  ? `facilitator.verify x${sample.calls.verify}, getEvidence x${sample.calls.read}, facilitator.settle x${sample.calls.settle}`
                  : undefined;
    if (problem) problems.push(`call #${i + 1}: ${problem}`);
    else if (i >= PAID_WARMUP) calls.push({ e2eMs, challengeMs: hops[0]!.ms, paidMs: hops[1]!.ms, sample });
  }
  const after = await chain.balances();
  const total = PAID_WARMUP + opts.n;
  check(
    problems.length === 0,
    `paid Verify: ${total - problems.length}/${total} answered 200 with the evidence and a settled PAYMENT-RESPONSE, after one verify, one chain read and one settle${problems.length ? `; first: ${problems[0]}` : ''}`,
  );
  const fees = BigInt(PAID_ROUTES.verify.priceAtomic) * BigInt(total);
  check(
    before.payer - after.payer === fees && after.payTo - before.payTo === fees,
    `on chain: the payer paid ${before.payer - after.payer} and payTo received ${after.payTo - before.payTo} atomic USDC (expected ${fees} each)`,
  );
  const stats = await x402RunStats(db, runRows);
  check(
    stats.payments.settled === total && Object.keys(stats.payments).length === 1 && stats.evidence === total,
    `database: x402_payments ${JSON.stringify(stats.payments)}, x402_evidence stored ${stats.evidence} (expected ${total} settled and ${total} stored)`,
  );

  const [firstRpc = [], ...laterRpc] = rpcReads;
  const maxLater = laterRpc.length ? Math.max(...laterRpc.map((m) => m.length)) : Number.NaN;
  check(maxLater <= RPC_AIM, `JSON-RPC calls per later uncached read: at most ${maxLater} (aim <= ${RPC_AIM})`);
  check(
    rec.stray.calls === 0 && rec.stray.rpc === 0,
    `no facilitator or chain calls outside the measured requests (got ${rec.stray.calls} calls, ${rec.stray.rpc} RPC calls)`,
  );

  const cpu = os.cpus();
  const report = {
    machine:
      `node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ` +
      `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; concurrency ${opts.concurrency}, paid N=${opts.n}`,
    concurrency: opts.concurrency,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: opts.duration,
    database: `${database}, pool max ${config.database.poolMax}; rate limit ${BENCH_RATE_LIMIT}/min/IP`,
    chain: `Hardhat at ${chain.node.url}, chain id ${chain.node.chainId}, ${required} confirmations required; self-hosted facilitator`,
    bare: bareSide,
    health: healthSide,
    unpaid: unpaidSide,
    scaled,
    challengeBytes: challenge?.length ?? 0,
    paidWarmup: PAID_WARMUP,
    paid: calls,
    firstRpc,
    laterRpc,
    rpcAim: RPC_AIM,
    checks,
    appWarnings: warnings(),
  };
  process.stdout.write(formatReport(report));
  return isHealthy(report);
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });

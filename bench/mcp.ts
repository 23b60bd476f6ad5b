/**
 * MCP benchmark, in one run on this machine, on the real app (buildApp + listen, real PostgreSQL) with x402
 * payments on a local Base (Hardhat, chain id 8453, EIP-3009 USDC at the canonical address) and the self-hosted
 * facilitator:
 *   1. latency p50/p95 of a paid `verify_native_usdc` through MCP (the official SDK client over Streamable HTTP,
 *      paying with support/mcp-client.ts payingMcpClient) beside the same paid Verify over HTTP
 *      (GET /x402/v1/usdc/verify through @x402/fetch), calls interleaved one MCP / one HTTP, each inspecting a
 *      transaction never read before; the payer's balance is read around every call;
 *   2. unpaid `tools/list` per second (raw keep-alive JSON-RPC POSTs to /mcp) beside GET /x402/health per
 *      second, the same client loop, concurrency and duration, in alternating rounds.
 *
 * Run: npm run bench:mcp -- --n 30 --duration 5 --concurrency 16. See bench/README.md.
 */
import os from 'node:os';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { SettleResponse } from '@x402/core/types';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { PAID_ROUTES } from '../services/x402/route-table.js';
import { connectMcp, payingMcpClient } from '../support/mcp-client.js';
import { runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { withDeadline } from './lib/measure.js';
import { runHttpLoad } from './lib/http-load.js';
import { timedPayingClient } from './lib/x402-client.js';
import { BENCH_RATE_LIMIT, parsePaidBenchOptions, startX402BenchApp, type PaidBenchOptions } from './lib/x402-app.js';
import { deleteX402RunRows, x402RunStats, type X402RunRows } from './lib/x402-db.js';
import type { Check, ThroughputSide } from './lib/x402-report.js';
import { formatMcpReport, isHealthyMcp, type McpPaidCall, type Transport } from './lib/mcp-report.js';

/** Untimed seconds at the start of every throughput round (its thread opens new connections). */
const WARMUP_SECONDS = 0.5;
const PAID_WARMUP = 3;
const TOOL = 'verify_native_usdc';
/** Rounds per throughput side, alternated (health, tools/list, tools/list, health, ...) so noise hits both alike. */
const ROUNDS = 4;

const USAGE = `usage: tsx bench/mcp.ts [--n N] [--duration S] [--concurrency C]
  --n            measured paid Verify calls per transport (MCP and HTTP), 1..200 (default 30; plus ${PAID_WARMUP} warm-up calls each)
  --duration     measured seconds per throughput side (tools/list and /x402/health), 1..60 (default 5; in ${ROUNDS} rounds, each after ${WARMUP_SECONDS} s of warm-up)
  --concurrency  requests in flight in the throughput rows, 1..256 (default 16)`;

// The payer holds 10 USDC: 500 calls at 0.02, i.e. 2 x (200 + 3) with room to spare.
const parseOptions = (argv: string[]) => parsePaidBenchOptions(argv, USAGE, 200);

/** What is wrong with a paid Verify answer for `hash` (the same JSON over both transports), or undefined. */
function evidenceProblem(body: Record<string, unknown> | undefined, hash: string, amount: bigint): string | undefined {
  const transfers = body?.transfers as Array<Record<string, unknown>> | undefined;
  if (body?.tx_hash !== hash.toLowerCase() || body.status !== 'confirmed')
    return `unexpected evidence ${JSON.stringify(body).slice(0, 200)}`;
  if (transfers?.length !== 1 || transfers[0]?.amount_atomic !== amount.toString()) return 'unexpected transfers';
  return undefined;
}

const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');

async function main(opts: PaidBenchOptions, run: RunLifecycle): Promise<boolean> {
  const loadBefore = os.loadavg();
  const calls = PAID_WARMUP + opts.n;
  // One never-read transaction per paid call: MCP takes the even ones, HTTP the odd ones.
  const { config, infra, chain, db, database, url, since, hashes, amount, confirmations, rec, warnings } =
    await startX402BenchApp({ name: 'bench-mcp', txCount: 2 * calls }, progress, run);
  const verifyPath = `/x402${PAID_ROUTES.verify.path}`;
  const rows: Record<Transport, X402RunRows> = {
    http: { resource: `${url}${verifyPath}`, since, txHashes: hashes },
    mcp: { resource: `mcp://${new URL(url).host}/tools/${TOOL}`, since, txHashes: hashes },
  };
  if (!infra.adminDatabaseUrl) {
    run.defer("delete this run's x402 rows", async () => {
      await deleteX402RunRows(db, rows.http);
      await deleteX402RunRows(db, rows.mcp);
    });
  }

  const checks: Check[] = [];
  const check = (ok: boolean, text: string) => checks.push({ ok, text });
  const fee = BigInt(PAID_ROUTES.verify.priceAtomic);

  // ---- The clients. The MCP client initializes once and lists the tools, as an agent does before calling one.
  const mcp = await connectMcp(url);
  run.defer('close the MCP client', () => mcp.close());
  const { tools } = await mcp.listTools();
  const listed = tools.find((t) => t.name === TOOL);
  const listedPrice = (listed?._meta?.['x402/price'] as { amount_atomic?: string } | undefined)?.amount_atomic;
  check(
    tools.length === 4 && listedPrice === PAID_ROUTES.verify.priceAtomic,
    `tools/list (SDK client): ${tools.length} tools, ${TOOL} priced ${listedPrice ?? 'n/a'} atomic USDC like the HTTP route (${fee})`,
  );
  const mcpPayer = payingMcpClient(mcp, chain.payer);
  const httpPayer = timedPayingClient(chain.payer.privateKey);

  // ---- 1. Paid Verify, MCP and HTTP interleaved one call each (which goes first alternates), warm-up calls first.
  progress(
    `paid ${TOOL}: ${PAID_WARMUP} warm-up + ${opts.n} calls per transport, MCP and HTTP interleaved, one at a time`,
  );
  const measured: Record<Transport, McpPaidCall[]> = { mcp: [], http: [] };
  const charged: Record<Transport, { payer: bigint; payTo: bigint }> = {
    mcp: { payer: 0n, payTo: 0n },
    http: { payer: 0n, payTo: 0n },
  };
  const problems: string[] = [];

  const paidMcp = async (hash: string): Promise<string | undefined> => {
    const before = mcpPayer.payments.length;
    const result: CallToolResult = await mcpPayer.callPaid(TOOL, { tx_hash: hash });
    const settlement = result._meta?.['x402/payment-response'] as SettleResponse | undefined;
    if (result.isError) return `isError ${JSON.stringify(result.structuredContent ?? result.content).slice(0, 200)}`;
    if (mcpPayer.payments.length !== before + 1)
      return `${mcpPayer.payments.length - before} payments signed instead of 1`;
    if (!settlement?.success) return 'no successful x402/payment-response';
    return evidenceProblem(result.structuredContent, hash, amount);
  };
  const paidHttp = async (hash: string): Promise<string | undefined> => {
    const res = await httpPayer.fetch(`${url}${verifyPath}?tx_hash=${hash}`);
    const body = (await res.json()) as Record<string, unknown>;
    const hops = httpPayer.takeHops();
    const settlement = res.headers.get('payment-response');
    if (res.status !== 200) return `status ${res.status} ${JSON.stringify(body).slice(0, 200)}`;
    if (hops.length !== 2 || hops[0]!.paid || !hops[1]!.paid)
      return `${hops.length} HTTP exchanges instead of unpaid + paid`;
    if (!settlement || !decodePaymentResponseHeader(settlement).success) return 'no successful PAYMENT-RESPONSE';
    return evidenceProblem(body, hash, amount);
  };
  const paid: Record<Transport, (hash: string) => Promise<string | undefined>> = { mcp: paidMcp, http: paidHttp };

  for (let i = 0; i < calls; i++) {
    const order: Transport[] = i % 2 === 0 ? ['mcp', 'http'] : ['http', 'mcp'];
    for (const transport of order) {
      run.signal.throwIfAborted();
      const hash = hashes[2 * i + (transport === 'mcp' ? 0 : 1)]!;
      const before = await chain.balances();
      rec.begin();
      const started = performance.now();
      const call = paid[transport](hash);
      call.catch(() => undefined);
      let problem = await withDeadline(call, 60_000, `paid ${transport} call #${i + 1}`, run.signal);
      const e2eMs = performance.now() - started;
      const sample = rec.end();
      const after = await chain.balances();
      const payer = before.payer - after.payer;
      const payTo = after.payTo - before.payTo;
      charged[transport].payer += payer;
      charged[transport].payTo += payTo;
      problem ??=
        sample.calls.verify !== 1 || sample.calls.read !== 1 || sample.calls.settle !== 1
          ? `facilitator.verify x${sample.calls.verify}, getEvidence x${sample.calls.read}, facilitator.settle x${sample.calls.settle}`
          : payer !== fee || payTo !== fee
            ? `the payer paid ${payer} and payTo received ${payTo} (fee ${fee})`
            : undefined;
      if (problem) problems.push(`${transport} call #${i + 1}: ${problem}`);
      else if (i >= PAID_WARMUP) measured[transport].push({ e2eMs, sample });
    }
  }
  check(
    problems.length === 0,
    `paid calls: ${2 * calls - problems.length}/${2 * calls} answered the evidence with a successful settlement, after one verify, one chain read and one settle, charging exactly the fee${problems.length ? `; first: ${problems[0]}` : ''}`,
  );
  for (const transport of ['mcp', 'http'] as const) {
    const expected = fee * BigInt(calls);
    const c = charged[transport];
    check(
      c.payer === expected && c.payTo === expected,
      `on chain, ${transport.toUpperCase()}: the payer paid ${c.payer} and payTo received ${c.payTo} atomic USDC over ${calls} calls (expected ${expected}: ${fee} per call)`,
    );
    const stats = await x402RunStats(db, rows[transport]);
    check(
      stats.payments.settled === calls && Object.keys(stats.payments).length === 1,
      `database, ${transport.toUpperCase()}: x402_payments ${JSON.stringify(stats.payments)} for ${rows[transport].resource} (expected ${calls} settled)`,
    );
  }
  const evidence = await x402RunStats(db, rows.http);
  check(
    evidence.evidence === 2 * calls,
    `database: x402_evidence stored ${evidence.evidence} (expected ${2 * calls}, one per inspected transaction)`,
  );
  check(
    rec.stray.calls === 0 && rec.stray.rpc === 0,
    `no facilitator or chain calls outside the measured calls (got ${rec.stray.calls} calls, ${rec.stray.rpc} RPC calls)`,
  );

  // ---- 2. Unpaid throughput: tools/list (raw keep-alive JSON-RPC POSTs) beside GET /x402/health.
  const listBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const listHeaders = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
  };
  const probe = await fetch(`${url}/mcp`, { method: 'POST', headers: listHeaders, body: listBody });
  const probeBody = (await probe.json()) as { result?: { tools?: Array<{ name: string }> } };
  const probeTools = probeBody.result?.tools?.map((t) => t.name) ?? [];
  check(
    probe.status === 200 && probeTools.length === 4 && probeTools.includes(TOOL),
    `raw tools/list POST without initialize answers 200 with ${probeTools.length} tools (${probe.headers.get('content-length') ?? '?'} bytes)`,
  );
  const health = await fetch(`${url}/x402/health`);
  check(health.status === 200, `GET /x402/health answers ${health.status}`);

  const load = {
    concurrency: opts.concurrency,
    warmupMs: WARMUP_SECONDS * 1000,
    durationMs: (opts.duration * 1000) / ROUNDS,
  };
  const sides = {
    health: { label: 'app  GET /x402/health -> 200', job: { ...load, url: `${url}/x402/health`, expectStatus: 200 } },
    toolsList: {
      label: 'app  POST /mcp tools/list -> 200',
      job: { ...load, url: `${url}/mcp`, expectStatus: 200, post: { body: listBody, headers: listHeaders } },
    },
  };
  const throughput: Array<ThroughputSide & { side: keyof typeof sides }> = [];
  // Both sides warm up first (JIT, the limiter's counter row), untimed; each round then opens its own connections.
  for (const { label, job } of Object.values(sides)) {
    progress(`throughput warm-up: ${label}`);
    await runHttpLoad({ ...job, warmupMs: 1000, durationMs: 100 }, run.signal);
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const key of r % 2 === 0 ? (['health', 'toolsList'] as const) : (['toolsList', 'health'] as const)) {
      const { label, job } = sides[key];
      progress(`throughput round ${r + 1}/${ROUNDS}: ${label}`);
      const result = await runHttpLoad(job, run.signal);
      if (result.stoppedEarly)
        throw new Error(`${label}: the load stopped early, the server kept failing (first: ${result.firstProblem})`);
      check(
        result.ok > 0 && result.unexpected + result.errors === 0,
        `${label}, round ${r + 1}: ${result.ok}/${result.requests} answered 200${result.firstProblem ? ` (first problem: ${result.firstProblem})` : ''}`,
      );
      check(
        result.connections <= opts.concurrency,
        `${label}, round ${r + 1}: keep-alive, ${result.connections} connections for ${opts.concurrency} in flight`,
      );
      throughput.push({ side: key, label: `${label} (round ${r + 1})`, result });
    }
  }

  const cpu = os.cpus();
  const report = {
    machine:
      `node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ` +
      `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${loads(loadBefore)} at the start, ${loads(os.loadavg())} at the end`,
    database: `${database}, pool max ${config.database.poolMax}; rate limit ${BENCH_RATE_LIMIT}/min/IP`,
    chain: `Hardhat at ${chain.node.url}, chain id ${chain.node.chainId}, ${confirmations} confirmations required; self-hosted facilitator`,
    tool: TOOL,
    paidWarmup: PAID_WARMUP,
    paid: measured,
    concurrency: opts.concurrency,
    warmupSeconds: WARMUP_SECONDS,
    throughput,
    checks,
    appWarnings: warnings(),
  };
  process.stdout.write(formatMcpReport(report));
  return isHealthyMcp(report);
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });

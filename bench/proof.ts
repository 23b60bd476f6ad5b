/**
 * /proof benchmark, in one run on this machine: payment requests created per second (and p50/p95 latency) through
 * the real `POST /proof/v1/requests` (buildApp + listen, real PostgreSQL) beside two baselines at the same
 * concurrency, printed as ratios: the app's own HTTP stack (same router, guards and idempotency middleware) doing one
 * INSERT of the same row (bench/lib/proof-baseline.ts, the target's baseline), and a bare knex INSERT of that row,
 * for three layouts:
 *   1. one merchant with one wallet and every client on it (creations serialise on the merchant and wallet locks),
 *   2. one merchant per client, each with one wallet (nothing shared but the per-IP rate-limit counter),
 *   3. as 2, with an enabled /proof webhook endpoint (each creation also appends an event).
 * Then checks that every creation has its row, with a distinct amount per wallet, and that no answer was a 5xx.
 *
 * Run: npm run bench:proof -- --n 500 --concurrency 8. See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { createSecretBox, generateSecretsKey } from '../adapters/crypto/secret-box.js';
import { decimalToAtomic } from '../domain/money.js';
import { DELTA_MAX } from '../domain/proof/matching-delta.js';
import { DEFAULT_VALID_HOURS } from '../domain/validation/proof-request.js';
import { benchInfrastructure } from './lib/bench-infrastructure.js';
import { migrateLatest } from '../db/migrate.js';
import { serveApp } from './lib/http-stack.js';
import { openBenchDatabase } from './lib/bench-db.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { sampleMemory, startMemorySampler, warningSink, type MemorySample } from './lib/measure.js';
import { recordEventLoopUtilization, runProofLoad, type ProofCreation } from './lib/proof-load.js';
import {
  createBenchMerchant,
  deleteBenchMerchants,
  proofRunStats,
  runBareInserts,
  type BenchMerchant,
} from './lib/proof-db.js';
import { formatReport, isHealthy, type Check, type ScaledRow, type ScenarioResult } from './lib/proof-report.js';
import type { SideResult } from './lib/proof-side.js';
import { startApiProcesses } from './lib/api-processes.js';
import { BASELINE_PATH, baselineInsertRoute } from './lib/proof-baseline.js';

const WARMUP_PER_CLIENT = 5;
/** Creations (and bare inserts) per client of the untimed round before the measured rows. */
const WARMUP_ROUND_PER_CLIENT = 40;
const AMOUNT_USDC = '12.5';
const DESCRIPTION = 'Invoice 2026-0042: consulting, November';
/** Keeps every limiter in the path (one counter upsert per rule and request) without ever refusing the benchmark. */
const RATE_LIMIT = '1000000000';

interface Options {
  /** Measured creations (and bare inserts) per scenario. */
  n: number;
  /** Clients in flight on both sides. */
  concurrency: number;
  /** API processes (api/main.ts) for the scaling rows; 0 = none. */
  processes: number;
}

const USAGE = `usage: tsx bench/proof.ts [--n N] [--concurrency C] [--processes P]
  --n            measured creations per row (and as many baseline requests and bare inserts), 1..3000 (default 500)
  --concurrency  clients in flight on both sides, 1..64 (default 8; plus ${WARMUP_PER_CLIENT} warm-up requests per client)
  --processes    also run the one-wallet-per-merchant row on 1 and P separate API processes (api/main.ts), 0..4 (default 0)`;

function parseOptions(argv: string[]): Options {
  const values = benchArgs(argv, ['n', 'concurrency', 'processes'], USAGE);
  return {
    // One wallet holds the API's, the baseline's and the bare rows, all open: 3 x (3000 + 5 x 64) stays under 9,999 deltas.
    n: intOption('--n', values.n, 500, 1, 3000),
    concurrency: intOption('--concurrency', values.concurrency, 8, 1, 64),
    processes: intOption('--processes', values.processes, 0, 0, 4),
  };
}

interface Scenario {
  label: string;
  note: string;
  /** All clients on one merchant and wallet. */
  serialised: boolean;
  /** Merchants (each with one wallet and one key); client i uses merchant i modulo this. */
  merchants: number;
  webhook: boolean;
}

async function main(opts: Options, run: RunLifecycle): Promise<boolean> {
  const memory: { label: string; sample: MemorySample }[] = [
    { label: 'at start (before infrastructure)', sample: sampleMemory() },
  ];
  const appEnv: Record<string, string | undefined> = {
    ...process.env,
    RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE: RATE_LIMIT,
    RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: RATE_LIMIT,
    RATE_LIMIT_PROOF_PRO_PER_HOUR: RATE_LIMIT,
  };
  // Only PostgreSQL is needed (no Temporal server is started).
  const { config, infra } = await benchInfrastructure(run, appEnv, { temporal: false });
  run.signal.throwIfAborted();

  const runId = randomBytes(4).toString('hex');
  const {
    db,
    description,
    url: databaseUrl,
  } = await openBenchDatabase(infra, config, `tenant_bench_proof_${runId}`, run);
  await migrateLatest(db);
  const merchantIds: string[] = [];
  if (!infra.adminDatabaseUrl)
    run.defer("delete this run's merchants and their rows", () => deleteBenchMerchants(db, merchantIds));

  // Every statement sent on the pool (the app's and the bare side's; the two never overlap), for statements per creation.
  let sent = 0;
  db.on('query', () => void sent++);
  const statements = {
    mark: () => {
      const from = sent;
      return { since: () => sent - from };
    },
  };

  const sink = warningSink();
  const logger = createLogger({ level: 'warn', name: 'bench-proof' }, sink.stream);
  const secretBox = createSecretBox(generateSecretsKey());
  const quotedAtomic = decimalToAtomic(AMOUNT_USDC)!;
  // The baseline route's state: the scenario's merchants and the next amount delta (set past the API's rows).
  let scenarioMerchants: BenchMerchant[] = [];
  let nextDelta = 0n;
  const appUrl = await serveApp(
    run,
    { db, logger, config, secretBox },
    {
      proofRoutes: [
        baselineInsertRoute({
          merchants: () => scenarioMerchants,
          nextDelta: () => nextDelta++,
        }),
      ],
    },
  );

  const c = opts.concurrency;
  const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
  const scenarios: Scenario[] = [
    {
      label: `1 merchant, 1 wallet, ${plural(c, 'client')}`,
      note: 'every creation holds the merchant row lock (quota, event order) and the wallet row lock (unique delta) until it commits, so the clients take turns',
      serialised: true,
      merchants: 1,
      webhook: false,
    },
    {
      label: `${plural(c, 'merchant')}, 1 wallet each`,
      note: 'no row lock is shared between merchants (only the per-IP rate-limit counter, reserved many hits at a time): creations overlap',
      serialised: false,
      merchants: c,
      webhook: false,
    },
    {
      label: `${plural(c, 'merchant')} + webhook endpoint`,
      note: 'as above, plus the endpoint read (FOR SHARE), a proof_events insert and its delivery per creation',
      serialised: false,
      merchants: c,
      webhook: true,
    },
  ];
  const checks: Check[] = [];
  const check = (ok: boolean, text: string) => checks.push({ ok, text });
  const results: ScenarioResult[] = [];

  /**
   * Merchants, then the API's warm-up + N creations, then the baseline's warm-up + N requests (same stack, one
   * INSERT), then the bare side's warm-up + N inserts, then the checks.
   */
  const runScenario = async (s: Scenario, tag: string, n: number, measured: boolean) => {
    run.signal.throwIfAborted();
    const merchants: BenchMerchant[] = [];
    for (let i = 0; i < s.merchants; i++) {
      const m = await createBenchMerchant(db, {
        name: `bench-proof-${runId}-${tag}-${i + 1}`,
        webhook: s.webhook,
        secretBox,
        now: new Date(),
      });
      merchantIds.push(m.id);
      merchants.push(m);
    }
    scenarioMerchants = merchants;
    const merchantOf = (client: number) => merchants[client % merchants.length]!;
    const warmup = measured ? WARMUP_PER_CLIENT : 0;
    const clients = Array.from({ length: c }, (_, i) => ({
      key: merchantOf(i).key,
      walletId: merchantOf(i).wallet.id,
    }));

    progress(`${s.label}: ${warmup * c} warm-up + ${n} POST /proof/v1/requests, ${c} in flight`);
    const apiStatements = statements.mark();
    const elu = recordEventLoopUtilization();
    const loading = runProofLoad(
      {
        baseUrl: appUrl,
        clients,
        amountUsdc: AMOUNT_USDC,
        description: DESCRIPTION,
        warmupPerClient: warmup,
        n,
        idemPrefix: `bench_${runId}_${tag}_`,
      },
      run.signal,
    );
    const load = await loading.finally(() => elu.stop());
    const all: ProofCreation[] = [...load.warmup, ...load.measured];
    const created = all.filter((x) => x.status === 201);
    const api: SideResult = {
      n: load.measured.length,
      ok: load.measured.filter((x) => x.status === 201).length,
      other: load.measured.filter((x) => x.status !== 201).length,
      seconds: load.seconds,
      latenciesMs: load.measured.map((x) => x.ms),
      doneAtMs: load.measured.filter((x) => x.status === 201).map((x) => x.doneAt),
      mainThreadBusy: elu.between(load.measuredFrom, load.measuredTo),
      statementsEach: apiStatements.since() / all.length,
    };

    progress(
      `${s.label}: ${warmup * c} warm-up + ${n} POST ${BASELINE_PATH} (the same stack, one INSERT), ${c} in flight`,
    );
    const maxApiDelta = created.reduce(
      (m, x) => Math.max(m, Number(BigInt(x.amountAtomic!) - BigInt(x.quotedAtomic!))),
      0,
    );
    nextDelta = BigInt(maxApiDelta + 1);
    const stackStatements = statements.mark();
    const stackElu = recordEventLoopUtilization();
    const stackLoad = await runProofLoad(
      {
        baseUrl: appUrl,
        path: BASELINE_PATH,
        clients,
        amountUsdc: AMOUNT_USDC,
        description: DESCRIPTION,
        warmupPerClient: warmup,
        n,
        idemPrefix: `bench_${runId}_${tag}_s`,
      },
      run.signal,
    ).finally(() => stackElu.stop());
    const stackAll: ProofCreation[] = [...stackLoad.warmup, ...stackLoad.measured];
    const stackCreated = stackAll.filter((x) => x.status === 201);
    const stack: SideResult = {
      n: stackLoad.measured.length,
      ok: stackLoad.measured.filter((x) => x.status === 201).length,
      other: stackLoad.measured.filter((x) => x.status !== 201).length,
      seconds: stackLoad.seconds,
      latenciesMs: stackLoad.measured.map((x) => x.ms),
      doneAtMs: stackLoad.measured.filter((x) => x.status === 201).map((x) => x.doneAt),
      mainThreadBusy: stackElu.between(stackLoad.measuredFrom, stackLoad.measuredTo),
      statementsEach: stackStatements.since() / stackAll.length,
    };

    progress(`${s.label}: ${warmup * c} warm-up + ${n} bare INSERTs, ${c} in flight`);
    const bareStatements = statements.mark();
    const bare = await runBareInserts(
      db,
      {
        merchantOf,
        quotedAtomic,
        firstDelta: Number(nextDelta),
        description: DESCRIPTION,
        validHours: DEFAULT_VALID_HOURS,
        warmup: warmup * c,
        n,
        concurrency: c,
      },
      run.signal,
    );

    bare.side.statementsEach = bareStatements.since() / (warmup * c + n);
    const statuses = new Map<number, number>();
    for (const x of all) statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
    const serverErrors = all.filter((x) => x.status >= 500 || x.status === 0).length;
    const firstProblem = all.find((x) => x.status !== 201)?.problem;
    const statusText = [...statuses]
      .map(([status, count]) => `${status === 0 ? 'no answer' : status} x${count}`)
      .join(', ');
    const stackProblem = stackAll.find((x) => x.status !== 201);
    check(
      stackCreated.length === stackAll.length,
      `${s.label}: ${stackCreated.length}/${stackAll.length} POST ${BASELINE_PATH} answered 201${stackProblem ? `; first problem: ${stackProblem.status} ${stackProblem.problem ?? ''}` : ''}`,
    );
    check(
      created.length === all.length && serverErrors === 0 && bare.problems.length === 0,
      `${s.label}: ${created.length}/${all.length} POSTs answered 201 (${warmup * c} warm-up + ${n}), ${serverErrors} 5xx or no answer (${statusText})` +
        `${firstProblem ? `; first problem: ${firstProblem}` : ''}; ${bare.problems.length} bare inserts failed${bare.problems.length ? ` (first: ${bare.problems[0]})` : ''}`,
    );
    if (!measured) return;
    results.push({ label: s.label, note: s.note, serialised: s.serialised, api, stack, bare: bare.side });
    const stats = await proofRunStats(
      db,
      merchants.map((m) => m.id),
      created.map((x) => x.id!),
    );
    const expectedEvents = s.webhook ? created.length : 0;
    check(
      stats.apiRows === created.length &&
        stats.rows === created.length + stackCreated.length + bare.inserted &&
        stats.storedResponses === created.length + stackCreated.length,
      `${s.label}: the database holds ${stats.apiRows} rows for the ${created.length} 201s (+${stats.rows - stats.apiRows} baseline and bare rows for ${stackCreated.length} + ${bare.inserted}) and ${stats.storedResponses} stored responses (expected ${created.length + stackCreated.length})`,
    );
    check(
      stats.walletsWithDuplicateAmounts === 0 && stats.apiDelta.min >= 1 && stats.apiDelta.max <= Number(DELTA_MAX),
      `${s.label}: every amount_atomic is distinct per wallet (${s.merchants} wallet${s.merchants > 1 ? 's' : ''}, ${stats.walletsWithDuplicateAmounts} with a duplicate); API deltas ${stats.apiDelta.min}..${stats.apiDelta.max} atomic units`,
    );
    check(
      stats.events === expectedEvents && load.connections <= c,
      `${s.label}: ${stats.events} proof_events (expected ${expectedEvents}: ${s.webhook ? 'one per creation' : 'no endpoint, no events'}); the client opened ${load.connections} connections for ${c} in flight`,
    );
  };

  // An untimed round first, on merchants of its own, so the first measured row does not pay for the JIT and the caches.
  const warmupRound: Scenario = {
    label: `warm-up round (not reported, ${plural(c, 'merchant')} + endpoints)`,
    note: '',
    serialised: false,
    merchants: c,
    webhook: true,
  };
  await runScenario(warmupRound, 'w', WARMUP_ROUND_PER_CLIENT * c, false);

  memory.push({ label: 'before the measured phases', sample: sampleMemory() });
  const sampler = startMemorySampler(250);
  let peak: MemorySample;
  try {
    for (const [index, s] of scenarios.entries()) await runScenario(s, String(index + 1), opts.n, true);
  } finally {
    peak = sampler.stop();
  }
  memory.push({ label: 'peak during the measured phases (250 ms samples)', sample: peak });

  // The one-wallet-per-merchant row again on 1 and P API processes as deployed (api/main.ts), clients spread over them.
  const scaled: ScaledRow[] = [];
  if (opts.processes > 0) {
    const urls = await startApiProcesses(
      { n: opts.processes, databaseUrl, env: { ...appEnv, LOG_LEVEL: 'warn' }, readyPath: '/x402/health' },
      progress,
      run,
    );
    const perMerchant = results.find((r) => !r.serialised && !r.label.includes('webhook'));
    for (const k of [...new Set([1, opts.processes])]) {
      run.signal.throwIfAborted();
      const merchants: BenchMerchant[] = [];
      for (let i = 0; i < c; i++) {
        const m = await createBenchMerchant(db, {
          name: `bench-proof-${runId}-p${k}-${i + 1}`,
          webhook: false,
          secretBox,
          now: new Date(),
        });
        merchantIds.push(m.id);
        merchants.push(m);
      }
      progress(
        `${k} API process(es): ${WARMUP_PER_CLIENT * c} warm-up + ${opts.n} POST /proof/v1/requests, ${c} in flight`,
      );
      const lanes = urls
        .slice(0, k)
        .map((url, p) => ({ url, clients: merchants.filter((_, i) => i % k === p) }))
        .filter((l) => l.clients.length > 0);
      const loads = await Promise.all(
        lanes.map((lane, p) =>
          runProofLoad(
            {
              baseUrl: lane.url,
              clients: lane.clients.map((m) => ({ key: m.key, walletId: m.wallet.id })),
              amountUsdc: AMOUNT_USDC,
              description: DESCRIPTION,
              warmupPerClient: WARMUP_PER_CLIENT,
              n: Math.floor(opts.n / lanes.length) + (p < opts.n % lanes.length ? 1 : 0),
              idemPrefix: `bench_${runId}_p${k}_${p}_`,
            },
            run.signal,
          ),
        ),
      );
      const measured = loads.flatMap((l) => l.measured);
      const seconds =
        (Math.max(...loads.map((l) => l.measuredTo)) - Math.min(...loads.map((l) => l.measuredFrom))) / 1000;
      const created = measured.filter((x) => x.status === 201).length;
      const all = loads.flatMap((l) => [...l.warmup, ...l.measured]);
      check(
        all.every((x) => x.status === 201),
        `${k} API process(es): ${all.filter((x) => x.status === 201).length}/${all.length} POSTs answered 201${all.find((x) => x.status !== 201)?.problem ? `; first problem: ${all.find((x) => x.status !== 201)?.problem}` : ''}`,
      );
      scaled.push({
        processes: k,
        created,
        seconds,
        latenciesMs: measured.map((x) => x.ms),
        bareRate: perMerchant ? perMerchant.bare.ok / perMerchant.bare.seconds : Number.NaN,
      });
    }
  }
  memory.push({ label: 'after the measured phases', sample: sampleMemory() });

  const cpu = os.cpus();
  const report = {
    machine: `node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    n: opts.n,
    concurrency: c,
    warmupPerClient: WARMUP_PER_CLIENT,
    database:
      `${description}, pool max ${config.database.poolMax}${c > config.database.poolMax ? ` (below the ${c} clients: both sides queue for connections)` : ''}; ` +
      `/proof/v1 rate limits ${RATE_LIMIT} per key and per IP per minute and pro creations per hour (every request still counted, through reservations of the shared counters); pro plan`,
    body: `{"wallet_id":"wal_…","amount_usdc":"${AMOUNT_USDC}","description":"${DESCRIPTION}"} + a new Idempotency-Key -> 201; logs at warn`,
    scenarios: results,
    scaled,
    memory,
    checks,
    appWarnings: sink.warnings(),
  };
  process.stdout.write(formatReport(report));
  return isHealthy(report);
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });

/**
 * Webhook delivery benchmark: the same N signed POSTs to a local 127.0.0.1 receiver, sent
 *   1. by a plain loop calling postWithPolicy (a few in flight), and
 *   2. by the platform's delivery path: enqueueDelivery -> webhookDeliveryWorkflow -> sendAttempt/settleDelivery
 *      on an in-process Temporal worker, with a real PostgreSQL database,
 * and prints deliveries/second side by side with their ratio, latency percentiles and process memory.
 *
 * Run: npm run bench:webhooks -- --n 200   (or BENCH_N=200 npx tsx bench/webhooks.ts). See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { loadConfig, type Config } from '../config/schema.js';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { createSecretBox, generateSecretsKey } from '../adapters/crypto/secret-box.js';
import { signBody } from '../adapters/webhooks/sign.js';
import { createSystemResolver, postWithPolicy } from '../adapters/webhooks/http-delivery.js';
import { ensureInfrastructure, type Infrastructure } from '../cli/infrastructure.js';
import { createDb, type Db } from '../db/connection.js';
import { migrateLatest } from '../db/migrate.js';
import { createEndpoint } from '../db/repositories/webhooks.repo.js';
import { createPlatformWorker, workflowsPath } from '../workers/worker.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { connectWorkflowGateway } from '../api/temporal/workflow-client.js';
import { enqueueDelivery } from '../api/temporal/deliveries.js';
import type { DeliveryWorkflowResult } from '../workflows/webhooks/delivery.workflow.js';
import { startBenchReceiver } from './lib/receiver.js';
import { fmt, percentile, runPool, sampleMemory, startMemorySampler, table, withDeadline, type MemorySample } from './lib/measure.js';

const SECRET = 'whsec_bench';
const EVENT_TYPE = 'job.completed';
const WARMUP = 5;
/** The event-loop delay histogram records whole timer intervals: subtract the interval to get the lag. */
const LOOP_DELAY_RESOLUTION_MS = 10;
const lag = (ns: number) => Math.max(0, ns / 1e6 - LOOP_DELAY_RESOLUTION_MS);

// ---------------------------------------------------------------------------------------------- options

interface Options {
  n: number;
  /** POSTs in flight in the plain loop. */
  concurrency: number;
  /** enqueueDelivery calls (DB insert + workflow start) in flight. */
  startConcurrency: number;
}

const USAGE = `usage: tsx bench/webhooks.ts [--n N] [--concurrency C] [--start-concurrency S]
  --n                  deliveries per side, 1..5000 (default: BENCH_N or 200)
  --concurrency        POSTs in flight in the plain loop, 1..64 (default 8)
  --start-concurrency  workflow starts in flight, 1..256 (default 16)`;

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      n: { type: 'string' },
      concurrency: { type: 'string' },
      'start-concurrency': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const int = (name: string, raw: string | undefined, def: number, min: number, max: number) => {
    if (raw === undefined || raw.trim() === '') return def;
    const v = Number(raw);
    if (!Number.isInteger(v) || v < min || v > max) throw new Error(`${name} must be an integer in ${min}..${max} (got ${raw})`);
    return v;
  };
  return {
    n: int('--n', values.n ?? process.env['BENCH_N'], 200, 1, 5000),
    concurrency: int('--concurrency', values.concurrency, 8, 1, 64),
    startConcurrency: int('--start-concurrency', values['start-concurrency'], 16, 1, 256),
  };
}

// -------------------------------------------------------------------------------------- clean-up stack

const cleanups: Array<{ label: string; run: () => Promise<void> }> = [];
const defer = (label: string, run: () => Promise<void>) => cleanups.push({ label, run });

async function runCleanups(): Promise<void> {
  for (const { label, run } of cleanups.splice(0).reverse()) {
    try {
      await withDeadline(run(), 30_000, label);
    } catch (e) {
      progress(`clean-up "${label}" failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

const abort = new AbortController();
function onSignal(signal: NodeJS.Signals) {
  if (abort.signal.aborted) {
    progress(`${signal} again: exiting without clean-up`);
    process.exit(130);
  }
  progress(`${signal}: stopping and cleaning up (press again to exit at once)`);
  abort.abort(new Error(`interrupted by ${signal}`));
}

// ------------------------------------------------------------------------------------------- database

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database on the embedded server (dropped at the end), or the configured DATABASE_URL as is (only the
 * rows of this run's tenant are deleted at the end).
 */
async function openBenchDatabase(infra: Infrastructure, config: Config, tenantId: string): Promise<{ db: Db; where: string }> {
  const opts = { poolMax: config.database.poolMax, applicationName: 'paycore-bench' };
  if (infra.adminDatabaseUrl) {
    const name = `bench_${randomBytes(6).toString('hex')}`;
    await adminQuery(infra.adminDatabaseUrl, `CREATE DATABASE ${name}`);
    const adminUrl = infra.adminDatabaseUrl;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = createDb(url.toString(), opts);
    defer(`drop database ${name}`, async () => {
      await db.destroy();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
    return { db, where: `embedded PostgreSQL, database ${name} (dropped at the end)` };
  }
  const db = createDb(infra.databaseUrl, opts);
  defer('close database', () => db.destroy());
  defer(`delete rows of tenant ${tenantId}`, async () => {
    const endpoints = db('webhook_endpoints').select('id').where({ tenant_id: tenantId });
    const deliveries = db('webhook_deliveries').select('id').whereIn('endpoint_id', endpoints);
    await db('webhook_delivery_attempts').whereIn('delivery_id', deliveries).delete();
    await db('webhook_deliveries').whereIn('endpoint_id', endpoints).delete();
    await db('webhook_endpoints').where({ tenant_id: tenantId }).delete();
  });
  return { db, where: 'DATABASE_URL (this run\'s rows are deleted at the end)' };
}

// ---------------------------------------------------------------------------------------------- bodies

function eventBody(eventId: string, i: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: eventId,
      type: EVENT_TYPE,
      created_at: '2026-11-22T00:00:00.000Z',
      data: { job_id: `job_bench_${String(i).padStart(6, '0')}`, status: 'succeeded', result_url: 'https://example.com/results/abcdef' },
    }),
  );
}

// ------------------------------------------------------------------------------------------------ main

interface PhaseResult {
  seconds: number;
  ok: number;
  failed: number;
  latenciesMs: number[];
}

async function main(opts: Options): Promise<void> {
  const config = loadConfig({ ...process.env, WEBHOOK_TEST_ALLOW_LOOPBACK: 'true' });
  const logger = createLogger({ level: 'warn', name: 'bench' });
  installTemporalRuntime(logger);
  const memBeforeInfra = sampleMemory();

  const infra = await ensureInfrastructure(config, progress, { fsync: false });
  defer('stop infrastructure', () => infra.stop());
  abort.signal.throwIfAborted();

  const runId = randomBytes(4).toString('hex');
  const tenantId = `tenant_bench_${runId}`;
  const { db, where } = await openBenchDatabase(infra, config, tenantId);
  await migrateLatest(db);

  const receiver = await startBenchReceiver(SECRET);
  defer('close receiver', () => receiver.close());
  const resolver = createSystemResolver();
  const postOpts = { resolver, allowLoopbackForTests: config.webhooks.allowLoopbackForTests };

  // ---- 1. plain loop: sign + postWithPolicy, `concurrency` in flight, same body bytes every time.
  const plainBody = eventBody('evt_bench_plain', 0);
  const plainPost = async (eventId: string): Promise<number | null> => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'x-service-timestamp': String(timestamp),
      'x-service-signature': signBody(SECRET, timestamp, plainBody),
      'x-service-event-id': eventId,
    };
    const r = await postWithPolicy(receiver.url, headers, plainBody, postOpts);
    return r.statusCode;
  };
  progress(`plain loop: ${WARMUP} warm-up + ${opts.n} POSTs, ${opts.concurrency} in flight`);
  for (let i = 0; i < WARMUP; i++) await plainPost(`evt_bench_plain_warmup_${i}`);
  const plain: PhaseResult = { seconds: 0, ok: 0, failed: 0, latenciesMs: [] };
  const plainStart = performance.now();
  await runPool(
    opts.n,
    opts.concurrency,
    async (i) => {
      const t = performance.now();
      const status = await plainPost(`evt_bench_plain_${i}`);
      plain.latenciesMs.push(performance.now() - t);
      if (status === 200) plain.ok++;
      else plain.failed++;
    },
    abort.signal,
  );
  plain.seconds = (performance.now() - plainStart) / 1000;
  const receivedAfterPlain = receiver.count;

  // ---- 2. workflow engine: in-process worker on its own task queue, prebuilt bundle.
  progress('bundling workflows');
  const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: new DefaultLogger('WARN') });
  abort.signal.throwIfAborted();
  const secretBox = createSecretBox(generateSecretsKey());
  const taskQueue = `bench-webhooks-${runId}`;
  const memBeforeWorker = sampleMemory();
  const { worker, connection } = await createPlatformWorker({
    address: infra.temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue,
    activityDeps: { db, logger, secretBox, resolver, allowLoopbackForTests: config.webhooks.allowLoopbackForTests },
    workflowBundle: { code },
    shutdownGraceMs: 5000,
    identity: `bench-webhooks-${process.pid}`,
  });
  const running = worker.run();
  defer('stop worker', async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await connection.close();
  });
  const gw = await connectWorkflowGateway({ address: infra.temporalAddress, namespace: config.temporal.namespace, taskQueue });
  defer('close workflow client', () => gw.close());

  const endpoint = await createEndpoint(db, {
    interface: 'v1',
    tenantId,
    url: receiver.url,
    events: [EVENT_TYPE],
    secretSealed: secretBox.seal(SECRET),
  });

  /** Enqueues one delivery and resolves when its workflow has completed, with the end-to-end latency. */
  const deliverOne = async (eventId: string, i: number): Promise<{ result: DeliveryWorkflowResult; ms: number }> => {
    const t = performance.now();
    const { workflowId } = await enqueueDelivery(db, gw, { endpoint, eventId, eventType: EVENT_TYPE, body: eventBody(eventId, i) });
    const result = (await gw.client.workflow.getHandle(workflowId).result()) as DeliveryWorkflowResult;
    return { result, ms: performance.now() - t };
  };

  progress(`workflow engine: ${WARMUP} warm-up + ${opts.n} deliveries, ${opts.startConcurrency} starts in flight, task queue ${taskQueue}`);
  const warmup = Promise.all(Array.from({ length: WARMUP }, (_, i) => deliverOne(`evt_bench_wf_warmup_${runId}_${i}`, i)));
  warmup.catch(() => undefined); // reported through withDeadline; never an unhandled rejection
  await withDeadline(
    warmup,
    60_000,
    'the warm-up deliveries',
    abort.signal,
  );

  const wf: PhaseResult = { seconds: 0, ok: 0, failed: 0, latenciesMs: [] };
  const memBefore = sampleMemory();
  const sampler = startMemorySampler(250);
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  const cpuBefore = process.cpuUsage();
  const completions: Array<Promise<void>> = [];
  const errors: string[] = [];
  const wfStart = performance.now();
  let wfEnd = wfStart;
  let startsDoneSeconds = Number.NaN;
  const phase = (async () => {
    await runPool(
      opts.n,
      opts.startConcurrency,
      async (i) => {
        const t = performance.now();
        const eventId = `evt_bench_wf_${runId}_${i}`;
        const { workflowId } = await enqueueDelivery(db, gw, { endpoint, eventId, eventType: EVENT_TYPE, body: eventBody(eventId, i) });
        // Wait for the result without holding a start slot.
        completions.push(
          gw.client.workflow
            .getHandle(workflowId)
            .result()
            .then((r: DeliveryWorkflowResult) => {
              wfEnd = performance.now();
              wf.latenciesMs.push(wfEnd - t);
              if (r.status === 'delivered') wf.ok++;
              else wf.failed++;
            }, (e: unknown) => {
              wf.failed++;
              errors.push(e instanceof Error ? e.message : String(e));
            }),
        );
      },
      abort.signal,
    );
    startsDoneSeconds = (performance.now() - wfStart) / 1000;
    await Promise.all(completions);
  })();
  phase.catch(() => undefined); // reported through withDeadline; never an unhandled rejection
  let peak: MemorySample;
  try {
    // A healthy local run takes well under a second per 100; retries (60 s apart) would blow this limit.
    await withDeadline(phase, 60_000 + opts.n * 100, 'the workflow phase', abort.signal);
  } finally {
    peak = sampler.stop();
    loopDelay.disable();
  }
  const cpu = process.cpuUsage(cpuBefore);
  wf.seconds = (wfEnd - wfStart) / 1000;
  const memAfter = sampleMemory();

  // ---- checks against the receiver and the database.
  const dbStats = await db('webhook_deliveries')
    .where({ endpoint_id: endpoint.id })
    .andWhere('event_id', 'like', `evt_bench_wf_${runId}_%`)
    .andWhereNot('event_id', 'like', '%warmup%')
    .select(
      db.raw("count(*) filter (where status = 'delivered') as delivered"),
      db.raw('count(*) as total'),
      db.raw('coalesce(sum(attempts), 0) as attempts'),
      db.raw('percentile_cont(0.5) within group (order by extract(epoch from delivered_at - created_at) * 1000) as p50'),
      db.raw('percentile_cont(0.95) within group (order by extract(epoch from delivered_at - created_at) * 1000) as p95'),
    )
    .first();
  // Where the time of one workflow delivery goes (database clock): waiting for the attempt to start (insert,
  // workflow start, workflow task, activity task), the POST itself, then recording the outcome and settling.
  const stages = await db('webhook_deliveries as d')
    .join('webhook_delivery_attempts as a', 'a.delivery_id', 'd.id')
    .where('d.endpoint_id', endpoint.id)
    .andWhere('d.event_id', 'like', `evt_bench_wf_${runId}_%`)
    .andWhereNot('d.event_id', 'like', '%warmup%')
    .andWhere('a.attempt_no', 1)
    .select(
      db.raw('percentile_cont(0.5) within group (order by extract(epoch from a.started_at - d.created_at) * 1000) as queued_p50'),
      db.raw('percentile_cont(0.95) within group (order by extract(epoch from a.started_at - d.created_at) * 1000) as queued_p95'),
      db.raw('percentile_cont(0.5) within group (order by a.duration_ms) as post_p50'),
      db.raw('percentile_cont(0.95) within group (order by a.duration_ms) as post_p95'),
      db.raw('percentile_cont(0.5) within group (order by extract(epoch from d.delivered_at - a.finished_at) * 1000) as settle_p50'),
      db.raw('percentile_cont(0.95) within group (order by extract(epoch from d.delivered_at - a.finished_at) * 1000) as settle_p95'),
    )
    .first();
  const receivedInWorkflowPhase = receiver.count - receivedAfterPlain - WARMUP;

  // ---- report.
  const plainRate = plain.ok / plain.seconds;
  const wfRate = wf.ok / wf.seconds;
  const out: string[] = [];
  out.push('');
  out.push(`webhook delivery benchmark: N=${opts.n} per side, receiver ${receiver.url}, node ${process.version}`);
  out.push(`database: ${where}, pool max ${config.database.poolMax}; Temporal ${infra.temporalAddress}, namespace ${config.temporal.namespace}`);
  out.push('');
  out.push(
    table([
      ['', 'N', 'ok', 'failed', 'seconds', 'deliveries/s', 'p50 latency', 'p95 latency'],
      [`plain loop (${opts.concurrency} in flight)`, String(opts.n), String(plain.ok), String(plain.failed), plain.seconds.toFixed(3), fmt.rate(plainRate), fmt.ms(percentile(plain.latenciesMs, 0.5)), fmt.ms(percentile(plain.latenciesMs, 0.95))],
      [`workflow (${opts.startConcurrency} starts in flight)`, String(opts.n), String(wf.ok), String(wf.failed), wf.seconds.toFixed(3), fmt.rate(wfRate), fmt.ms(percentile(wf.latenciesMs, 0.5)), fmt.ms(percentile(wf.latenciesMs, 0.95))],
    ]),
  );
  out.push('');
  out.push(`ratio workflow / plain: ${fmt.ratio(wfRate / plainRate)}`);
  out.push(
    `workflow latency in the database (created_at -> delivered_at): p50 ${fmt.ms(Number(dbStats?.p50))}, p95 ${fmt.ms(Number(dbStats?.p95))}`,
  );
  out.push(
    `  of which: created -> attempt started p50 ${fmt.ms(Number(stages?.queued_p50))}, p95 ${fmt.ms(Number(stages?.queued_p95))}; ` +
      `POST p50 ${fmt.ms(Number(stages?.post_p50))}, p95 ${fmt.ms(Number(stages?.post_p95))}; ` +
      `attempt finished -> delivered p50 ${fmt.ms(Number(stages?.settle_p50))}, p95 ${fmt.ms(Number(stages?.settle_p95))}`,
  );
  out.push(`  all ${opts.n} workflow starts returned after ${startsDoneSeconds.toFixed(3)} s`);
  out.push(
    `  this process during the workflow phase: CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s over ${wf.seconds.toFixed(2)} s wall ` +
      `(main-thread event-loop delay p50 ${fmt.ms(lag(loopDelay.percentile(50)))}, p99 ${fmt.ms(lag(loopDelay.percentile(99)))}, max ${fmt.ms(lag(loopDelay.max))})`,
  );
  out.push('');
  out.push('worker process memory (rss includes the Rust core and workflow threads; heapUsed is the main isolate only)');
  out.push(
    table([
      ['', 'rss', 'heapUsed'],
      ['at start (before infrastructure)', fmt.mib(memBeforeInfra.rssMiB), fmt.mib(memBeforeInfra.heapUsedMiB)],
      ['before worker start', fmt.mib(memBeforeWorker.rssMiB), fmt.mib(memBeforeWorker.heapUsedMiB)],
      ['before workflow phase', fmt.mib(memBefore.rssMiB), fmt.mib(memBefore.heapUsedMiB)],
      ['peak during (250 ms samples)', fmt.mib(peak.rssMiB), fmt.mib(peak.heapUsedMiB)],
      ['after workflow phase', fmt.mib(memAfter.rssMiB), fmt.mib(memAfter.heapUsedMiB)],
    ]),
  );
  out.push('');
  const checks = [
    `receiver got ${receivedAfterPlain - WARMUP}/${opts.n} plain and ${receivedInWorkflowPhase}/${opts.n} workflow POSTs (+${WARMUP} warm-up each), bad signatures: ${receiver.badSignatures}`,
    `database: ${String(dbStats?.delivered)}/${String(dbStats?.total)} deliveries 'delivered' in ${String(dbStats?.attempts)} attempts`,
  ];
  if (errors.length > 0) checks.push(`${errors.length} workflow results failed, first: ${errors[0]}`);
  out.push(...checks.map((c) => `check: ${c}`));
  const healthy =
    plain.failed === 0 &&
    wf.failed === 0 &&
    receiver.badSignatures === 0 &&
    receivedInWorkflowPhase === opts.n &&
    Number(dbStats?.delivered) === opts.n;
  out.push(healthy ? 'result: OK' : 'result: SOMETHING WENT WRONG (see the checks above)');
  process.stdout.write(`${out.join('\n')}\n`);
  if (!healthy) process.exitCode = 1;
}

let options: Options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
  process.exit(2);
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
try {
  await main(options);
} catch (e) {
  progress(`benchmark failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
} finally {
  progress('cleaning up');
  await runCleanups();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}

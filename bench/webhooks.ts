/**
 * Webhook delivery benchmark: the same N signed POSTs to a local 127.0.0.1 receiver, sent
 *   1. by a plain loop calling postWithPolicy (a few in flight), and
 *   2. by the platform's delivery path: enqueueDelivery (the row, committed) -> the worker's webhook dispatcher (claim,
 *      signed POST, attempt and state recorded) on an in-process platform worker, with a real PostgreSQL database,
 * and prints deliveries/second side by side with their ratio, latency percentiles and process memory.
 *
 * Run: npm run bench:webhooks -- --n 200   (or BENCH_N=200 npx tsx bench/webhooks.ts). See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { createSecretBox, generateSecretsKey } from '../adapters/crypto/secret-box.js';
import { signBody } from '../adapters/webhooks/sign.js';
import { createSystemResolver, postWithPolicy } from '../adapters/webhooks/http-delivery.js';
import { migrateLatest } from '../db/migrate.js';
import { createEndpoint } from '../db/repositories/webhooks.repo.js';
import { workflowsPath } from '../workers/worker.js';
import { startBenchWorker } from './lib/bench-worker.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { enqueueDelivery } from '../services/workflows/deliveries.js';
import { awaitDeliveries, type DeliveryOutcome } from './lib/delivery-outcomes.js';
import { deliveryStats, openBenchDatabase } from './lib/bench-db.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { runPool, sampleMemory, startMemorySampler, withDeadline, type MemorySample } from './lib/measure.js';
import { startBenchReceiver } from './lib/receiver.js';
import { startWorkerProcesses } from './lib/worker-processes.js';
import { formatReport, isHealthy, type PhaseResult } from './lib/webhooks-report.js';
import { benchInfrastructure } from './lib/bench-infrastructure.js';

const SECRET = 'whsec_bench';
const EVENT_TYPE = 'job.completed';
const WARMUP = 5;
/** The event-loop delay histogram records whole timer intervals: subtract the interval to get the lag. */
const LOOP_DELAY_RESOLUTION_MS = 10;

interface Options {
  n: number;
  /** POSTs in flight in the plain loop. */
  concurrency: number;
  /** enqueueDelivery calls (DB insert + workflow start) in flight. */
  startConcurrency: number;
  /** 0: the worker runs in this process; N: N worker processes (bench/lib/worker-process.ts) on the same server. */
  workerProcesses: number;
}

const USAGE = `usage: tsx bench/webhooks.ts [--n N] [--concurrency C] [--start-concurrency S] [--worker-processes W]
  --n                  deliveries per side, 1..5000 (default: BENCH_N or 200)
  --concurrency        POSTs in flight in the plain loop, 1..64 (default 8)
  --start-concurrency  workflow starts in flight, 1..256 (default 16)
  --worker-processes   0: the worker runs in this process (default); 1..8: that many worker processes`;

function parseOptions(argv: string[]): Options {
  const values = benchArgs(argv, ['n', 'concurrency', 'start-concurrency', 'worker-processes'], USAGE);
  return {
    n: intOption('--n', values.n ?? process.env['BENCH_N'], 200, 1, 5000),
    concurrency: intOption('--concurrency', values.concurrency, 8, 1, 64),
    startConcurrency: intOption('--start-concurrency', values['start-concurrency'], 16, 1, 256),
    workerProcesses: intOption('--worker-processes', values['worker-processes'], 0, 0, 8),
  };
}

/** A JSON event of the usual shape and size; the workflow side gets one per event id. */
function eventBody(eventId: string, i: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: eventId,
      type: EVENT_TYPE,
      created_at: '2026-11-22T00:00:00.000Z',
      data: {
        job_id: `job_bench_${String(i).padStart(6, '0')}`,
        status: 'succeeded',
        result_url: 'https://example.com/results/abcdef',
      },
    }),
  );
}

async function main(opts: Options, run: RunLifecycle): Promise<boolean> {
  const memory: { label: string; sample: MemorySample }[] = [
    { label: 'at start (before infrastructure)', sample: sampleMemory() },
  ];
  const env = { ...process.env, WEBHOOK_TEST_ALLOW_LOOPBACK: 'true' };
  const logger = createLogger({ level: 'warn', name: 'bench' });
  installTemporalRuntime(logger);

  const { config, infra } = await benchInfrastructure(run, env);
  run.signal.throwIfAborted();

  const runId = randomBytes(4).toString('hex');
  const tenantId = `tenant_bench_${runId}`;
  const { db, description, url: databaseUrl } = await openBenchDatabase(infra, config, tenantId, run);
  await migrateLatest(db);

  const receiver = await startBenchReceiver(SECRET);
  run.defer('close receiver', () => receiver.close());
  const resolver = createSystemResolver();
  const allowLoopbackForTests = config.webhooks.allowLoopbackForTests;

  // ---- 1. Plain loop: sign + postWithPolicy with `concurrency` in flight, the same body bytes every time.
  const plainBody = eventBody('evt_bench_plain', 0);
  const plainPost = async (eventId: string): Promise<number | null> => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'x-service-timestamp': String(timestamp),
      'x-service-signature': signBody(SECRET, timestamp, plainBody),
      'x-service-event-id': eventId,
    };
    return (await postWithPolicy(receiver.url, headers, plainBody, { resolver, allowLoopbackForTests })).statusCode;
  };
  progress(`plain loop: ${WARMUP} warm-up + ${opts.n} POSTs, ${opts.concurrency} in flight`);
  for (let i = 0; i < WARMUP; i++) await plainPost(`evt_bench_plain_warmup_${i}`);
  const plain: PhaseResult = {
    label: `plain loop (${opts.concurrency} in flight)`,
    n: opts.n,
    ok: 0,
    failed: 0,
    seconds: 0,
    latenciesMs: [],
  };
  const receivedBeforePlain = receiver.count;
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
    run.signal,
  );
  plain.seconds = (performance.now() - plainStart) / 1000;
  const receivedPlain = receiver.count - receivedBeforePlain;

  // ---- 2. Workflow engine: an in-process worker on its own task queue, from a bundle built before timing.
  progress('bundling workflows');
  const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: new DefaultLogger('WARN') });
  run.signal.throwIfAborted();
  const secretsKey = generateSecretsKey();
  const secretBox = createSecretBox(secretsKey);
  const taskQueue = `bench-webhooks-${runId}`;
  memory.push({ label: 'before worker start', sample: sampleMemory() });
  const workers =
    opts.workerProcesses > 0
      ? await startWorkerProcesses(run, opts.workerProcesses, {
          code,
          databaseUrl,
          temporalAddress: infra.temporalAddress,
          taskQueue,
          secretsKey,
        })
      : null;
  if (!workers)
    await startBenchWorker(run, {
      address: infra.temporalAddress,
      namespace: config.temporal.namespace,
      taskQueue,
      activityDeps: { db, logger, secretBox, resolver, allowLoopbackForTests },
      workflowBundle: { code },
      shutdownGraceMs: 5000,
      identity: `bench-webhooks-${process.pid}`,
      tuning: config.temporal.worker,
      dispatch: config.webhooks.dispatch,
    });
  const endpoint = await createEndpoint(db, {
    interface: 'v1',
    tenantId,
    url: receiver.url,
    events: [EVENT_TYPE],
    secretSealed: secretBox.seal(SECRET),
  });

  /** Records the delivery; its commit wakes the dispatcher. */
  const enqueue = (eventId: string, i: number) =>
    enqueueDelivery(db, { endpoint, eventId, eventType: EVENT_TYPE, body: eventBody(eventId, i) });

  progress(
    `delivery path: ${WARMUP} warm-up + ${opts.n} deliveries, ${opts.startConcurrency} enqueues in flight, task queue ${taskQueue}`,
  );
  const warmupPrefix = `evt_bench_wfwarmup_${runId}_`;
  const warmup = (async () => {
    for (let i = 0; i < WARMUP; i++) await enqueue(`${warmupPrefix}${i}`, i);
    await awaitDeliveries(db, { endpointId: endpoint.id, eventIdPrefix: warmupPrefix, n: WARMUP, signal: run.signal });
  })();
  warmup.catch(() => undefined);
  await withDeadline(warmup, 60_000, 'the warm-up deliveries', run.signal);
  const receivedBeforeWorkflow = receiver.count;

  const wf: PhaseResult = {
    label: `dispatcher (${opts.startConcurrency} enqueues in flight)`,
    n: opts.n,
    ok: 0,
    failed: 0,
    seconds: 0,
    latenciesMs: [],
  };
  const workflowErrors: string[] = [];
  memory.push({ label: 'before workflow phase', sample: sampleMemory() });
  const sampler = startMemorySampler(250);
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  // SQL statements of the delivery path by kind (knex 'query' events; the bench's own counting polls excluded).
  const statements = new Map<string, number>();
  const countStatement = (q: { sql?: string }) => {
    const sql = (q.sql ?? '').trimStart();
    if (sql.startsWith('select count(*)')) return;
    const kind = sql.startsWith('insert into "webhook_deliveries"')
      ? 'enqueue (insert)'
      : sql.startsWith('WITH busy')
        ? 'claim'
        : sql.startsWith('WITH f AS')
          ? 'attempts + states (grouped)'
          : sql.split(/\s+/).slice(0, 3).join(' ');
    statements.set(kind, (statements.get(kind) ?? 0) + 1);
  };
  db.on('query', countStatement);
  const cpuBefore = process.cpuUsage();
  // Wall clock (not performance.now) on this side: the finish times come from the database, on the same host clock.
  const wfStart = Date.now();
  const enqueuedAt = new Map<string, number>();
  const prefix = `evt_bench_wf_${runId}_`;
  let startsSeconds = Number.NaN;
  const phase = (async () => {
    await runPool(
      opts.n,
      opts.startConcurrency,
      async (i) => {
        const eventId = `${prefix}${i}`;
        enqueuedAt.set(eventId, Date.now());
        await enqueue(eventId, i);
      },
      run.signal,
    );
    startsSeconds = (Date.now() - wfStart) / 1000;
    return awaitDeliveries(db, { endpointId: endpoint.id, eventIdPrefix: prefix, n: opts.n, signal: run.signal });
  })();
  phase.catch(() => undefined); // reported through withDeadline
  let peak: MemorySample;
  let outcomes: DeliveryOutcome[];
  try {
    // A healthy local run needs well under a second per 10 deliveries; one retry (60 s later) would blow this.
    outcomes = await withDeadline(phase, 60_000 + opts.n * 100, 'the workflow phase', run.signal);
  } finally {
    peak = sampler.stop();
    loopDelay.disable();
  }
  db.off('query', countStatement);
  let wfEnd = wfStart;
  for (const o of outcomes) {
    const finished = o.finishedAt.getTime();
    wfEnd = Math.max(wfEnd, finished);
    wf.latenciesMs.push(finished - enqueuedAt.get(o.eventId)!);
    if (o.status === 'delivered') wf.ok++;
    else {
      wf.failed++;
      workflowErrors.push(`${o.eventId}: ${o.status} after ${o.attempts} attempt(s)`);
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  wf.seconds = (wfEnd - wfStart) / 1000;
  memory.push({ label: 'peak during (250 ms samples)', sample: peak });
  memory.push({ label: 'after workflow phase', sample: sampleMemory() });
  const receivedWorkflow = receiver.count - receivedBeforeWorkflow;

  const lag = (ns: number) => Math.max(0, ns / 1e6 - LOOP_DELAY_RESOLUTION_MS);
  const report = {
    n: opts.n,
    warmup: WARMUP,
    receiverUrl: receiver.url,
    database: description,
    poolMax: config.database.poolMax,
    temporal: `${infra.temporalAddress}, namespace ${config.temporal.namespace}`,
    plain,
    workflow: wf,
    workflowStartsSeconds: startsSeconds,
    workflowCpuSeconds: (cpu.user + cpu.system) / 1e6,
    eventLoopLag: { p50: lag(loopDelay.percentile(50)), p99: lag(loopDelay.percentile(99)), max: lag(loopDelay.max) },
    db: await deliveryStats(db, endpoint.id, `evt_bench_wf_${runId}_`),
    memory,
    received: { plain: receivedPlain, workflow: receivedWorkflow, badSignatures: receiver.badSignatures },
    workflowErrors,
    statements: Object.fromEntries(statements),
    workerProcesses: workers?.length ?? 0,
  };
  process.stdout.write(formatReport(report));
  const w = config.temporal.worker;
  process.stdout.write(
    `worker tuning: ${w.workflowTasks} workflow tasks, ${w.activities} activities, ${w.localActivities} local activities, ${w.cachedWorkflows} cached, ` +
      `${w.workflowPollers} workflow pollers (non-sticky ratio ${w.nonStickyPollRatio}), ${w.activityPollers} activity pollers\n`,
  );
  if (workers)
    process.stdout.write(
      `worker processes: ${workers.length}, peak rss each: ${workers.map((p) => `${(p.peakRss / 2 ** 20).toFixed(1)} MiB`).join(', ')}\n`,
    );
  return isHealthy(report);
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });

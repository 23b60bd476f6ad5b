/**
 * Batches benchmark, in one run on this machine: the same N items of a small PDF operation (a 1-page pdf-rotate)
 *   1. as N single jobs submitted one by one through POST /v1/jobs (all submitted, then all awaited), and
 *   2. as one batch of N items through POST /v1/batches (its `batch:<id>` workflow starting N `job:<id>` children),
 * against the real /v1 API (buildApp + listen) and an in-process worker running the real workflows and runners.
 * Both sides run one job at a time (one active job per company), so what differs is orchestration.
 *
 * Printed side by side: wall time (first request sent -> last item terminal), per-item overhead p50 and p95 (each
 * item's share of the wall time — from the previous item's end, or the first request, to its own end — minus the
 * operation's own run time, `operationMs`, as the activity measured it), and the worker process's memory (rss and
 * heap, peak of 250 ms samples per phase). See bench/README.md.
 *
 * Run: npm run bench:batches -- --items 100
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { createSecretBox, generateSecretsKey } from '../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../adapters/webhooks/http-delivery.js';
import { createFileOperationRunners } from '../adapters/media/operation-runners.js';
import { createFileStore } from '../adapters/storage/file-store.js';
import type { Db } from '../db/connection.js';
import { migrateLatest } from '../db/migrate.js';
import { createCompany, issueCompanyKey } from '../services/company/memberships.js';
import { getCredits, grantCredits } from '../services/processing/credits.js';
import type { WorkflowGateway } from '../services/workflows/workflow-client.js';
import { workflowsPath } from '../workers/worker.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { workflowIds } from '../workflows/task-queues.js';
import type { JobWorkflowResult } from '../workflows/processing/job.workflow.js';
import { samplePdf } from '../support/sample-files.js';
import { startBenchApp, startBenchWorker } from './lib/bench-worker.js';
import { openBenchDatabase } from './lib/bench-db.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import {
  fmt,
  percentile,
  sampleMemory,
  startMemorySampler,
  table,
  withDeadline,
  type MemorySample,
} from './lib/measure.js';
import { v1Client } from './lib/processing-client.js';
import { retireBenchCompany } from './lib/processing-db.js';
import { benchInfrastructure } from './lib/bench-infrastructure.js';

const RATE_LIMIT = '1000000000';
const OPERATION = { operation: 'pdf-rotate', options: { angle: 90 } } as const;

interface Options {
  items: number;
}

const USAGE = `usage: tsx bench/batches.ts [--items N]
  --items  items per side: N single jobs, and one batch of N items, 1..100 (default 100)`;

function parseOptions(argv: string[]): Options {
  const values = benchArgs(argv, ['items'], USAGE);
  return { items: intOption('--items', values.items, 100, 1, 100) };
}

interface Side {
  label: string;
  wallMs: number;
  overheadMs: number[];
  operationMs: number[];
  memory: MemorySample;
  completed: number;
  charged: number;
}

/** Waits (reading the jobs table: no API polling in the measurement) until every job is terminal. */
async function waitTerminal(db: Db, ids: string[], signal: AbortSignal): Promise<void> {
  for (;;) {
    signal.throwIfAborted();
    const [row] = await db('jobs')
      .whereIn('id', ids)
      .whereIn('status', ['completed', 'failed'])
      .count<{ n: string }[]>('* as n');
    if (Number(row!.n) === ids.length) return;
    await sleep(20);
  }
}

/** Each item's share of the wall time minus its operation's run time, in order of completion. */
async function measure(
  db: Db,
  gw: WorkflowGateway,
  label: string,
  ids: string[],
  sentAt: number,
  wallMs: number,
  memory: MemorySample,
): Promise<Side> {
  const rows = await db('jobs')
    .whereIn('id', ids)
    .orderBy('finished_at')
    .select('id', 'status', 'finished_at', 'quoted_credits');
  const overheadMs: number[] = [];
  const operationMs: number[] = [];
  let previous = sentAt;
  let charged = 0;
  for (const r of rows) {
    const wf = (await gw.client.workflow.getHandle(workflowIds.job(r.id)).result()) as JobWorkflowResult;
    const finished = (r.finished_at as Date).getTime();
    const op = wf.operationMs ?? 0;
    operationMs.push(op);
    overheadMs.push(finished - previous - op);
    previous = finished;
    if (r.status === 'completed') charged += r.quoted_credits as number;
  }
  return {
    label,
    wallMs,
    overheadMs,
    operationMs,
    memory,
    completed: rows.filter((r) => r.status === 'completed').length,
    charged,
  };
}

async function main(opts: Options, run: RunLifecycle): Promise<boolean> {
  const storageDir = await mkdtemp(join(os.tmpdir(), 'bench-batches-'));
  run.defer(`remove ${storageDir}`, () => rm(storageDir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    STORAGE_DIR: storageDir,
    RATE_LIMIT_V1_PER_KEY_PER_MINUTE: RATE_LIMIT,
    RATE_LIMIT_V1_PER_IP_PER_MINUTE: RATE_LIMIT,
  };
  const logger = createLogger({ level: 'warn', name: 'bench-batches' });
  installTemporalRuntime(logger);
  const { config, infra } = await benchInfrastructure(run, env);

  const runId = randomBytes(4).toString('hex');
  const { db, description } = await openBenchDatabase(infra, config, `tenant_bench_batches_${runId}`, run);
  await migrateLatest(db);
  const { company, owner } = await createCompany(db, {
    name: `bench-batches-${runId}`,
    ownerEmail: `bench-batches-${runId}@example.com`,
  });
  if (!infra.adminDatabaseUrl) run.defer(`retire company ${company.id}`, () => retireBenchCompany(db, company.id));
  const { secret: apiKey } = await issueCompanyKey(
    db,
    { companyId: company.id, memberId: owner.id, name: 'bench', scopes: ['read', 'write'] },
    new Date(),
  );
  await grantCredits(db, company.id, BigInt(opts.items * 10), 'bench');
  const before = await getCredits(db, company.id);

  progress('bundling workflows');
  const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: new DefaultLogger('WARN') });
  const taskQueue = `bench-batches-${runId}`;
  const gw = await startBenchWorker(run, {
    address: infra.temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue,
    activityDeps: {
      db,
      logger,
      secretBox: createSecretBox(generateSecretsKey()),
      resolver: createSystemResolver(),
      allowLoopbackForTests: false,
      processing: { store: createFileStore(config.storage.dir), runners: createFileOperationRunners() },
    },
    workflowBundle: { code },
    shutdownGraceMs: 5000,
    identity: `bench-batches-${process.pid}`,
  });
  const url = await startBenchApp(run, { db, logger, config, workflows: gw });
  const client = v1Client(url, apiKey);
  const pdf = await client.upload('one-page.pdf', await samplePdf(1));
  const auth = { Authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const deadline = 20 * 60_000;

  // Warm-up: one job, untimed.
  const warm = (await (
    await fetch(`${url}/v1/jobs`, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': `bench-${runId}-warm` },
      body: JSON.stringify({ ...OPERATION, upload_ids: [pdf] }),
    })
  ).json()) as { id: string };
  await withDeadline(waitTerminal(db, [warm.id], run.signal), 120_000, 'the warm-up job', run.signal);

  progress(`single jobs: ${opts.items} × POST /v1/jobs, one by one`);
  let sampler = startMemorySampler(250);
  let sentAt = Date.now();
  let t0 = performance.now();
  const singles: string[] = [];
  for (let i = 0; i < opts.items; i++) {
    const res = await fetch(`${url}/v1/jobs`, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': `bench-${runId}-job-${i}` },
      body: JSON.stringify({ ...OPERATION, upload_ids: [pdf] }),
    });
    if (res.status !== 202) throw new Error(`POST /v1/jobs: ${res.status} ${await res.text()}`);
    singles.push(((await res.json()) as { id: string }).id);
  }
  await withDeadline(waitTerminal(db, singles, run.signal), deadline, 'the single jobs', run.signal);
  let wallMs = performance.now() - t0;
  const single = await measure(db, gw, `${opts.items} single jobs`, singles, sentAt, wallMs, sampler.stop());

  progress(`batch: POST /v1/batches with ${opts.items} items`);
  sampler = startMemorySampler(250);
  sentAt = Date.now();
  t0 = performance.now();
  const res = await fetch(`${url}/v1/batches`, {
    method: 'POST',
    headers: { ...auth, 'Idempotency-Key': `bench-${runId}-batch` },
    body: JSON.stringify({ ...OPERATION, upload_ids: Array(opts.items).fill(pdf) }),
  });
  if (res.status !== 202) throw new Error(`POST /v1/batches: ${res.status} ${await res.text()}`);
  const batch = (await res.json()) as { id: string; jobs: Array<{ id: string }> };
  const children = batch.jobs.map((j) => j.id);
  await withDeadline(waitTerminal(db, children, run.signal), deadline, 'the batch', run.signal);
  wallMs = performance.now() - t0;
  const batched = await measure(db, gw, `1 batch of ${opts.items}`, children, sentAt, wallMs, sampler.stop());
  // The batch's own status follows its last child's: its workflow records it a moment after (untimed).
  const batchEnded = async () => {
    for (;;) {
      run.signal.throwIfAborted();
      const row = await db('batches').where({ id: batch.id }).first('status');
      if (row?.status !== 'processing' && row?.status !== 'queued') return row;
      await sleep(20);
    }
  };
  const batchRow = await withDeadline(batchEnded(), deadline, 'the batch status', run.signal).catch(() =>
    db('batches').where({ id: batch.id }).first('status'),
  );

  const after = await getCredits(db, company.id);
  const sides = [single, batched];
  const rows = [
    [
      '',
      'items',
      'completed',
      'wall s',
      'overhead p50',
      'overhead p95',
      'operation p50',
      'worker rss peak',
      'heap peak',
    ],
    ...sides.map((s) => [
      s.label,
      String(s.overheadMs.length),
      String(s.completed),
      (s.wallMs / 1000).toFixed(2),
      fmt.ms(percentile(s.overheadMs, 0.5)),
      fmt.ms(percentile(s.overheadMs, 0.95)),
      fmt.ms(percentile(s.operationMs, 0.5)),
      fmt.mib(s.memory.rssMiB),
      fmt.mib(s.memory.heapUsedMiB),
    ]),
  ];
  const warmCharged = 2;
  const checks = [
    {
      ok: single.completed === opts.items && batched.completed === opts.items,
      text: `every item completed on both sides (${single.completed} + ${batched.completed} of ${opts.items} each)`,
    },
    { ok: batchRow?.status === 'completed', text: `the batch ended ${batchRow?.status}` },
    {
      ok:
        before.available - after.available === BigInt(single.charged + batched.charged + warmCharged) &&
        after.reserved === before.reserved,
      text: `credits: charged ${single.charged} + ${batched.charged} (+${warmCharged} warm-up); wallet ${before.available} -> ${after.available}, ${after.reserved} reserved`,
    },
  ];
  const cpu = os.cpus();
  process.stdout.write(
    [
      `machine: node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'})`,
      `database: ${description}; temporal: ${infra.temporalAddress}, task queue ${taskQueue}, in-process worker (memory is this process: API + worker)`,
      `operation: ${OPERATION.operation} ${JSON.stringify(OPERATION.options)} of a 1-page PDF, one job at a time (one active job per company)`,
      '',
      table(rows),
      '',
      `ratio batch / singles: wall ${fmt.ratio(batched.wallMs / single.wallMs)}, overhead p50 ${fmt.ratio(percentile(batched.overheadMs, 0.5) / percentile(single.overheadMs, 0.5))}`,
      `memory at end: ${fmt.mib(sampleMemory().rssMiB)} rss`,
      '',
      ...checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.text}`),
      '',
    ].join('\n'),
  );
  return checks.every((c) => c.ok);
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });

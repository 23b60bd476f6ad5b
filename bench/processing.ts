/**
 * Processing benchmark, in one run on this machine: a 20-page PDF rotate and a 3000×2000 image compress
 *   1. as the library call made directly on the file's bytes (adapters/media: rotatePages, compressImage), and
 *   2. as jobs through the real /v1 API (buildApp + listen: upload once, POST /v1/jobs, poll GET /v1/jobs/{id})
 *      and Temporal (an in-process worker running processingJobWorkflow with the real file-operation runners),
 * printed side by side with their ratio, plus the orchestration overhead per job (end to end minus the
 * operation's own time, `operationMs`, as the activity measured it), p50 and p95 over N jobs per operation.
 *
 * Jobs run one at a time (submit, poll every --poll-ms until completed, then the next), interleaved with the
 * direct calls, so no job ever waits for a slot (one active job per company) and the overhead is the platform's,
 * not queueing. See bench/README.md.
 *
 * Run: npm run bench:processing -- --jobs 50
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { createSecretBox, generateSecretsKey } from '../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../adapters/webhooks/http-delivery.js';
import { createFileOperationRunners } from '../adapters/media/operation-runners.js';
import { rotatePages } from '../adapters/media/pdf/pdf-operations.js';
import { compressImage } from '../adapters/media/image/image-operations.js';
import { createFileStore } from '../adapters/storage/file-store.js';
import { migrateLatest } from '../db/migrate.js';
import { createCompany, issueCompanyKey } from '../services/company/memberships.js';
import { getCredits, grantCredits } from '../services/processing/credits.js';
import { serveApp } from './lib/http-stack.js';
import { workflowsPath } from '../workers/worker.js';
import { startBenchApp, startBenchWorker, startProcessingBench } from './lib/bench-worker.js';
import { startWorkerProcesses, type WorkerProcessState } from './lib/worker-processes.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { workflowIds } from '../workflows/task-queues.js';
import type { JobWorkflowResult } from '../workflows/processing/job.workflow.js';
import { samplePdf } from '../support/sample-files.js';
import { openBenchDatabase } from './lib/bench-db.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { sampleMemory, startMemorySampler, withDeadline, type MemorySample } from './lib/measure.js';
import { v1Client } from './lib/processing-client.js';
import { formatParallel, runParallelSubmitters } from './lib/processing-parallel.js';
import { connectWorkflowGateway, type WorkflowGateway } from '../services/workflows/workflow-client.js';
import { retireBenchCompany } from './lib/processing-db.js';
import { sampleNoisyJpeg } from './lib/processing-samples.js';
import { formatReport, isHealthy, type Check, type JobSample, type OperationResult } from './lib/processing-report.js';
import { benchInfrastructure } from './lib/bench-infrastructure.js';

const WARMUP = 2;
const PDF_PAGES = 20;
const IMAGE = { width: 3000, height: 2000 };
/** Keeps the /v1 limiter in the path (counter upserts per request) without ever refusing the polling client. */
const RATE_LIMIT = '1000000000';
/** A healthy job takes a few seconds at most; an activity retry (2 s and more later) still fits. */
const JOB_DEADLINE_MS = 120_000;

interface Options {
  /** Measured jobs per operation. */
  jobs: number;
  /** Interval between the client's GET /v1/jobs/{id} polls. */
  pollMs: number;
  /** The parallel-submitters mode instead (bench/lib/processing-parallel.ts): clients in flight; 0 = off. */
  submitters: number;
  /** Its measured submissions of the one-company row (a company holds at most 100 pending jobs, warm-up included). */
  submissions: number;
  /**
   * A worker running the submitted jobs meanwhile (its slot claims and settlements take the same locks): none, in this
   * process (sharing its event loop and pool with the API), or in a process of its own, as production runs it.
   */
  worker: 'none' | 'in-process' | 'process';
}

const USAGE = `usage: tsx bench/processing.ts [--jobs N] [--poll-ms MS]
       tsx bench/processing.ts --submitters S [--submissions N] [--worker 1]
  --jobs         measured jobs (and direct calls) per operation, 1..1000 (default 50; plus ${WARMUP} warm-up each)
  --poll-ms      interval of the client's GET /v1/jobs/{id} polls, 1..1000 (default 20)
  --submitters   parallel-submitters mode: S clients in flight, 1..32 (POST /v1/jobs timed to the 202, no worker)
  --submissions  its measured submissions in one company, 1..(100 - S) (default 88)
  --worker       a worker runs the submitted jobs meanwhile: 1 in this process (sharing its event loop and pool with
                 the API), process: in a process of its own, as production runs it (default 0: nobody polls, jobs wait)`;

function parseOptions(argv: string[]): Options {
  const values = benchArgs(argv, ['jobs', 'poll-ms', 'submitters', 'submissions', 'worker'], USAGE);
  const submitters = intOption('--submitters', values.submitters, 0, 0, 32);
  return {
    jobs: intOption('--jobs', values.jobs, 50, 1, 1000),
    pollMs: intOption('--poll-ms', values['poll-ms'], 20, 1, 1000),
    submitters,
    submissions: intOption('--submissions', values.submissions, Math.min(88, 100 - submitters), 1, 100 - submitters),
    worker: workerOption(values.worker),
  };
}

function workerOption(raw: string | undefined): Options['worker'] {
  if (raw === 'process') return 'process';
  return intOption('--worker', raw, 0, 0, 1) === 1 ? 'in-process' : 'none';
}

/** One operation measured both ways on the same input. */
interface OperationCase {
  label: string;
  operation: 'pdf-rotate' | 'image-compress';
  filename: string;
  input: Buffer;
  options: Record<string, unknown>;
  /** The library function the operation's runner calls, with the same arguments. */
  direct(input: Buffer): Promise<Uint8Array>;
  uploadId: string;
  /** Output of the first direct call; every later output (direct or job result) must equal it. */
  reference: Buffer | null;
  result: OperationResult;
  completed: number;
  identical: number;
  problems: string[];
}

/**
 * What both modes start from: a temporary STORAGE_DIR, the config with the /v1 rate limits raised (still checked on
 * every request, never refusing), PostgreSQL and Temporal (`ensureInfrastructure`), and a fresh database, migrated.
 */
async function benchSetup(run: RunLifecycle) {
  const storageDir = await mkdtemp(join(os.tmpdir(), 'bench-processing-'));
  run.defer(`remove ${storageDir}`, () => rm(storageDir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    STORAGE_DIR: storageDir,
    RATE_LIMIT_V1_PER_KEY_PER_MINUTE: RATE_LIMIT,
    RATE_LIMIT_V1_PER_IP_PER_MINUTE: RATE_LIMIT,
  };
  const logger = createLogger({ level: 'warn', name: 'bench-processing' });
  installTemporalRuntime(logger);
  const { config, infra } = await benchInfrastructure(run, env);
  run.signal.throwIfAborted();
  const runId = randomBytes(4).toString('hex');
  const { db, description, url } = await openBenchDatabase(infra, config, `tenant_bench_processing_${runId}`, run);
  await migrateLatest(db);
  return { config, logger, infra, runId, db, description, databaseUrl: url };
}

const WORKER_TEXT: Record<Options['worker'], string> = {
  none: 'no worker (jobs wait)',
  'in-process': 'a worker in this process runs the jobs meanwhile',
  process: 'a worker process of its own runs the jobs meanwhile',
};

/** --submitters: POST /v1/jobs from S clients at once beside the natural limit (with --worker 1 a worker runs the jobs). */
async function parallelMain(opts: Options, run: RunLifecycle): Promise<boolean> {
  const { config, logger, infra, runId, db, description, databaseUrl } = await benchSetup(run);
  const secretsKey = generateSecretsKey();
  // Without --worker a task queue no worker polls: the submitted jobs' workflows start and wait (terminated at the end).
  let url: string;
  let gw: WorkflowGateway;
  let workers: WorkerProcessState[] = [];
  if (opts.worker === 'in-process') {
    const bench = await startProcessingBench(run, {
      name: 'bench-submit',
      infra,
      config,
      db,
      logger,
      runners: createFileOperationRunners(),
    });
    ({ url, gw } = bench);
  } else {
    // Without a worker, a task queue no worker polls: the submitted jobs' workflows start and wait (terminated at the
    // end). With --worker process, a worker process of its own polls it (bench/lib/worker-process.ts).
    const taskQueue = `bench-submit-${runId}`;
    if (opts.worker === 'process') {
      progress('bundling workflows');
      const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: new DefaultLogger('WARN') });
      workers = await startWorkerProcesses(run, 1, {
        code,
        databaseUrl,
        temporalAddress: infra.temporalAddress,
        taskQueue,
        secretsKey,
        storageDir: config.storage.dir,
      });
    }
    const client = await connectWorkflowGateway({
      address: infra.temporalAddress,
      namespace: config.temporal.namespace,
      taskQueue,
    });
    run.defer('close the workflow client', () => client.close());
    gw = client;
    url = await startBenchApp(run, { db, logger, config, workflows: gw, secretsKey });
  }
  const pdf = await samplePdf(1);
  const report = await runParallelSubmitters(
    { submitters: opts.submitters, n: opts.submissions },
    {
      db,
      url,
      gw,
      upload: (key) => v1Client(url, key).upload('one-page.pdf', pdf),
      shared: Boolean(infra.adminDatabaseUrl),
      databaseUrl,
      temporalAddress: infra.temporalAddress,
      workers,
    },
    run,
    progress,
  );
  const cpu = os.cpus();
  process.stdout.write(
    `\nprocessing benchmark, parallel submitters: node ${process.version}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'})\n` +
      `database: ${description}, pool max ${config.database.poolMax}; Temporal ${infra.temporalAddress}; ${WORKER_TEXT[opts.worker]}; body: pdf-rotate of a 1-page PDF, a new Idempotency-Key each\n` +
      formatParallel(report),
  );
  return report.checks.every((c) => c.ok);
}

async function main(opts: Options, run: RunLifecycle): Promise<boolean> {
  if (opts.submitters > 0) return parallelMain(opts, run);
  const memory: { label: string; sample: MemorySample }[] = [
    { label: 'at start (before infrastructure)', sample: sampleMemory() },
  ];
  const { config, logger, infra, runId, db, description } = await benchSetup(run);

  // The company first, so that on a shared database its rows are retired after the worker and the app stopped.
  const { company, owner } = await createCompany(db, {
    name: `bench-processing-${runId}`,
    ownerEmail: `bench-processing-${runId}@example.com`,
  });
  if (!infra.adminDatabaseUrl) run.defer(`retire company ${company.id}`, () => retireBenchCompany(db, company.id));
  const { secret: apiKey } = await issueCompanyKey(
    db,
    { companyId: company.id, memberId: owner.id, name: 'bench', scopes: ['read', 'write'] },
    new Date(),
  );
  // Far more than the quotes need (a 20-page rotate is 4 credits, an image compress 2), on top of the trial grant.
  await grantCredits(db, company.id, BigInt((opts.jobs + WARMUP) * 20), 'bench');
  const balanceBefore = await getCredits(db, company.id);

  progress(`generating the inputs: a ${PDF_PAGES}-page PDF and a ${IMAGE.width}x${IMAGE.height} JPEG`);
  const pdf = await samplePdf(PDF_PAGES);
  const jpeg = await sampleNoisyJpeg(IMAGE.width, IMAGE.height);
  const allPages = Array.from({ length: PDF_PAGES }, (_, i) => i + 1);
  const newCase = (
    c: Pick<OperationCase, 'label' | 'operation' | 'filename' | 'input' | 'options' | 'direct'>,
  ): OperationCase => ({
    ...c,
    uploadId: '',
    reference: null,
    result: { operation: c.operation, label: c.label, direct: [], jobs: [] },
    completed: 0,
    identical: 0,
    problems: [],
  });
  const cases = [
    newCase({
      label: `pdf-rotate (${PDF_PAGES} pages, 90°)`,
      operation: 'pdf-rotate',
      filename: `sample-${PDF_PAGES}-pages.pdf`,
      input: pdf,
      options: { angle: 90 },
      // The runner selects every page when `pages` is omitted.
      direct: (input) => rotatePages(input, allPages, 90),
    }),
    newCase({
      label: `image-compress (${IMAGE.width}x${IMAGE.height} -> jpg)`,
      operation: 'image-compress',
      filename: `sample-${IMAGE.width}x${IMAGE.height}.jpg`,
      input: jpeg,
      options: { format: 'jpg', level: 'balanced' },
      direct: async (input) => (await compressImage(input, { format: 'jpg', level: 'balanced' })).data,
    }),
  ];

  // ---- The worker (its own task queue, workflows bundled before timing), the workflow client and the app.
  progress('bundling workflows');
  const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: new DefaultLogger('WARN') });
  run.signal.throwIfAborted();
  const secretBox = createSecretBox(generateSecretsKey());
  const taskQueue = `bench-processing-${runId}`;
  memory.push({ label: 'before worker start', sample: sampleMemory() });
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
      processing: { store: createFileStore(config.storage.dir), runners: createFileOperationRunners() },
    },
    workflowBundle: { code },
    shutdownGraceMs: 5000,
    identity: `bench-processing-${process.pid}`,
  });
  const appUrl = await serveApp(run, { db, logger, config, secretBox, workflows: gw });

  const client = v1Client(appUrl, apiKey);
  for (const c of cases) c.uploadId = await client.upload(c.filename, c.input);

  let seq = 0;
  let charged = 0;
  /** One direct call then one job of `c`; recorded when `measured`. */
  const round = async (c: OperationCase, measured: boolean) => {
    run.signal.throwIfAborted();
    // A fresh copy each time, as the worker reads the file afresh: no cache can recognise a buffer it saw before.
    const input = Buffer.from(c.input);
    const t = performance.now();
    const out = Buffer.from(await c.direct(input));
    const directMs = performance.now() - t;
    c.reference ??= out;
    if (!out.equals(c.reference)) c.problems.push('a direct call gave a different output');

    const n = ++seq;
    const polling = client.submitAndPoll(
      { operation: c.operation, upload_ids: [c.uploadId], options: c.options },
      `bench-${runId}-${n}`,
      opts.pollMs,
      run.signal,
    );
    polling.catch(() => undefined); // awaited through withDeadline
    const polled = await withDeadline(polling, JOB_DEADLINE_MS, `job #${n} (${c.operation})`, run.signal);
    const { job } = polled;
    const result = gw.client.workflow.getHandle(workflowIds.job(job.id)).result() as Promise<JobWorkflowResult>;
    result.catch(() => undefined);
    const wf = await withDeadline(result, JOB_DEADLINE_MS, `the workflow of job #${n}`, run.signal);
    const files = job.result?.files ?? [];
    const problem =
      job.status !== 'completed'
        ? `job ${job.id} ${job.status}: ${job.error_code ?? ''} ${job.error ?? ''}`
        : wf.status !== 'completed' || wf.outages !== 0 || wf.operationMs === null
          ? `workflow of ${job.id} returned ${JSON.stringify(wf)}`
          : files.length !== 1
            ? `job ${job.id} has ${files.length} result files`
            : job.charged_credits !== job.estimated_credits
              ? `job ${job.id} charged ${job.charged_credits} of a quote of ${job.estimated_credits}`
              : !job.started_at || !job.finished_at
                ? `job ${job.id} has no started_at/finished_at`
                : undefined;
    if (problem) {
      c.problems.push(problem);
      return;
    }
    c.completed++;
    charged += job.charged_credits ?? 0;
    if ((await client.download(files[0]!.download_path)).equals(c.reference)) c.identical++;
    else c.problems.push(`the result of job ${job.id} differs from the direct call's output`);
    if (!measured) return;

    const created = Date.parse(job.created_at);
    const started = Date.parse(job.started_at!);
    const finished = Date.parse(job.finished_at!);
    const sample: JobSample = {
      e2eMs: polled.e2eMs,
      operationMs: wf.operationMs!,
      submitMs: polled.submitMs,
      polls: polled.polls,
      parts: {
        toCreated: created - polled.sentAt,
        toProcessing: started - created,
        processing: finished - started,
        toSeen: polled.seenAt - finished,
      },
    };
    c.result.direct.push(directMs);
    c.result.jobs.push(sample);
  };

  progress(`warm-up: ${WARMUP} direct calls and ${WARMUP} jobs per operation (task queue ${taskQueue})`);
  for (let i = 0; i < WARMUP; i++) for (const c of cases) await round(c, false);

  progress(`measuring: ${opts.jobs} direct calls and ${opts.jobs} jobs per operation, one at a time`);
  memory.push({ label: 'before the measured phase', sample: sampleMemory() });
  const sampler = startMemorySampler(250);
  const phaseStarted = performance.now();
  let peak: MemorySample;
  try {
    for (let i = 0; i < opts.jobs; i++) {
      for (const c of cases) await round(c, true);
      if ((i + 1) % 10 === 0 && i + 1 < opts.jobs)
        progress(`  ${i + 1}/${opts.jobs} rounds, ${((performance.now() - phaseStarted) / 1000).toFixed(0)} s`);
    }
  } finally {
    peak = sampler.stop();
  }
  memory.push({ label: 'peak during the measured phase (250 ms samples)', sample: peak });
  memory.push({ label: 'after the measured phase', sample: sampleMemory() });

  const balanceAfter = await getCredits(db, company.id);
  const total = (opts.jobs + WARMUP) * cases.length;
  const completed = cases.reduce((s, c) => s + c.completed, 0);
  const identical = cases.reduce((s, c) => s + c.identical, 0);
  const problems = cases.flatMap((c) => c.problems);
  const checks: Check[] = [
    {
      ok: completed === total,
      text: `${completed}/${total} jobs completed (${WARMUP} warm-up + ${opts.jobs} per operation), each with one result, its quote charged, and a workflow result 'completed' with no outage`,
    },
    {
      ok: identical === total && problems.length === 0,
      text: `${identical}/${total} job results are byte-identical to the direct call's output of their operation${problems.length ? `; first problem: ${problems[0]}` : ''}`,
    },
    {
      ok:
        balanceBefore.available - balanceAfter.available === BigInt(charged) &&
        balanceAfter.reserved === balanceBefore.reserved,
      text: `credits: the jobs charged ${charged}; the wallet went from ${balanceBefore.available} to ${balanceAfter.available} available, ${balanceAfter.reserved} reserved`,
    },
  ];

  const cpu = os.cpus();
  const report = {
    machine: `node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    jobs: opts.jobs,
    warmup: WARMUP,
    pollMs: opts.pollMs,
    database:
      `${description}${infra.adminDatabaseUrl ? '' : `; company ${company.id} stays, suspended (its credit ledger is append-only)`}, ` +
      `pool max ${config.database.poolMax}; /v1 rate limits ${RATE_LIMIT}/min (still checked on every request)`,
    temporal: `${infra.temporalAddress}, namespace ${config.temporal.namespace}, task queue ${taskQueue}, in-process worker`,
    inputs: [
      `${PDF_PAGES}-page PDF, ${pdf.length} bytes: pdf-rotate ${JSON.stringify(cases[0]!.options)}; direct: rotatePages(bytes, [1..${PDF_PAGES}], 90)`,
      `${IMAGE.width}x${IMAGE.height} JPEG (gradients + noise, quality 95), ${jpeg.length} bytes: image-compress ${JSON.stringify(cases[1]!.options)}; direct: compressImage(bytes, same options)`,
    ],
    operations: cases.map((c) => c.result),
    memory,
    checks,
  };
  process.stdout.write(formatReport(report));
  return isHealthy(report);
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });

/**
 * bench:processing's parallel-submitters mode (issue 32 item 5): how long a client waits for its 202 when several
 * clients submit at once, beside the submission's natural limit measured in the same run.
 *
 * No worker polls the task queue: jobs are accepted, their workflows started and left waiting, so what is timed is
 * the submission path alone (the API's `POST /v1/jobs`: key, rate limit, idempotency, company lock, queue limit, quote,
 * reservation, job row, start outbox, commit, workflow start). Rows:
 *   1. one company, `submitters` clients in flight, `n` submissions, each with its own Idempotency-Key;
 *   2. three companies, each key sent three times at once (the same body and Idempotency-Key: one job, two replays);
 *   natural limit: one INSERT of a row per job plus the same workflow start (`startJobWorkflow`), same concurrency.
 * Checks: every answer 202, one job row and one reservation per distinct key, the replays name the first job.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Db } from '../../db/connection.js';
import { grantCredits } from '../../services/processing/credits.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import { startJobWorkflow, type WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { workflowIds } from '../../workflows/task-queues.js';
import { fmt, percentile, runPool, table } from './measure.js';
import { retireBenchCompany } from './processing-db.js';
import type { RunLifecycle } from './lifecycle.js';
import { formatWhere, watchWhere, type WhereReport } from './processing-where.js';
import type { WorkerProcessState } from './worker-processes.js';

export interface ParallelOptions {
  submitters: number;
  n: number;
}

interface Submission {
  status: number;
  ms: number;
  jobId: string | null;
  replayed: boolean;
}

interface Row {
  label: string;
  note: string;
  latenciesMs: number[];
  seconds: number;
  count: number;
  /** SQL statements sent on the pool during the row, and of those the job-slot claims (claimJobSlot's advisory lock). */
  statements: number;
  slotClaims: number;
  where: WhereReport;
}

export interface ParallelReport {
  rows: Row[];
  natural: Row;
  checks: Array<{ ok: boolean; text: string }>;
}

/** A company with a read+write key and credits for `jobs` one-page rotations and more. */
async function benchCompany(db: Db, name: string, jobs: number, run: RunLifecycle, shared: boolean) {
  const { company, owner } = await createCompany(db, { name, ownerEmail: `${name}@example.com` });
  if (!shared) run.defer(`retire company ${company.id}`, () => retireBenchCompany(db, company.id));
  const { secret } = await issueCompanyKey(
    db,
    { companyId: company.id, memberId: owner.id, name: 'bench', scopes: ['read', 'write'] },
    new Date(),
  );
  await grantCredits(db, company.id, BigInt(jobs * 10), 'bench');
  return { id: company.id, key: secret };
}

async function post(url: string, key: string, uploadId: string, idempotencyKey: string): Promise<Submission> {
  const started = performance.now();
  const res = await fetch(`${url}/v1/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ operation: 'pdf-rotate', upload_ids: [uploadId], options: { angle: 90 } }),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let jobId: string | null = null;
  try {
    jobId = (JSON.parse(text) as { id?: string }).id ?? null;
  } catch {
    jobId = null;
  }
  return { status: res.status, ms, jobId, replayed: res.headers.get('idempotent-replayed') === 'true' };
}

/** Ends `job:<id>` of each id (left waiting on a task queue nobody polls); one already closed is skipped. */
async function terminateJobs(gw: WorkflowGateway, ids: readonly string[]): Promise<void> {
  for (const id of ids)
    await gw.client.workflow
      .getHandle(workflowIds.job(id))
      .terminate('bench')
      .catch(() => undefined);
}

async function jobCounts(db: Db, companyId: string): Promise<{ jobs: number; reservations: number }> {
  const [jobs] = await db('jobs').where({ company_id: companyId }).count<Array<{ count: string }>>('* as count');
  const [held] = await db('credit_reservations')
    .where({ company_id: companyId })
    .count<Array<{ count: string }>>('* as count');
  return { jobs: Number(jobs?.count ?? 0), reservations: Number(held?.count ?? 0) };
}

/**
 * Runs the two rows and the natural limit. `upload(key)` uploads the one-page PDF for a company's key and returns its
 * id; `shared` says the database is shared (then the companies are retired by the caller's clean-up).
 */
export async function runParallelSubmitters(
  opts: ParallelOptions,
  deps: {
    db: Db;
    url: string;
    gw: WorkflowGateway;
    upload: (key: string) => Promise<string>;
    shared: boolean;
    databaseUrl: string;
    temporalAddress: string;
    workers: readonly WorkerProcessState[];
  },
  run: RunLifecycle,
  progress: (line: string) => void,
): Promise<ParallelReport> {
  const runId = randomBytes(4).toString('hex');
  const checks: ParallelReport['checks'] = [];
  const check = (ok: boolean, text: string) => checks.push({ ok, text });
  const rows: Row[] = [];
  const s = opts.submitters;
  // Every statement on the pool (the app's and, with --worker, the in-process worker's), and the slot claims among them.
  let sent = 0;
  let claims = 0;
  deps.db.on('query', (q: { sql?: string }) => {
    sent++;
    if (q.sql?.includes('pg_advisory_xact_lock')) claims++;
  });
  const mark = () => {
    const from = { sent, claims };
    const where = watchWhere(deps.db, deps);
    return async () => ({ statements: sent - from.sent, slotClaims: claims - from.claims, where: await where.stop() });
  };

  // Row 1: one company, S clients in flight, each submission a new key.
  const one = await benchCompany(deps.db, `bench-parallel-${runId}-one`, opts.n + s, run, deps.shared);
  const oneUpload = await deps.upload(one.key);
  progress(`1 company: ${s} warm-up + ${opts.n} POST /v1/jobs, ${s} in flight`);
  const warm = await Promise.all(
    Array.from({ length: s }, (_, i) => post(deps.url, one.key, oneUpload, `bench-${runId}-one-w${i}`)),
  );
  const answers: Submission[] = [];
  const counted1 = mark();
  const started = performance.now();
  await runPool(
    opts.n,
    s,
    async (i) => {
      answers.push(await post(deps.url, one.key, oneUpload, `bench-${runId}-one-${i}`));
    },
    run.signal,
  );
  const seconds = (performance.now() - started) / 1000;
  rows.push({
    label: `1 company, ${s} clients`,
    note: 'every submission holds the company lock from its queue-limit check to its commit',
    latenciesMs: answers.map((a) => a.ms),
    seconds,
    count: answers.length,
    ...(await counted1()),
  });
  const all = [...warm, ...answers];
  const ok = all.filter((a) => a.status === 202);
  const distinct = new Set(ok.map((a) => a.jobId));
  const counts = await jobCounts(deps.db, one.id);
  check(
    ok.length === all.length && distinct.size === all.length,
    `1 company: ${ok.length}/${all.length} answered 202 with ${distinct.size} distinct jobs${ok.length < all.length ? `; first other: ${all.find((a) => a.status !== 202)?.status}` : ''}`,
  );
  check(
    counts.jobs === all.length && counts.reservations === all.length,
    `1 company: ${counts.jobs} job rows and ${counts.reservations} credit reservations for ${all.length} keys`,
  );

  // Row 2: three companies, 30 keys each (at most), every key sent three times at once.
  const perCompany = Math.min(30, Math.max(1, Math.floor(opts.n / 3)));
  const companies: Array<{ id: string; key: string; upload: string }> = [];
  for (let c = 0; c < 3; c++) {
    const co = await benchCompany(deps.db, `bench-parallel-${runId}-c${c}`, perCompany, run, deps.shared);
    companies.push({ ...co, upload: await deps.upload(co.key) });
  }
  progress(`3 companies: ${perCompany} keys each, every key sent 3 times at once`);
  const triple: Submission[][] = [];
  const counted2 = mark();
  const t2 = performance.now();
  await runPool(
    perCompany * 3,
    s,
    async (i) => {
      const co = companies[i % 3]!;
      const idem = `bench-${runId}-c${i % 3}-${Math.floor(i / 3)}`;
      triple.push(await Promise.all([0, 1, 2].map(() => post(deps.url, co.key, co.upload, idem))));
    },
    run.signal,
  );
  const seconds2 = (performance.now() - t2) / 1000;
  const flat = triple.flat();
  rows.push({
    label: '3 companies, each key x3 at once',
    note: 'a key sent three times at once: one job, the other two wait for it and replay its answer',
    latenciesMs: flat.map((a) => a.ms),
    seconds: seconds2,
    count: flat.length,
    ...(await counted2()),
  });
  const consistent = triple.filter(
    (t) => t.every((a) => a.status === 202 && a.jobId === t[0]!.jobId) && t.filter((a) => !a.replayed).length === 1,
  ).length;
  let jobs2 = 0;
  for (const co of companies) jobs2 += (await jobCounts(deps.db, co.id)).jobs;
  check(
    consistent === triple.length && jobs2 === triple.length,
    `3 companies: ${consistent}/${triple.length} keys answered 202 three times naming one job (one first answer, two replays); ${jobs2} job rows for ${triple.length} keys`,
  );

  // The natural limit: one INSERT per job plus the same workflow start, same concurrency.
  const table_ = `bench_natural_${runId}`;
  await deps.db.schema.createTable(table_, (t) => {
    t.text('id').primary();
    t.text('company_id').notNullable();
    t.jsonb('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  run.defer(`drop ${table_}`, () => deps.db.schema.dropTableIfExists(table_));
  const naturalIds: string[] = [];
  run.defer('terminate the natural-limit workflows', () => terminateJobs(deps.gw, naturalIds));
  progress(`natural limit: ${opts.n} x (one INSERT + startJobWorkflow), ${s} in flight`);
  const natural: number[] = [];
  const counted3 = mark();
  const t3 = performance.now();
  await runPool(
    opts.n,
    s,
    async (i) => {
      const t = performance.now();
      const id = `job_bench${runId}${String(i).padStart(5, '0')}`;
      await deps.db(table_).insert({
        id,
        company_id: one.id,
        body: JSON.stringify({ operation: 'pdf-rotate', upload_ids: [oneUpload], options: { angle: 90 } }),
        created_at: new Date(),
      });
      await startJobWorkflow(deps.gw, { jobId: id }, { companyId: one.id, operation: 'pdf-rotate' });
      naturalIds.push(id);
      natural.push(performance.now() - t);
    },
    run.signal,
  );
  const natSeconds = (performance.now() - t3) / 1000;
  const natCounts = await counted3();
  // The API's jobs wait on a task queue no worker polls; terminate them too so a shared server keeps nothing running.
  const apiJobs = [...distinct, ...triple.map((t) => t[0]!.jobId)].filter((x): x is string => Boolean(x));
  run.defer('terminate the submitted jobs’ workflows', () => terminateJobs(deps.gw, apiJobs));
  return {
    rows,
    natural: {
      label: 'natural limit: INSERT + workflow start',
      note: 'one INSERT of a row per job and the same workflow start, no lock, no quote',
      latenciesMs: natural,
      seconds: natSeconds,
      count: natural.length,
      ...natCounts,
    },
    checks,
  };
}

export function formatParallel(r: ParallelReport): string {
  const rate = (row: Row) => row.count / row.seconds;
  const natRate = rate(r.natural);
  const line = (row: Row, ratio: string) => [
    row.label,
    String(row.count),
    row.seconds.toFixed(3),
    fmt.rate(rate(row)),
    fmt.ms(percentile(row.latenciesMs, 0.5)),
    fmt.ms(percentile(row.latenciesMs, 0.95)),
    fmt.ms(Math.max(...row.latenciesMs)),
    ratio,
    `${row.statements} (${row.slotClaims} slot claims)`,
  ];
  return [
    '',
    'parallel submitters: POST /v1/jobs (202 answered) beside the natural limit, same run',
    table([
      ['', 'N', 'seconds', 'submissions/s', 'p50', 'p95', 'max', '/ natural limit', 'statements on the pool'],
      ...r.rows.map((row) => line(row, fmt.ratio(rate(row) / natRate))),
      line(r.natural, ''),
    ]),
    ...[...r.rows, r.natural].map((row) => `   ${row.label}: ${row.note}`),
    '',
    ...[...r.rows, r.natural].flatMap((row) => formatWhere(row.label, row.where)),
    '',
    ...r.checks.map((c) => `check ${c.ok ? 'ok    ' : 'FAILED'} ${c.text}`),
    r.checks.every((c) => c.ok) ? 'result: OK' : 'result: SOMETHING WENT WRONG (see the checks above)',
    '',
  ].join('\n');
}

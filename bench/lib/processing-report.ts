import { fmt, percentile, table, type MemorySample } from './measure.js';

/** One measured job: what the client saw, what the worker measured, and the job's own timestamps. */
export interface JobSample {
  /** POST /v1/jobs sent -> GET shows completed. */
  e2eMs: number;
  /** The operation's own run time, measured inside the activity (the workflow's result). */
  operationMs: number;
  /** POST /v1/jobs sent -> 202 read (the API starts the workflow before it answers). */
  submitMs: number;
  /** GET /v1/jobs/{id} requests until completed. */
  polls: number;
  /** Wall-clock parts that add up to the end-to-end time: sent -> created_at -> started_at -> finished_at -> seen. */
  parts: { toCreated: number; toProcessing: number; processing: number; toSeen: number };
}

export interface OperationResult {
  /** The /v1 operation, e.g. pdf-rotate. */
  operation: string;
  label: string;
  /** The same library call made directly on the same bytes, in ms. */
  direct: number[];
  jobs: JobSample[];
}

export interface Check {
  ok: boolean;
  text: string;
}

export interface ProcessingBenchReport {
  machine: string;
  jobs: number;
  warmup: number;
  pollMs: number;
  database: string;
  temporal: string;
  inputs: string[];
  operations: OperationResult[];
  memory: { label: string; sample: MemorySample }[];
  checks: Check[];
}

export const isHealthy = (r: ProcessingBenchReport) => r.checks.every((c) => c.ok);

const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const p50 = (xs: number[]) => percentile(xs, 0.5);
const p95 = (xs: number[]) => percentile(xs, 0.95);
const overhead = (j: JobSample) => j.e2eMs - j.operationMs;

export function formatReport(r: ProcessingBenchReport): string {
  const all = r.operations.flatMap((o) => o.jobs);
  const sideBySide = (o: OperationResult) => {
    const e2e = o.jobs.map((j) => j.e2eMs);
    const op = o.jobs.map((j) => j.operationMs);
    return [
      o.label,
      fmt.ms(p50(o.direct)),
      fmt.ms(p95(o.direct)),
      fmt.ms(p50(op)),
      fmt.ms(p95(op)),
      fmt.ms(p50(e2e)),
      fmt.ms(p95(e2e)),
      fmt.ratio(p50(e2e) / p50(o.direct)),
    ];
  };
  const overheadRow = (label: string, jobs: JobSample[]) => {
    const xs = jobs.map(overhead);
    return [
      label,
      String(jobs.length),
      fmt.ms(p50(xs)),
      fmt.ms(p95(xs)),
      fmt.ms(mean(xs)),
      fmt.ms(Math.min(...xs)),
      fmt.ms(Math.max(...xs)),
    ];
  };
  const meanOverhead = mean(all.map(overhead));
  /** p50 and p95 per operation, then the mean over all jobs and its share of the mean overhead. */
  const part = (label: string, pick: (j: JobSample) => number) => [
    label,
    ...r.operations.flatMap((o) => [fmt.ms(p50(o.jobs.map(pick))), fmt.ms(p95(o.jobs.map(pick)))]),
    fmt.ms(mean(all.map(pick))),
    `${((mean(all.map(pick)) / meanOverhead) * 100).toFixed(0)}%`,
  ];
  /** A table whose rows get a note after their last column. */
  const annotated = (rows: Array<{ cells: string[]; note?: string }>) =>
    table(rows.map((r) => r.cells))
      .split('\n')
      .map((line, i) => (rows[i]?.note ? `${line}   ${rows[i].note}` : line))
      .join('\n');
  const polls = all.map((j) => j.polls);

  const lines = [
    '',
    `processing benchmark: ${r.machine}`,
    `N=${r.jobs} jobs per operation (+${r.warmup} warm-up each, not timed), one job at a time, interleaved with the direct calls; the client polls every ${r.pollMs} ms`,
    `database: ${r.database}`,
    `temporal: ${r.temporal}`,
    ...r.inputs.map((i) => `input: ${i}`),
    '',
    '1. the same operation on the same file: the library called directly vs. a job through the API and Temporal',
    table([
      [
        '',
        'direct p50',
        'direct p95',
        'in worker p50',
        'in worker p95',
        'end to end p50',
        'end to end p95',
        'e2e / direct (p50)',
      ],
      ...r.operations.map(sideBySide),
    ]),
    '   direct: the library function on the bytes in memory. in worker: operationMs, the runner inside the activity',
    '   (reads the upload, checks the page count, calls the same function). end to end: POST /v1/jobs sent -> GET shows completed.',
    '',
    '2. orchestration overhead per job = end to end - operationMs',
    table([
      ['', 'jobs', 'p50', 'p95', 'mean', 'min', 'max'],
      ...r.operations.map((o) => overheadRow(o.label, o.jobs)),
      overheadRow('all jobs', all),
    ]),
    '',
    "3. where the overhead goes (the job's timestamps, this process's clock; means add up, percentiles do not)",
    annotated([
      { cells: ['', ...r.operations.flatMap((o) => [`${o.operation} p50`, 'p95']), 'all: mean', 'of mean'] },
      { cells: part('overhead (end to end - operationMs)', overhead) },
      {
        cells: part('  POST sent -> job created', (j) => j.parts.toCreated),
        note: 'HTTP, key, rate limit, idempotency, quote, reservation',
      },
      {
        cells: part('  created -> processing', (j) => j.parts.toProcessing),
        note: 'commit, workflow start, workflow task, claimJobSlot activity',
      },
      {
        cells: part('  processing -> completed - operationMs', (j) => j.parts.processing - j.operationMs),
        note: 'job and upload rows, result file, activity and workflow tasks, completeJob',
      },
      {
        cells: part('  completed -> seen by the client', (j) => j.parts.toSeen),
        note: `the ${r.pollMs} ms poll interval and the GET`,
      },
    ]),
    `   POST /v1/jobs -> 202 (the API starts the workflow before it answers): p50 ${fmt.ms(p50(all.map((j) => j.submitMs)))}, p95 ${fmt.ms(p95(all.map((j) => j.submitMs)))}; ` +
      `GETs per job: p50 ${p50(polls)}, max ${Math.max(...polls)}`,
    '',
    'process memory (this process hosts the API, the worker and the direct calls; rss includes the Temporal core and the workflow thread)',
    table([
      ['', 'rss', 'heapUsed'],
      ...r.memory.map((m) => [m.label, fmt.mib(m.sample.rssMiB), fmt.mib(m.sample.heapUsedMiB)]),
    ]),
    '',
    ...r.checks.map((c) => `check ${c.ok ? 'ok    ' : 'FAILED'} ${c.text}`),
    isHealthy(r) ? 'result: OK' : 'result: SOMETHING WENT WRONG (see the checks above)',
  ];
  return `${lines.join('\n')}\n`;
}

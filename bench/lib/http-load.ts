import { Worker } from 'node:worker_threads';
import { withDeadline } from './measure.js';

/** One closed-loop HTTP load run: GET (or POST `body` to) `url` with `concurrency` requests in flight on keep-alive connections. */
export interface HttpLoadJob {
  url: string;
  /** When given, every request is a POST of these bytes (with `headers`) instead of a GET. */
  post?: { body: string; headers: Record<string, string> };
  concurrency: number;
  /** Requests are sent but not counted for this long first (connections open, JIT warms up). */
  warmupMs: number;
  /** The measured window. */
  durationMs: number;
  /** A response counts as ok only with this status ... */
  expectStatus: number;
  /** ... and, when given, this header present. */
  expectHeader?: string;
}

export interface HttpLoadResult {
  /** Responses (or failures) completed inside the measured window. */
  requests: number;
  /** Responses (or failures) completed over the whole run, warm-up included (what the server did in that time). */
  completed: number;
  ok: number;
  /** Answered, but not with the expected status/header. */
  unexpected: number;
  /** No answer: connection error or timeout. */
  errors: number;
  /** The first failure seen, warm-up included. */
  firstProblem: string | undefined;
  /** The run stopped early: 200 or more failures, more than successes. */
  stoppedEarly: boolean;
  seconds: number;
  /** TCP connections opened over the whole run (warm-up included): `concurrency` when keep-alive works. */
  connections: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/**
 * Runs the client loop on its own thread (its own event loop, so the client's work does not share the event
 * loop of the servers measured in this process) and resolves with what it counted.
 */
export async function runHttpLoad(job: HttpLoadJob, signal?: AbortSignal): Promise<HttpLoadResult> {
  return runOnThread<HttpLoadResult>(
    new URL('./http-load.worker.ts', import.meta.url),
    job,
    job.warmupMs + job.durationMs + 30_000,
    `the load run on ${job.url}`,
    signal,
  );
}

/**
 * Runs the TypeScript module `body` on a worker thread with `data` as its workerData and resolves with the first
 * message it posts (rejects when the thread fails, exits without a message, or `deadlineMs` passes). The thread
 * loads the module through tsx's register API, because a worker does not inherit the loader `tsx` started with.
 * The thread is terminated either way.
 */
export async function runOnThread<T>(
  body: URL,
  data: unknown,
  deadlineMs: number,
  label: string,
  signal?: AbortSignal,
): Promise<T> {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(body.href)}); });`;
  const worker = new Worker(boot, { eval: true, workerData: data });
  const result = new Promise<T>((resolve, reject) => {
    worker.once('message', (m: T) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread of ${label} exited (code ${code}) without a result`)));
  });
  result.catch(() => undefined); // reported through withDeadline
  try {
    return await withDeadline(result, deadlineMs, label, signal);
  } finally {
    await worker.terminate();
  }
}

/**
 * The same load spread over several servers (API processes) of one app: `concurrency` split as evenly as possible,
 * one loop per server, all at once. Counts are summed; the latency percentiles are the worst server's.
 */
export async function runHttpLoadSpread(
  job: Omit<HttpLoadJob, 'url'>,
  urls: readonly string[],
  signal?: AbortSignal,
): Promise<HttpLoadResult> {
  const results = await Promise.all(
    urls.map((url, i) => {
      const concurrency = Math.floor(job.concurrency / urls.length) + (i < job.concurrency % urls.length ? 1 : 0);
      return runHttpLoad({ ...job, url, concurrency: Math.max(1, concurrency) }, signal);
    }),
  );
  const sum = (pick: (r: HttpLoadResult) => number) => results.reduce((a, r) => a + pick(r), 0);
  const worst = (pick: (r: HttpLoadResult) => number) => Math.max(...results.map(pick));
  return {
    requests: sum((r) => r.requests),
    completed: sum((r) => r.completed),
    ok: sum((r) => r.ok),
    unexpected: sum((r) => r.unexpected),
    errors: sum((r) => r.errors),
    firstProblem: results.find((r) => r.firstProblem)?.firstProblem,
    stoppedEarly: results.some((r) => r.stoppedEarly),
    seconds: worst((r) => r.seconds),
    connections: sum((r) => r.connections),
    p50Ms: worst((r) => r.p50Ms),
    p95Ms: worst((r) => r.p95Ms),
    p99Ms: worst((r) => r.p99Ms),
  };
}

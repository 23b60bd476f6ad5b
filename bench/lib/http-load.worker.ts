/**
 * Body of the load-generator thread started by http-load.ts: keep-alive GETs (or POSTs of one body) of one URL with a fixed number of
 * requests in flight, for a warm-up period (not counted) and then a measured period. Answers the parent with
 * one HttpLoadResult message and ends.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { percentile } from './measure.js';
import type { HttpLoadJob, HttpLoadResult } from './http-load.js';

const REQUEST_TIMEOUT_MS = 10_000;
/** Failed answers after which a run that fails more often than not stops. */
const GIVE_UP_AFTER = 200;

type Outcome = { kind: 'ok' } | { kind: 'unexpected'; what: string } | { kind: 'error'; what: string };

async function run(job: HttpLoadJob): Promise<HttpLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency, maxFreeSockets: job.concurrency });
  const sockets = new WeakSet<Socket>();
  let connections = 0;
  const expectHeader = job.expectHeader?.toLowerCase();

  const once = () =>
    new Promise<Outcome>((resolve) => {
      const post = job.post;
      const options: http.RequestOptions = post
        ? { agent, method: 'POST', headers: { ...post.headers, 'content-length': Buffer.byteLength(post.body) } }
        : { agent };
      const req = http.request(job.url, options, (res) => {
        const status = res.statusCode ?? 0;
        // Read the whole body so the socket goes back to the pool; its content is checked by the parent once.
        res.resume();
        res.on('end', () => {
          if (status !== job.expectStatus) resolve({ kind: 'unexpected', what: `status ${status}` });
          else if (expectHeader && !res.headers[expectHeader])
            resolve({ kind: 'unexpected', what: `no ${expectHeader} header` });
          else resolve({ kind: 'ok' });
        });
        res.on('error', (e) => resolve({ kind: 'error', what: e.message }));
      });
      req.on('socket', (s: Socket) => {
        if (!sockets.has(s)) {
          sockets.add(s);
          connections++;
        }
      });
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', (e) => resolve({ kind: 'error', what: e.message }));
      req.end(post?.body);
    });

  const latencies: number[] = [];
  let ok = 0;
  let unexpected = 0;
  let errors = 0;
  let firstProblem: string | undefined;
  let completed = 0;
  const start = performance.now();
  const measureFrom = start + job.warmupMs;
  const end = measureFrom + job.durationMs;

  // A server that only fails (its database went away, say) is not measured further: stop early.
  let seenOk = 0;
  let seenBad = 0;
  let gaveUp = false;
  const lane = async () => {
    while (performance.now() < end && !gaveUp) {
      const t = performance.now();
      const outcome = await once();
      const done = performance.now();
      completed++;
      if (outcome.kind === 'ok') seenOk++;
      else {
        firstProblem ??= outcome.what;
        if (++seenBad >= GIVE_UP_AFTER && seenBad > seenOk) gaveUp = true;
      }
      // Only completions inside the measured window count (requests in flight at its edges are steady state).
      if (done >= measureFrom && done <= end) {
        latencies.push(done - t);
        if (outcome.kind === 'ok') ok++;
        else if (outcome.kind === 'unexpected') unexpected++;
        else errors++;
      }
      // A refused connection fails at once: do not spin on it.
      if (outcome.kind === 'error') await new Promise((r) => setTimeout(r, 10));
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, lane));
  agent.destroy();
  return {
    requests: latencies.length,
    completed,
    ok,
    unexpected,
    errors,
    firstProblem,
    stoppedEarly: gaveUp,
    seconds: job.durationMs / 1000,
    connections,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
    p99Ms: percentile(latencies, 0.99),
  };
}

const job = workerData as HttpLoadJob;
// A rejection here is an uncaught error of the thread: the parent's 'error' handler reports it.
void run(job).then((result) => parentPort?.postMessage(result));

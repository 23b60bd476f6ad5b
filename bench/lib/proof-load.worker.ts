/**
 * Body of the client thread started by proof-load.ts: POST /proof/v1/requests as an integrator would send it
 * (bearer key, JSON, a new Idempotency-Key each), one lane per client, keep-alive. Answers the parent with one
 * ProofLoadResult message and ends.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import type { ProofCreation, ProofLoadJob, ProofLoadResult } from './proof-load.js';

const REQUEST_TIMEOUT_MS = 30_000;

async function run(job: ProofLoadJob): Promise<ProofLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.clients.length, maxFreeSockets: job.clients.length });
  const sockets = new WeakSet<Socket>();
  let connections = 0;
  const url = new URL(job.path ?? '/proof/v1/requests', job.baseUrl);
  const bodies = job.clients.map((c) =>
    JSON.stringify({ wallet_id: c.walletId, amount_usdc: job.amountUsdc, description: job.description }),
  );

  const post = (client: number, idempotencyKey: string, passStart: number) =>
    new Promise<ProofCreation>((resolve) => {
      const body = bodies[client]!;
      const started = performance.now();
      const done = (status: number, fields: Partial<ProofCreation>) => {
        const now = performance.now();
        resolve({ client, status, ms: now - started, doneAt: now - passStart, ...fields });
      };
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${job.clients[client]!.key}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'idempotency-key': idempotencyKey,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            if (status !== 201) return done(status, { problem: text.slice(0, 300) });
            try {
              const json = JSON.parse(text) as Record<string, unknown>;
              done(status, {
                id: String(json.id),
                walletId: String(json.wallet_id),
                amountAtomic: String(json.amount_atomic),
                quotedAtomic: String(json.quoted_amount_atomic),
              });
            } catch {
              done(status, { problem: `a 201 without a JSON body: ${text.slice(0, 200)}` });
            }
          });
          res.on('error', (e) => done(0, { problem: e.message }));
        },
      );
      req.on('socket', (s: Socket) => {
        if (!sockets.has(s)) {
          sockets.add(s);
          connections++;
        }
      });
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', (e) => done(0, { problem: e.message }));
      req.end(body);
    });

  let seq = 0;
  const key = (phase: 'w' | 'm') => `${job.idemPrefix}${phase}${String(seq++).padStart(6, '0')}`;

  // Warm-up: every lane sends its share, not timed (connections open, JIT and statement caches warm up).
  const warmup: ProofCreation[] = [];
  const warmStart = performance.now();
  await Promise.all(
    job.clients.map(async (_, client) => {
      for (let i = 0; i < job.warmupPerClient; i++) warmup.push(await post(client, key('w'), warmStart));
    }),
  );

  // Measured: n requests, each taken by the next free lane.
  const measured: ProofCreation[] = [];
  let next = 0;
  const measuredFrom = Date.now();
  const start = performance.now();
  await Promise.all(
    job.clients.map(async (_, client) => {
      while (next < job.n) {
        next++;
        measured.push(await post(client, key('m'), start));
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const measuredTo = Date.now();
  agent.destroy();
  return { warmup, measured, seconds, measuredFrom, measuredTo, connections };
}

// A rejection here is an uncaught error of the thread: the parent's 'error' handler reports it.
void run(workerData as ProofLoadJob).then((result) => parentPort?.postMessage(result));

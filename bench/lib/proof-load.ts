import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { runOnThread } from './http-load.js';

/** One client of the load: its merchant's `skp_` key and the wallet its requests are for. */
export interface ProofClient {
  key: string;
  walletId: string;
}

/**
 * A closed loop of `POST /proof/v1/requests`: lane i sends as `clients[i]`, one request at a time, each with a new
 * Idempotency-Key (`<idemPrefix><w|m><seq>`), on keep-alive connections. First `warmupPerClient` requests per lane
 * (not timed), then `n` requests taken by whichever lane is free, timed from the first send to the last answer.
 */
export interface ProofLoadJob {
  baseUrl: string;
  /** What is POSTed to: `/proof/v1/requests` (the default), or the baseline beside it (bench/lib/proof-baseline.ts). */
  path?: string;
  clients: ProofClient[];
  amountUsdc: string;
  description: string;
  warmupPerClient: number;
  n: number;
  /** Letters, digits, `_` and `-`; with the sequence number the key must be 16..80 characters. */
  idemPrefix: string;
}

/** One request as the client saw it; the body fields when it answered 201. */
export interface ProofCreation {
  client: number;
  status: number;
  /** Send -> whole body read. */
  ms: number;
  /** Completion time, ms since the measured pass started. */
  doneAt: number;
  id?: string;
  walletId?: string;
  amountAtomic?: string;
  quotedAtomic?: string;
  /** The answer's body (start) when it was not a 201, or the connection error. */
  problem?: string;
}

export interface ProofLoadResult {
  warmup: ProofCreation[];
  measured: ProofCreation[];
  /** First send -> last answer of the measured pass. */
  seconds: number;
  /** The same, on the wall clock (Date.now), to line up with what the main thread recorded. */
  measuredFrom: number;
  measuredTo: number;
  /** TCP connections opened over both passes: the number of clients when keep-alive works. */
  connections: number;
}

/** Runs the load on its own thread, so the client does not share the event loop of the app measured in this process. */
export function runProofLoad(job: ProofLoadJob, signal?: AbortSignal): Promise<ProofLoadResult> {
  const requests = job.warmupPerClient * job.clients.length + job.n;
  return runOnThread<ProofLoadResult>(
    new URL('./proof-load.worker.ts', import.meta.url),
    job,
    60_000 + requests * 200,
    `${requests} POST ${job.path ?? '/proof/v1/requests'}`,
    signal,
  );
}

/**
 * Records the event-loop utilisation of this (the main) thread every `intervalMs`, so the share of a window spent
 * running JavaScript can be read afterwards for a window another thread timed (on the wall clock). 1.0 means the
 * thread never waited: whatever runs on it (the app) is the bottleneck.
 */
export function recordEventLoopUtilization(intervalMs = 50): {
  stop(): void;
  between(fromMs: number, toMs: number): number;
} {
  const samples: Array<{ at: number; elu: EventLoopUtilization }> = [];
  const take = () => samples.push({ at: Date.now(), elu: performance.eventLoopUtilization() });
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
    },
    between(fromMs, toMs) {
      const first = [...samples].reverse().find((s) => s.at <= fromMs) ?? samples[0]!;
      const last = samples.find((s) => s.at >= toMs) ?? samples[samples.length - 1]!;
      return performance.eventLoopUtilization(last.elu, first.elu).utilization;
    },
  };
}

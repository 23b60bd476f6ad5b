/** Small measurement helpers for the benchmarks: a bounded-concurrency loop, percentiles, memory sampling. */
import { readFileSync } from 'node:fs';

/** Runs `fn(0..count-1)` with at most `concurrency` calls in flight; stops taking new items once `signal` aborts. */
export async function runPool(
  count: number,
  concurrency: number,
  fn: (i: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      signal?.throwIfAborted();
      const i = next++;
      await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** Nearest-rank percentile of an unsorted list (q in 0..1); NaN for an empty list. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

const MiB = 1024 * 1024;

export interface MemorySample {
  rssMiB: number;
  heapUsedMiB: number;
}

export function sampleMemory(): MemorySample {
  const m = process.memoryUsage();
  return { rssMiB: m.rss / MiB, heapUsedMiB: m.heapUsed / MiB };
}

/** Samples memory every `intervalMs` until stopped and keeps the peaks (rss and heapUsed independently). */
export function startMemorySampler(intervalMs = 250): { stop(): MemorySample; peak(): MemorySample } {
  const peak = sampleMemory();
  const take = () => {
    const s = sampleMemory();
    peak.rssMiB = Math.max(peak.rssMiB, s.rssMiB);
    peak.heapUsedMiB = Math.max(peak.heapUsedMiB, s.heapUsedMiB);
  };
  const timer = setInterval(take, intervalMs);
  return {
    peak: () => ({ ...peak }),
    stop() {
      clearInterval(timer);
      take();
      return { ...peak };
    },
  };
}

/** Rejects after `ms` (or when `signal` aborts) unless `work` settles first; the timer never keeps the process alive. */
export async function withDeadline<T>(work: Promise<T>, ms: number, label: string, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} did not finish within ${Math.round(ms / 1000)} s`)), ms);
    timer.unref();
    if (signal) {
      onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  try {
    return await Promise.race([work, guard]);
  } finally {
    clearTimeout(timer);
    if (signal && onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * CPU time the main thread of this process has used so far, in microseconds (Linux: its task's schedstat), or undefined
 * where that is not readable. Unlike process.cpuUsage() it leaves out worker threads (the load generator's), and unlike
 * requests per second it moves little with what else the machine runs.
 */
export function mainThreadCpuUs(): number | undefined {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1000 : undefined;
  } catch {
    return undefined;
  }
}

export const fmt = {
  rate: (perSecond: number) => (Number.isFinite(perSecond) ? perSecond.toFixed(1) : 'n/a'),
  ms: (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a'),
  mib: (mib: number) => `${mib.toFixed(1)} MiB`,
  ratio: (r: number) => (Number.isFinite(r) ? `${r >= 0.1 ? r.toFixed(2) : r.toFixed(3)}x` : 'n/a'),
};

/** Prints rows of [label, value, ...] as an aligned plain-text table. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
    .join('\n');
}

/**
 * A log stream for a benchmarked app or worker (it logs at warn): counts the warning and error lines and keeps the
 * first three for the report, never printing them as they come.
 */
export function warningSink() {
  const first: string[] = [];
  let count = 0;
  return {
    stream: {
      write(line: string) {
        count++;
        if (first.length < 3) first.push(line.trim().slice(0, 400));
      },
    },
    warnings: () => ({ count, first }),
  };
}

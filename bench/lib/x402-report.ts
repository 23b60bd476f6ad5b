import type { HttpLoadResult } from './http-load.js';
import { fmt, percentile, table } from './measure.js';
import type { PhaseSample } from './x402-timing.js';

/** One side of the throughput comparison. */
export interface ThroughputSide {
  label: string;
  result: HttpLoadResult;
  /**
   * When this process served the row: its main thread's CPU time per request over the whole run (warm-up included),
   * in microseconds.
   */
  cpuUsPerRequest?: number;
}

/** One paid Verify, as the client and the timing decorators saw it. */
export interface PaidCall {
  /** client.fetch until the JSON body is read. */
  e2eMs: number;
  /** The request without payment, until the 402's headers. */
  challengeMs: number;
  /** The request with PAYMENT-SIGNATURE, until the headers (the server settles before answering). */
  paidMs: number;
  sample: PhaseSample;
}

/** The app as `processes` separate API processes on one database, the load spread over them. */
export interface ScaledRows {
  processes: number;
  health: ThroughputSide;
  unpaid: ThroughputSide;
}

export interface Check {
  ok: boolean;
  text: string;
}

export interface X402BenchReport {
  machine: string;
  concurrency: number;
  warmupSeconds: number;
  durationSeconds: number;
  database: string;
  chain: string;
  bare: ThroughputSide;
  /** The app's cheapest /x402 route, for reference: the same middleware and rate limit, no payment layer. */
  health: ThroughputSide;
  unpaid: ThroughputSide;
  /** With --processes: the rows of 1 and P API processes (empty without). */
  scaled: ScaledRows[];
  /** Size of the PAYMENT-REQUIRED header of the unpaid answer. */
  challengeBytes: number;
  paidWarmup: number;
  /** Measured paid calls (warm-up calls excluded). */
  paid: PaidCall[];
  /** RPC methods of the very first chain read on the endpoint (a warm-up call). */
  firstRpc: string[];
  /** RPC methods of every later chain read (warm-up and measured). */
  laterRpc: string[][];
  rpcAim: number;
  checks: Check[];
  /** Warning and error lines the app logged (up to a few), and how many there were. */
  appWarnings: { count: number; first: string[] };
}

export const isHealthy = (r: X402BenchReport) => r.checks.every((c) => c.ok);

const rate = (r: HttpLoadResult) => r.ok / r.seconds;
const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The first lines of a report on the paid app: title and machine, database, chain. */
export const reportHead = (title: string, r: { machine: string; database: string; chain: string }) => [
  '',
  `${title}: ${r.machine}`,
  `database: ${r.database}`,
  `chain: ${r.chain}`,
  '',
];

/** The last lines of a report: every check, the app's warnings, and the verdict (OK when every check passed). */
export const reportTail = (checks: Check[], appWarnings: { count: number; first: string[] }) => [
  ...checks.map((c) => `check ${c.ok ? 'ok    ' : 'FAILED'} ${c.text}`),
  ...(appWarnings.count > 0
    ? [`app logged ${appWarnings.count} warning/error lines; first:`, ...appWarnings.first.map((l) => `  ${l}`)]
    : []),
  checks.every((c) => c.ok) ? 'result: OK' : 'result: SOMETHING WENT WRONG (see the checks above)',
];

/** The header of a table of throughputRow rows. */
export const THROUGHPUT_HEADER = ['', 'requests', 'unexpected', 'seconds', 'requests/s', 'p50', 'p95', 'p99', 'conns'];

/** One throughput side as a table row (requests/s counts the expected answers only). */
export const throughputRow = ({ label, result: x }: ThroughputSide) => [
  label,
  String(x.requests),
  String(x.unexpected + x.errors),
  x.seconds.toFixed(1),
  fmt.rate(rate(x)),
  fmt.ms(x.p50Ms),
  fmt.ms(x.p95Ms),
  fmt.ms(x.p99Ms),
  String(x.connections),
];

export function formatReport(r: X402BenchReport): string {
  const parts = (pick: (c: PaidCall) => number) => r.paid.map(pick);
  const e2e = parts((c) => c.e2eMs);
  const meanE2e = mean(e2e);
  const row = (label: string, xs: number[]) => [
    label,
    fmt.ms(percentile(xs, 0.5)),
    fmt.ms(percentile(xs, 0.95)),
    fmt.ms(mean(xs)),
    `${((mean(xs) / meanE2e) * 100).toFixed(0)}%`,
  ];
  const phases = (c: PaidCall) => c.sample.ms.verify + c.sample.ms.read + c.sample.ms.settle;

  const counts = r.laterRpc.map((m) => m.length);
  const laterMethods = r.laterRpc.find((m) => m.length === Math.max(...counts)) ?? [];
  const later = counts.length
    ? `${Math.min(...counts)}..${Math.max(...counts)} per read over ${counts.length} reads (${laterMethods.join(', ')})`
    : 'n/a';

  const lines = [
    ...reportHead('x402 benchmark', r),
    `1. throughput: keep-alive GETs, ${r.concurrency} in flight, ${r.warmupSeconds} s warm-up + ${r.durationSeconds} s measured per row, client on its own thread`,
    table([THROUGHPUT_HEADER, throughputRow(r.bare), throughputRow(r.health), throughputRow(r.unpaid)]),
    '',
    `ratio unpaid 402 / bare Koa: ${fmt.ratio(rate(r.unpaid.result) / rate(r.bare.result))}` +
      `   (app /x402/health / bare Koa: ${fmt.ratio(rate(r.health.result) / rate(r.bare.result))})`,
    `the 402 carries a PAYMENT-REQUIRED header of ${r.challengeBytes} bytes`,
    ...(r.bare.cpuUsPerRequest && r.unpaid.cpuUsPerRequest && r.health.cpuUsPerRequest
      ? [
          `main-thread CPU per request (this process serves the three rows): bare Koa ${r.bare.cpuUsPerRequest.toFixed(1)} us, ` +
            `/x402/health ${r.health.cpuUsPerRequest.toFixed(1)} us, unpaid 402 ${r.unpaid.cpuUsPerRequest.toFixed(1)} us; ` +
            `bare Koa / unpaid 402 ${fmt.ratio(r.bare.cpuUsPerRequest / r.unpaid.cpuUsPerRequest)}`,
        ]
      : []),
    ...(r.scaled.length === 0
      ? []
      : [
          '',
          `1b. the app as separate API processes (api/main.ts, logs to /dev/null) on the same PostgreSQL, ${r.concurrency} in flight spread over them (p50/p95/p99: the worst process)`,
          table([THROUGHPUT_HEADER, ...r.scaled.flatMap((s) => [throughputRow(s.health), throughputRow(s.unpaid)])]),
          ...r.scaled.map(
            (s) =>
              `   ${s.processes} process${s.processes > 1 ? 'es' : ''}: unpaid 402 / bare Koa ${fmt.ratio(rate(s.unpaid.result) / rate(r.bare.result))}, /x402/health / bare Koa ${fmt.ratio(rate(s.health.result) / rate(r.bare.result))}` +
              (s.processes > 1 && r.scaled[0]
                ? `; x${(rate(s.unpaid.result) / rate(r.scaled[0].unpaid.result)).toFixed(2)} the 402s/s and x${(rate(s.health.result) / rate(r.scaled[0].health.result)).toFixed(2)} the health/s of 1 process`
                : ''),
          ),
        ]),
    '',
    `2. paid Verify end to end: N=${r.paid.length} one at a time (+${r.paidWarmup} warm-up), a fresh authorization and a never-read transaction each`,
    table([
      ['', 'p50', 'p95', 'mean', 'of mean'],
      row('end to end (client.fetch + body)', e2e),
      row(
        '  unpaid request -> 402 challenge',
        parts((c) => c.challengeMs),
      ),
      row(
        '  client: signing + payload (rest)',
        parts((c) => c.e2eMs - c.challengeMs - c.paidMs),
      ),
      row(
        '  paid request -> 200 (settled)',
        parts((c) => c.paidMs),
      ),
      row(
        '    payment verification',
        parts((c) => c.sample.ms.verify),
      ),
      row(
        '    chain read (getEvidence)',
        parts((c) => c.sample.ms.read),
      ),
      row(
        '    settlement',
        parts((c) => c.sample.ms.settle),
      ),
      row(
        '    rest (HTTP, rate limit, DB)',
        parts((c) => c.paidMs - phases(c)),
      ),
    ]),
    '   (percentiles of parts do not add up; means do)',
    '',
    `3. JSON-RPC calls of an uncached EVM Verify (createEvmReader onRpcCall; aim <= ${r.rpcAim} once the endpoint is known)`,
    `   first read on the endpoint: ${r.firstRpc.length} (${r.firstRpc.join(', ')})`,
    `   later reads:                ${later}`,
    '',
    ...reportTail(r.checks, r.appWarnings),
  ];
  return `${lines.join('\n')}\n`;
}

import { BASELINE_PATH } from './proof-baseline.js';
import { fmt, percentile, table, type MemorySample } from './measure.js';
import type { SideResult } from './proof-side.js';

export interface ScenarioResult {
  label: string;
  /** Why this scenario behaves as it does, one line. */
  note: string;
  /** All clients on one merchant and wallet: the rate is one creation per lock hold. */
  serialised: boolean;
  api: SideResult;
  /** The app's own HTTP stack (same guards and idempotency middleware) doing one INSERT of the same row. */
  stack: SideResult;
  bare: SideResult;
}

/** The one-wallet-per-merchant row on `processes` separate API processes. */
export interface ScaledRow {
  processes: number;
  created: number;
  seconds: number;
  latenciesMs: number[];
  /** The bare INSERT rate of the in-process row with one wallet per merchant, for the ratio. */
  bareRate: number;
}

export interface Check {
  ok: boolean;
  text: string;
}

export interface ProofBenchReport {
  machine: string;
  n: number;
  concurrency: number;
  warmupPerClient: number;
  database: string;
  body: string;
  scenarios: ScenarioResult[];
  /** With --processes: the rows of 1 and P API processes (empty without). */
  scaled: ScaledRow[];
  memory: { label: string; sample: MemorySample }[];
  checks: Check[];
  appWarnings: { count: number; first: string[] };
}

export const isHealthy = (r: ProofBenchReport) => r.checks.every((c) => c.ok);

const rate = (s: SideResult) => s.ok / s.seconds;

/** Completions per second over the first and the last fifth of a pass (by completion order). */
function fifths(s: SideResult): { first: number; last: number } {
  const done = [...s.doneAtMs].sort((a, b) => a - b);
  const k = Math.floor(done.length / 5);
  if (k < 2) return { first: Number.NaN, last: Number.NaN };
  const first = (k / done[k - 1]!) * 1000;
  const last = (k / (done[done.length - 1]! - done[done.length - 1 - k]!)) * 1000;
  return { first, last };
}

export function formatReport(r: ProofBenchReport): string {
  const sideRow = (label: string, s: SideResult, toStack: string, toBare: string) => [
    label,
    String(s.n),
    String(s.ok),
    String(s.other),
    s.seconds.toFixed(3),
    fmt.rate(rate(s)),
    fmt.ms(percentile(s.latenciesMs, 0.5)),
    fmt.ms(percentile(s.latenciesMs, 0.95)),
    Number.isFinite(s.mainThreadBusy) ? `${(s.mainThreadBusy * 100).toFixed(0)}%` : 'n/a',
    Number.isFinite(s.statementsEach) ? s.statementsEach.toFixed(2) : 'n/a',
    toStack,
    toBare,
  ];
  const rows = r.scenarios.flatMap((s) => [
    sideRow(
      `${s.label}: API POST /proof/v1/requests`,
      s.api,
      fmt.ratio(rate(s.api) / rate(s.stack)),
      fmt.ratio(rate(s.api) / rate(s.bare)),
    ),
    sideRow(
      `${' '.repeat(s.label.length)}  same stack, one INSERT`,
      s.stack,
      '',
      fmt.ratio(rate(s.stack) / rate(s.bare)),
    ),
    sideRow(`${' '.repeat(s.label.length)}  bare INSERT (same row)`, s.bare, '', ''),
  ]);
  const trend = r.scenarios.map((s) => {
    const api = fifths(s.api);
    return [s.label, fmt.rate(api.first), fmt.rate(api.last), fmt.ratio(api.last / api.first)];
  });

  const lines = [
    '',
    `proof benchmark: ${r.machine}`,
    `N=${r.n} per row (+${r.warmupPerClient} warm-up per client, not timed), ${r.concurrency} clients in flight on both sides; ` +
      'API client on its own thread (keep-alive HTTP), bare inserts from the main thread through the same knex pool',
    `database: ${r.database}`,
    `body: ${r.body}`,
    '',
    '1. payment requests created per second: the API beside the same HTTP stack doing one INSERT of the same row (target: API / same stack >= 0.5)',
    '   and beside a bare INSERT of that row; same concurrency, same run',
    table([
      [
        '',
        'N',
        'created',
        'other',
        'seconds',
        'creations/s',
        'p50 latency',
        'p95 latency',
        'main thread busy',
        'statements each',
        '/ same stack',
        '/ bare',
      ],
      ...rows,
    ]),
    ...r.scenarios.map(
      (s) => `   ${s.label}: ${s.note}${s.serialised ? ` (one creation every ${fmt.ms(1000 / rate(s.api))})` : ''}`,
    ),
    '   API: POST sent -> 201 body read: key + merchant + key rank + stored response + retained count (one statement), rate-limit',
    '   reservations (shared, amortised), BEGIN, merchant + wallet locks (+ quota count on capped plans), expiry + open amounts',
    '   + unique delta, insert + endpoint read (one function call), (+ event and delivery), then the key claim with the stored',
    '   answer and COMMIT sent together (one round trip).',
    `   same stack: POST ${BASELINE_PATH}: the same key statement, rate-limit reservations, merchant guard, JSON body and idempotency`,
    '   middleware, BEGIN, one INSERT of the row, then the key claim with the stored answer and COMMIT sent together. bare: one',
    '   INSERT from knex.',
    '   statements each: SQL statements the app (or the bare side) sent per creation, counted on the knex pool.',
    '',
    ...(r.scaled.length === 0
      ? []
      : [
          `1b. ${r.concurrency} merchants, 1 wallet each, on separate API processes (api/main.ts, logs to /dev/null) on the same PostgreSQL, clients spread over them`,
          table([
            [
              '',
              'N',
              'created',
              'seconds',
              'creations/s',
              'p50 latency',
              'p95 latency',
              'API / bare (row above)',
              'x 1 process',
            ],
            ...r.scaled.map((s) => [
              `${s.processes} API process${s.processes > 1 ? 'es' : ''}`,
              String(s.latenciesMs.length),
              String(s.created),
              s.seconds.toFixed(3),
              fmt.rate(s.created / s.seconds),
              fmt.ms(percentile(s.latenciesMs, 0.5)),
              fmt.ms(percentile(s.latenciesMs, 0.95)),
              fmt.ratio(s.created / s.seconds / s.bareRate),
              r.scaled[0] ? `${(s.created / s.seconds / (r.scaled[0].created / r.scaled[0].seconds)).toFixed(2)}` : '',
            ]),
          ]),
          '',
        ]),
    '2. does the API slow down as the history grows (quota count on capped plans, open amounts near the quote)?',
    '   creations/s over the first and the last fifth of each measured pass',
    table([['', 'first fifth', 'last fifth', 'last / first'], ...trend]),
    '',
    `process memory (this process hosts the app, the bare inserts and the client thread)`,
    table([
      ['', 'rss', 'heapUsed'],
      ...r.memory.map((m) => [m.label, fmt.mib(m.sample.rssMiB), fmt.mib(m.sample.heapUsedMiB)]),
    ]),
    '',
    ...r.checks.map((c) => `check ${c.ok ? 'ok    ' : 'FAILED'} ${c.text}`),
    ...(r.appWarnings.count > 0
      ? [`app logged ${r.appWarnings.count} warning/error lines; first:`, ...r.appWarnings.first.map((l) => `  ${l}`)]
      : []),
    isHealthy(r) ? 'result: OK' : 'result: SOMETHING WENT WRONG (see the checks above)',
  ];
  return `${lines.join('\n')}\n`;
}

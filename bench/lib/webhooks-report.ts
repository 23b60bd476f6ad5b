import type { DeliveryStats, P50P95 } from './bench-db.js';
import { fmt, percentile, table, type MemorySample } from './measure.js';

export interface PhaseResult {
  label: string;
  n: number;
  ok: number;
  failed: number;
  seconds: number;
  latenciesMs: number[];
}

export interface WebhooksBenchReport {
  n: number;
  warmup: number;
  receiverUrl: string;
  database: string;
  poolMax: number;
  temporal: string;
  plain: PhaseResult;
  workflow: PhaseResult;
  workflowStartsSeconds: number;
  workflowCpuSeconds: number;
  /** Main-thread event-loop lag in ms during the workflow phase. */
  eventLoopLag: { p50: number; p99: number; max: number };
  db: DeliveryStats;
  memory: { label: string; sample: MemorySample }[];
  received: { plain: number; workflow: number; badSignatures: number };
  workflowErrors: string[];
  /** SQL statements the delivery path sent during the measured phase, by kind (this process's only). */
  statements: Record<string, number>;
  /** Worker processes of `--worker-processes` (their statements are not counted), 0 when the worker is in-process. */
  workerProcesses: number;
}

const rate = (p: PhaseResult) => p.ok / p.seconds;

function statementsLine(statements: Record<string, number>, n: number): string {
  const total = Object.values(statements).reduce((a, b) => a + b, 0);
  const parts = Object.entries(statements)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${(v / n).toFixed(2)}`);
  return `${(total / n).toFixed(2)} (${parts.join(', ')})`;
}
const pair = (x: P50P95) => `p50 ${fmt.ms(x.p50)}, p95 ${fmt.ms(x.p95)}`;

/** The healthy-run conditions: every POST answered 200, every delivery delivered in one attempt, every signature valid. */
export function isHealthy(r: WebhooksBenchReport): boolean {
  return (
    r.plain.failed === 0 &&
    r.workflow.failed === 0 &&
    r.plain.ok === r.n &&
    r.workflow.ok === r.n &&
    r.received.plain === r.n &&
    r.received.workflow === r.n &&
    r.received.badSignatures === 0 &&
    r.db.delivered === r.n &&
    r.db.attempts === r.n
  );
}

export function formatReport(r: WebhooksBenchReport): string {
  const phaseRow = (p: PhaseResult) => [
    p.label,
    String(p.n),
    String(p.ok),
    String(p.failed),
    p.seconds.toFixed(3),
    fmt.rate(rate(p)),
    fmt.ms(percentile(p.latenciesMs, 0.5)),
    fmt.ms(percentile(p.latenciesMs, 0.95)),
  ];
  const lines = [
    '',
    `webhook delivery benchmark: N=${r.n} per side (+${r.warmup} warm-up each, not timed), receiver ${r.receiverUrl}, node ${process.version}`,
    `database: ${r.database}, pool max ${r.poolMax}; Temporal ${r.temporal}`,
    '',
    table([
      ['', 'N', 'ok', 'failed', 'seconds', 'deliveries/s', 'p50 latency', 'p95 latency'],
      phaseRow(r.plain),
      phaseRow(r.workflow),
    ]),
    '',
    `ratio dispatcher / plain: ${fmt.ratio(rate(r.workflow) / rate(r.plain))}`,
    '',
    'where a delivery spends its time (database clock):',
    `  created -> delivered            ${pair(r.db.endToEnd)}`,
    `  created -> attempt started      ${pair(r.db.queued)}   (insert commit, NOTIFY, the dispatcher's claim)`,
    `  the POST                        ${pair(r.db.post)}`,
    `  attempt finished -> delivered   ${pair(r.db.settle)}   (0: the attempt and the state are one statement)`,
    `  all ${r.n} enqueueDelivery calls returned after ${r.workflowStartsSeconds.toFixed(3)} s`,
    `  SQL statements per delivery: ${statementsLine(r.statements, r.n)}${r.workerProcesses > 0 ? ' (this process only: the dispatchers run in the worker processes)' : ''}`,
    `  this process: CPU ${r.workflowCpuSeconds.toFixed(2)} s over ${r.workflow.seconds.toFixed(2)} s wall; main-thread event-loop lag ` +
      `p50 ${fmt.ms(r.eventLoopLag.p50)}, p99 ${fmt.ms(r.eventLoopLag.p99)}, max ${fmt.ms(r.eventLoopLag.max)}`,
    '',
    'process memory (rss includes the Temporal core and the workflow thread; heapUsed is the main isolate only)',
    table([
      ['', 'rss', 'heapUsed'],
      ...r.memory.map((m) => [m.label, fmt.mib(m.sample.rssMiB), fmt.mib(m.sample.heapUsedMiB)]),
    ]),
    '',
    `check: receiver got ${r.received.plain}/${r.n} plain and ${r.received.workflow}/${r.n} workflow POSTs, bad signatures ${r.received.badSignatures}`,
    `check: database has ${r.db.delivered}/${r.db.total} deliveries 'delivered' after ${r.db.attempts} attempts`,
    ...(r.workflowErrors.length > 0
      ? [`check: ${r.workflowErrors.length} deliveries failed, first: ${r.workflowErrors[0]}`]
      : []),
    isHealthy(r) ? 'result: OK' : 'result: SOMETHING WENT WRONG (see the checks above)',
  ];
  return `${lines.join('\n')}\n`;
}

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
}

const rate = (p: PhaseResult) => p.ok / p.seconds;
const pair = (x: P50P95) => `p50 ${fmt.ms(x.p50)}, p95 ${fmt.ms(x.p95)}`;

/** The healthy-run conditions: every POST answered 200, every workflow delivered once, every signature valid. */
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
    table([['', 'N', 'ok', 'failed', 'seconds', 'deliveries/s', 'p50 latency', 'p95 latency'], phaseRow(r.plain), phaseRow(r.workflow)]),
    '',
    `ratio workflow / plain: ${fmt.ratio(rate(r.workflow) / rate(r.plain))}`,
    '',
    'where a workflow delivery spends its time (database clock):',
    `  created -> delivered            ${pair(r.db.endToEnd)}`,
    `  created -> attempt started      ${pair(r.db.queued)}   (insert, workflow start, workflow task, activity task)`,
    `  the POST                        ${pair(r.db.post)}`,
    `  attempt finished -> delivered   ${pair(r.db.settle)}   (activity completion, workflow task, local activity)`,
    `  all ${r.n} starts (enqueueDelivery) returned after ${r.workflowStartsSeconds.toFixed(3)} s`,
    `  this process: CPU ${r.workflowCpuSeconds.toFixed(2)} s over ${r.workflow.seconds.toFixed(2)} s wall; main-thread event-loop lag ` +
      `p50 ${fmt.ms(r.eventLoopLag.p50)}, p99 ${fmt.ms(r.eventLoopLag.p99)}, max ${fmt.ms(r.eventLoopLag.max)}`,
    '',
    'process memory (rss includes the Temporal core and the workflow thread; heapUsed is the main isolate only)',
    table([['', 'rss', 'heapUsed'], ...r.memory.map((m) => [m.label, fmt.mib(m.sample.rssMiB), fmt.mib(m.sample.heapUsedMiB)])]),
    '',
    `check: receiver got ${r.received.plain}/${r.n} plain and ${r.received.workflow}/${r.n} workflow POSTs, bad signatures ${r.received.badSignatures}`,
    `check: database has ${r.db.delivered}/${r.db.total} deliveries 'delivered' after ${r.db.attempts} attempts`,
    ...(r.workflowErrors.length > 0 ? [`check: ${r.workflowErrors.length} workflow results failed, first: ${r.workflowErrors[0]}`] : []),
    isHealthy(r) ? 'result: OK' : 'result: SOMETHING WENT WRONG (see the checks above)',
  ];
  return `${lines.join('\n')}\n`;
}

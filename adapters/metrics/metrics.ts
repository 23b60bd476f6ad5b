import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The platform's Prometheus metrics (prom-client), one registry per process (an API, a worker, or the all-in-one
 * process holding both): never the library's global registry, so two apps in one test process count apart. Labels are
 * bounded sets: an interface, a route template (never a raw path), a method, a status, an operation, an outcome.
 * docs/operations.md "Metrics" lists them and what moves them.
 */
export interface PlatformMetrics {
  readonly registry: Registry;
  /** Every HTTP request answered, by interface, route template, method and status. */
  readonly httpRequests: Counter<'interface' | 'route' | 'method' | 'status'>;
  /** Their durations in seconds. */
  readonly httpDuration: Histogram<'interface' | 'route' | 'method' | 'status'>;
  /** Jobs that ended in this worker, by operation and outcome (completed, failed). */
  readonly jobsFinished: Counter<'operation' | 'outcome'>;
  /** How long an ended job waited queued (created to started), by operation. */
  readonly jobQueueWait: Histogram<'operation'>;
  /** How long an ended job ran (started to finished), by operation and outcome. */
  readonly jobProcessing: Histogram<'operation' | 'outcome'>;
  /** Batches that ended in this worker, by outcome (completed, partial, failed). */
  readonly batchesFinished: Counter<'outcome'>;
  /** Jobs submitted through this API (a batch's children one by one), by operation, counted once committed. */
  readonly jobsSubmitted: Counter<'operation'>;
  /** Queued jobs cancelled through this API (a job's cancel, a batch's queued items one by one), by operation, once committed. */
  readonly jobsCancelled: Counter<'operation'>;
  /**
   * Credits moved: `reserved` by a submission in the API (its quotes, once committed), `charged` (a completed job's
   * quote) and `released` (a failed job's) by a job's end in the worker, and `released` by a cancel in the API (the
   * cancelled jobs' quotes, once committed).
   */
  readonly credits: Counter<'movement'>;
  /** Webhook attempts sent, by interface and verdict (delivered, retry, terminal). */
  readonly webhookAttempts: Counter<'interface' | 'outcome'>;
  /** Webhook deliveries that ended, by interface and outcome (delivered, failed). */
  readonly webhookDeliveries: Counter<'interface' | 'outcome'>;
  /**
   * Paid /x402 calls, by route template and outcome (unpaid, paid, redelivered, replayed, refused, settlement_uncertain,
   * not_charged; docs/operations.md "Metrics").
   */
  readonly x402Payments: Counter<'route' | 'outcome'>;
  /**
   * x402 settlements decided after the caller was answered 503 settlement_uncertain, by outcome (`settled`, `failed`)
   * and by what decided them (`call`: the request's own settlement going on; `representation`: the authorization
   * presented again; `maintenance`: the worker's reconciliation). Counted by the transition that recorded it, once.
   */
  readonly x402LateSettlements: Counter<'outcome' | 'decided_by'>;
  /** Paid MCP tool calls that reached the payment flow, by tool and outcome (the x402 outcomes above). */
  readonly mcpToolCalls: Counter<'tool' | 'outcome'>;
  /** Engine child processes run in this process, by engine (ffmpeg, ffprobe, tesseract, ocrmypdf…) and outcome. */
  readonly engineRuns: Counter<'engine' | 'outcome'>;
  /** Their durations in seconds, by engine and outcome. */
  readonly engineDuration: Histogram<'engine' | 'outcome'>;
  /**
   * Gauges read from PostgreSQL at scrape time (one statement each), once `attachDatabaseGauges` gave the source: the
   * job queue's depth per state and the webhook backlog and lag per interface.
   */
  readonly jobsInState: Gauge<'state'>;
  readonly webhookBacklog: Gauge<'interface'>;
  readonly webhookLag: Gauge<'interface'>;
  /**
   * The payment watcher's lag per network, read at scrape time: blocks between the head its last scan saw and its
   * progress, and seconds since a scan last left it at that head.
   */
  readonly watcherLagBlocks: Gauge<'network'>;
  readonly watcherLagSeconds: Gauge<'network'>;
  /** Gives the scrape-time gauges their source (the API process does: one per deployment is enough). */
  attachDatabaseGauges(source: DatabaseGaugeSource): void;
  /** The Prometheus text exposition of the registry. */
  render(): Promise<string>;
  readonly contentType: string;
}

/** What the scrape-time gauges read (db/repositories/metrics-gauges.repo.ts). */
export interface DatabaseGaugeSource {
  /** Jobs not yet ended, per state (`queued`, `processing`). */
  jobsByState(): Promise<Array<{ state: string; count: number }>>;
  /** Webhook deliveries not yet ended (pending, retrying) per interface, and the age in seconds of the oldest. */
  webhookBacklog(): Promise<Array<{ iface: string; count: number; oldestSeconds: number }>>;
  /**
   * Per watched network (one whose watcher has scanned): the blocks (slots) between the head its last scan saw and its
   * progress, and the seconds since a scan last left the progress at that head (null until one has).
   */
  watcherLag(): Promise<Array<{ network: string; blocks: number; seconds: number | null }>>;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600];

/**
 * A fresh registry with the platform's metrics and, with `processMetrics` (the entry points; once per process), the Node
 * process's own (CPU, memory, event loop lag, GC) as prom-client collects them.
 */
export function createMetrics(opts: { process?: string; processMetrics?: boolean } = {}): PlatformMetrics {
  const registry = new Registry();
  if (opts.process) registry.setDefaultLabels({ process: opts.process });
  if (opts.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'paycore_' });
  const registers = [registry];
  const gauges: { source?: DatabaseGaugeSource } = {};
  return {
    registry,
    ...httpMetrics(registers),
    ...workMetrics(registers),
    ...deliveryMetrics(registers),
    ...databaseGauges(registers, gauges),
    attachDatabaseGauges(source: DatabaseGaugeSource) {
      gauges.source = source;
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

type Registers = Registry[];

function httpMetrics(registers: Registers): Pick<PlatformMetrics, 'httpRequests' | 'httpDuration'> {
  return {
    httpRequests: new Counter({
      name: 'paycore_http_requests_total',
      help: 'HTTP requests answered, by interface, route template, method and status.',
      labelNames: ['interface', 'route', 'method', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'paycore_http_request_duration_seconds',
      help: 'HTTP request durations in seconds, by interface, route template, method and status.',
      labelNames: ['interface', 'route', 'method', 'status'],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
  };
}

function workMetrics(
  registers: Registers,
): Pick<
  PlatformMetrics,
  'jobsFinished' | 'jobQueueWait' | 'jobProcessing' | 'batchesFinished' | 'jobsSubmitted' | 'jobsCancelled' | 'credits'
> {
  return {
    jobsFinished: new Counter({
      name: 'paycore_jobs_finished_total',
      help: 'Jobs ended by this worker, by operation and outcome (completed, failed).',
      labelNames: ['operation', 'outcome'],
      registers,
    }),
    jobQueueWait: new Histogram({
      name: 'paycore_job_queue_wait_seconds',
      help: 'Seconds an ended job waited queued before it started, by operation.',
      labelNames: ['operation'],
      buckets: JOB_BUCKETS,
      registers,
    }),
    jobProcessing: new Histogram({
      name: 'paycore_job_processing_seconds',
      help: 'Seconds an ended job ran (started to finished), by operation and outcome.',
      labelNames: ['operation', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    }),
    batchesFinished: new Counter({
      name: 'paycore_batches_finished_total',
      help: 'Batches ended by this worker, by outcome (completed, partial, failed).',
      labelNames: ['outcome'],
      registers,
    }),
    jobsSubmitted: new Counter({
      name: 'paycore_jobs_submitted_total',
      help: 'Jobs submitted through this API (batch children one by one), by operation, counted once committed.',
      labelNames: ['operation'],
      registers,
    }),
    jobsCancelled: new Counter({
      name: 'paycore_jobs_cancelled_total',
      help: 'Queued jobs cancelled through this API (batch items one by one), by operation, counted once committed.',
      labelNames: ['operation'],
      registers,
    }),
    credits: new Counter({
      name: 'paycore_credits_total',
      help: "Credits moved: reserved by submissions and released by cancels (API), charged (completed jobs' quotes) and released (failed jobs') by jobs' ends (worker).",
      labelNames: ['movement'],
      registers,
    }),
  };
}

function deliveryMetrics(
  registers: Registers,
): Pick<
  PlatformMetrics,
  | 'webhookAttempts'
  | 'webhookDeliveries'
  | 'x402Payments'
  | 'x402LateSettlements'
  | 'mcpToolCalls'
  | 'engineRuns'
  | 'engineDuration'
> {
  return {
    webhookAttempts: new Counter({
      name: 'paycore_webhook_attempts_total',
      help: 'Webhook attempts sent by this worker, by interface and verdict (delivered, retry, terminal).',
      labelNames: ['interface', 'outcome'],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'paycore_webhook_deliveries_total',
      help: 'Webhook deliveries ended by this worker, by interface and outcome (delivered, failed).',
      labelNames: ['interface', 'outcome'],
      registers,
    }),
    x402Payments: new Counter({
      name: 'paycore_x402_payments_total',
      help: 'Paid /x402 route calls, by route template and outcome.',
      labelNames: ['route', 'outcome'],
      registers,
    }),
    x402LateSettlements: new Counter({
      name: 'paycore_x402_late_settlements_total',
      help: 'x402 settlements decided after the caller was answered 503 settlement_uncertain, by outcome and decided_by (call, representation, maintenance).',
      labelNames: ['outcome', 'decided_by'],
      registers,
    }),
    mcpToolCalls: new Counter({
      name: 'paycore_mcp_tool_calls_total',
      help: 'Paid MCP tool calls that reached the payment flow, by tool and outcome (as paycore_x402_payments_total).',
      labelNames: ['tool', 'outcome'],
      registers,
    }),
    engineRuns: new Counter({
      name: 'paycore_engine_runs_total',
      help: 'Engine child processes run, by engine and outcome (ok, failed, timeout, stopped, unavailable).',
      labelNames: ['engine', 'outcome'],
      registers,
    }),
    engineDuration: new Histogram({
      name: 'paycore_engine_run_seconds',
      help: 'Engine child process durations in seconds, by engine and outcome.',
      labelNames: ['engine', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers,
    }),
  };
}

/** One read shared by the collects of one scrape: prom-client collects a registry's metrics concurrently. */
function sharedRead<T>(read: (src: DatabaseGaugeSource) => Promise<T>): (src: DatabaseGaugeSource) => Promise<T> {
  let pending: Promise<T> | null = null;
  return (src) =>
    (pending ??= read(src).finally(() => {
      pending = null;
    }));
}

/** The gauges read from `gauges.source` at scrape time (nothing until `attachDatabaseGauges`). */
function databaseGauges(
  registers: Registers,
  gauges: { source?: DatabaseGaugeSource },
): Pick<PlatformMetrics, 'jobsInState' | 'webhookBacklog' | 'webhookLag' | 'watcherLagBlocks' | 'watcherLagSeconds'> {
  // The backlog and its lag gauges come from one statement per scrape, and so do the watcher's two lag gauges.
  const readBacklog = sharedRead((src) => src.webhookBacklog());
  const readLag = sharedRead((src) => src.watcherLag());
  /** A gauge read from PostgreSQL at scrape time: its series (label value, value), once a source is attached. */
  const scrapeGauge = <L extends string>(
    name: string,
    help: string,
    label: L,
    series: (src: DatabaseGaugeSource) => Promise<ReadonlyArray<readonly [string, number]>>,
  ) =>
    new Gauge<L>({
      name,
      help,
      labelNames: [label],
      registers,
      async collect() {
        if (!gauges.source) return;
        const read = await series(gauges.source);
        this.reset();
        for (const [value, n] of read) this.set({ [label]: value } as Record<L, string>, n);
      },
    });
  return {
    jobsInState: scrapeGauge(
      'paycore_jobs_in_state',
      'Jobs not yet ended, per state (queued, processing), read from PostgreSQL at scrape time.',
      'state',
      async (src) => (await src.jobsByState()).map((r) => [r.state, r.count]),
    ),
    webhookBacklog: scrapeGauge(
      'paycore_webhook_backlog',
      'Pending webhook deliveries per interface, read from PostgreSQL at scrape time.',
      'interface',
      async (src) => (await readBacklog(src)).map((r) => [r.iface, r.count]),
    ),
    webhookLag: scrapeGauge(
      'paycore_webhook_delivery_lag_seconds',
      'Age in seconds of the oldest pending webhook delivery per interface (0 when none), at scrape time.',
      'interface',
      async (src) => (await readBacklog(src)).map((r) => [r.iface, r.oldestSeconds]),
    ),
    watcherLagBlocks: scrapeGauge(
      'paycore_watcher_lag_blocks',
      "Blocks (Solana: slots) between the chain's final head the payment watcher's last scan saw and its progress, per network, at scrape time.",
      'network',
      async (src) => (await readLag(src)).map((r) => [r.network, r.blocks]),
    ),
    watcherLagSeconds: scrapeGauge(
      'paycore_watcher_lag_seconds',
      "Seconds since a scan of the payment watcher last left it at the chain's final head, per network, at scrape time.",
      'network',
      async (src) => (await readLag(src)).flatMap((r) => (r.seconds === null ? [] : [[r.network, r.seconds] as const])),
    ),
  };
}

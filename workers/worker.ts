import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createWebhookActivities, type WebhookActivityDeps } from '../activities/webhooks.activities.js';
import { createMaintenanceActivities } from '../activities/maintenance.activities.js';
import { createX402Activities, type X402ActivityDeps } from '../activities/x402.activities.js';
import { createProcessingActivities } from '../activities/processing.activities.js';
import { createBatchActivities } from '../activities/batches.activities.js';
import { createSpeechActivities, type SpeechWorkerDeps } from '../activities/speech.activities.js';
import { createRetentionActivities } from '../activities/retention.activities.js';
import { createMailActivities } from '../activities/mail.activities.js';
import type { WorkerTuning } from '../config/schema.js';
import type { FileStore } from '../adapters/storage/file-store.js';
import type { Mailer } from '../adapters/mail/smtp-mailer.js';
import type { OperationRunners } from '../adapters/media/runner-contract.js';
import type { EvmTransferScanner } from '../adapters/chains/evm/evm-transfer-scanner.js';
import type { SolanaTransferScanner } from '../adapters/chains/solana/solana-transfer-scanner.js';
import { createWatcherActivities } from '../activities/watcher.activities.js';
import { createInvoiceLifecycleActivities } from '../activities/invoice-lifecycle.activities.js';
import { Client } from '@temporalio/client';
import { clientTracing, startDeliveryWorkflow } from '../services/workflows/workflow-client.js';
import { workerTracing } from './temporal-tracing.js';
import { observeEngineRuns } from '../adapters/infra/tool-process.js';
import { createWorkflowStarter, type WorkflowStarter } from '../services/workflows/workflow-starts.js';
import { createWebhookDispatcher, type DispatcherOptions, type WebhookDispatcher } from './webhook-dispatcher.js';

/** What the processing and retention activities need besides the shared deps. */
export interface ProcessingWorkerDeps {
  store: FileStore;
  runners: OperationRunners;
  /** The speech engine (`transcribe`, `meeting`); without one, speech jobs reaching this worker fail as `processing_error`. */
  speech?: SpeechWorkerDeps;
  /** Test-only: the waits between `/v1` job-event delivery attempts, in ms (the dispatcher's `retryDelaysMs`). */
  webhookDelaysMs?: number[];
}

/** What the invoice mail activities need besides the shared deps; `mailer` is null when SMTP_URL is unset. */
export interface MailWorkerDeps {
  store: FileStore;
  mailer: Mailer | null;
  from: string | null;
  publicBaseUrl: string | null;
}

export interface PlatformWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activityDeps: WebhookActivityDeps &
    Partial<Pick<X402ActivityDeps, 'authorizationState'>> & {
      processing?: ProcessingWorkerDeps;
      mail?: MailWorkerDeps;
      watcher?: { evm?: EvmTransferScanner; solana?: SolanaTransferScanner };
    };
  /** A prebuilt workflow bundle (tests build one per run); otherwise workflows/index is bundled at start. */
  workflowBundle?: { code: string } | { codePath: string };
  shutdownGraceMs: number;
  identity?: string;
  /** Slots, sticky cache and pollers (config.temporal.worker); the SDK's defaults when absent. */
  tuning?: WorkerTuning;
  /** The webhook dispatcher's limits (config.webhooks.dispatch); DEFAULT_DISPATCH when absent. */
  dispatch?: Pick<DispatcherOptions, 'concurrency' | 'perEndpoint' | 'perTenant'>;
}

/** WEBHOOK_DISPATCH_CONCURRENCY, WEBHOOK_DISPATCH_PER_DESTINATION and WEBHOOK_DISPATCH_PER_TENANT's defaults. */
export const DEFAULT_DISPATCH = { concurrency: 32, perEndpoint: 8, perTenant: 16 } as const;

/**
 * The platform's Temporal worker, with the webhook dispatcher (workers/webhook-dispatcher.ts) and the workflow starter
 * (services/workflows/workflow-starts.ts, the start outbox) running exactly as long as it does: `run()` starts them,
 * `shutdown()` stops their claims at once, and `run()` resolves only after the dispatcher's attempts in flight were
 * recorded and the starter's tries ended, so the database and the connection can be closed right after.
 */
export class PlatformWorker extends Worker {
  dispatcher: WebhookDispatcher | undefined;
  starter: WorkflowStarter | undefined;

  /** Starts counting this process's engine runs into the worker's metrics; returns the function that stops it. */
  countEngineRuns: (() => () => void) | undefined;

  override async run(): Promise<void> {
    this.dispatcher?.start();
    this.starter?.start();
    const stopCounting = this.countEngineRuns?.();
    try {
      await super.run();
    } finally {
      stopCounting?.();
      await Promise.all([this.dispatcher?.stop(), this.starter?.stop()]);
    }
  }

  override shutdown(): void {
    void this.dispatcher?.stop();
    void this.starter?.stop();
    super.shutdown();
  }
}

/** The WorkerOptions of a tuning (config.temporal.worker). */
export function tuningOptions(t: WorkerTuning): Partial<WorkerOptions> {
  return {
    maxConcurrentWorkflowTaskExecutions: t.workflowTasks,
    maxConcurrentActivityTaskExecutions: t.activities,
    maxConcurrentLocalActivityExecutions: t.localActivities,
    maxCachedWorkflows: t.cachedWorkflows,
    maxConcurrentWorkflowTaskPolls: t.workflowPollers,
    nonStickyToStickyPollRatio: t.nonStickyPollRatio,
    maxConcurrentActivityTaskPolls: t.activityPollers,
  };
}

/** Path of the workflows entry, as .ts under tsx/vitest or .js under dist/. */
export function workflowsPath(): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return fileURLToPath(new URL(`../workflows/index.${ext}`, import.meta.url));
}

export async function createPlatformWorker(
  opts: PlatformWorkerOptions,
): Promise<{ worker: PlatformWorker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const options: WorkerOptions = {
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: {
      ...createWebhookActivities(opts.activityDeps),
      ...createMaintenanceActivities({
        db: opts.activityDeps.db,
        mailConfigured: Boolean(opts.activityDeps.mail?.mailer),
      }),
      ...createX402Activities({
        db: opts.activityDeps.db,
        authorizationState: opts.activityDeps.authorizationState ?? null,
        metrics: opts.activityDeps.metrics,
      }),
      ...createInvoiceLifecycleActivities({ db: opts.activityDeps.db }),
      ...processingActivities(opts.activityDeps),
      ...mailActivities(opts.activityDeps),
      ...(opts.activityDeps.watcher
        ? createWatcherActivities({ db: opts.activityDeps.db, ...opts.activityDeps.watcher })
        : {}),
    },
    shutdownGraceTime: opts.shutdownGraceMs,
    ...(opts.tuning ? tuningOptions(opts.tuning) : {}),
    ...(opts.identity ? { identity: opts.identity } : {}),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: workflowsPath() }),
    ...workerTracing(opts.activityDeps.db),
  };
  const worker = (await PlatformWorker.create(options)) as PlatformWorker;
  const client = new Client({ connection, namespace: opts.namespace, ...clientTracing() });
  const gateway = { client, taskQueue: opts.taskQueue, close: async () => undefined };
  const deps = opts.activityDeps;
  worker.dispatcher = createWebhookDispatcher(
    {
      ...deps,
      // The retries of a delivery are its workflow `delivery:<id>`, on this worker's task queue, started as the API's
      // manual retry starts it (the connection is the worker's, closed with it).
      async startRetries(input) {
        await startDeliveryWorkflow(gateway, input);
      },
    },
    {
      ...(opts.dispatch ?? DEFAULT_DISPATCH),
      ...(deps.processing?.webhookDelaysMs ? { retryDelaysMs: deps.processing.webhookDelaysMs } : {}),
    },
  );
  // Starts the workflows the API (or an operator command) queued in the start outbox and could not start itself, each
  // on the task queue the row names.
  worker.starter = createWorkflowStarter({ db: deps.db, gateway, logger: deps.logger });
  const metrics = deps.metrics;
  if (metrics) {
    worker.countEngineRuns = () =>
      observeEngineRuns(({ engine, outcome, seconds }) => {
        metrics.engineRuns.inc({ engine, outcome });
        metrics.engineDuration.observe({ engine, outcome }, seconds);
      });
  }
  return { worker, connection };
}

/** Processing and retention activities, when the worker has a file store (every deployed worker does). */
function processingActivities(deps: PlatformWorkerOptions['activityDeps']) {
  if (!deps.processing) return {};
  const { db, logger, secretBox } = deps;
  return {
    ...createProcessingActivities({
      db,
      logger,
      secretBox,
      ...deps.processing,
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
    }),
    ...createSpeechActivities({ db, logger, store: deps.processing.store, speech: deps.processing.speech }),
    ...createBatchActivities({ db, logger, ...(deps.metrics ? { metrics: deps.metrics } : {}) }),
    ...createRetentionActivities({ db, store: deps.processing.store }),
  };
}

/** Invoice mail activities, when the worker has the invoice document store (every deployed worker does). */
function mailActivities(deps: PlatformWorkerOptions['activityDeps']) {
  if (!deps.mail) return {};
  return createMailActivities({ db: deps.db, logger: deps.logger, ...deps.mail });
}

import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createWebhookActivities, type WebhookActivityDeps } from '../activities/webhooks.activities.js';
import { createMaintenanceActivities } from '../activities/maintenance.activities.js';
import { createX402Activities, type X402ActivityDeps } from '../activities/x402.activities.js';

export interface PlatformWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activityDeps: WebhookActivityDeps & Partial<Pick<X402ActivityDeps, 'authorizationState'>>;
  /** A prebuilt workflow bundle (tests build one per run); otherwise workflows/index is bundled at start. */
  workflowBundle?: { code: string } | { codePath: string };
  shutdownGraceMs: number;
  identity?: string;
}

/** Path of the workflows entry, as .ts under tsx/vitest or .js under dist/. */
export function workflowsPath(): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return fileURLToPath(new URL(`../workflows/index.${ext}`, import.meta.url));
}

export async function createPlatformWorker(opts: PlatformWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const options: WorkerOptions = {
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: {
      ...createWebhookActivities(opts.activityDeps),
      ...createMaintenanceActivities({ db: opts.activityDeps.db }),
      ...createX402Activities({ db: opts.activityDeps.db, authorizationState: opts.activityDeps.authorizationState ?? null }),
    },
    shutdownGraceTime: opts.shutdownGraceMs,
    ...(opts.identity ? { identity: opts.identity } : {}),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: workflowsPath() }),
  };
  const worker = await Worker.create(options);
  return { worker, connection };
}

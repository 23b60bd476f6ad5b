import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { DefaultLogger, Runtime, type Worker } from '@temporalio/worker';
import { createPlatformWorker, type PlatformWorkerOptions } from '../../workers/worker.js';
import { connectWorkflowGateway, type WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { scheduleIds } from '../../workflows/task-queues.js';
import type { DeliveryTimeouts } from '../../adapters/webhooks/http-delivery.js';
import { recordTaskQueueHistories } from './workflow-histories.js';

// Keep the SDK's own INFO lines (worker state changes) out of the test output; warnings still show.
try {
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
} catch {
  // already installed in this test process
}

export const uniqueTaskQueue = (label: string) => `test-${label}-${randomBytes(4).toString('hex')}`;

/**
 * Webhook delivery timeouts of test workers, unless a test sets its own: far above what a loopback receiver needs
 * even on a loaded machine, so an attempt's outcome is what the receiver answered, never how busy the machine was.
 */
export const TEST_DELIVERY_TIMEOUTS: DeliveryTimeouts = {
  dnsMs: 30_000,
  connectMs: 30_000,
  socketMs: 30_000,
  totalMs: 60_000,
};

/**
 * A real worker on its own task queue against the run's Temporal server (or `address`, a server of the test's own),
 * using the run's workflow bundle.
 */
export async function startTestWorker(
  taskQueue: string,
  activityDeps: PlatformWorkerOptions['activityDeps'],
  identity?: string,
  address: string = inject('temporalAddress'),
): Promise<{ worker: Worker; stop(): Promise<void> }> {
  const { worker, connection } = await createPlatformWorker({
    address,
    namespace: inject('temporalNamespace'),
    taskQueue,
    activityDeps: { ...activityDeps, timeouts: activityDeps.timeouts ?? TEST_DELIVERY_TIMEOUTS },
    workflowBundle: { codePath: inject('workflowBundlePath') },
    shutdownGraceMs: 5000,
    ...(identity ? { identity } : {}),
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
      // Recording mode only (RECORD_WORKFLOW_HISTORIES, `npm run histories:record`): keep this queue's histories.
      await recordTaskQueueHistories({ address, namespace: inject('temporalNamespace'), taskQueue });
    },
  };
}

export function testGateway(taskQueue: string): Promise<WorkflowGateway> {
  return connectWorkflowGateway({
    address: inject('temporalAddress'),
    namespace: inject('temporalNamespace'),
    taskQueue,
  });
}

/** Removes the schedules a worker entry point created for this run's task queue (the server is shared). */
export async function deleteRunSchedules(gw: WorkflowGateway | undefined, taskQueue: string): Promise<void> {
  for (const id of [scheduleIds.maintenance(taskQueue), scheduleIds.retention(taskQueue)]) {
    await gw?.client.schedule
      .getHandle(id)
      .delete()
      .catch(() => undefined);
  }
}

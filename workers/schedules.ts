import {
  Client,
  Connection,
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  WorkflowIdConflictPolicy,
} from '@temporalio/client';
import { scheduleIds, workflowIds } from '../workflows/task-queues.js';
import { SEARCH_ATTRIBUTE_NAMES } from '../domain/search-attributes.js';

/**
 * Creates the platform's Temporal Schedules if they are missing (safe from every worker process at start):
 * `maintenance:<task queue>` and `retention:<task queue>` every 15 minutes, skipping a run while the previous
 * one is still going.
 */
export async function ensureSchedules(opts: { address: string; namespace: string; taskQueue: string }): Promise<void> {
  const connection = await Connection.connect({ address: opts.address });
  try {
    const client = new Client({ connection, namespace: opts.namespace });
    const schedules = [
      { scheduleId: scheduleIds.maintenance(opts.taskQueue), workflowType: 'maintenanceWorkflow' },
      { scheduleId: scheduleIds.retention(opts.taskQueue), workflowType: 'retentionWorkflow' },
    ];
    for (const s of schedules) {
      try {
        await client.schedule.create({
          scheduleId: s.scheduleId,
          spec: { intervals: [{ every: '15 minutes' }] },
          action: { type: 'startWorkflow', workflowType: s.workflowType, taskQueue: opts.taskQueue, args: [] },
          policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
        });
      } catch (e) {
        if (!(e instanceof ScheduleAlreadyRunning)) throw e;
      }
    }
  } finally {
    await connection.close();
  }
}

/**
 * Starts `watch:<network>` for each configured network unless it runs already (safe from every worker at
 * start). Its progress is in PostgreSQL, so a watcher that was stopped goes on where it left off.
 */
export async function ensureWatchers(opts: {
  address: string;
  namespace: string;
  taskQueue: string;
  networks: readonly string[];
  pollSeconds: number;
}): Promise<void> {
  if (opts.networks.length === 0) return;
  const connection = await Connection.connect({ address: opts.address });
  try {
    const client = new Client({ connection, namespace: opts.namespace });
    for (const network of opts.networks) {
      await client.workflow.start('paymentWatcherWorkflow', {
        workflowId: workflowIds.watcher(network),
        taskQueue: opts.taskQueue,
        args: [{ network, pollIntervalMs: opts.pollSeconds * 1000 }],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      });
    }
  } finally {
    await connection.close();
  }
}

/**
 * The custom search attributes job and batch workflows set (domain/search-attributes.ts) must exist on the namespace:
 * an upsert of an unknown one fails the workflow task, and the job would wait until they are registered. Checked at
 * start-up so a worker on an unprepared namespace says what to run (docs/operations.md, "Search attributes") instead
 * of failing jobs later. A server that does not let the worker list them (e.g. a restricted cloud role) is trusted.
 */
export async function checkSearchAttributes(opts: {
  address: string;
  namespace: string;
}): Promise<{ missing: string[] } | { unknown: string }> {
  const connection = await Connection.connect({ address: opts.address });
  try {
    const listed = await connection.operatorService.listSearchAttributes({ namespace: opts.namespace });
    return { missing: SEARCH_ATTRIBUTE_NAMES.filter((n) => !(n in (listed.customAttributes ?? {}))) };
  } catch (e) {
    return { unknown: e instanceof Error ? e.message : String(e) };
  } finally {
    await connection.close();
  }
}

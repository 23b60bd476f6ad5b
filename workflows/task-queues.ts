/** Default task queue; deployments override it with TEMPORAL_TASK_QUEUE (tests use one per run). */
export const DEFAULT_TASK_QUEUE = 'platform';

export { workflowIds } from '../domain/workflow-ids.js';

/** Message names of `invoice:<id>` (workflows/proof/invoice-lifecycle.workflow.ts), shared with its callers. */
export const INVOICE_LIFECYCLE = { voidUpdate: 'void', paidSignal: 'paid' } as const;

/** Temporal Schedules the worker keeps in place, one set per task queue (e.g. `maintenance:platform`). */
export const scheduleIds = {
  maintenance: (taskQueue: string) => `maintenance:${taskQueue}`,
  retention: (taskQueue: string) => `retention:${taskQueue}`,
};

import { ParentClosePolicy, WorkflowIdReusePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { MaintenanceActivities } from '../../activities/maintenance.activities.js';
import type { X402Activities } from '../../activities/x402.activities.js';
import { workflowIds } from '../task-queues.js';
import { webhookDeliveryWorkflow } from '../webhooks/delivery.workflow.js';

const { purgeExpiredRecords, findUnstartedDeliveries, reconcileX402Payments } = proxyActivities<MaintenanceActivities & X402Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5 },
});

/** A delivery whose first attempt has not happened this long after it was recorded lost its workflow start. */
export const UNSTARTED_DELIVERY_GRACE_SECONDS = 120;

export interface MaintenanceResult {
  rateLimitWindows: number;
  idempotencyKeys: number;
  restartedDeliveries: number;
  /** x402 settlements decided from the chain in this run. */
  reconciledPayments: { settled: number; failed: number; open: number };
}

/**
 * Run by the `maintenance:<task queue>` schedule every 15 minutes: purges expired records, decides open x402
 * settlements from the chain, and starts the
 * workflow of any delivery whose start was lost between its commit and `delivery:<id>` starting. The id is
 * the business id, so a delivery whose workflow does exist is left alone.
 */
export async function maintenanceWorkflow(): Promise<MaintenanceResult> {
  const purged = await purgeExpiredRecords();
  let restartedDeliveries = 0;
  const orphans = await findUnstartedDeliveries({ olderThanSeconds: UNSTARTED_DELIVERY_GRACE_SECONDS, limit: 500 });
  for (const orphan of orphans) {
    try {
      await startChild(webhookDeliveryWorkflow, {
        workflowId: workflowIds.delivery(orphan.deliveryId),
        args: [{ deliveryId: orphan.deliveryId, interface: orphan.interface }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      });
      restartedDeliveries++;
    } catch (e) {
      // Already running (or completed): nothing to restart. The class lives in @temporalio/common, which
      // workflows do not import; its name is stable.
      if (!(e instanceof Error && e.name === 'WorkflowExecutionAlreadyStartedError')) throw e;
    }
  }
  const reconciledPayments = await reconcileX402Payments({ limit: 200 });
  return { ...purged, restartedDeliveries, reconciledPayments };
}

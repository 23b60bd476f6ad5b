import { patched, proxyActivities } from '@temporalio/workflow';
import { startIfAbsent } from '../start-if-absent.js';
import type { MaintenanceActivities } from '../../activities/maintenance.activities.js';
import type { X402Activities } from '../../activities/x402.activities.js';
import { workflowIds } from '../task-queues.js';
import { webhookDeliveryWorkflow } from '../webhooks/delivery.workflow.js';
import { processingJobWorkflow } from '../processing/job.workflow.js';
import { processingBatchWorkflow } from '../processing/batch.workflow.js';
import { invoiceMailWorkflow } from '../proof/invoice-mail.workflow.js';
import { invoiceLifecycleWorkflow } from '../proof/invoice-lifecycle.workflow.js';

const {
  purgeExpiredRecords,
  findUnstartedDeliveries,
  findNeverClaimedJobs,
  reconcileX402Payments,
  findUnstartedInvoiceMails,
  findInvoicesWithoutLifecycle,
  findUnstartedBatches,
} = proxyActivities<MaintenanceActivities & X402Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5 },
});

/** A delivery (or job) with no first attempt (or slot claim) this long after it was recorded lost its workflow start. */
export const UNSTARTED_GRACE_SECONDS = 120;
/** A live `mail:<id>` workflow attempts at least hourly; a queued e-mail untouched this long has lost it. */
export const STALLED_MAIL_SECONDS = 3 * 3600;

export interface MaintenanceResult {
  rateLimitWindows: number;
  idempotencyKeys: number;
  /** Dashboard sessions that had ended or expired. */
  sessions: number;
  /** /proof payment requests closed as EXPIRED in this run. */
  expiredRequests: number;
  restartedDeliveries: number;
  /** Queued jobs whose `job:<id>` workflow had to be started here. */
  restartedJobs: number;
  /** x402 settlements decided from the chain in this run. */
  reconciledPayments: { settled: number; failed: number; open: number; purgedAnswers?: number };
  /** Queued invoice e-mails whose `mail:<id>` workflow had to be started here; present only when mail is configured. */
  restartedMails?: number;
  /** Issued invoices whose `invoice:<id>` lifecycle workflow had to be started here. */
  restartedInvoiceLifecycles?: number;
  /** Queued batches whose `batch:<id>` workflow had to be started here (runs from the batches release on). */
  restartedBatches?: number;
}

/**
 * Run by the `maintenance:<task queue>` schedule every 15 minutes: purges expired records, decides open x402
 * settlements from the chain, and starts the workflow of any delivery, job, queued invoice e-mail (only when
 * mail is configured) or issued invoice whose start was lost between its commit and `delivery:<id>` / `job:<id>`
 * / `mail:<id>` / `invoice:<id>` starting. The id is the business id, so a delivery, job or e-mail whose workflow does exist is left alone.
 */
export async function maintenanceWorkflow(): Promise<MaintenanceResult> {
  const purged = await purgeExpiredRecords();
  let restartedDeliveries = 0;
  for (const orphan of await findUnstartedDeliveries({ olderThanSeconds: UNSTARTED_GRACE_SECONDS, limit: 500 })) {
    const started = await startIfAbsent(webhookDeliveryWorkflow, workflowIds.delivery(orphan.deliveryId), {
      deliveryId: orphan.deliveryId,
      interface: orphan.interface,
    });
    if (started) restartedDeliveries++;
  }
  let restartedJobs = 0;
  for (const jobId of await findNeverClaimedJobs({ olderThanSeconds: UNSTARTED_GRACE_SECONDS, limit: 200 })) {
    if (await startIfAbsent(processingJobWorkflow, workflowIds.job(jobId), { jobId })) restartedJobs++;
  }
  const reconciledPayments = await reconcileX402Payments({ limit: 200 });
  const result: MaintenanceResult = { ...purged, restartedDeliveries, restartedJobs, reconciledPayments };
  // Last, so a run in flight across a deploy replays the steps above unchanged.
  const unstartedMails = await findUnstartedInvoiceMails({
    olderThanSeconds: UNSTARTED_GRACE_SECONDS,
    stalledSeconds: STALLED_MAIL_SECONDS,
    limit: 200,
  });
  if (unstartedMails !== null) {
    result.restartedMails = 0;
    for (const mailId of unstartedMails) {
      if (await startIfAbsent(invoiceMailWorkflow, workflowIds.mail(mailId), { mailId })) result.restartedMails++;
    }
  }
  // After the steps above, for the same reason.
  result.restartedInvoiceLifecycles = 0;
  for (const invoiceId of await findInvoicesWithoutLifecycle({
    olderThanSeconds: UNSTARTED_GRACE_SECONDS,
    limit: 200,
  })) {
    if (await startIfAbsent(invoiceLifecycleWorkflow, workflowIds.invoice(invoiceId), { invoiceId }))
      result.restartedInvoiceLifecycles++;
  }
  // Added with batches: behind a patch, so runs recorded before it replay unchanged.
  if (patched('restart-unstarted-batches')) {
    result.restartedBatches = 0;
    for (const batchId of await findUnstartedBatches({ olderThanSeconds: UNSTARTED_GRACE_SECONDS, limit: 200 })) {
      if (await startIfAbsent(processingBatchWorkflow, workflowIds.batch(batchId), { batchId }))
        result.restartedBatches++;
    }
  }
  return result;
}

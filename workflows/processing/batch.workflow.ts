import {
  ParentClosePolicy,
  proxyActivities,
  startChild,
  upsertSearchAttributes,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import type { BatchCounts, BatchStatus } from '../../domain/batches.js';
import { searchAttributesOf } from '../../domain/search-attributes.js';
import type { BatchActivities } from '../../activities/batches.activities.js';
import { workflowIds } from '../task-queues.js';
import { processingJobWorkflow, type JobWorkflowResult } from './job.workflow.js';

/**
 * Children started and not yet ended, at most. The children of a company run one at a time anyway (one active job per
 * company), so one in flight loses no throughput and hands over at once: the next child starts when one ends and
 * claims the freed slot immediately, where a started child waiting in its slot-claim retry backoff would take up to
 * 2 s. The cost: a child waiting out a provider outage holds its batch back (its siblings use the same provider).
 */
export const CHILDREN_IN_FLIGHT = 1;

export interface BatchWorkflowInput {
  batchId: string;
}

export interface BatchWorkflowResult {
  status: BatchStatus | 'missing';
  counts: BatchCounts | null;
  /** Failed children with their error (the item's 0-based index, its job id, code and message). */
  failures: Array<{ item: number; jobId: string; code: string; message: string }>;
}

const { startBatch, finishBatch } = proxyActivities<BatchActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * One batch (workflow id `batch:<id>`): starts every child job as a child workflow under its own `job:<id>` id (so
 * the Temporal UI shows the batch with its children), a few at a time in item order, waits for all of them, then ends the batch completed, partial
 * or failed (`finishBatch`, the batch's terminal hook). Each child is an ordinary job: it waits for a slot under
 * the same scheduler limits (one active job per company, three on the platform), is charged on success and releases
 * its reservation on failure. Children outlive a terminated batch (ABANDON): each settles its own reservation.
 * A killed worker resumes from the history: children already started are not started again.
 */
export async function processingBatchWorkflow(input: BatchWorkflowInput): Promise<BatchWorkflowResult> {
  const start = await startBatch({ batchId: input.batchId });
  if (start.outcome === 'missing') return { status: 'missing', counts: null, failures: [] };
  upsertSearchAttributes(
    searchAttributesOf({
      companyId: start.companyId,
      operation: start.operation,
      batchId: input.batchId,
      status: 'processing',
    }),
  );

  // At most CHILDREN_IN_FLIGHT children exist at a time, started in item order as earlier ones end: a hundred children
  // each polling for a slot would load Temporal for nothing. The lowest unfinished items are always among those
  // started, so first-in-first-out (a batch's children in item order) holds.
  const results: JobWorkflowResult[] = new Array<JobWorkflowResult>(start.jobIds.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < start.jobIds.length) {
      const item = next++;
      const jobId = start.jobIds[item]!;
      const child = await startChild(processingJobWorkflow, {
        workflowId: workflowIds.job(jobId),
        args: [{ jobId }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        searchAttributes: searchAttributesOf({
          companyId: start.companyId,
          operation: start.operation,
          batchId: input.batchId,
          status: 'queued',
        }),
      });
      results[item] = await child.result();
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHILDREN_IN_FLIGHT, start.jobIds.length) }, lane));

  const end = await finishBatch({ batchId: input.batchId });
  upsertSearchAttributes(searchAttributesOf({ status: end.status }));
  const failures = results.flatMap((r, item) =>
    r.status === 'failed'
      ? [
          {
            item,
            jobId: start.jobIds[item]!,
            code: r.error?.code ?? 'processing_error',
            message: r.error?.message ?? '',
          },
        ]
      : [],
  );
  return { status: end.status, counts: end.counts, failures };
}

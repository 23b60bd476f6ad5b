import { isBatchTerminal } from '../../domain/batches.js';
import { DomainError } from '../../domain/errors.js';
import { assertCancellable } from '../../domain/jobs.js';
import type { Db } from '../../db/connection.js';
import { getBatch, type Batch } from '../../db/repositories/batches.repo.js';
import { cancelJob, cancelQueuedBatchJobs, type CancelOutcome } from '../../db/repositories/job-cancel.repo.js';
import type { Job } from '../../db/repositories/jobs.repo.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';
import { wakeJobWorkflows, type WorkflowGateway } from '../workflows/workflow-client.js';
import { companyBatch } from './records.js';

export interface CancelDeps {
  db: Db;
  /** null: the API runs without Temporal; the cancelled jobs' workflows end at their fallback timer. */
  workflows: WorkflowGateway | null;
  /** The API's metrics: the jobs cancelled and the credits their cancel released, counted once committed. */
  metrics?: Pick<PlatformMetrics, 'jobsCancelled' | 'credits'> | undefined;
}

/** Counts jobs a committed cancel ended: each by operation, and their quotes as released credits (the reservations it released). */
function countCancelled(deps: CancelDeps, jobs: readonly Job[]): void {
  if (!deps.metrics) return;
  for (const job of jobs) {
    deps.metrics.jobsCancelled.inc({ operation: job.operation });
    deps.metrics.credits.inc({ movement: 'released' }, job.quotedCredits);
  }
}

/**
 * A queued job → cancelled, its reservation released once (cancelJob); then, the transaction committed, it is counted
 * (only the cancel that changed the job) and its workflow is woken so it ends now (it finds the job cancelled and runs
 * nothing) instead of at its slot wait's fallback timer.
 */
export async function cancelQueuedJob(
  deps: CancelDeps,
  companyId: string,
  jobId: string,
  now: Date,
): Promise<CancelOutcome> {
  const result = await cancelJob(deps.db, companyId, jobId, now);
  if (result.outcome !== 'cancelled') return result;
  countCancelled(deps, [result.job]);
  if (deps.workflows) await wakeJobWorkflows(deps.workflows, [jobId]);
  return result;
}

/** Every still-queued item of a batch → cancelled (cancelQueuedBatchJobs), counted and their workflows woken as above; their ids. */
export async function cancelQueuedBatchItems(
  deps: CancelDeps,
  companyId: string,
  batchId: string,
  now: Date,
): Promise<string[]> {
  const cancelled = await cancelQueuedBatchJobs(deps.db, companyId, batchId, now);
  countCancelled(deps, cancelled);
  const ids = cancelled.map((j) => j.id);
  if (deps.workflows) await wakeJobWorkflows(deps.workflows, ids);
  return ids;
}

/**
 * Cancels a queued job of the company (cancelQueuedJob): unknown or another company's → not found; processing or
 * ended → 409 `job_not_cancellable` (assertCancellable), a cancel repeated after it succeeded included. The job as
 * the cancel left it.
 */
export async function cancelCompanyJob(deps: CancelDeps, companyId: string, jobId: string, now: Date): Promise<Job> {
  const result = await cancelQueuedJob(deps, companyId, jobId, now);
  if (result.outcome === 'missing') throw new DomainError('not_found', 'Job not found');
  if (result.outcome === 'not_cancellable') assertCancellable(result.job.status);
  return result.job;
}

/**
 * Cancels the still-queued items of a company's batch (cancelQueuedBatchItems): unknown or another company's → not
 * found; an ended batch, or one with nothing queued, → 409 `batch_not_cancellable`. The ids cancelled and the batch as
 * it now reads.
 */
export async function cancelCompanyBatch(
  deps: CancelDeps,
  companyId: string,
  batchId: string,
  now: Date,
): Promise<{ cancelledIds: string[]; batch: Batch }> {
  const batch = await companyBatch(deps.db, companyId, batchId);
  if (isBatchTerminal(batch.status))
    throw new DomainError(
      'batch_not_cancellable',
      `The batch is ${batch.status}; only the queued items of a running batch can be cancelled`,
    );
  const cancelledIds = await cancelQueuedBatchItems(deps, batch.companyId, batch.id, now);
  if (cancelledIds.length === 0)
    throw new DomainError('batch_not_cancellable', 'No item of this batch is still queued; nothing was cancelled');
  return { cancelledIds, batch: (await getBatch(deps.db, batch.companyId, batch.id))! };
}

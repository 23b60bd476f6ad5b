import type { Db } from '../../db/connection.js';
import { cancelJob, cancelQueuedBatchJobs, type CancelOutcome } from '../../db/repositories/job-cancel.repo.js';
import type { Job } from '../../db/repositories/jobs.repo.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';
import { wakeJobWorkflows, type WorkflowGateway } from '../workflows/workflow-client.js';

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

import type { Db } from '../../db/connection.js';
import { cancelJob, cancelQueuedBatchJobs, type CancelOutcome } from '../../db/repositories/job-cancel.repo.js';
import { wakeJobWorkflows, type WorkflowGateway } from '../workflows/workflow-client.js';

export interface CancelDeps {
  db: Db;
  /** null: the API runs without Temporal; the cancelled jobs' workflows end at their fallback timer. */
  workflows: WorkflowGateway | null;
}

/**
 * A queued job → cancelled, its reservation released once (cancelJob); then its workflow is woken so it ends now (it
 * finds the job cancelled and runs nothing) instead of at its slot wait's fallback timer.
 */
export async function cancelQueuedJob(
  deps: CancelDeps,
  companyId: string,
  jobId: string,
  now: Date,
): Promise<CancelOutcome> {
  const result = await cancelJob(deps.db, companyId, jobId, now);
  if (result.outcome === 'cancelled' && deps.workflows) await wakeJobWorkflows(deps.workflows, [jobId]);
  return result;
}

/** Every still-queued item of a batch → cancelled (cancelQueuedBatchJobs), their workflows woken as above. */
export async function cancelQueuedBatchItems(
  deps: CancelDeps,
  companyId: string,
  batchId: string,
  now: Date,
): Promise<string[]> {
  const cancelled = await cancelQueuedBatchJobs(deps.db, companyId, batchId, now);
  if (deps.workflows) await wakeJobWorkflows(deps.workflows, cancelled);
  return cancelled;
}

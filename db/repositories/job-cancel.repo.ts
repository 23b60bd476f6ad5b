import { statusesBefore } from '../../domain/jobs.js';
import type { Db } from '../connection.js';
import { settleReservation } from './credits.repo.js';
import { toJob, type Job } from './jobs.repo.js';

/** The reason a cancellation's release carries in the ledger. */
export const CANCEL_REASON = 'job_cancelled';

export type CancelOutcome =
  { outcome: 'cancelled'; job: Job } | { outcome: 'not_cancellable'; job: Job } | { outcome: 'missing' };

/** The live jobs matching `where` that are still queued → cancelled, each reservation released, in the caller's transaction. */
async function cancelQueued(trx: Db, where: Record<string, string>, now: Date): Promise<Job[]> {
  const rows = await trx('jobs')
    .where(where)
    .whereNull('deleted_at')
    .whereIn('status', statusesBefore('cancelled'))
    .update({ status: 'cancelled', finished_at: now, secret_sealed: null, retry_at: null })
    .returning('*');
  const jobs = rows.map(toJob);
  for (const job of jobs) await settleReservation(trx, job.reservationId, 'release', CANCEL_REASON);
  return jobs;
}

/**
 * queued → cancelled with the reservation released, in one transaction, at most once. The conditional UPDATE
 * takes the job's row lock, which the scheduler's claim (`claimJobSlot`: SELECT … FOR UPDATE, then UPDATE) also
 * takes: whichever commits first wins, and the other sees the row as it left it. So two cancels release once, and
 * a job the scheduler has started is never cancelled (the caller gets `not_cancellable` with its state). The
 * job's workflow ends at its next claim, which finds the job `cancelled` and runs nothing.
 */
export async function cancelJob(db: Db, companyId: string, jobId: string, now: Date): Promise<CancelOutcome> {
  return db.transaction(async (trx) => {
    const [job] = await cancelQueued(trx, { id: jobId, company_id: companyId }, now);
    if (job) return { outcome: 'cancelled', job };
    const current = await trx('jobs').where({ id: jobId, company_id: companyId }).whereNull('deleted_at').first();
    return current ? { outcome: 'not_cancellable', job: toJob(current) } : { outcome: 'missing' };
  });
}

/**
 * Cancels every still-queued child job of a batch of the company (for the batches code), each exactly as
 * `cancelJob`: queued → cancelled and its reservation released once, all in one transaction. Children already
 * processing or ended are left as they are. Returns the ids of the jobs it cancelled. Needs `jobs.batch_id`
 * (added by the batches migration). Returns the jobs it cancelled (their quotes are what it released).
 */
export async function cancelQueuedBatchJobs(db: Db, companyId: string, batchId: string, now: Date): Promise<Job[]> {
  return db.transaction((trx) => cancelQueued(trx, { company_id: companyId, batch_id: batchId }, now));
}

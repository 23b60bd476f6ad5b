import type { JobStatus } from '../../domain/jobs.js';
import type { Db } from '../connection.js';
import { toJob, type Job } from './jobs.repo.js';

export interface JobListFilter {
  statuses?: JobStatus[];
  operations?: string[];
  batchId?: string;
  /** Jobs created strictly after / before these instants. */
  createdAfter?: Date;
  createdBefore?: Date;
}

/**
 * One page of the company's live jobs, newest first (created_at, then id, descending), strictly after the job
 * `before` in that order. The cursor job is looked up in the table itself, so a cursor stays valid when its job is
 * deleted meanwhile.
 */
export async function listJobs(
  db: Db,
  companyId: string,
  filter: JobListFilter,
  limit: number,
  before: string | null,
): Promise<Job[]> {
  const q = db('jobs')
    .where({ company_id: companyId })
    .whereNull('deleted_at')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  if (filter.statuses?.length) q.whereIn('status', filter.statuses);
  if (filter.operations?.length) q.whereIn('operation', filter.operations);
  if (filter.createdAfter) q.where('created_at', '>', filter.createdAfter);
  if (filter.createdBefore) q.where('created_at', '<', filter.createdBefore);
  if (filter.batchId !== undefined) q.where('batch_id', filter.batchId);
  if (before)
    q.whereRaw('(created_at, id) < (SELECT c.created_at, c.id FROM jobs c WHERE c.id = ? AND c.company_id = ?)', [
      before,
      companyId,
    ]);
  return (await q).map(toJob);
}

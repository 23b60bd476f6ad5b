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
 * Whether `jobs.batch_id` exists yet. It arrives with the batches migration; until then no job belongs to a batch.
 * Once seen it is remembered per database handle; its absence is asked again each time (only filtered lists ask).
 * TRANSITIONAL: once the batches migration is merged, drop this probe and filter on the column directly.
 */
const batchColumnSeen = new WeakSet<object>();
async function hasBatchColumn(db: Db): Promise<boolean> {
  if (batchColumnSeen.has(db.client as object)) return true;
  const row = await db('information_schema.columns')
    .where({ table_name: 'jobs', column_name: 'batch_id' })
    .whereRaw('table_schema = current_schema()')
    .first('column_name');
  if (row) batchColumnSeen.add(db.client as object);
  return row !== undefined;
}

/**
 * One page of the company's live jobs, newest first (created_at, then id, descending), strictly after the job
 * `before` in that order. The cursor job is looked up in the table itself, so a cursor stays valid when its job is
 * deleted meanwhile.
 */
export async function listJobs(db: Db, companyId: string, filter: JobListFilter, limit: number, before: string | null): Promise<Job[]> {
  const q = db('jobs').where({ company_id: companyId }).whereNull('deleted_at').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
  if (filter.statuses?.length) q.whereIn('status', filter.statuses);
  if (filter.operations?.length) q.whereIn('operation', filter.operations);
  if (filter.createdAfter) q.where('created_at', '>', filter.createdAfter);
  if (filter.createdBefore) q.where('created_at', '<', filter.createdBefore);
  if (filter.batchId !== undefined) {
    // Before the batches migration no job belongs to a batch: the filter matches nothing.
    if (await hasBatchColumn(db)) q.where('batch_id', filter.batchId);
    else q.whereRaw('false');
  }
  if (before) q.whereRaw('(created_at, id) < (SELECT c.created_at, c.id FROM jobs c WHERE c.id = ? AND c.company_id = ?)', [before, companyId]);
  return (await q).map(toJob);
}

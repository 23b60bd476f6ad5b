import { DomainError } from '../../domain/errors.js';
import { assertDeletable } from '../../domain/jobs.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import { markJobDeleted } from '../../db/repositories/jobs.repo.js';
import { companyJob } from './records.js';

/**
 * Deletes a job of the company: unknown or another company's → not found; not ended yet → conflict (assertDeletable);
 * a terminal job is hidden from the API (its accounting rows stay) and its result files removed. A job deleted between
 * the read and the update (another delete) is not found.
 */
export async function deleteJob(
  deps: { db: Db; store: FileStore },
  companyId: string,
  jobId: string,
  now: Date,
): Promise<void> {
  const job = await companyJob(deps.db, companyId, jobId);
  assertDeletable(job.status);
  const files = await markJobDeleted(deps.db, job.companyId, job.id, now);
  if (!files) throw new DomainError('not_found', 'Job not found');
  for (const f of files) await deps.store.remove(f.storageId);
}

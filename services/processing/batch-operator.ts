import { DomainError } from '../../domain/errors.js';
import type { Db } from '../../db/connection.js';
import { getBatchById, type Batch } from '../../db/repositories/batches.repo.js';
import { submitterOf } from '../../db/repositories/jobs.repo.js';
import type { AfterCommit } from '../workflows/workflow-starts.js';
import { retryFailedItems, type SubmitDeps, type Submitted } from './submission.js';

/*
 * The operator's batch commands (`batches:show`, `batches:retry-failed`; cli/batch-commands.ts): any company's batch
 * by id, and retry-failed on behalf of whoever submitted the batch, at most once unless asked again.
 */

/** Any company's batch by id; 404 `no such batch: <id>` when there is none. */
export async function operatorBatch(db: Db, id: string): Promise<Batch> {
  const batch = await getBatchById(db, id);
  if (!batch) throw new DomainError('not_found', `no such batch: ${id}`);
  return batch;
}

/**
 * What `POST /v1/batches/{id}/retry-failed` does (retryFailedItems), in `trx`, on behalf of the batch's submitter (its
 * API key, or the member who retried it from the dashboard). A batch already retried is refused (409 `conflict`,
 * naming its first retry) unless `again` is given, so a repeated command does not run the items twice; that is
 * decided under the company lock (RetryRule `once`), so two commands at once make one retry.
 */
export async function operatorRetryFailed(
  deps: SubmitDeps,
  trx: Db,
  afterCommit: AfterCommit,
  input: { original: Batch; again: boolean },
): Promise<Submitted> {
  const { original } = input;
  return retryFailedItems(deps, trx, afterCommit, {
    original,
    submitter: submitterOf(original),
    ...(input.again ? {} : { retryRule: 'once' as const }),
  });
}

import { DomainError } from '../domain/errors.js';
import type { SecretBox } from '../adapters/crypto/secret-box.js';
import type { FileStore } from '../adapters/storage/file-store.js';
import type { QpdfOptions } from '../adapters/media/pdf/qpdf.js';
import type { Db } from '../db/connection.js';
import { getBatchById } from '../db/repositories/batches.repo.js';
import { submitterOf } from '../db/repositories/jobs.repo.js';
import { retryFailedItems } from '../services/processing/submission.js';
import type { VideoWorkPolicy } from '../services/processing/estimate.js';
import { workflowIds } from '../workflows/task-queues.js';
import type { WorkflowGateway } from '../services/workflows/workflow-client.js';
import { runAfterCommit, startsInFlight, type AfterCommit } from '../services/workflows/workflow-starts.js';
import { required } from './admin-commands.js';
import { batchJson } from '../services/processing/records.js';

type Flags = Record<string, string | undefined>;

/** Operator commands on /v1 batches (README "Re-running failed batches"). */

async function batchOf(db: Db, flags: Flags) {
  const id = required(flags['batch'], 'the batch id (batches:show <batch id>)');
  const batch = await getBatchById(db, id);
  if (!batch) throw new DomainError('not_found', `no such batch: ${id}`);
  return batch;
}

/** `batches:show <batch id>`: the batch as the API shows it (every child), its company, and its workflow id. */
export async function batchesShow(db: Db, flags: Flags) {
  const batch = await batchOf(db, flags);
  const retries = await db('batches')
    .where({ retry_of: batch.id })
    .orderBy('created_at')
    .select('id', 'status', 'created_at');
  return {
    company_id: batch.companyId,
    workflow_id: workflowIds.batch(batch.id),
    ...(await batchJson(db, batch)),
    retried_by: retries,
  };
}

/**
 * `batches:retry-failed <batch id>`: what `POST /v1/batches/{id}/retry-failed` does, for the batch's company, on
 * behalf of whoever submitted the batch (its API key, or the member who retried it from the dashboard): a new batch
 * of the failed items, quoted and reserved anew. A batch that was already retried is refused unless `--again` is
 * given, so a repeated command does not run the items twice.
 */
export async function batchesRetryFailed(
  deps: {
    db: Db;
    store: FileStore;
    qpdf: QpdfOptions;
    ocrLanguages?: readonly string[];
    video?: VideoWorkPolicy;
    secretBox: SecretBox;
    workflows: WorkflowGateway;
  },
  flags: Flags,
) {
  const original = await batchOf(deps.db, flags);
  const earlier = await deps.db('batches').where({ retry_of: original.id }).orderBy('created_at').first('id');
  if (earlier && !flags['again']) {
    throw new DomainError(
      'conflict',
      `batch ${original.id} was already retried as ${earlier.id}; retry that one, or pass --again to re-run these failed items once more`,
    );
  }
  const afterCommit: AfterCommit = [];
  const submitted = await deps.db.transaction((trx) =>
    retryFailedItems({ ...deps, db: trx }, trx, afterCommit, { original, submitter: submitterOf(original) }),
  );
  // A start Temporal did not take now stays queued in the outbox: the workers' starters make it. The batch's start is
  // made while a request would answer (`answerFirst`); the command waits for it before it reports.
  const late: unknown[] = [];
  await runAfterCommit(afterCommit, deps.db, (err) => late.push(err));
  await startsInFlight(deps.workflows);
  if (late.length > 0) throw late[0];
  const batch = submitted.batch!;
  return { workflow_id: workflowIds.batch(batch.id), ...(await batchJson(deps.db, batch)) };
}

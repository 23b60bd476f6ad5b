import type { SecretBox } from '../adapters/crypto/secret-box.js';
import type { FileStore } from '../adapters/storage/file-store.js';
import type { QpdfOptions } from '../adapters/media/pdf/qpdf.js';
import type { Db } from '../db/connection.js';
import { listRetriesOf } from '../db/repositories/batches.repo.js';
import { operatorBatch, operatorRetryFailed } from '../services/processing/batch-operator.js';
import type { VideoWorkPolicy } from '../services/processing/estimate.js';
import { workflowIds } from '../workflows/task-queues.js';
import type { WorkflowGateway } from '../services/workflows/workflow-client.js';
import { runAfterCommit, startsInFlight, type AfterCommit } from '../services/workflows/workflow-starts.js';
import { required } from './admin-commands.js';
import { batchJson } from '../services/processing/records.js';

type Flags = Record<string, string | undefined>;

/** Operator commands on /v1 batches (README "Re-running failed batches"). */

const batchOf = (db: Db, flags: Flags) =>
  operatorBatch(db, required(flags['batch'], 'the batch id (batches:show <batch id>)'));

/** `batches:show <batch id>`: the batch as the API shows it (every child), its company, and its workflow id. */
export async function batchesShow(db: Db, flags: Flags) {
  const batch = await batchOf(db, flags);
  const retries = await listRetriesOf(db, batch.id);
  return {
    company_id: batch.companyId,
    workflow_id: workflowIds.batch(batch.id),
    ...(await batchJson(db, batch)),
    retried_by: retries.map((r) => ({ id: r.id, status: r.status, created_at: r.createdAt })),
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
  const afterCommit: AfterCommit = [];
  const submitted = await deps.db.transaction((trx) =>
    operatorRetryFailed({ ...deps, db: trx }, trx, afterCommit, { original, again: Boolean(flags['again']) }),
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

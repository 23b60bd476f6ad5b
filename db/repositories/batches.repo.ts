import { enqueueBatchTerminalEvent } from './v1-events.repo.js';
import { listBatchChildren } from './jobs.repo.js';
import {
  countChildren,
  finalBatchStatus,
  isBatchTerminal,
  type BatchCounts,
  type BatchStatus,
  type WebhookMode,
} from '../../domain/batches.js';
import type { JobStatus } from '../../domain/jobs.js';
import type { Db } from '../connection.js';
import type { Submitter } from './jobs.repo.js';

export interface Batch {
  id: string;
  companyId: string;
  /** Who submitted it (jobs.repo `Submitter`): an API key, or a member of the company session. */
  apiKeyId: string | null;
  memberId: string | null;
  operation: string;
  options: Record<string, unknown>;
  itemCount: number;
  quotedCredits: number;
  status: BatchStatus;
  webhookId: string | null;
  webhookMode: WebhookMode;
  retryOf: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const toBatch = (r: any): Batch => ({
  id: r.id,
  companyId: r.company_id,
  apiKeyId: r.api_key_id ?? null,
  memberId: r.member_id ?? null,
  operation: r.operation,
  options: r.options,
  itemCount: r.item_count,
  quotedCredits: r.quoted_credits,
  status: r.status,
  webhookId: r.webhook_id,
  webhookMode: r.webhook_mode,
  retryOf: r.retry_of,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

export type NewBatch = Pick<
  Batch,
  | 'id'
  | 'companyId'
  | 'operation'
  | 'options'
  | 'itemCount'
  | 'quotedCredits'
  | 'webhookId'
  | 'webhookMode'
  | 'retryOf'
  | 'createdAt'
> & { submitter: Submitter };

export async function insertBatch(trx: Db, b: NewBatch): Promise<Batch> {
  const [row] = await trx('batches')
    .insert({
      id: b.id,
      company_id: b.companyId,
      api_key_id: b.submitter.apiKeyId ?? null,
      member_id: b.submitter.memberId ?? null,
      operation: b.operation,
      options: JSON.stringify(b.options),
      item_count: b.itemCount,
      quoted_credits: b.quotedCredits,
      webhook_id: b.webhookId,
      webhook_mode: b.webhookMode,
      retry_of: b.retryOf,
      created_at: b.createdAt,
    })
    .returning('*');
  return toBatch(row);
}

/** A batch of the company (a foreign id is simply not found). */
export async function getBatch(db: Db, companyId: string, id: string): Promise<Batch | null> {
  const row = await db('batches').where({ id, company_id: companyId }).first();
  return row ? toBatch(row) : null;
}

/** A retry of `originalId` still queued or processing (its id), other than `exceptId` (the caller's own), or null. */
export async function findRunningRetry(db: Db, originalId: string, exceptId: string): Promise<string | null> {
  const row = await db('batches')
    .where({ retry_of: originalId })
    .whereNot({ id: exceptId })
    .whereIn('status', ['queued', 'processing'])
    .first<{ id: string } | undefined>('id');
  return row?.id ?? null;
}

/** The batches made by retrying `originalId`'s failed items (`retry_of`), oldest first. */
export async function listRetriesOf(
  db: Db,
  originalId: string,
): Promise<Array<{ id: string; status: BatchStatus; createdAt: Date }>> {
  const rows = await db('batches')
    .where({ retry_of: originalId })
    .orderBy('created_at')
    .select<Array<{ id: string; status: BatchStatus; created_at: Date }>>('id', 'status', 'created_at');
  return rows.map((r) => ({ id: r.id, status: r.status, createdAt: r.created_at }));
}

/** Any batch by id, for the worker and operator commands. */
export async function getBatchById(db: Db, id: string): Promise<Batch | null> {
  const row = await db('batches').where({ id }).first();
  return row ? toBatch(row) : null;
}

/** queued → processing when the batch workflow has started its children; a repeat changes nothing. */
export async function markBatchProcessing(db: Db, id: string, now: Date): Promise<void> {
  await db('batches').where({ id, status: 'queued' }).update({ status: 'processing', started_at: now });
}

/** Children per state, and how many of them the client has deleted since they ended (counted in their state too). */
export async function batchCounts(db: Db, batchId: string): Promise<BatchCounts & { deleted: number }> {
  const rows = await db('jobs')
    .where({ batch_id: batchId })
    .select<Array<{ status: JobStatus; deleted_at: Date | null }>>('status', 'deleted_at');
  return { ...countChildren(rows.map((r) => r.status)), deleted: rows.filter((r) => r.deleted_at !== null).length };
}

/**
 * Ends the batch from its children's states (spec: completed, partial or failed), once: a repeat after a crash
 * finds it terminal and changes nothing. `changed` is true only for the call that ended it. Null while a child
 * is unfinished.
 */
export async function finishBatch(
  db: Db,
  id: string,
  now: Date,
): Promise<{ status: BatchStatus; counts: BatchCounts; changed: boolean } | null> {
  return db.transaction(async (trx) => {
    const row = await trx('batches').where({ id }).forUpdate().first();
    if (!row) return null;
    // The children are read once: their states decide the end, and the batch event lists them.
    const children = await listBatchChildren(trx, id);
    const counts = countChildren(children.map((j) => j.status));
    const final = finalBatchStatus(counts);
    if (!final) return null;
    if (isBatchTerminal(row.status)) return { status: row.status, counts, changed: false };
    await trx('batches')
      .where({ id })
      .update({ status: final, finished_at: now, started_at: row.started_at ?? now });
    // The batch's terminal event (batch.completed | partial | failed, by webhook_mode) is recorded in the same
    // transaction as the transition: the delivery row is the outbox, sent by the worker's dispatcher after the commit.
    await enqueueBatchTerminalEvent(trx, {
      companyId: row.company_id,
      webhookId: row.webhook_id,
      at: now,
      batch: {
        id,
        status: final,
        operation: row.operation,
        webhookMode: row.webhook_mode,
        retryOf: row.retry_of,
        createdAt: row.created_at,
        finishedAt: now,
        children: children.map((j) => ({
          id: j.id,
          status: j.status,
          quotedCredits: j.quotedCredits,
          errorCode: j.errorCode,
        })),
      },
    });
    return { status: final, counts, changed: true };
  });
}

/** Credits of the batch's children by reservation state: still held, charged (successes) and released (failures). */
export async function batchCredits(
  db: Db,
  batchId: string,
): Promise<{ reserved: number; charged: number; released: number }> {
  const rows = await db('jobs')
    .join('credit_reservations', 'credit_reservations.id', 'jobs.reservation_id')
    .where('jobs.batch_id', batchId)
    .groupBy('credit_reservations.status')
    .select('credit_reservations.status', db.raw('sum(credit_reservations.amount)::bigint AS amount'));
  const by = Object.fromEntries(rows.map((r: { status: string; amount: string }) => [r.status, Number(r.amount)]));
  return { reserved: by['held'] ?? 0, charged: by['charged'] ?? 0, released: by['released'] ?? 0 };
}

/** Queued batches whose workflow never started (never marked processing), recorded before `before`. */
export async function findUnstartedBatches(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await db('batches')
    .where({ status: 'queued' })
    .whereNull('started_at')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .select('id');
  return rows.map((r) => r.id as string);
}

/**
 * One page of a company's batches, newest first (created_at, then id, descending), strictly after the batch `before`
 * in that order (looked up in the table, so a cursor of another company gives an empty page).
 */
export async function listBatches(db: Db, companyId: string, limit: number, before: string | null): Promise<Batch[]> {
  const q = db('batches')
    .where({ company_id: companyId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  if (before)
    q.whereRaw('(created_at, id) < (SELECT c.created_at, c.id FROM batches c WHERE c.id = ? AND c.company_id = ?)', [
      before,
      companyId,
    ]);
  return (await q).map(toBatch);
}

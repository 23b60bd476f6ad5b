import {
  JOB_LIMITS,
  statusesBefore,
  TERMINAL_JOB_STATUSES,
  UNFINISHED_JOB_STATUSES,
  type JobErrorCode,
  type JobStatus,
} from '../../domain/jobs.js';
import type { JobExtraction } from '../../domain/extraction.js';
import type { Db } from '../connection.js';
import { settleReservation } from './credits.repo.js';
import { enqueueJobTerminalEvent } from './v1-events.repo.js';

export interface ResultFile {
  name: string;
  storageId: string;
  bytes: number;
  contentType: string;
  /** Notes about this file the client should see (the job's `result.warnings`), e.g. a page OCR could hardly read. */
  warnings?: string[];
}

/**
 * Who submitted a job or a batch (attribution only; reads are scoped by company): the API key on /v1, or the member
 * of a company session (a billing administrator's retry-failed from the dashboard). Exactly one is set.
 */
export type Submitter = { apiKeyId: string; memberId?: undefined } | { memberId: string; apiKeyId?: undefined };

/** The submitter a row records (for re-submitting on its behalf, e.g. the operator's batches:retry-failed). */
export const submitterOf = (row: { apiKeyId: string | null; memberId: string | null }): Submitter =>
  row.apiKeyId !== null ? { apiKeyId: row.apiKeyId } : { memberId: row.memberId! };

export interface Job {
  id: string;
  companyId: string;
  apiKeyId: string | null;
  memberId: string | null;
  operation: string;
  uploadIds: string[];
  options: Record<string, unknown>;
  secretSealed: string | null;
  /** The company's `/v1` webhook its terminal event goes to (null: none). */
  webhookId: string | null;
  quotedCredits: number;
  reservationId: string;
  status: JobStatus;
  errorCode: JobErrorCode | null;
  errorMessage: string | null;
  resultFiles: ResultFile[] | null;
  attempts: number;
  retryAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  resultsExpireAt: Date | null;
  resultsPurgedAt: Date | null;
  /** The batch this job is an item of, and its 0-based position there (null for a job submitted alone). */
  batchId: string | null;
  itemIndex: number | null;
  /** A child made by retry-failed: the failed job it runs again. */
  retryOf: string | null;
  /** `flow-extract`: the fields, instructions and saved workflow it reads; null for other operations. */
  extraction: JobExtraction | null;
  /** When the client deleted it (`DELETE /v1/jobs/{id}`): hidden from the API, shown as deleted in its batch. */
  deletedAt: Date | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export const toJob = (r: any): Job => ({
  id: r.id,
  companyId: r.company_id,
  apiKeyId: r.api_key_id ?? null,
  memberId: r.member_id ?? null,
  operation: r.operation,
  uploadIds: r.upload_ids,
  options: r.options,
  extraction: r.extraction ?? null,
  secretSealed: r.secret_sealed,
  webhookId: r.webhook_id ?? null,
  quotedCredits: r.quoted_credits,
  reservationId: r.reservation_id,
  status: r.status,
  errorCode: r.error_code,
  errorMessage: r.error_message,
  resultFiles: r.result_files
    ? r.result_files.map((f: any) => ({
        name: f.name,
        storageId: f.storage_id,
        bytes: f.bytes,
        contentType: f.content_type,
        ...(Array.isArray(f.warnings) ? { warnings: f.warnings as string[] } : {}),
      }))
    : null,
  attempts: r.attempts,
  retryAt: r.retry_at,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  resultsExpireAt: r.results_expire_at,
  resultsPurgedAt: r.results_purged_at,
  batchId: r.batch_id ?? null,
  itemIndex: r.item_index ?? null,
  retryOf: r.retry_of ?? null,
  deletedAt: r.deleted_at ?? null,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

export type NewJob = Pick<
  Job,
  | 'id'
  | 'companyId'
  | 'operation'
  | 'uploadIds'
  | 'options'
  | 'secretSealed'
  | 'quotedCredits'
  | 'reservationId'
  | 'createdAt'
> &
  Partial<Pick<Job, 'batchId' | 'itemIndex' | 'retryOf' | 'webhookId' | 'extraction'>> & { submitter: Submitter };

export async function insertJob(trx: Db, job: NewJob): Promise<Job> {
  const [row] = await trx('jobs')
    .insert({
      id: job.id,
      company_id: job.companyId,
      api_key_id: job.submitter.apiKeyId ?? null,
      member_id: job.submitter.memberId ?? null,
      operation: job.operation,
      upload_ids: job.uploadIds,
      options: JSON.stringify(job.options),
      extraction: job.extraction ? JSON.stringify(job.extraction) : null,
      secret_sealed: job.secretSealed,
      webhook_id: job.webhookId ?? null,
      quoted_credits: job.quotedCredits,
      reservation_id: job.reservationId,
      created_at: job.createdAt,
      batch_id: job.batchId ?? null,
      item_index: job.itemIndex ?? null,
      retry_of: job.retryOf ?? null,
    })
    .returning('*');
  return toJob(row);
}

/** Whether an unfinished job of the company reads this upload. */
export async function uploadInUse(trx: Db, companyId: string, uploadId: string): Promise<boolean> {
  const row = await trx('jobs')
    .where({ company_id: companyId })
    .whereIn('status', UNFINISHED_JOB_STATUSES)
    .whereRaw('upload_ids @> ARRAY[?]::text[]', [uploadId])
    .first('id');
  return row !== undefined;
}

/** A job of the company that was not deleted (a foreign id is simply not found). */
export async function getJob(db: Db, companyId: string, id: string): Promise<Job | null> {
  const row = await db('jobs').where({ id, company_id: companyId }).whereNull('deleted_at').first();
  return row ? toJob(row) : null;
}

/** True when the company's job exists and was deleted (`DELETE /v1/jobs/{id}`): its id now answers 404. */
export async function isJobDeleted(db: Db, companyId: string, id: string): Promise<boolean> {
  const row = await db('jobs').where({ id, company_id: companyId }).whereNotNull('deleted_at').first('id');
  return row !== undefined;
}

/** Any job by id, for the worker. */
export async function getJobById(db: Db, id: string): Promise<Job | null> {
  const row = await db('jobs').where({ id }).first();
  return row ? toJob(row) : null;
}

/** Everyone who claims a slot takes this transaction-level lock first, so counts and claims are serialised. */
const SCHEDULER_LOCK = 4_021_122_001;

export type ClaimOutcome =
  | { outcome: 'claimed'; job: Job }
  | { outcome: 'busy'; reason: string }
  | { outcome: 'finished'; job: Job }
  | { outcome: 'missing' };

/**
 * Moves a queued job to processing if a slot is free: fewer than `activePlatform` processing jobs in all,
 * none of its company, and no older eligible queued job of the same company (first in, first out per company, a
 * batch's children in item order;
 * a job waiting out a provider outage is not eligible and does not block the others). Safe to repeat: a job
 * already processing is reported claimed.
 */
export async function claimJobSlot(
  db: Db,
  jobId: string,
  now: Date,
  limits: { activePerCompany: number; activePlatform: number } = JOB_LIMITS,
): Promise<ClaimOutcome> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [SCHEDULER_LOCK]);
    const row = await trx('jobs').where({ id: jobId }).forUpdate().first();
    if (!row) return { outcome: 'missing' };
    const job = toJob(row);
    if (job.status === 'processing') return { outcome: 'claimed', job };
    if (job.status !== 'queued') return { outcome: 'finished', job };
    if (job.retryAt && job.retryAt.getTime() > now.getTime())
      return { outcome: 'busy', reason: 'waiting after a provider outage' };

    const counts = await trx('jobs')
      .where({ status: 'processing' })
      .select(
        trx.raw('count(*)::int AS platform'),
        trx.raw('count(*) FILTER (WHERE company_id = ?)::int AS company', [job.companyId]),
      )
      .first<{ platform: number; company: number }>();
    if (counts.company >= limits.activePerCompany)
      return { outcome: 'busy', reason: 'the company already has an active job' };
    if (counts.platform >= limits.activePlatform)
      return { outcome: 'busy', reason: `all ${limits.activePlatform} platform processing slots are busy` };
    const older = await trx('jobs')
      .where({ company_id: job.companyId, status: 'queued' })
      .whereNull('deleted_at')
      .where((q) => q.whereNull('retry_at').orWhere('retry_at', '<=', now))
      // Order: submission time, then a batch's item order, then id (children of a batch share their created_at).
      .whereRaw('(created_at, coalesce(item_index, -1), id) < (?, ?, ?)', [job.createdAt, job.itemIndex ?? -1, job.id])
      .first('id');
    if (older) return { outcome: 'busy', reason: 'an older job of the company is queued first' };

    const [claimed] = await trx('jobs')
      .where({ id: jobId })
      .whereIn('status', statusesBefore('processing'))
      .update({ status: 'processing', started_at: now, retry_at: null, attempts: trx.raw('attempts + 1') })
      .returning('*');
    return { outcome: 'claimed', job: toJob(claimed) };
  });
}

/**
 * The queued jobs a slot that just freed could go to (the workflows the scheduler wakes, patch `job-slot-wake`): the
 * oldest eligible queued job of each company with fewer than `activePerCompany` processing jobs, in submission order,
 * at most as many as the platform has free slots. A hint only: the woken job still claims through claimJobSlot, under
 * the scheduler lock, and one that loses the race waits for the next wake.
 */
export async function queuedJobsToWake(
  db: Db,
  now: Date,
  limits: { activePerCompany: number; activePlatform: number } = JOB_LIMITS,
): Promise<string[]> {
  const { rows } = await db.raw<{ rows: Array<{ id: string }> }>(
    `WITH processing AS (
       SELECT company_id, count(*) AS n FROM jobs WHERE status = 'processing' GROUP BY company_id
     ), heads AS (
       SELECT DISTINCT ON (j.company_id) j.id, j.created_at, coalesce(j.item_index, -1) AS item
         FROM jobs j
        WHERE j.status = 'queued' AND j.deleted_at IS NULL AND (j.retry_at IS NULL OR j.retry_at <= ?)
          AND NOT EXISTS (SELECT 1 FROM processing p WHERE p.company_id = j.company_id AND p.n >= ?)
        ORDER BY j.company_id, j.created_at, coalesce(j.item_index, -1), j.id
     )
     SELECT id FROM heads
      ORDER BY created_at, item, id
      LIMIT greatest(0, ? - (SELECT coalesce(sum(n), 0) FROM processing))`,
    [now, limits.activePerCompany, limits.activePlatform],
  );
  return rows.map((r) => r.id);
}

/** A provider outage: processing → queued, not eligible before `retryAt`; the reservation stays held. */
export async function requeueJob(db: Db, jobId: string, retryAt: Date): Promise<boolean> {
  return (
    (await db('jobs')
      .where({ id: jobId })
      .whereIn('status', statusesBefore('queued'))
      .update({ status: 'queued', retry_at: retryAt })) === 1
  );
}

/**
 * The outbox of the job's webhook: its `job.completed` / `job.failed` delivery, recorded in the transaction of the
 * terminal update (so once, and only if that update committed). The worker's dispatcher sends it after the commit
 * (docs/webhooks.md, "How a delivery is sent").
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function recordTerminalEvent(trx: Db, row: any, at: Date): Promise<void> {
  const job = toJob(row);
  if (!job.webhookId || (job.status !== 'completed' && job.status !== 'failed')) return;
  await enqueueJobTerminalEvent(trx, {
    companyId: job.companyId,
    webhookId: job.webhookId,
    at,
    job: { ...job, status: job.status, batchId: (row.batch_id as string | null | undefined) ?? null },
  });
}

/**
 * processing → completed with its result files, the sealed secret dropped, and the quote charged, in one
 * transaction. Exactly once: a repeat (a retried activity after a crash) changes and charges nothing.
 */
export async function completeJob(
  db: Db,
  jobId: string,
  files: ResultFile[],
  now: Date,
  resultsExpireAt: Date,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const [row] = await trx('jobs')
      .where({ id: jobId })
      .whereIn('status', statusesBefore('completed'))
      .update({
        status: 'completed',
        finished_at: now,
        secret_sealed: null,
        results_expire_at: resultsExpireAt,
        result_files: resultFilesJson(files),
      })
      .returning('*');
    if (!row) return false;
    await settleReservation(trx, row.reservation_id, 'charge');
    await recordTerminalEvent(trx, row, now);
    return true;
  });
}

const resultFilesJson = (files: readonly ResultFile[]) =>
  JSON.stringify(
    files.map((f) => ({
      name: f.name,
      storage_id: f.storageId,
      bytes: f.bytes,
      content_type: f.contentType,
      ...(f.warnings?.length ? { warnings: f.warnings } : {}),
    })),
  );

/** A company's completed job, its row locked until the transaction ends (review corrections serialise on it). */
export async function lockCompletedJob(trx: Db, companyId: string, id: string): Promise<Job | null> {
  const row = await trx('jobs')
    .where({ id, company_id: companyId, status: 'completed' })
    .whereNull('deleted_at')
    .forUpdate()
    .first();
  return row ? toJob(row) : null;
}

/** Replaces a completed job's list of result files (review corrections add their regenerated exports). */
export async function setResultFiles(trx: Db, jobId: string, files: readonly ResultFile[]): Promise<void> {
  await trx('jobs')
    .where({ id: jobId, status: 'completed' })
    .update({ result_files: resultFilesJson(files) });
}

/** An unfinished job → failed with its error, the secret dropped and the reservation released, once. */
export async function failJob(
  db: Db,
  jobId: string,
  error: { code: JobErrorCode; message: string },
  now: Date,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const [row] = await trx('jobs')
      .where({ id: jobId })
      .whereIn('status', statusesBefore('failed'))
      .update({
        status: 'failed',
        finished_at: now,
        secret_sealed: null,
        retry_at: null,
        error_code: error.code,
        error_message: error.message,
      })
      .returning('*');
    if (!row) return false;
    await settleReservation(trx, row.reservation_id, 'release');
    await recordTerminalEvent(trx, row, now);
    return true;
  });
}

/** Hides a terminal job from the API (its accounting rows stay); returns its result files to remove. */
export async function markJobDeleted(db: Db, companyId: string, id: string, now: Date): Promise<ResultFile[] | null> {
  const [row] = await db('jobs')
    .where({ id, company_id: companyId })
    .whereIn('status', TERMINAL_JOB_STATUSES)
    .whereNull('deleted_at')
    .update({ deleted_at: now, results_purged_at: db.raw('coalesce(results_purged_at, ?)', [now]) })
    .returning('*');
  return row ? (toJob(row).resultFiles ?? []) : null;
}

/** Completed jobs whose results passed retention and still have files on disk. */
export async function findExpiredResults(
  db: Db,
  now: Date,
  limit: number,
): Promise<Array<{ id: string; files: ResultFile[] }>> {
  const rows = await db('jobs')
    .whereNotNull('result_files')
    .whereNull('results_purged_at')
    .where('results_expire_at', '<=', now)
    .orderBy('results_expire_at')
    .limit(limit);
  return rows.map((r) => ({ id: r.id, files: toJob(r).resultFiles ?? [] }));
}

export async function markResultsPurged(db: Db, jobId: string, now: Date): Promise<void> {
  await db('jobs').where({ id: jobId }).whereNull('results_purged_at').update({ results_purged_at: now });
}

/**
 * Queued jobs submitted alone that never got a slot, recorded before `before` (their workflow start may have been
 * lost). A batch's children are left out: their `batch:<id>` workflow starts them (a lost batch start is found by
 * findUnstartedBatches), and a `job:<id>` started here would not be the batch's child.
 */
export async function findNeverClaimedJobs(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await db('jobs')
    .where({ status: 'queued', attempts: 0 })
    .whereNull('batch_id')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .select('id');
  return rows.map((r) => r.id as string);
}

/** The children of a batch in item order (the whole list: a batch has at most 100), deleted ones included. */
export async function listBatchChildren(db: Db, batchId: string): Promise<Job[]> {
  const rows = await db('jobs').where({ batch_id: batchId }).orderBy('item_index');
  return rows.map(toJob);
}

import { BATCH_LIMITS } from '../../domain/batches.js';
import { DomainError } from '../../domain/errors.js';
import type { Db } from '../../db/connection.js';
import { batchCounts, batchCredits, getBatch, type Batch } from '../../db/repositories/batches.repo.js';
import { getJob, listBatchChildren, type Job } from '../../db/repositories/jobs.repo.js';
import type { ListedUpload, Upload } from '../../db/repositories/uploads.repo.js';
import type { ResultFile } from '../../db/repositories/jobs.repo.js';
import type { AvailableOperation } from '../../domain/validation/processing-request.js';
import type {
  batchJobSchema,
  batchSchema,
  batchSummarySchema,
  jobSchema,
} from '../../domain/validation/job-records.js';
import type { z } from 'zod';
import type {
  listedUploadSchema,
  resultFileSchema,
  uploadSchema,
} from '../../domain/validation/processing-responses.js';

/*
 * The /v1 job and batch records: a company's job or batch read (another company's id is not found), and the JSON
 * shape clients receive (spec sections 2 and 4), shared by the /v1 routes, the company session and the operator CLI.
 */

export const downloadPath = (jobId: string, index: number) => `/v1/jobs/${jobId}/results/${index}`;

/** The job record of the API (spec section 2: id, status, error when failed, result.files), as `jobSchema` states it. */
export function jobJson(job: Job): JobRecord {
  const common = {
    id: job.id,
    operation: job.operation as AvailableOperation, // stored only after the request validator accepted it
    upload_ids: job.uploadIds,
    options: job.options,
    /** flow-extract: the fields, instructions and saved workflow (with its revision) the job reads; null otherwise. */
    extraction: job.extraction,
    estimated_credits: job.quotedCredits,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    batch_id: job.batchId,
    webhook_id: job.webhookId,
  };
  const unsettled = { error: null, error_code: null, result: null };
  const finishedAt = () => (job.finishedAt ?? job.createdAt).toISOString();
  switch (job.status) {
    case 'queued':
    case 'processing':
      return { ...common, status: job.status, charged_credits: null, finished_at: null, ...unsettled };
    case 'completed':
      return {
        ...common,
        status: 'completed',
        charged_credits: job.quotedCredits,
        finished_at: finishedAt(),
        error: null,
        error_code: null,
        // A completed job always has its result (completeJob records the files with the state).
        result: resultJson(job.id, job.resultFiles ?? [], job.resultsExpireAt),
      };
    case 'failed':
      return {
        ...common,
        status: 'failed',
        charged_credits: 0,
        finished_at: finishedAt(),
        error: job.errorMessage ?? 'The job failed',
        error_code: job.errorCode ?? 'processing_error',
        result: null,
      };
    case 'cancelled':
      return { ...common, status: 'cancelled', charged_credits: 0, finished_at: finishedAt(), ...unsettled };
  }
}

function resultJson(jobId: string, files: readonly ResultFile[], expiresAt: Date | null) {
  return {
    files: files.map((f, i): z.input<typeof resultFileSchema> => ({
      name: f.name,
      download_path: downloadPath(jobId, i),
      bytes: f.bytes,
      content_type: f.contentType,
    })),
    expires_at: expiresAt?.toISOString() ?? null,
    /** What the client should know about the results (e.g. an OCR page that could hardly be read); often empty. */
    warnings: files.flatMap((f) => f.warnings ?? []),
  };
}

/** The job record as a client receives it (JSON). */
export type JobRecord = z.input<typeof jobSchema>;

/** A job of the company, or 404 (another company's id is the same answer): for /v1 and the company session. */
export async function companyJob(db: Db, companyId: string, id: string): Promise<Job> {
  const job = await getJob(db, companyId, id);
  if (!job) throw new DomainError('not_found', 'Job not found');
  return job;
}

/**
 * A child as its batch shows it: the job record and its position; a child the client deleted (`DELETE /v1/jobs/{id}`)
 * keeps its state and credits but says when it was deleted and has no result (its files are gone).
 */
const batchChildJson = (j: Job): z.input<typeof batchJobSchema> => ({
  item_index: j.itemIndex!,
  ...jobJson(j),
  ...(j.deletedAt ? { result: null } : {}),
  deleted_at: j.deletedAt?.toISOString() ?? null,
});

/** The batch record: aggregate progress and credits, then the children (item order) with their job metadata, paged. */
export async function batchJson(
  db: Db,
  batch: Batch,
  page: { after: number; limit: number } = { after: 0, limit: BATCH_LIMITS.childrenPageDefault },
): Promise<BatchRecord> {
  const summary = await batchSummaryJson(db, batch);
  const children = await listBatchChildren(db, batch.id);
  const shown = children.filter((j) => j.itemIndex! >= page.after).slice(0, page.limit);
  const last = shown.at(-1);
  return {
    ...summary,
    jobs: shown.map(batchChildJson),
    next_after: last && last.itemIndex! < batch.itemCount - 1 ? last.itemIndex! + 1 : null,
  };
}

/** The batch without its children: what lists show. */
export async function batchSummaryJson(db: Db, batch: Batch): Promise<z.input<typeof batchSummarySchema>> {
  // One after the other: `db` may be a transaction (one connection), which must not be sent concurrent queries.
  const counts = await batchCounts(db, batch.id);
  const credits = await batchCredits(db, batch.id);
  return {
    id: batch.id,
    status: batch.status,
    operation: batch.operation as AvailableOperation, // stored only after the request validator accepted it
    options: batch.options,
    item_count: batch.itemCount,
    retry_of: batch.retryOf,
    webhook_id: batch.webhookId,
    webhook_mode: batch.webhookMode,
    created_at: batch.createdAt.toISOString(),
    started_at: batch.startedAt?.toISOString() ?? null,
    finished_at: batch.finishedAt?.toISOString() ?? null,
    progress: counts,
    credits: { estimated: batch.quotedCredits, ...credits },
  };
}

export type BatchRecord = z.input<typeof batchSchema>;

/** A batch of the company, or 404 (another company's id is the same answer): for /v1 and the company session. */
export async function companyBatch(db: Db, companyId: string, id: string): Promise<Batch> {
  const batch = await getBatch(db, companyId, id);
  if (!batch) throw new DomainError('not_found', 'Batch not found');
  return batch;
}

/** True once a completed job's results passed retention (or were removed). */
export const resultsExpired = (job: Job, now: Date): boolean =>
  job.resultsPurgedAt !== null || (job.resultsExpireAt !== null && job.resultsExpireAt.getTime() <= now.getTime());

/** The upload record of the API (`POST /v1/uploads`, `GET /v1/uploads/{id}`). */
export function uploadJson(u: Upload): z.input<typeof uploadSchema> {
  return {
    id: u.id,
    filename: u.filename,
    kind: u.kind,
    mime_type: u.mimeType,
    bytes: u.bytes,
    pages: u.pages,
    duration_seconds: u.durationSeconds,
    width: u.width,
    height: u.height,
    encrypted: u.encrypted,
    sha256: u.sha256,
    created_at: u.createdAt.toISOString(),
    expires_at: u.expiresAt.toISOString(),
  };
}

/**
 * An upload in the upload lists: its record, and whether a job or batch uses it: `in_use` (a queued or processing job
 * reads it, so DELETE answers 409 until that job ends), `job_count` (the company's jobs that name it, any state) and
 * `batch_count` (the batches among them).
 */
export function listedUploadJson(u: ListedUpload): z.input<typeof listedUploadSchema> {
  return { ...uploadJson(u), in_use: u.inUse, job_count: u.jobCount, batch_count: u.batchCount };
}

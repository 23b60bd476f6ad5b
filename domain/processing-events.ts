import type { z } from 'zod';
import type { JobErrorCode, JobStatus } from './jobs.js';
import type { AvailableOperation } from './validation/processing-request.js';
import type {
  batchEventSchema,
  jobEventSchema,
  webhookBatchSchema,
  webhookJobSchema,
} from './validation/processing-event-schemas.js';
import type { TerminalBatchStatus, WebhookMode } from './batches.js';

/**
 * The `/v1` webhook events (spec section 6) and the rules of which ones a job or a batch emits. Pure: the repositories
 * build the stored body bytes from here in the same transaction as the terminal transition (docs/webhooks.md,
 * "/v1 job and batch events").
 */

export const JOB_EVENT_TYPES = ['job.completed', 'job.failed'] as const;
export const BATCH_EVENT_TYPES = ['batch.completed', 'batch.partial', 'batch.failed'] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];
export type BatchEventType = (typeof BATCH_EVENT_TYPES)[number];
export type V1EventType = JobEventType | BatchEventType;

export type TerminalJobStatus = Extract<JobStatus, 'completed' | 'failed'>;

/** The download path of result `index` of a job (the same as `result.files[].download_path` of `GET /v1/jobs/{id}`). */
export const resultDownloadPath = (jobId: string, index: number): string => `/v1/jobs/${jobId}/results/${index}`;
export const batchResultsPath = (batchId: string): string => `/v1/batches/${batchId}/results.zip`;

/**
 * Which events a job's terminal transition emits. A job without a batch emits its `job.*` event when it names a
 * webhook. A batch's child emits it only when the batch's mode is `items` or `both` (and the batch names a webhook).
 */
export function jobEvents(input: {
  status: TerminalJobStatus;
  webhookId: string | null;
  batch: { mode: WebhookMode } | null;
}): JobEventType[] {
  if (!input.webhookId) return [];
  if (input.batch && input.batch.mode === 'batch') return [];
  return [input.status === 'completed' ? 'job.completed' : 'job.failed'];
}

/** Which events a batch's terminal transition emits: its `batch.<status>` event in modes `batch` and `both`. */
export function batchEvents(input: {
  status: TerminalBatchStatus;
  webhookId: string | null;
  mode: WebhookMode;
}): BatchEventType[] {
  if (!input.webhookId || input.mode === 'items') return [];
  return [`batch.${input.status}`];
}

/**
 * The webhook id a batch's child job stores, so that the child's own terminal transition (jobs repository) emits its
 * `job.*` event exactly when the mode asks for item events; `null` in mode `batch`.
 */
export function childWebhookId(webhookId: string | null, mode: WebhookMode): string | null {
  return webhookId && mode !== 'batch' ? webhookId : null;
}

/** What the events need of a job (the jobs repository's row). */
export interface EventJobInput {
  id: string;
  status: TerminalJobStatus;
  operation: string;
  uploadIds: readonly string[];
  batchId: string | null;
  quotedCredits: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  errorCode: JobErrorCode | null;
  errorMessage: string | null;
  resultFiles: ReadonlyArray<{ bytes: number; contentType: string }> | null;
  resultsExpireAt: Date | null;
}

/**
 * The `job` object of a job event: the public job record without what could disclose private source data. Left out:
 * `options` (page selections, watermark text; a password is never stored in them) and each result file's `name`
 * (derived from the name of the uploaded source, which the company never chose to send to a webhook). Result
 * files are listed by index with their `download_path`, which still needs an API key.
 */
export function webhookJob(job: EventJobInput): WebhookJob {
  const common = {
    id: job.id,
    operation: job.operation as AvailableOperation, // stored only after the request validator accepted it
    batch_id: job.batchId,
    upload_ids: [...job.uploadIds],
    estimated_credits: job.quotedCredits,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    // The terminal transition sets it (completeJob, failJob) in the transaction that records the event.
    finished_at: (job.finishedAt ?? job.createdAt).toISOString(),
  };
  if (job.status === 'failed')
    return {
      ...common,
      status: 'failed',
      charged_credits: 0,
      error: job.errorMessage ?? 'The job failed',
      error_code: job.errorCode ?? 'processing_error',
      result: null,
    };
  return {
    ...common,
    status: 'completed',
    charged_credits: job.quotedCredits,
    error: null,
    error_code: null,
    result: {
      files: (job.resultFiles ?? []).map((f, i) => ({
        index: i,
        download_path: resultDownloadPath(job.id, i),
        bytes: f.bytes,
        content_type: f.contentType,
      })),
      expires_at: job.resultsExpireAt?.toISOString() ?? null,
    },
  };
}

export type WebhookJob = z.input<typeof webhookJobSchema>;

/** `{id, type, created_at, job}` of a job event; `created_at` is the moment of the terminal transition. */
export function jobEventBody(eventId: string, job: EventJobInput, createdAt: Date): z.input<typeof jobEventSchema> {
  const body = webhookJob(job);
  const envelope = { id: eventId, created_at: createdAt.toISOString() };
  return body.status === 'completed'
    ? { ...envelope, type: 'job.completed', job: body }
    : { ...envelope, type: 'job.failed', job: body };
}

/** What a batch event needs of a batch and its children (the batches repository reads it at the terminal transition). */
export interface EventBatchInput {
  id: string;
  status: TerminalBatchStatus;
  operation: string;
  webhookMode: WebhookMode;
  retryOf: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  /** Children in item order. */
  children: ReadonlyArray<{ id: string; status: JobStatus; quotedCredits: number; errorCode: JobErrorCode | null }>;
}

/**
 * The `batch` object of a batch event: the batch's aggregate progress and each child's id, state and error code (no
 * names, options or messages: fetch a child with `GET /v1/jobs/{id}` and an API key for those). Credits: `charged` is
 * the sum of completed children's quotes, `released` of failed ones', `reserved` of unfinished ones' (0 once terminal).
 */
export function webhookBatch(batch: EventBatchInput): WebhookBatch {
  const count = (s: JobStatus) => batch.children.filter((c) => c.status === s).length;
  const sum = (pred: (s: JobStatus) => boolean) =>
    batch.children.filter((c) => pred(c.status)).reduce((n, c) => n + c.quotedCredits, 0);
  const completed = count('completed');
  return {
    id: batch.id,
    status: batch.status,
    operation: batch.operation as AvailableOperation, // stored only after the request validator accepted it
    webhook_mode: batch.webhookMode,
    retry_of: batch.retryOf,
    created_at: batch.createdAt.toISOString(),
    finished_at: batch.finishedAt?.toISOString() ?? null,
    progress: {
      total: batch.children.length,
      queued: count('queued'),
      processing: count('processing'),
      completed,
      failed: count('failed'),
      cancelled: count('cancelled'),
    },
    credits: {
      reserved: sum((s) => s === 'queued' || s === 'processing'),
      charged: sum((s) => s === 'completed'),
      released: sum((s) => s === 'failed' || s === 'cancelled'),
    },
    items: batch.children.map((c, index) => ({
      index,
      job_id: c.id,
      status: c.status,
      error_code: c.status === 'failed' ? c.errorCode : null,
    })),
    results_zip_path: completed > 0 ? batchResultsPath(batch.id) : null,
  };
}

export type WebhookBatch = z.input<typeof webhookBatchSchema>;

/**
 * `{id, type, created_at, job: null, batch}` of a batch event: the spec's envelope (`job` is `null`, as for every
 * event that concerns no single job) with the `batch` object added.
 */
export function batchEventBody(
  eventId: string,
  batch: EventBatchInput,
  createdAt: Date,
): z.input<typeof batchEventSchema> {
  const body = webhookBatch(batch);
  const envelope = { id: eventId, created_at: createdAt.toISOString(), job: null };
  switch (body.status) {
    case 'completed':
      return { ...envelope, type: 'batch.completed', batch: { ...body, status: 'completed' } };
    case 'partial':
      return { ...envelope, type: 'batch.partial', batch: { ...body, status: 'partial' } };
    case 'failed':
      return { ...envelope, type: 'batch.failed', batch: { ...body, status: 'failed' } };
  }
}

import { z } from 'zod';
import { BATCH_LIMITS, WEBHOOK_MODES } from '../batches.js';
import type { JobErrorCode } from '../jobs.js';
import {
  batchIdSchema,
  jobIdSchema,
  operationSchema,
  resultFileSchema,
  uploadIdSchema,
  webhookIdSchema,
} from './processing-responses.js';

/**
 * The /v1 job and batch records, written once: `jobJson`, `batchJson` and `batchSummaryJson`
 * (services/processing/records.ts) return these types, and the /v1 and company OpenAPI documents are generated from
 * these schemas (api/shared/processing/openapi.contract.ts names them). A job is a union on `status`: what each state shows
 * (`charged_credits`, `finished_at`, `error`, `error_code`, `result`) is stated per state, so the document says it
 * and a serializer that sends something else fails the typecheck. docs/processing.md, "The job record".
 */

const dateTime = z.iso.datetime();

/** The stable codes of a failed job (`JobErrorCode` of domain/jobs.ts; docs/processing.md). */
export const JOB_ERROR_CODES = [
  'invalid_source',
  'source_missing',
  'provider_unavailable',
  'processing_error',
  'processing_timeout',
] as const satisfies readonly JobErrorCode[];

/** A completed job's results. */
export const jobResultSchema = z.strictObject({
  files: z.array(resultFileSchema),
  expires_at: dateTime.nullable().meta({ description: 'Results are kept 7 days.' }),
  warnings: z.array(z.string()).meta({
    description:
      'What you should know about the results, in words; usually empty. OCR (`ocr-text`, `ocr-docx`, `ocr-pdf`): each page read with a mean word confidence under 60 %, e.g. `page 2 is hard to read (text recognition confidence 21 %); its text is likely wrong or missing`, else each page with 15 % or more of its print blurred, e.g. `page 3 is partly blurred (40 % of its print has no sharp edge); its text is likely incomplete`.',
  }),
});

/** `flow-extract`: what the job reads, as it was quoted. */
const extractionSchema = z.strictObject({
  fields: z.array(z.string()).min(1),
  instructions: z.string().nullable(),
  workflow_id: z
    .string()
    .regex(/^wfl_[A-Za-z0-9]{20}$/)
    .nullable(),
  workflow_revision: z.int().min(1).nullable(),
});

/** The fields every state of a job shows alike. */
const jobFields = {
  id: jobIdSchema,
  batch_id: batchIdSchema.nullable().meta({
    description: 'The batch this job is an item of (`GET /v1/batches/{batch_id}`); null for a job submitted alone.',
  }),
  operation: operationSchema,
  upload_ids: z.array(uploadIdSchema).min(1),
  options: z
    .record(z.string(), z.unknown())
    .meta({ description: 'The options as validated, without secrets (a password is never shown).' }),
  extraction: extractionSchema.nullable().meta({
    description:
      "`flow-extract`: what the job reads, as it was quoted (a saved workflow's settings and the revision used); null for other operations.",
  }),
  estimated_credits: z.int().min(1).meta({ description: 'The quote reserved at submission.' }),
  created_at: dateTime,
  started_at: dateTime.nullable(),
  webhook_id: webhookIdSchema
    .nullable()
    .meta({ description: "The webhook the job's terminal event is sent to, as submitted; null when none." }),
};

const noError = { error: z.null(), error_code: z.null() };
const finishedAt = dateTime.meta({ description: 'When the job reached this terminal state.' });
const released = z.literal(0).meta({ description: 'Nothing is charged: the reservation was released.' });

/**
 * A job's states, each with what it shows. `head` and `tail` are fields around the job's (a batch's child adds its
 * `item_index` and `deleted_at`); `completedResult` is the `result` of a completed job.
 */
function jobUnion<H extends z.core.$ZodLooseShape, T extends z.core.$ZodLooseShape, R extends z.ZodType>(
  head: H,
  tail: T,
  completedResult: R,
) {
  return z.discriminatedUnion('status', [
    z
      .strictObject({
        ...head,
        ...jobFields,
        status: z.enum(['queued', 'processing']),
        charged_credits: z.null(),
        finished_at: z.null(),
        ...noError,
        result: z.null(),
        ...tail,
      })
      .meta({
        title: 'unfinished',
        description:
          '`queued` → `processing`; a temporary provider outage moves a job back to `queued`. Nothing is charged yet.',
      }),
    z
      .strictObject({
        ...head,
        ...jobFields,
        status: z.literal('completed'),
        charged_credits: z.int().min(1).meta({ description: 'The quote, charged on success.' }),
        finished_at: finishedAt,
        ...noError,
        result: completedResult,
        ...tail,
      })
      .meta({ title: 'completed', description: 'Terminal: the quote is charged and the results can be downloaded.' }),
    z
      .strictObject({
        ...head,
        ...jobFields,
        status: z.literal('failed'),
        charged_credits: released,
        finished_at: finishedAt,
        error: z.string().meta({ description: 'Why the job failed, in words.' }),
        error_code: z.enum(JOB_ERROR_CODES).meta({ description: 'Stable code of the failure.' }),
        result: z.null(),
        ...tail,
      })
      .meta({ title: 'failed', description: 'Terminal: the reservation is released.' }),
    z
      .strictObject({
        ...head,
        ...jobFields,
        status: z.literal('cancelled'),
        charged_credits: released,
        finished_at: finishedAt,
        ...noError,
        result: z.null(),
        ...tail,
      })
      .meta({
        title: 'cancelled',
        description: 'Terminal: cancelled while queued (`POST /v1/jobs/{job_id}/cancel`); the reservation is released.',
      }),
  ]);
}

/** A job as `GET /v1/jobs/{job_id}` shows it: a completed job always has its `result`. */
export const jobSchema = jobUnion({}, {}, jobResultSchema).meta({
  description:
    'A job, by `status`: `queued` → `processing` → `completed` or `failed` (terminal). A temporary provider outage moves a job back to `queued`. ' +
    'A queued job you cancel (`POST /v1/jobs/{job_id}/cancel`) becomes `cancelled` (terminal; its reservation released). ' +
    '`result` is set exactly when the job is completed; `error` and `error_code` exactly when it failed.',
});

/** A child job of a batch: the job, its position, and when the client deleted it. */
export const batchJobSchema = jobUnion(
  {
    item_index: z
      .int()
      .min(0)
      .max(BATCH_LIMITS.maxItems - 1),
  },
  {
    deleted_at: dateTime.nullable().meta({
      description: 'When the client deleted this child (`DELETE /v1/jobs/{job_id}`); null while it is not deleted.',
    }),
  },
  jobResultSchema.nullable().meta({ description: 'The results; null once the child is deleted (`deleted_at` set).' }),
).meta({
  description:
    'A child job of a batch: the job as `GET /v1/jobs/{job_id}` shows it, its position in the batch, and `deleted_at`. A child the client ' +
    'deleted (`DELETE /v1/jobs/{job_id}`) keeps its state and credits, has `result: null` (its files are gone) and is 404 on its own: a ' +
    'completed child has `result: null` exactly when `deleted_at` is set.',
});

const count = z.int().min(0);

/** A batch's children per state (the batch record's and the batch event's `progress`). */
export const childCounts = {
  total: count,
  queued: count,
  processing: count,
  completed: count,
  failed: count,
  cancelled: count,
};

const batchSummaryFields = {
  id: batchIdSchema,
  status: z.enum(['queued', 'processing', 'completed', 'partial', 'failed']).meta({
    description:
      '`queued` → `processing` (its children started) → `completed` (every child completed), `partial` (at least one of each) or `failed` (every child failed), all terminal.',
  }),
  operation: operationSchema,
  options: z.record(z.string(), z.unknown()).meta({ description: 'The options, without secrets.' }),
  item_count: z.int().min(1).max(BATCH_LIMITS.maxItems),
  retry_of: batchIdSchema
    .nullable()
    .meta({ description: 'The batch whose failed items this one re-runs (`retry-failed`); null otherwise.' }),
  webhook_id: webhookIdSchema.nullable(),
  webhook_mode: z.enum(WEBHOOK_MODES),
  created_at: dateTime,
  started_at: dateTime.nullable(),
  finished_at: dateTime.nullable(),
  progress: z.strictObject({ ...childCounts, deleted: count }).meta({
    description:
      'Children per state (`cancelled`: cancelled while queued with `POST /v1/jobs/{job_id}/cancel`; it counts as not completed). `deleted`: how many ' +
      'ended children the client has deleted since (`DELETE /v1/jobs/{job_id}`); they are counted in their state too, and left out of the results ZIP.',
  }),
  credits: z.strictObject({ estimated: count, reserved: count, charged: count, released: count }).meta({
    description:
      "The children's credits: `estimated` (the quote at submission) = `reserved` (still held by unfinished children) + `charged` (completed children) + `released` (failed and cancelled children).",
  }),
};

/** A batch without its children, as lists show it. */
export const batchSummarySchema = z.strictObject(batchSummaryFields).meta({
  description: 'A batch without its children: progress and credits (`GET /v1/batches/{batch_id}` shows the children).',
});

/** A batch as `GET /v1/batches/{batch_id}` shows it: progress, credits and a page of its children. */
export const batchSchema = z.strictObject({
  ...batchSummaryFields,
  jobs: z.array(batchJobSchema).max(BATCH_LIMITS.maxItems).meta({
    description:
      'The children in item order (this page of them), each with its job metadata as `GET /v1/jobs/{job_id}` shows it.',
  }),
  next_after: z
    .int()
    .min(1)
    .nullable()
    .meta({ description: 'More children follow: pass this as `after` for the next page; null on the last page.' }),
});

/** The answer of `POST /v1/batches/estimate`. */
export const batchEstimateSchema = z.strictObject({
  operation: operationSchema,
  estimated_credits: z.int().min(1).meta({
    description:
      "The whole batch's quote: what `POST /v1/batches` reserves (each child its share) and `max_credits` is checked against.",
  }),
  items: z
    .array(
      z.strictObject({
        item_index: z.int().min(0),
        upload_ids: z.array(uploadIdSchema).min(1),
        estimated_credits: z.int().min(1),
      }),
    )
    .min(1)
    .max(BATCH_LIMITS.maxItems),
});

/** The answer of `POST /v1/batches/{batch_id}/cancel`. */
export const batchCancelledSchema = z.strictObject({
  cancelled_job_ids: z.array(jobIdSchema).min(1).meta({ description: 'The items this request cancelled.' }),
  batch: batchSchema,
});

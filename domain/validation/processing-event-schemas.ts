import { z } from 'zod';
import { WEBHOOK_MODES } from '../batches.js';
import type { JobStatus } from '../jobs.js';
import { TEST_PING } from '../webhooks.js';
import { childCounts, JOB_ERROR_CODES } from './job-records.js';
import { eventIdSchema } from './proof-event-schemas.js';
import { batchIdSchema, jobIdSchema, operationSchema, uploadIdSchema } from './processing-responses.js';

/**
 * The `/v1` webhook bodies (spec section 6), written once: `jobEventBody` and `batchEventBody`
 * (domain/processing-events.ts) return these types, and the `webhooks` of the /v1 document are generated from them
 * (api/shared/processing/openapi.contract.ts names the components). Every body is `{id, type, created_at, job}`; batch events
 * add `batch`. A job event's `job.status` is the state its type names, and so is a batch event's `batch.status`.
 */

const dateTime = z.iso.datetime();
const count = z.int().min(0);

const createdAt = dateTime.meta({
  description:
    'When the event was created (ISO 8601, UTC): for job and batch events, the moment of the terminal transition.',
});

const webhookJobFields = {
  id: jobIdSchema,
  operation: operationSchema,
  batch_id: batchIdSchema
    .nullable()
    .meta({ description: 'The batch the job is an item of; null for a job submitted alone.' }),
  upload_ids: z.array(uploadIdSchema).min(1),
  estimated_credits: z.int().min(1),
  created_at: dateTime,
  started_at: dateTime.nullable(),
  finished_at: dateTime,
};

const webhookResultSchema = z.strictObject({
  files: z.array(
    z.strictObject({
      index: count,
      download_path: z
        .string()
        .regex(/^\/v1\/jobs\/job_[A-Za-z0-9]{20}\/results\/[0-9]+$/)
        .meta({ description: 'GET it with your API key (the webhook carries no credential).' }),
      bytes: count,
      content_type: z.string(),
    }),
  ),
  expires_at: dateTime.nullable(),
});

/** The `job` of `job.completed`. */
export const completedWebhookJobSchema = z
  .strictObject({
    ...webhookJobFields,
    status: z.literal('completed'),
    charged_credits: z.int().min(1).meta({ description: 'The quote, charged.' }),
    error: z.null(),
    error_code: z.null(),
    result: webhookResultSchema.meta({ description: 'The result files.' }),
  })
  .meta({ title: 'completed' });

/** The `job` of `job.failed`. */
export const failedWebhookJobSchema = z
  .strictObject({
    ...webhookJobFields,
    status: z.literal('failed'),
    charged_credits: z.literal(0).meta({ description: 'Nothing: the reservation was released.' }),
    error: z.string().meta({ description: 'Why the job failed.' }),
    error_code: z.enum(JOB_ERROR_CODES).meta({ description: 'Stable code of the failure (see `Job`).' }),
    result: z.null(),
  })
  .meta({ title: 'failed' });

export const webhookJobSchema = z
  .discriminatedUnion('status', [completedWebhookJobSchema, failedWebhookJobSchema])
  .meta({
    description:
      'The job record of `GET /v1/jobs/{job_id}` without what could disclose private source data: no `options` (page selections, watermark text; ' +
      'passwords are never stored in them) and no result file `name` (it derives from the name of your uploaded file). Fetch the job with your API key for those.',
  });

export const testPingEventSchema = z.strictObject({
  id: eventIdSchema,
  type: z.literal(TEST_PING).meta({ description: `\`${TEST_PING}\`: a test delivery sent by the platform operator.` }),
  created_at: createdAt,
  job: z.null().meta({ description: '`null`: a ping concerns no job.' }),
});

const jobEventOf = <T extends z.ZodType>(type: 'job.completed' | 'job.failed', job: T) =>
  z.strictObject({ id: eventIdSchema, type: z.literal(type), created_at: createdAt, job }).meta({ title: type });

export const jobEventSchema = z.discriminatedUnion('type', [
  jobEventOf('job.completed', completedWebhookJobSchema),
  jobEventOf('job.failed', failedWebhookJobSchema),
]);

const ITEM_STATES = [
  'queued',
  'processing',
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly JobStatus[];
const BATCH_END_STATES = ['completed', 'partial', 'failed'] as const;

const webhookBatchFields = {
  id: batchIdSchema,
  operation: operationSchema,
  webhook_mode: z.enum(WEBHOOK_MODES),
  retry_of: batchIdSchema
    .nullable()
    .meta({ description: 'The batch this one re-runs the failed items of (`retry-failed`); null otherwise.' }),
  created_at: dateTime,
  finished_at: dateTime.nullable(),
  progress: z.strictObject(childCounts),
  credits: z.strictObject({ reserved: count, charged: count, released: count }).meta({
    description:
      '`charged`: the quotes of completed items; `released`: of failed and cancelled items; `reserved`: of unfinished ones (0 once terminal).',
  }),
  items: z
    .array(
      z.strictObject({
        index: count,
        job_id: jobIdSchema,
        status: z.enum(ITEM_STATES),
        error_code: z.enum(JOB_ERROR_CODES).nullable().meta({ description: 'Set when the item failed.' }),
      }),
    )
    .max(100)
    .meta({ description: 'One entry per item, in item order.' }),
  results_zip_path: z
    .string()
    .regex(/^\/v1\/batches\/bat_[A-Za-z0-9]{20}\/results\.zip$/)
    .nullable()
    .meta({ description: '`GET` it with your API key for the successful results; null when no item completed.' }),
};

const WEBHOOK_BATCH_DESCRIPTION =
  "The batch at its terminal transition: aggregate progress, credits and each item's job id, state and error code (no names, options or messages).";

export const webhookBatchSchema = z
  .strictObject({ ...webhookBatchFields, status: z.enum(BATCH_END_STATES) })
  .meta({ description: WEBHOOK_BATCH_DESCRIPTION });

const batchEventOf = (state: (typeof BATCH_END_STATES)[number]) =>
  z
    .strictObject({
      id: eventIdSchema,
      type: z.literal(`batch.${state}` as const),
      created_at: createdAt,
      job: z.null().meta({
        description:
          '`null`: a batch event concerns no single job (each child has its own `job.*` event in modes `items` and `both`).',
      }),
      batch: z.strictObject({ ...webhookBatchFields, status: z.literal(state) }).meta({
        description: WEBHOOK_BATCH_DESCRIPTION,
      }),
    })
    .meta({ title: `batch.${state}` });

export const batchEventSchema = z.discriminatedUnion('type', [
  batchEventOf('completed'),
  batchEventOf('partial'),
  batchEventOf('failed'),
]);

export const webhookEventSchema = z
  .discriminatedUnion('type', [testPingEventSchema, jobEventSchema, batchEventSchema])
  .meta({
    description:
      'The body of every `/v1` webhook (spec section 6): `{id, type, created_at, job}`, and `batch` on batch events. Verify the signature on the raw bytes before parsing; ignore unknown event types and unknown fields.',
  });

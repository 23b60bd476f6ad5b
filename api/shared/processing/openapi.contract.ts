import { z } from 'zod';
import { newV1WebhookSchema, v1WebhookCreateSchema } from '../../../domain/validation/company.js';
import {
  batchIdSchema,
  creditsSchema,
  estimateSchema,
  ledgerEntrySchema,
  operationSchema,
  jobIdSchema,
  resultFileSchema,
  listedUploadSchema,
  uploadIdSchema,
  uploadListSchema,
  uploadSchema,
  webhookIdSchema,
} from '../../../domain/validation/processing-responses.js';
import {
  batchCancelledSchema,
  batchEstimateSchema,
  batchJobSchema,
  batchSchema,
  batchSummarySchema,
  jobSchema,
} from '../../../domain/validation/job-records.js';
import {
  capabilitiesSchema,
  capabilitySchema,
  priceRuleSchema,
} from '../../../domain/validation/capability-records.js';
import {
  batchEventSchema,
  jobEventSchema,
  testPingEventSchema,
  webhookBatchSchema,
  webhookEventSchema,
  webhookJobSchema,
} from '../../../domain/validation/processing-event-schemas.js';
import {
  BATCH_REQUEST_VARIANTS,
  batchRequestSchema,
  JOB_REQUEST_VARIANTS,
  jobRequestSchema,
} from '../../../domain/validation/processing-request-schemas.js';
import {
  AVAILABLE_OPERATIONS,
  RESERVED_FIELD_NAMES,
  type AvailableOperation,
} from '../../../domain/validation/processing-request.js';
import { BATCH_LIMITS } from '../../../domain/batches.js';
import { OPERATION_SUMMARIES } from './operation-summaries.js';
import { Contract, type Components } from '../../http/contract.js';
import { cursorPattern, type CursorList } from '../../http/pagination.js';

/**
 * The contract of `/v1`: the zod schemas the handlers parse with and the serializers return, named as components of
 * the generated OpenAPI document (docs/openapi/v1.json): requests (the job and batch bodies, a variant per operation;
 * the webhook registration) and responses (uploads, estimates, credits, jobs, batches, capabilities, the webhook
 * bodies). The `Error` body (zod too) and the result-file schemas are in openapi.schemas.ts;
 * docs/operations.md, "The API contract".
 */

/** A page of a list paged by a cursor of `kind`: its rows, newest first, and the next cursor. */
const cursorPage = <T extends z.ZodType>(item: T, kind: CursorList) =>
  z.strictObject({
    data: z.array(item).max(100).meta({ description: 'Newest first.' }),
    next_cursor: z
      .string()
      .regex(new RegExp(cursorPattern(kind)))
      .nullable()
      .meta({ description: 'Pass as `before` for the next page; null when this page is not full (no more).' }),
  });

/** The answer of `GET /v1/uploads`. */
export const uploadPageSchema = cursorPage(listedUploadSchema, 'uploads');

/** The answer of `GET /v1/jobs`. */
export const jobPageSchema = cursorPage(jobSchema, 'jobs');

const requestSchemaNameOf = (op: AvailableOperation) =>
  `${op
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}Request`;
/** Component name of the request body variant of an operation, e.g. `PdfRotateRequest` (`BatchPdfRotateRequest`). */
export const requestSchemaName = requestSchemaNameOf;

/** The request components of the /v1 contract (the company session's contract names them too). */
export const V1_REQUESTS = {
  WebhookCreate: v1WebhookCreateSchema,
  UploadId: uploadIdSchema,
  WebhookId: webhookIdSchema,
  JobRequest: {
    schema: jobRequestSchema,
    description:
      'Body of `POST /v1/estimate` and `POST /v1/jobs`, validated strictly: an unknown field or option is a 422. ' +
      'The spec fields `items` and `webhook_mode` (batches only: `POST /v1/batches`) are refused with 422 here; `fields`, ' +
      '`instructions` and `workflow_id` belong to `flow-extract` only. ' +
      `Reserved extraction field names: ${RESERVED_FIELD_NAMES.join(', ')}.`,
  },
  ...Object.fromEntries(
    AVAILABLE_OPERATIONS.map((op) => [
      requestSchemaNameOf(op),
      { schema: JOB_REQUEST_VARIANTS[op], description: OPERATION_SUMMARIES[op] },
    ]),
  ),
  BatchRequest: {
    schema: batchRequestSchema,
    description:
      'Body of `POST /v1/batches/estimate` and `POST /v1/batches`: one operation and its options for every child job, and the sources as ' +
      '`upload_ids` (one child per upload; operations of one source) or `items` (one child per group, e.g. `pdf-merge`), never both; at most ' +
      `${BATCH_LIMITS.maxItems} children. Each child is validated and quoted like a job body (\`JobRequest\`); a problem names the item ` +
      '(`items.3.upload_ids.0`, or `upload_ids.3` with the shorthand). `max_credits` applies to the whole batch quote; `webhook_id` and ' +
      '`webhook_mode` say where and which events the batch sends.',
  },
  ...Object.fromEntries(
    AVAILABLE_OPERATIONS.map((op) => [
      `Batch${requestSchemaNameOf(op)}`,
      { schema: BATCH_REQUEST_VARIANTS[op], description: OPERATION_SUMMARIES[op] },
    ]),
  ),
} satisfies Components;

/** The response components of the /v1 contract. */
export const V1_RESPONSES = {
  UploadId: uploadIdSchema,
  JobId: jobIdSchema,
  BatchId: batchIdSchema,
  WebhookId: webhookIdSchema,
  Operation: operationSchema,
  Estimate: estimateSchema,
  LedgerEntry: ledgerEntrySchema,
  Credits: creditsSchema,
  Upload: uploadSchema,
  UploadList: uploadListSchema,
  ListedUpload: listedUploadSchema,
  UploadPage: uploadPageSchema,
  NewWebhook: newV1WebhookSchema,
  ResultFile: resultFileSchema,
  Job: jobSchema,
  JobList: jobPageSchema,
  BatchJob: batchJobSchema,
  Batch: batchSchema,
  BatchSummary: batchSummarySchema,
  BatchEstimate: batchEstimateSchema,
  BatchCancellation: batchCancelledSchema,
  PriceRule: priceRuleSchema,
  Capability: capabilitySchema,
  Capabilities: capabilitiesSchema,
  WebhookEvent: webhookEventSchema,
  TestPingEvent: testPingEventSchema,
  JobEvent: jobEventSchema,
  WebhookJob: webhookJobSchema,
  BatchEvent: batchEventSchema,
  WebhookBatch: webhookBatchSchema,
} satisfies Components;

export const v1Contract = new Contract({ requests: V1_REQUESTS, responses: V1_RESPONSES });

/** Components of the /v1 document only: the webhook registration, the batch cancellation, the webhook bodies. */
export const V1_ONLY = new Set([
  'NewWebhook',
  'WebhookCreate',
  'BatchCancellation',
  'WebhookEvent',
  'TestPingEvent',
  'JobEvent',
  'WebhookJob',
  'BatchEvent',
  'WebhookBatch',
]);

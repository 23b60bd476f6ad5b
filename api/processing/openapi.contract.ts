import { z } from 'zod';
import { newV1WebhookSchema, v1WebhookCreateSchema } from '../../domain/validation/company.js';
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
} from '../../domain/validation/processing-responses.js';
import {
  batchCancelledSchema,
  batchEstimateSchema,
  batchJobSchema,
  batchSchema,
  batchSummarySchema,
  jobSchema,
} from '../../domain/validation/job-records.js';
import { capabilitiesSchema, capabilitySchema, priceRuleSchema } from '../../domain/validation/capability-records.js';
import {
  batchEventSchema,
  jobEventSchema,
  testPingEventSchema,
  webhookBatchSchema,
  webhookEventSchema,
  webhookJobSchema,
} from '../../domain/validation/processing-event-schemas.js';
import { Contract } from '../http/contract.js';
import { cursorPattern, type CursorList } from '../http/pagination.js';
import type { Schema } from '../http/openapi-kit.js';

/**
 * The contract of `/v1`: the zod schemas the handlers parse with and the serializers return, named as components of
 * the generated OpenAPI document (docs/openapi/v1.json). The job options are generated from OPTION_SCHEMAS
 * (OPERATION_DOCS of openapi.schemas.ts). The components not named here are still JSON Schema written beside the zod
 * schemas (openapi.schemas.ts, openapi.reads.ts, openapi.batches.ts, openapi.webhooks.ts), and move here one by one
 * (docs/operations.md, "The API contract").
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

export const v1Contract = new Contract({
  requests: { WebhookCreate: v1WebhookCreateSchema },
  responses: {
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
  },
});

/** Components of the /v1 document only: the webhook registration, the batch cancellation, the webhook bodies. */
const V1_ONLY = new Set([
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

/** The /v1 resource components (uploads, ids, jobs, batches, credits, capabilities), which the company session's document also shows. */
export function v1ResourceSchemas(): Record<string, Schema> {
  return Object.fromEntries(Object.entries(v1Contract.schemas()).filter(([name]) => !V1_ONLY.has(name)));
}

import { extractionReviewSchema } from '../../domain/validation/company-responses.js';
import { correctionsSchema } from '../../domain/validation/extraction-corrections.js';
import { BATCH_LIMITS } from '../../domain/batches.js';
import { batchSchema, jobSchema } from '../../domain/validation/job-records.js';
import { creditsSchema } from '../../domain/validation/processing-responses.js';
import { binaryContent, headerRef, locationHeader, pathParam } from '../http/openapi-kit.js';
import { afterSchema, childrenLimitSchema } from '../http/pagination.js';
import { resultIndexSchema } from '../http/result-files.js';
import { uploadPageSchema } from '../shared/processing/openapi.contract.js';
import { batchPageSchema, jobPageSchema } from './responses.js';
import { errors } from './openapi.errors.js';
import {
  parameter,
  idParam,
  jobIdParam,
  limitParam,
  beforeParam,
  emptyPage,
  companyRoutes,
} from './openapi.contract.js';

const gone = { '410': errors(410, ['gone'], 'The results passed retention.') };
const batchIdParam = idParam('batch_id', 'bat', 'Batch');

/** The company's jobs, uploads, batches and credits (every member; retrying a batch's failures: administrators). */
export const JOB_ROUTES = companyRoutes('Jobs', [
  {
    method: 'get',
    path: '/api/company/jobs',
    operationId: 'listJobs',
    summary: "The company's jobs",
    description: "Every member may list the company's jobs, newest first, in the `/v1` job format.",
    parameters: [limitParam, beforeParam('jobs')],
    response: { description: 'A page of jobs.', schema: jobPageSchema, examples: { empty: emptyPage } },
    errors: { query: true },
  },
  {
    method: 'get',
    path: '/api/company/uploads',
    operationId: 'listUploads',
    summary: "The company's uploads",
    description:
      "Every member may list the company's uploads that still hold storage, newest first, as `GET /v1/uploads` lists them (with " +
      '`in_use`, `job_count` and `batch_count`). Only `limit` and `before` are taken; any other or a repeated parameter is 422.',
    parameters: [limitParam, beforeParam('uploads')],
    response: { description: 'A page of uploads.', schema: uploadPageSchema, examples: { empty: emptyPage } },
    errors: { query: true },
  },
  {
    method: 'get',
    path: '/api/company/batches',
    operationId: 'listBatches',
    summary: "The company's batches",
    description:
      "Every member may list the company's batches, newest first, each with its progress and credits but without its children (those are the `/v1` jobs with its `batch_id`).",
    parameters: [limitParam, beforeParam('batches')],
    response: { description: 'A page of batches.', schema: batchPageSchema, examples: { empty: emptyPage } },
    errors: { query: true },
  },
  {
    method: 'get',
    path: '/api/company/jobs/{job_id}',
    operationId: 'getJob',
    summary: 'A job',
    description:
      "One of the company's jobs (every member), in the `/v1` job format; its `download_path`s are the `/v1` ones, and the same files download in this session at `/api/company/jobs/{job_id}/results/{index}`.",
    parameters: [jobIdParam],
    response: { description: 'The job.', schema: jobSchema },
    errors: { ids: true },
  },
  {
    method: 'get',
    path: '/api/company/jobs/{job_id}/results/{index}',
    operationId: 'downloadResult',
    summary: 'Download a result file',
    description:
      "The bytes of a completed job's result file `index` (from 0, the order of `result.files`), as an attachment (every member).",
    parameters: [
      jobIdParam,
      pathParam('index', parameter(resultIndexSchema), 'The 0-based position in `result.files`.', '0'),
    ],
    response: {
      description: 'The file.',
      content: binaryContent('application/octet-stream'),
    },
    errors: { ids: true, codes409: ['conflict'] },
    moreErrors: gone,
  },
  {
    method: 'get',
    path: '/api/company/batches/{batch_id}',
    operationId: 'getBatch',
    summary: 'A batch',
    description:
      "One of the company's batches with its progress, credits and children, as `GET /v1/batches/{batch_id}` (every member).",
    parameters: [
      batchIdParam,
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Children per page, 1 to ${BATCH_LIMITS.maxItems} (default ${BATCH_LIMITS.childrenPageDefault}).`,
        schema: parameter(childrenLimitSchema),
      },
      {
        name: 'after',
        in: 'query',
        required: false,
        description: 'The first `item_index` of the page (default 0): the `next_after` of the previous page.',
        schema: parameter(afterSchema),
      },
    ],
    response: { description: 'The batch.', schema: batchSchema },
    errors: { ids: true, query: true },
  },
  {
    method: 'get',
    path: '/api/company/batches/{batch_id}/results.zip',
    operationId: 'downloadBatchResults',
    summary: "A batch's results ZIP",
    description:
      'Once the batch has ended: its successful results in one folder per item plus `manifest.json`, as `GET /v1/batches/{batch_id}/results.zip` (every member).',
    parameters: [batchIdParam],
    response: {
      description: 'The ZIP.',
      content: binaryContent('application/zip'),
    },
    errors: { ids: true, codes409: ['batch_not_terminal'] },
    moreErrors: { ...gone, '413': errors(413, ['batch_zip_too_large'], 'Over 1 GB.') },
  },
  {
    method: 'post',
    path: '/api/company/batches/{batch_id}/retry-failed',
    operationId: 'retryFailedBatchItems',
    summary: 'Re-run the failed items as a new batch',
    description:
      'Billing administrators: what `POST /v1/batches/{batch_id}/retry-failed` does (a new batch, `retry_of` the original, of its failed and cancelled items, each quoted and ' +
      'reserved anew, atomically), recorded as submitted by the member instead of an API key. No body and no `Idempotency-Key`: a second request while a retry of the same ' +
      'batch is still queued or processing gets 409 `batch_retry_in_progress`, so a double click makes one retry batch. Once that retry has ended, the original may be retried again.',
    parameters: [batchIdParam],
    body: 'empty',
    response: {
      status: '202',
      description: 'Accepted: the failed items are queued again as a new batch (its path in `Location`).',
      schema: batchSchema,
      headers: {
        Location: locationHeader('`/api/company/batches/{id}` of the new batch.', '/api/company/batches', 'bat'),
      },
    },
    errors: {
      admin: true,
      ids: true,
      codes409: [
        'batch_not_terminal',
        'batch_has_no_failed_items',
        'batch_retry_needs_password',
        'batch_retry_in_progress',
      ],
    },
    moreErrors: {
      '402': errors(402, ['insufficient_credits'], 'Not enough credits for the new quote.'),
      '410': errors(410, ['gone'], 'A source of a failed item is past its 7-day retention.'),
      '429': errors(429, ['rate_limited', 'queue_full'], 'Over a request limit, or the queue limit.', {
        'Retry-After': headerRef('Retry-After'),
      }),
    },
  },
  {
    method: 'get',
    path: '/api/company/credits',
    operationId: 'getCredits',
    summary: 'Credits and the ledger',
    description:
      "The company's available and reserved credits and its ledger as a feed, as `GET /v1/credits` (every member).",
    parameters: [
      {
        name: 'after',
        in: 'query',
        required: false,
        description: 'Return entries with a greater id (default 0: from the first).',
        schema: parameter(afterSchema),
      },
      limitParam,
    ],
    response: { description: 'Credits.', schema: creditsSchema },
    errors: { query: true },
  },
]);

/** The review of a `flow-extract` job and its corrections (every member). */
export const REVIEW_ROUTES = companyRoutes('Extraction review', [
  {
    method: 'get',
    path: '/api/company/jobs/{job_id}/extraction',
    operationId: 'getExtractionReview',
    summary: 'The review of an extraction',
    description:
      "A completed `flow-extract` job's values beside the evidence each was read from, with the evidence check's flags, the corrections made so far (who, when, old, new) and the result files: the originals and the latest revision's regenerated exports (every member).",
    parameters: [jobIdParam],
    response: { description: 'The review.', schema: extractionReviewSchema },
    errors: { ids: true, codes409: ['conflict'] },
    moreErrors: gone,
  },
  {
    method: 'post',
    path: '/api/company/jobs/{job_id}/extraction/corrections',
    operationId: 'correctExtraction',
    summary: 'Correct extracted fields',
    description:
      'One revision of corrections of scalar fields (every member). Each is recorded with the member, the time, the value before and after; the three exports are rendered again ' +
      "with the corrections as new result files (`<name>-reviewed.xlsx`, `-reviewed-csv.zip`, `-reviewed.json`) beside the originals, which never change; the previous revision's " +
      "regenerated files are replaced. No credits are charged. `revision` must be the review's current revision (409 otherwise, nothing changed). A value is given in the form the " +
      "exports hold it (dates `YYYY-MM-DD`, amounts `1234.50`, currencies ISO 4217, IBANs and VAT numbers compact), or null to clear the field; a correction with the field's " +
      'current value confirms it. A corrected field has no evidence and is no longer flagged.',
    parameters: [jobIdParam],
    body: {
      schema: correctionsSchema,
      examples: {
        correct: {
          revision: 0,
          corrections: [
            { document: 0, field: 'total', value: '1234.50' },
            { document: 0, field: 'due_date', value: null },
          ],
        },
      },
    },
    response: { status: '201', description: 'The review at its new revision.', schema: extractionReviewSchema },
    errors: { ids: true, codes409: ['conflict', 'limit_reached'] },
    moreErrors: gone,
  },
]);

import type { ErrorCode } from '../../domain/errors.js';
import { JOB_STATUSES } from '../../domain/jobs.js';
import { ALL_OPERATIONS } from '../../domain/validation/processing-request.js';
import { DATE_TIME_MAX_LENGTH } from '../../domain/validation/job-list-query.js';
import { cursorPattern, encodeCursor, type CursorList } from '../http/pagination.js';
import { json, pathParam } from '../http/openapi-kit.js';
import { capabilitiesJson, type CapabilitySettings } from './capabilities.js';
import { schemaRef, type Schema } from '../shared/processing/openapi.schemas.js';

/**
 * The OpenAPI paths and schemas of the /v1 reads a polling client needs (job list, upload record, credits and
 * ledger, capabilities) and of job cancellation. The helpers of openapi.document.ts come in as `kit`.
 */
type Json = Schema;

export interface PathKit {
  limited: (success: boolean) => Json;
  errorResponse: (status: number, codes: ErrorCode[], description: string, example: Json, extraHeaders?: Json) => Json;
  error: (code: ErrorCode, detail: string, issues?: Json[]) => Json;
  readErrors: () => Json;
  writeErrors: () => Json;
  notFound: (what: string, detail: string) => Json;
  jobExample: (over: Json) => Json;
  jobIdParam: Json;
  examples: { pdf: string; job: string };
}

const uploadIdParam = pathParam(
  'upload_id',
  { type: 'string' },
  'An upload id (`upl_…`). An id of another company, or an unknown one, is 404.',
);
const csv = (values: readonly string[]) => `^(${values.join('|')})(,(${values.join('|')}))*$`;

function listJobsParams(job: string): Json[] {
  return [
    {
      name: 'status',
      in: 'query',
      required: false,
      description: 'Only jobs in these states: one, or several separated by commas.',
      schema: { type: 'string', pattern: csv(JOB_STATUSES) },
      example: 'queued,processing',
    },
    {
      name: 'operation',
      in: 'query',
      required: false,
      description:
        'Only jobs of these operations: one, or several separated by commas (any operation identifier of the capabilities).',
      schema: { type: 'string', pattern: csv(ALL_OPERATIONS) },
      example: 'pdf-rotate',
    },
    {
      name: 'batch_id',
      in: 'query',
      required: false,
      description: "Only the child jobs of this batch. An unknown or another company's batch lists nothing.",
      schema: { type: 'string', pattern: '^[a-z]{2,5}_[A-Za-z0-9]{20}$' },
    },
    {
      name: 'created_after',
      in: 'query',
      required: false,
      description: 'Only jobs created strictly after this instant (RFC 3339 date-time with `Z` or an offset).',
      schema: { type: 'string', format: 'date-time', maxLength: DATE_TIME_MAX_LENGTH },
      example: '2025-03-04T00:00:00Z',
    },
    {
      name: 'created_before',
      in: 'query',
      required: false,
      description: 'Only jobs created strictly before this instant.',
      schema: { type: 'string', format: 'date-time', maxLength: DATE_TIME_MAX_LENGTH },
    },
    ...pagingParams('jobs', job, ' (with the same filters)'),
  ];
}

/** `limit` and `before` of a list paged by a cursor of `kind` (api/http/pagination.ts); `lastId` names the example's last row. */
function pagingParams(kind: CursorList, lastId: string, sameQuery = ''): Json[] {
  return [
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: 'Page size, 1 to 100 (default 50).',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    },
    {
      name: 'before',
      in: 'query',
      required: false,
      description: `The \`next_cursor\` of the previous page, passed back unchanged${sameQuery}. Opaque: the pattern is only its shape; any other value, a cursor of another list included, is 422.`,
      schema: { type: 'string', pattern: cursorPattern(kind) },
      examples: { next_page: { summary: 'A next_cursor of this list', value: encodeCursor(kind, lastId) } },
    },
  ];
}

/** The example upload record (a 12-page PDF). */
const UPLOAD_EXAMPLE = (id: string): Json => ({
  id,
  filename: 'report.pdf',
  kind: 'pdf',
  mime_type: 'application/pdf',
  bytes: 48213,
  pages: 12,
  duration_seconds: null,
  encrypted: false,
  width: null,
  height: null,
  sha256: 'e3b98a4da31a127d4bde6e43033f66ba274cab0eb7eb1c70ec41402bf6273dd8',
  created_at: '2025-03-04T09:15:02.118Z',
  expires_at: '2025-03-11T09:15:02.118Z',
});

export function readPaths(kit: PathKit, s: CapabilitySettings): Record<string, Json> {
  const { limited, errorResponse, error, readErrors, writeErrors, notFound, jobExample, jobIdParam, examples } = kit;
  const badQuery = (example: Json) =>
    errorResponse(422, ['validation_failed'], 'An invalid query parameter (named in `issues`).', example);
  const gone = errorResponse(
    410,
    ['gone'],
    'The upload is past its 7-day retention.',
    error('gone', `Upload ${examples.pdf} has expired (sources are kept 7 days)`),
  );
  return {
    listJobs: {
      operationId: 'listJobs',
      tags: ['Jobs'],
      summary: "List your company's jobs",
      security: [{ apiKey: ['read'] }],
      description:
        "Your company's jobs, newest first (by `created_at`, then id), each as `GET /v1/jobs/{job_id}` shows it; deleted jobs are not listed. " +
        'Filters combine (AND). Unknown or repeated parameters are refused (422), so a misspelt filter never lists everything. `next_cursor` is set ' +
        'when the page is full: pass it as `before` with the same filters for the next page; null means there is no more.',
      parameters: listJobsParams(examples.job),
      responses: {
        '200': {
          description: 'One page of jobs.',
          headers: limited(true),
          content: json(schemaRef('JobList'), {
            page: { data: [jobExample({})], next_cursor: encodeCursor('jobs', examples.job) },
            last: { data: [], next_cursor: null },
          }),
        },
        '422': badQuery(
          error(
            'validation_failed',
            'Invalid query: status: one or more of queued, processing, completed, failed, cancelled, separated by commas',
            [
              {
                path: 'status',
                message: 'one or more of queued, processing, completed, failed, cancelled, separated by commas',
              },
            ],
          ),
        ),
        ...readErrors(),
      },
    },
    cancelJob: {
      operationId: 'cancelJob',
      tags: ['Jobs'],
      summary: 'Cancel a queued job',
      security: [{ apiKey: ['write'] }],
      description:
        'A queued job becomes `cancelled` (terminal) and its whole reservation is released, exactly once: two cancels, or a cancel meeting the ' +
        'scheduler starting the job, never release twice, and a job that has started is never cancelled. Once the job is processing, ' +
        'completed, failed or already cancelled: 409 `job_not_cancellable`. The operation never runs; `charged_credits` is 0.',
      parameters: [jobIdParam],
      requestBody: {
        required: false,
        description: 'None: send no body, or an empty JSON object.',
        content: json({ type: 'object', maxProperties: 0, additionalProperties: false }, { empty: {} }),
      },
      responses: {
        '200': {
          description: 'The job, now cancelled.',
          headers: limited(true),
          content: json(schemaRef('Job'), {
            cancelled: jobExample({ status: 'cancelled', charged_credits: 0, finished_at: '2025-03-04T09:16:45.310Z' }),
          }),
        },
        '404': notFound("Unknown, deleted, or another company's job.", 'Job not found'),
        '409': errorResponse(
          409,
          ['job_not_cancellable'],
          'The job is no longer queued: it is processing or has ended.',
          error('job_not_cancellable', 'The job is processing; only a queued job can be cancelled'),
        ),
        '413': errorResponse(
          413,
          ['payload_too_large'],
          'A body over the JSON limit.',
          error('payload_too_large', 'Request body is too large'),
        ),
        '415': errorResponse(
          415,
          ['unsupported_media_type'],
          'A body that is not `application/json`.',
          error('unsupported_media_type', 'Request body must be application/json'),
        ),
        '422': errorResponse(
          422,
          ['validation_failed', 'malformed_json'],
          'A body other than none or `{}` (its fields are named in `issues`), or one that is not JSON.',
          error('validation_failed', 'Invalid request: reason: unknown field; this request takes no body (or {})', [
            { path: 'reason', message: 'unknown field; this request takes no body (or {})' },
          ]),
        ),
        ...writeErrors(),
      },
    },
    listUploads: {
      operationId: 'listUploads',
      tags: ['Uploads'],
      summary: "List your company's uploads",
      security: [{ apiKey: ['read'] }],
      description:
        "Your company's uploads that still hold storage (not deleted, not yet removed by retention: what counts toward the storage quota), " +
        'newest first (by `created_at`, then id), each as `GET /v1/uploads/{upload_id}` shows it plus whether a job or batch uses it: ' +
        '`in_use` (a queued or processing job reads it; `DELETE` answers 409 until that job ends), `job_count` (your jobs that name it, in any ' +
        'state) and `batch_count` (the batches among them). An upload past `expires_at` is listed until retention removes its bytes. ' +
        'Only `limit` and `before` are taken; any other or a repeated parameter is 422. `next_cursor` is set when the page is full: pass it as ' +
        '`before` for the next page; null means there is no more.',
      parameters: pagingParams('uploads', examples.pdf),
      responses: {
        '200': {
          description: 'One page of uploads.',
          headers: limited(true),
          content: json(schemaRef('UploadPage'), {
            page: {
              data: [{ ...UPLOAD_EXAMPLE(examples.pdf), in_use: true, job_count: 1, batch_count: 0 }],
              next_cursor: encodeCursor('uploads', examples.pdf),
            },
            last: { data: [], next_cursor: null },
          }),
        },
        '422': badQuery(
          error('validation_failed', 'before must be a next_cursor returned by this list', [
            { path: 'before', message: 'not a cursor of this list' },
          ]),
        ),
        ...readErrors(),
      },
    },
    getUpload: {
      operationId: 'getUpload',
      tags: ['Uploads'],
      summary: 'Get an upload',
      security: [{ apiKey: ['read'] }],
      description:
        'The upload record, as `POST /v1/uploads` returned it. Past its retention (`expires_at`) the upload answers 410, as it does when an estimate or job names it.',
      parameters: [uploadIdParam],
      responses: {
        '200': {
          description: 'The upload.',
          headers: limited(true),
          content: json(schemaRef('Upload'), { pdf: UPLOAD_EXAMPLE(examples.pdf) }),
        },
        '404': notFound("Unknown, deleted, or another company's upload.", 'Upload not found'),
        '410': gone,
        ...readErrors(),
      },
    },
    getCredits: {
      operationId: 'getCredits',
      tags: ['Credits'],
      summary: 'Credits and the ledger',
      security: [{ apiKey: ['read'] }],
      description:
        'The wallet: `available` credits (what new jobs can reserve) and `reserved` credits (held by queued and processing jobs), and the ledger, ' +
        'append-only, as a feed: the entries with an id greater than `after` (default 0), oldest first, at most `limit`. `ledger.next_cursor` is ' +
        'the last id returned, or `after` itself when nothing is new: pass it as `after` to read on. Entry kinds: `grant` (credits added: ' +
        "`reason` `trial`, a plan, a pack or the operator), `reserve` (a job's quote held at submission), `charge` (a completed job's quote spent), " +
        "`release` (a failed job's quote returned; `reason` `job_cancelled` when the job was cancelled).",
      parameters: [
        {
          name: 'after',
          in: 'query',
          required: false,
          description: 'Return entries with a greater id (default 0: from the first).',
          schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 },
          example: 0,
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'At most this many entries, 1 to 100 (default 50).',
          schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
        },
      ],
      responses: {
        '200': {
          description: 'Balances and ledger entries.',
          headers: limited(true),
          content: json(schemaRef('Credits'), {
            wallet: {
              available: 996,
              reserved: 0,
              ledger: {
                data: [
                  {
                    id: 1,
                    kind: 'grant',
                    amount: 1000,
                    job_id: null,
                    reason: 'trial',
                    created_at: '2025-03-01T08:00:00.000Z',
                  },
                  {
                    id: 7,
                    kind: 'reserve',
                    amount: 4,
                    job_id: examples.job,
                    reason: null,
                    created_at: '2025-03-04T09:16:40.502Z',
                  },
                  {
                    id: 9,
                    kind: 'charge',
                    amount: 4,
                    job_id: examples.job,
                    reason: null,
                    created_at: '2025-03-04T09:16:42.377Z',
                  },
                ],
                next_cursor: 9,
              },
            },
          }),
        },
        '422': badQuery(
          error('validation_failed', `after must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}`, [
            { path: 'after', message: `an integer from 0 to ${Number.MAX_SAFE_INTEGER}` },
          ]),
        ),
        ...readErrors(),
      },
    },
    getCapabilities: {
      operationId: 'getCapabilities',
      tags: ['Capabilities'],
      summary: 'Operations, options, limits and prices',
      security: [{ apiKey: ['read'] }],
      description:
        'Every operation identifier with whether this server runs it, its options (a JSON Schema), the kinds and number of sources it takes, its output ' +
        'formats and its price rule, and the limits. Generated from the tables that validate and price requests, so it says what they do. An ' +
        'operation with `available: false` (`flow-extract` today) is refused with 422 until it is built.',
      responses: {
        '200': {
          description: 'The capabilities of this server.',
          headers: limited(true),
          content: json(schemaRef('Capabilities'), { capabilities: capabilitiesJson(s) }),
        },
        ...readErrors(),
      },
    },
  };
}

import type { ErrorCode } from '../../domain/errors.js';
import { IDEMPOTENCY_RULES } from '../../domain/idempotency.js';
import { JOB_LIMITS } from '../../domain/jobs.js';
import type { UploadLimits } from './uploads.routes.js';
import { z } from 'zod';
import {
  binaryContent,
  errorResponses,
  header,
  HEADER_VALUES,
  headerRef,
  htmlContent,
  idempotencyKeyParameter,
  json,
  locationHeader,
  outputJsonSchema,
  pathParam,
  replayedHeader,
  responseRef,
  standardHeaders,
} from '../http/openapi-kit.js';
import { componentSchemas, schemaRef, V1_ERRORS, type Schema } from '../shared/processing/openapi.schemas.js';
import { errorCodeRows } from '../http/error-table.js';
import { webhooks } from './openapi.webhooks.js';
import { batchPaths } from './openapi.batches.js';
import { readPaths } from './openapi.reads.js';
import { registrationPath, SESSION_SECURITY_SCHEMES } from '../shared/processing/openapi.registration.js';
import { v1Contract } from '../shared/processing/openapi.contract.js';

/** What the HTML guide states about this server's configured limits (the document names them, the same on every server). */
export interface ProcessingDocsSettings {
  limits: UploadLimits;
  rateLimits: { perKeyPerMinute: number; perIpPerMinute: number };
  bodyLimitJson: string;
}

/**
 * The figures the document's examples show (the capabilities example): the configuration's defaults
 * (config/schema.ts), not this server's. The document is the same on every server and committed
 * (docs/openapi/v1.json); `GET /v1/capabilities` and `/v1/docs` state the configured figures.
 */
const EXAMPLE_SETTINGS = {
  limits: { maxFilesPerUpload: 100, maxUploadBytes: 500_000_000, companyQuotaBytes: 2_000_000_000, retentionDays: 7 },
  rateLimits: { perKeyPerMinute: 120 },
};

/** The specification's current release (processing-api.md section 9: 1.2.0 added batches; 1.0.0 was the first). */
export const PROCESSING_API_VERSION = '1.2.0';

/** How keys are created, said once for the document and the HTML page (docs/processing.md "Company session"). */
export const KEY_CREATION =
  'Keys are created and revoked by a billing administrator of your company in the company session (`POST /api/company/keys`, ' +
  'documented at `/api/company/docs`), which shows the secret once; the platform operator can also create one ' +
  '(`npm run admin -- keys:create --interface v1 --tenant <company id> --owner <member id> --name <name> --scopes read,write`; `keys:list`, `keys:revoke`). ' +
  'An API key cannot create keys or register webhooks.';
export const OPENAPI_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/v1/docs';

type Json = Schema;

/** Examples shared by the document and the HTML page; the conformance test validates each against its schema. */
export const EXAMPLES = {
  pdf: 'upl_3kQ9xLm7Rt2Wv8Yz1Ab4',
  png: 'upl_Hc5Tn0Pq8Ws2Ke6Uy4Gd',
  job: 'job_Vb7Nm2Xc4Lk9Jh3Gf6Ds',
  requestId: '5f0c6c1e-3a51-4f7e-9b8e-2d1f7c0a9e44',
} as const;

const upload = (
  id: string,
  filename: string,
  kind: string,
  mimeType: string,
  bytes: number,
  pages: number,
  size: [number, number] | null = null,
): Json => ({
  id,
  filename,
  kind,
  mime_type: mimeType,
  bytes,
  pages,
  duration_seconds: null,
  encrypted: false,
  width: size?.[0] ?? null,
  height: size?.[1] ?? null,
  sha256: 'e3b98a4da31a127d4bde6e43033f66ba274cab0eb7eb1c70ec41402bf6273dd8',
  created_at: '2025-03-04T09:15:02.118Z',
  expires_at: '2025-03-11T09:15:02.118Z',
});
const jobExample = (over: Json): Json => ({
  id: EXAMPLES.job,
  status: 'queued',
  operation: 'pdf-rotate',
  upload_ids: [EXAMPLES.pdf],
  options: { angle: 90, pages: '1-2' },
  estimated_credits: 4,
  charged_credits: null,
  created_at: '2025-03-04T09:16:40.502Z',
  started_at: null,
  finished_at: null,
  error: null,
  error_code: null,
  batch_id: null,
  webhook_id: null,
  result: null,
  extraction: null,
  ...over,
});
const rotateBody = { operation: 'pdf-rotate', upload_ids: [EXAMPLES.pdf], options: { angle: 90, pages: '1-2' } };

const error = (code: ErrorCode, detail: string, issues?: Json[]): Json => ({
  detail,
  code,
  request_id: EXAMPLES.requestId,
  ...(issues ? { issues } : {}),
});
const targetDeleted = {
  ...error(
    'idempotency_key_target_deleted',
    `This Idempotency-Key created job ${EXAMPLES.job}, which has since been deleted; to run the job again, send the request with a new Idempotency-Key`,
  ),
  job_id: EXAMPLES.job,
};
/** Adds examples (named by their code) to an error response's JSON body. */
const withExamples = (response: Json, examples: Json[]): Json => {
  const media = (response['content'] as Record<string, { examples: Record<string, unknown> }>)['application/json']!;
  for (const e of examples) media.examples[String(e['code'])] = { value: e };
  return response;
};
const maxCreditsExceeded = {
  ...error(
    'max_credits_exceeded',
    'The quote of 4 credits exceeds max_credits (3); send max_credits of at least 4 to accept it',
  ),
  estimated_credits: 4,
  max_credits: 3,
};

const HEADERS: Record<string, Json> = standardHeaders();
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
/** Headers of a response: on success the rate-limit headers are always sent (the request passed the limiter). */
const limited = (success: boolean): Json => ({
  'X-Request-Id': headerRef('X-Request-Id'),
  ...Object.fromEntries(RATE_LIMIT_HEADERS.map((n) => [n, success ? { ...HEADERS[n], required: true } : headerRef(n)])),
});

/** An error response whose body may carry only the given codes (each must map to `status`). */
const errorResponse = errorResponses('v1', () => limited(false));

/** A 503 of the database carries Retry-After; one of an engine does not. */
const optionalRetryAfter = {
  'Retry-After': header(
    'Sent when the database is unavailable: seconds to wait before retrying.',
    HEADER_VALUES.seconds,
    false,
  ),
};

/** Quoting `pdf-unlock` opens the encrypted PDF with qpdf: the engine may be unavailable (503) or too slow (504). */
function engineErrors(): Record<'503' | '504', Json> {
  return {
    '503': errorResponse(
      503,
      ['service_unavailable'],
      'The PDF engine that opens an encrypted PDF for `pdf-unlock`, the fonts `pdf-watermark` draws with, or the database, are not available right now; retry later.',
      error('service_unavailable', 'PDF processing is temporarily unavailable; retry shortly'),
      optionalRetryAfter,
    ),
    '504': errorResponse(
      504,
      ['timeout'],
      'Opening the encrypted PDF for `pdf-unlock` took longer than the time limit; retry later.',
      error('timeout', 'Opening this PDF took too long; retry later'),
    ),
  };
}

function componentResponses(): Record<string, Json> {
  const unauthorized = errorResponse(
    401,
    ['unauthorized', 'api_key_in_url'],
    'Missing or invalid API key, or a key in the query string.',
    error('unauthorized', 'Missing or invalid API key'),
    {
      'WWW-Authenticate': header('Always `Bearer`.', HEADER_VALUES.bearer, true),
    },
  );
  const retryAfter = { 'Retry-After': headerRef('Retry-After') };
  return {
    Unauthorized: unauthorized,
    ForbiddenRead: errorResponse(
      403,
      ['forbidden'],
      'The company is suspended.',
      error('forbidden', 'This company is suspended'),
    ),
    ForbiddenWrite: errorResponse(
      403,
      ['insufficient_scope', 'forbidden'],
      'A read-only key, or a suspended company.',
      error('insufficient_scope', 'This API key lacks the write scope'),
    ),
    RateLimited: errorResponse(
      429,
      ['rate_limited'],
      'Over the request limit.',
      error('rate_limited', 'Too many requests; retry after the time in Retry-After'),
      retryAfter,
    ),
    InternalError: errorResponse(
      500,
      ['internal_error'],
      'Unexpected server error.',
      error('internal_error', 'Internal server error'),
    ),
    ServiceUnavailable: errorResponse(
      503,
      ['service_unavailable'],
      'Temporarily unavailable (e.g. the database cannot be reached); retry after `Retry-After` seconds.',
      error('service_unavailable', 'The service is temporarily unavailable; retry after the time in Retry-After'),
      retryAfter,
    ),
    Deleted: { description: 'Deleted; no body.', headers: limited(true) },
  };
}

const readErrors = (): Json => ({
  '401': responseRef('Unauthorized'),
  '403': responseRef('ForbiddenRead'),
  '429': responseRef('RateLimited'),
  '500': responseRef('InternalError'),
  '503': responseRef('ServiceUnavailable'),
});
const writeErrors = (): Json => ({
  '401': responseRef('Unauthorized'),
  '403': responseRef('ForbiddenWrite'),
  '429': responseRef('RateLimited'),
  '500': responseRef('InternalError'),
  '503': responseRef('ServiceUnavailable'),
});
const jobIdParam = pathParam(
  'job_id',
  { type: 'string' },
  'A job id (`job_…`). An id of another company, or an unknown one, is 404.',
);
const notFound = (what: string, detail: string) => errorResponse(404, ['not_found'], what, error('not_found', detail));
/** An id in the body that names nothing of the company (docs/platform.md, "Ids"): 404 naming the field, also in `issues`. */
const uploadIdNotFound = errorResponse(
  404,
  ['not_found'],
  "An upload of `upload_ids` is unknown, deleted or another company's (the same answer for each): the field (`upload_ids.<index>`) is named in the message and in `issues`.",
  error('not_found', 'upload_ids.0: no upload with this id in your company', [
    { path: 'upload_ids.0', message: 'no upload with this id in your company' },
  ]),
);
const jobBody = {
  required: true,
  content: json(schemaRef('JobRequest'), {
    'pdf-rotate': rotateBody,
    'pdf-merge': { operation: 'pdf-merge', upload_ids: [EXAMPLES.pdf, 'upl_Qm4Zr8Tv1Yx5Cb9Nd2Fh'], max_credits: 10 },
  }),
};
const invalidOptions = error('validation_failed', 'Invalid request: options.angle: angle must be 90, 180 or 270', [
  { path: 'options.angle', message: 'angle must be 90, 180 or 270' },
]);

function paths(): Json {
  const reads = readPaths(
    { limited, errorResponse, error, readErrors, writeErrors, notFound, jobExample, jobIdParam, examples: EXAMPLES },
    EXAMPLE_SETTINGS,
  );
  const pollingNote =
    'Poll every 3 to 10 seconds until `status` is `completed` or `failed`; back off on 429 (honour `Retry-After`) and on 5xx.';
  return {
    '/v1/uploads': {
      get: reads['listUploads'],
      post: {
        operationId: 'createUploads',
        tags: ['Uploads'],
        summary: 'Upload source files',
        security: [{ apiKey: ['write'] }],
        description:
          'Multipart field `files`, one or more files (at most `upload_files_per_request` files and `upload_bytes_per_request` bytes per request, ' +
          'and `company_source_bytes` of live sources per company: the `limits` of `GET /v1/capabilities`). Each part is a file: its `Content-Disposition` carries a `filename` ' +
          '(a part without one is a form field, refused like any other field or file name than `files`). The body is sent as is: a `Content-Encoding` ' +
          'other than `identity` is refused (415). Each file is identified and measured from its content (PDF pages, image, ' +
          'UTF-8 text, audio/video duration). All or nothing: a failed request stores no file. Sources are kept 7 days.',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: outputJsonSchema(
                z.strictObject({
                  files: z
                    .array(
                      z.unknown().meta({
                        contentMediaType: 'application/octet-stream',
                        description:
                          "A file: the part's bytes, whatever they are (there is no JSON type on the wire; an empty or unreadable file is a 422).",
                      }),
                    )
                    .min(1),
                }),
              ),
              // A part is bytes (OpenAPI 3.1: binary content has no JSON type, only contentMediaType); the server reads
              // the kind from the content and ignores the declared type. What it does require is a filename on every part.
              encoding: {
                files: {
                  headers: {
                    'Content-Disposition': header(
                      'Every part of `files` names a file: `form-data; name="files"; filename="…"`, the name in UTF-8 (RFC 7578) or as `filename*=UTF-8\'\'…` (RFC 5987). The name is kept for display only.',
                      z
                        .string()
                        .regex(/^form-data;.*\bfilename\*?=/)
                        .meta({ example: 'form-data; name="files"; filename="report.pdf"' }),
                      true,
                    ),
                  },
                },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Every file stored and measured.',
            headers: limited(true),
            content: json(schemaRef('UploadList'), {
              uploads: {
                uploads: [
                  upload(EXAMPLES.pdf, 'report.pdf', 'pdf', 'application/pdf', 48213, 12),
                  upload(EXAMPLES.png, 'Straße.png', 'image', 'image/png', 90114, 1, [1200, 800]),
                ],
              },
            }),
          },
          '413': errorResponse(
            413,
            ['payload_too_large'],
            'Too many files, too many bytes, or company storage full; nothing stored.',
            error(
              'payload_too_large',
              `An upload request holds at most ${EXAMPLE_SETTINGS.limits.maxFilesPerUpload} files`,
            ),
          ),
          '415': errorResponse(
            415,
            ['unsupported_media_type'],
            'Not `multipart/form-data` with a boundary, or a `Content-Encoding` other than `identity`.',
            error(
              'unsupported_media_type',
              'Uploads must be multipart/form-data (with a boundary), files in the field "files"',
            ),
          ),
          '422': errorResponse(
            422,
            ['validation_failed'],
            'No file; a form field (any name, `files` included: a part without a filename) or a file under another name than `files` (the part is named in `detail` and `issues`); a malformed or incomplete body; or an unreadable file (named in `issues`).',
            error(
              'validation_failed',
              'Unreadable upload: junk.bin: the file is not a readable PDF, image, UTF-8 text, audio or video',
              [
                {
                  path: 'files.1',
                  message: 'junk.bin: the file is not a readable PDF, image, UTF-8 text, audio or video',
                },
              ],
            ),
          ),
          ...writeErrors(),
        },
      },
    },
    '/v1/uploads/{upload_id}': {
      get: reads['getUpload'],
      delete: {
        operationId: 'deleteUpload',
        tags: ['Uploads'],
        summary: 'Delete an unused upload',
        security: [{ apiKey: ['write'] }],
        description:
          'Removes a source and its bytes. A source of a queued or processing job is kept (409) until the job has ended.',
        parameters: [pathParam('upload_id', { type: 'string' }, 'An upload id (`upl_…`).')],
        responses: {
          '204': responseRef('Deleted'),
          '404': notFound("Unknown, deleted, or another company's upload.", 'Upload not found'),
          '409': errorResponse(
            409,
            ['conflict'],
            'The upload is a source of an unfinished job.',
            error('conflict', 'This upload is a source of an unfinished job; delete it after the job has ended'),
          ),
          ...writeErrors(),
        },
      },
    },
    '/v1/estimate': {
      post: {
        operationId: 'estimateJob',
        tags: ['Jobs'],
        summary: 'Quote a job without starting it',
        security: [{ apiKey: ['write'] }],
        description:
          'Validates and prices a job body exactly as `POST /v1/jobs` would, on server-measured bytes, pages and duration. Starts no work and reserves nothing.',
        requestBody: jobBody,
        responses: {
          '200': {
            description: 'The quote.',
            headers: limited(true),
            content: json(schemaRef('Estimate'), {
              'pdf-rotate': {
                operation: 'pdf-rotate',
                estimated_credits: 4,
                sources: [{ upload_id: EXAMPLES.pdf, bytes: 48213, pages: 12, duration_seconds: null, credits: 4 }],
              },
            }),
          },
          '404': uploadIdNotFound,
          '409': errorResponse(
            409,
            ['max_credits_exceeded'],
            'The quote exceeds `max_credits`; the body carries the quote.',
            maxCreditsExceeded,
          ),
          '410': errorResponse(
            410,
            ['gone'],
            'An upload is past its 7-day retention.',
            error('gone', `Upload ${EXAMPLES.pdf} has expired (sources are kept 7 days)`),
          ),
          '413': errorResponse(
            413,
            ['payload_too_large'],
            "JSON body over the server's size limit (`/v1/docs` states it).",
            error('payload_too_large', 'Request body is too large'),
          ),
          '415': errorResponse(
            415,
            ['unsupported_media_type'],
            'Body not `application/json`.',
            error('unsupported_media_type', 'Request body must be application/json'),
          ),
          '422': errorResponse(
            422,
            ['validation_failed', 'malformed_json'],
            'Invalid body, options, source kind, page selection or password; every problem is in `issues`.',
            invalidOptions,
          ),
          ...writeErrors(),
          ...engineErrors(),
        },
      },
    },
    '/v1/jobs': {
      get: reads['listJobs'],
      post: {
        operationId: 'createJob',
        tags: ['Jobs'],
        summary: 'Submit a job',
        security: [{ apiKey: ['write'] }],
        description:
          'Validates and quotes the body as `POST /v1/estimate`, reserves the quote from the wallet and queues the job (202). The quote is charged ' +
          `on success; a failure releases it. At most ${JOB_LIMITS.pendingPerCompany} pending (queued or processing) jobs per company. ` +
          'The same `Idempotency-Key` with the same body returns the same job (no second reservation, header `Idempotent-Replayed: true`); ' +
          `with a different body it is a 409. Keys are kept ${IDEMPOTENCY_RULES.v1.retentionDays} days. ${pollingNote}`,
        parameters: [
          idempotencyKeyParameter(
            `${IDEMPOTENCY_RULES.v1.description}; a new key for every new job (and for retrying a failed job).`,
            IDEMPOTENCY_RULES.v1.pattern,
          ),
        ],
        requestBody: jobBody,
        responses: {
          '202': {
            description: 'Accepted: the job is queued and its quote reserved. `Location` names the job to poll.',
            headers: {
              ...limited(true),
              Location: locationHeader(
                'The job to poll, as a path on this server (`/v1/jobs/{job_id}`); sent on a replay too.',
                '/v1/jobs',
                'job',
              ),
              'Idempotent-Replayed': replayedHeader(
                '`true` when this is the stored answer of an earlier request with the same key.',
              ),
            },
            content: json(schemaRef('Job'), { queued: jobExample({}) }),
          },
          '402': errorResponse(
            402,
            ['insufficient_credits'],
            'The wallet cannot cover the quote; nothing recorded.',
            error('insufficient_credits', 'Not enough credits: 4 needed, 1 available'),
          ),
          '404': uploadIdNotFound,
          '409': withExamples(
            errorResponse(
              409,
              [
                'max_credits_exceeded',
                'idempotency_conflict',
                'idempotency_in_progress',
                'idempotency_key_target_deleted',
              ],
              'The quote exceeds `max_credits` (the body carries the quote); the `Idempotency-Key` was used with another body (or is still in progress); or the job this key created has since been deleted (`job_id`): use a new key.',
              error(
                'idempotency_conflict',
                'This Idempotency-Key was already used for a different operation or payload; use a new key',
              ),
            ),
            [maxCreditsExceeded, targetDeleted],
          ),
          '410': errorResponse(
            410,
            ['gone'],
            'An upload is past its 7-day retention.',
            error('gone', `Upload ${EXAMPLES.pdf} has expired (sources are kept 7 days)`),
          ),
          '413': errorResponse(
            413,
            ['payload_too_large'],
            "JSON body over the server's size limit (`/v1/docs` states it).",
            error('payload_too_large', 'Request body is too large'),
          ),
          '415': errorResponse(
            415,
            ['unsupported_media_type'],
            'Body not `application/json`.',
            error('unsupported_media_type', 'Request body must be application/json'),
          ),
          '422': errorResponse(
            422,
            ['validation_failed', 'malformed_json', 'idempotency_key_required', 'idempotency_key_invalid'],
            'Invalid body (see `issues`), or a missing or invalid `Idempotency-Key`.',
            invalidOptions,
          ),
          '429': errorResponse(
            429,
            ['rate_limited', 'queue_full'],
            `Over the request limit, or ${JOB_LIMITS.pendingPerCompany} jobs already pending.`,
            error(
              'queue_full',
              `A company can have at most ${JOB_LIMITS.pendingPerCompany} pending jobs; wait for some to finish`,
            ),
            { 'Retry-After': headerRef('Retry-After') },
          ),
          '503': errorResponse(
            503,
            ['service_unavailable'],
            'Job processing, the PDF engine that opens an encrypted PDF for `pdf-unlock`, or the database, is not available right now; retry later.',
            error('service_unavailable', 'Job processing is not available right now; retry later'),
            optionalRetryAfter,
          ),
          '504': engineErrors()['504']!,
          '401': responseRef('Unauthorized'),
          '403': responseRef('ForbiddenWrite'),
          '500': responseRef('InternalError'),
        },
      },
    },
    '/v1/jobs/{job_id}': {
      get: {
        operationId: 'getJob',
        tags: ['Jobs'],
        summary: 'Get a job (poll it)',
        security: [{ apiKey: ['read'] }],
        description: pollingNote,
        parameters: [jobIdParam],
        responses: {
          '200': {
            description: 'The job.',
            headers: limited(true),
            content: json(schemaRef('Job'), {
              completed: jobExample({
                status: 'completed',
                charged_credits: 4,
                started_at: '2025-03-04T09:16:41.020Z',
                finished_at: '2025-03-04T09:16:42.377Z',
                result: {
                  files: [
                    {
                      name: 'report-rotated.pdf',
                      download_path: `/v1/jobs/${EXAMPLES.job}/results/0`,
                      bytes: 48377,
                      content_type: 'application/pdf',
                    },
                  ],
                  expires_at: '2025-03-11T09:16:42.377Z',
                  warnings: [],
                },
              }),
              failed: jobExample({
                status: 'failed',
                operation: 'image-edit',
                upload_ids: [EXAMPLES.png],
                options: { crop: [100, 0, 50, 50] },
                estimated_credits: 2,
                charged_credits: 0,
                started_at: '2025-03-04T09:16:41.020Z',
                finished_at: '2025-03-04T09:16:41.250Z',
                error: 'the image could not be processed: VipsJpeg: premature end of JPEG image',
                error_code: 'invalid_source',
              }),
            }),
          },
          '404': notFound("Unknown, deleted, or another company's job.", 'Job not found'),
          ...readErrors(),
        },
      },
      delete: {
        operationId: 'deleteJob',
        tags: ['Jobs'],
        summary: 'Delete a completed, failed or cancelled job',
        security: [{ apiKey: ['write'] }],
        description:
          'Removes the job and its result files; accounting records stay. An unfinished job cannot be deleted (409).',
        parameters: [jobIdParam],
        responses: {
          '204': responseRef('Deleted'),
          '404': notFound("Unknown, deleted, or another company's job.", 'Job not found'),
          '409': errorResponse(
            409,
            ['conflict'],
            'The job is still queued or processing.',
            error('conflict', 'The job is queued; only a completed or failed job can be deleted'),
          ),
          ...writeErrors(),
        },
      },
    },
    '/v1/jobs/{job_id}/cancel': { post: reads['cancelJob'] },
    '/v1/jobs/{job_id}/results/{index}': {
      get: {
        operationId: 'downloadResult',
        tags: ['Jobs'],
        summary: 'Download a result file',
        security: [{ apiKey: ['read'] }],
        description:
          'The bytes of one result file; use `download_path` from `result.files`. Content type as in `content_type`.',
        parameters: [
          jobIdParam,
          pathParam('index', { type: 'integer', minimum: 0, maximum: 999 }, 'Position in `result.files`, from 0.'),
        ],
        responses: {
          '200': {
            description: 'The file.',
            headers: {
              ...limited(true),
              'Content-Disposition': header(
                "`attachment` with the file name twice (RFC 6266): an ASCII fallback in `filename` (accents dropped, other characters `_`) and the exact name in `filename*=UTF-8''…` (RFC 8187).",
                z
                  .string()
                  .regex(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]+$/)
                  .meta({
                    examples: [
                      'attachment; filename="Rechnung Marz-rotated.pdf"; filename*=UTF-8\'\'Rechnung%20M%C3%A4rz-rotated.pdf',
                    ],
                  }),
                true,
              ),
            },
            content: binaryContent('application/pdf', 'image/jpeg', 'image/png', 'image/webp'),
          },
          '404': notFound(
            'Unknown job, or no result file at this index.',
            'Result 1 not found; the job has 1 result file(s)',
          ),
          '409': errorResponse(
            409,
            ['conflict'],
            'The job has not completed.',
            error('conflict', 'The job is processing; results are available once it has completed'),
          ),
          '410': errorResponse(
            410,
            ['gone'],
            'The result is past its 7-day retention.',
            error('gone', 'This result has expired (results are kept 7 days)'),
          ),
          ...readErrors(),
        },
      },
    },
    ...batchPaths({
      errorResponse,
      error,
      limited,
      headerRef,
      json,
      pathParam,
      readErrors,
      writeErrors,
      uploadId: EXAMPLES.pdf,
    }),
    '/v1/webhooks': registrationPath(),
    '/v1/credits': { get: reads['getCredits'] },
    '/v1/capabilities': { get: reads['getCapabilities'] },
    [OPENAPI_PATH]: {
      get: {
        operationId: 'getOpenApi',
        tags: ['Documentation'],
        summary: 'This OpenAPI document',
        security: [],
        description: 'The machine-readable description of this interface (OpenAPI 3.1, JSON Schema 2020-12).',
        responses: {
          '200': {
            description: 'The OpenAPI 3.1 document.',
            headers: { 'X-Request-Id': headerRef('X-Request-Id') },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['openapi', 'paths'],
                  properties: { openapi: { type: 'string' }, paths: { type: 'object' } },
                },
              },
            },
          },
        },
      },
    },
    [DOCS_PATH]: {
      get: {
        operationId: 'getDocs',
        tags: ['Documentation'],
        summary: 'Developer documentation (HTML)',
        security: [],
        description:
          'This guide: authentication, idempotency, polling, the job lifecycle, every endpoint with examples, errors, limits and prices.',
        responses: {
          '200': {
            description: 'The documentation page.',
            headers: { 'X-Request-Id': headerRef('X-Request-Id') },
            content: htmlContent(),
          },
        },
      },
    },
  };
}

/** The OpenAPI 3.1 document of `/v1` as this server implements it. */
export function processingOpenApi(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Document and media processing API',
      version: PROCESSING_API_VERSION,
      summary: 'Upload sources, quote a credit price, run asynchronous jobs, download results.',
      description:
        'Authenticate with `Authorization: Bearer sk_live_…` (never in the URL). A request limit per key and one per IP address, per minute (in any 60 seconds: ' +
        '`requests_per_minute_per_key` of `GET /v1/capabilities`, and `/v1/docs`, state the figures; `RateLimit-Limit` gives the tightest in force). A read-only key may GET; POST and DELETE need a read/write key. Every resource ' +
        "belongs to your company: another company's id is 404. Errors are `{detail, code, request_id}` plus `issues` on validation errors. " +
        'Clients ignore unknown response fields. Batches (release 1.2.0 of the specification) are served. A job or batch names a webhook with `webhook_id`; what is POSTed to it is under `webhooks`. ' +
        `Human-readable guide: ${DOCS_PATH}.`,
    },
    servers: [{ url: '/', description: 'This server' }],
    security: [{ apiKey: ['read'] }],
    tags: [
      { name: 'Uploads', description: 'Sources, kept 7 days.' },
      { name: 'Jobs', description: 'Estimates, jobs, their list, cancellation and result downloads.' },
      {
        name: 'Batches',
        description:
          'Many jobs at once: estimate, atomic submission, progress, retry of failed items, one ZIP of the results.',
      },
      { name: 'Credits', description: 'The wallet and its ledger.' },
      { name: 'Capabilities', description: 'What this server runs: operations, options, limits and prices.' },
      { name: 'Documentation', description: 'This document and the HTML guide (public).' },
      { name: 'Webhooks', description: 'What this service POSTs to your webhook URL.' },
    ],
    paths: paths(),
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sk_live_…',
          description: `A company API key. Scope \`read\` (GET) or \`write\` (read and write: a key given \`write\` alone also holds \`read\`; POST and DELETE). ${KEY_CREATION}`,
        },
        ...SESSION_SECURITY_SCHEMES,
      },
      schemas: {
        ...componentSchemas(),
        ...v1Contract.schemas(),
      },
      responses: componentResponses(),
      headers: HEADERS,
    },
    'x-error-codes': errorCodeRows('v1', V1_ERRORS),
  };
}

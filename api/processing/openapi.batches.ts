import type { ErrorCode } from '../../domain/errors.js';
import { BATCH_LIMITS } from '../../domain/batches.js';
import { IDEMPOTENCY_RULES } from '../../domain/idempotency.js';
import { JOB_LIMITS } from '../../domain/jobs.js';
import { z } from 'zod';
import { binaryContent, header, idempotencyKeyParameter, locationHeader, replayedHeader } from '../http/openapi-kit.js';
import { schemaRef, type Schema } from '../shared/processing/openapi.schemas.js';

/**
 * The batch routes of `/v1` in the OpenAPI document (spec sections 2 to 4, release 1.2.0): schemas and paths. The
 * document's helpers are passed in (`BatchDocKit`) so this module adds routes without a cycle.
 */
export interface BatchDocKit {
  errorResponse: (status: number, codes: ErrorCode[], description: string, example: Schema, headers?: Schema) => Schema;
  error: (code: ErrorCode, detail: string, issues?: Schema[]) => Schema;
  limited: (success: boolean) => Schema;
  headerRef: (name: string) => Schema;
  json: (schema: Schema, examples: Record<string, Schema>) => Schema;
  pathParam: (name: string, schema: Schema, description: string) => Schema;
  readErrors: () => Schema;
  writeErrors: () => Schema;
  uploadId: string;
}

export function batchPaths(k: BatchDocKit): Schema {
  const batchIdParam = k.pathParam(
    'batch_id',
    { type: 'string' },
    'A batch id (`bat_…`). An id of another company, or an unknown one, is 404.',
  );
  const notFound = k.errorResponse(
    404,
    ['not_found'],
    "Unknown or another company's batch.",
    k.error('not_found', 'Batch not found'),
  );
  const idempotencyKey = (what: string) =>
    idempotencyKeyParameter(
      `${IDEMPOTENCY_RULES.v1.description}; a new key for every new ${what}. The same key with the same request returns the same batch (header \`Idempotent-Replayed: true\`), with another one 409.`,
      IDEMPOTENCY_RULES.v1.pattern,
    );
  const uploadIdNotFound = k.errorResponse(
    404,
    ['not_found'],
    "An upload of the body is unknown, deleted or another company's: the field is named in the message and in `issues` (`items.<i>.upload_ids.<j>` or `upload_ids.<i>`).",
    k.error('not_found', 'items.1.upload_ids.0: no upload with this id in your company', [
      { path: 'items.1.upload_ids.0', message: 'no upload with this id in your company' },
    ]),
  );
  const invalid = k.error(
    'validation_failed',
    'Invalid request: items.3.upload_ids.0: pdf-rotate needs a PDF; upl_Hc5Tn0Pq8Ws2Ke6Uy4Gd is image',
    [{ path: 'items.3.upload_ids.0', message: 'pdf-rotate needs a PDF; upl_Hc5Tn0Pq8Ws2Ke6Uy4Gd is image' }],
  );
  const maxCredits = {
    ...k.error(
      'max_credits_exceeded',
      'The quote of 8 credits exceeds max_credits (6); send max_credits of at least 8 to accept it',
    ),
    estimated_credits: 8,
    max_credits: 6,
  };
  const body = {
    required: true,
    content: k.json(schemaRef('BatchRequest'), {
      shorthand: {
        operation: 'pdf-rotate',
        upload_ids: [k.uploadId, 'upl_Qm4Zr8Tv1Yx5Cb9Nd2Fh'],
        options: { angle: 90 },
      },
      grouped: {
        operation: 'pdf-merge',
        items: [{ upload_ids: [k.uploadId, 'upl_Qm4Zr8Tv1Yx5Cb9Nd2Fh'] }],
        max_credits: 10,
      },
    }),
  };
  const bodyErrors = {
    '410': k.errorResponse(
      410,
      ['gone'],
      'An upload is past its 7-day retention.',
      k.error('gone', `Upload ${k.uploadId} has expired (sources are kept 7 days)`),
    ),
    '413': k.errorResponse(
      413,
      ['payload_too_large'],
      'JSON body over the limit.',
      k.error('payload_too_large', 'Request body is too large'),
    ),
    '415': k.errorResponse(
      415,
      ['unsupported_media_type'],
      'Body not `application/json`.',
      k.error('unsupported_media_type', 'Request body must be application/json'),
    ),
  };
  const accepted = (description: string) => ({
    description,
    headers: {
      ...k.limited(true),
      'Idempotent-Replayed': replayedHeader(
        '`true` when this is the stored answer of an earlier request with the same key.',
      ),
      Location: locationHeader(
        'The batch to poll, as a path on this server (`/v1/batches/{batch_id}`); sent on a replay too.',
        '/v1/batches',
        'bat',
      ),
    },
    content: { 'application/json': { schema: schemaRef('Batch') } },
  });
  const submitErrors = {
    '402': k.errorResponse(
      402,
      ['insufficient_credits'],
      'The wallet cannot cover the whole batch; nothing recorded.',
      k.error('insufficient_credits', 'Not enough credits: 40 needed, 30 available'),
    ),
    '429': k.errorResponse(
      429,
      ['rate_limited', 'queue_full'],
      `Over the request limit, or the children would make more than ${JOB_LIMITS.pendingPerCompany} pending jobs of the company; nothing recorded.`,
      k.error(
        'queue_full',
        `A company can have at most ${JOB_LIMITS.pendingPerCompany} pending jobs; 99 are pending and this batch's 2 jobs would make 101`,
      ),
      { 'Retry-After': k.headerRef('Retry-After') },
    ),
    '503': k.errorResponse(
      503,
      ['service_unavailable'],
      'Batch processing, the PDF engine, or the database is not available right now; retry later.',
      k.error('service_unavailable', 'Batch processing is not available right now; retry later'),
    ),
  };
  return {
    '/v1/batches/estimate': {
      post: {
        operationId: 'estimateBatch',
        tags: ['Batches'],
        summary: 'Quote a batch without starting it',
        security: [{ apiKey: ['write'] }],
        description:
          "Validates and prices every child as `POST /v1/batches` would, on server-measured sources: the whole quote and each item's. Reserves nothing.",
        requestBody: body,
        responses: {
          '200': {
            description: 'The quote.',
            headers: k.limited(true),
            content: k.json(schemaRef('BatchEstimate'), {
              quote: {
                operation: 'pdf-rotate',
                estimated_credits: 6,
                items: [
                  { item_index: 0, upload_ids: [k.uploadId], estimated_credits: 4 },
                  { item_index: 1, upload_ids: ['upl_Qm4Zr8Tv1Yx5Cb9Nd2Fh'], estimated_credits: 2 },
                ],
              },
            }),
          },
          '404': uploadIdNotFound,
          '409': k.errorResponse(
            409,
            ['max_credits_exceeded'],
            'The whole quote exceeds `max_credits`; the body carries it.',
            maxCredits,
          ),
          '422': k.errorResponse(
            422,
            ['validation_failed', 'malformed_json'],
            'Invalid body; every problem is in `issues`, naming the item.',
            invalid,
          ),
          ...bodyErrors,
          ...k.writeErrors(),
          '503': k.errorResponse(
            503,
            ['service_unavailable'],
            'The PDF engine or the database is not available right now; retry later.',
            k.error('service_unavailable', 'PDF processing is temporarily unavailable; retry shortly'),
          ),
          '504': k.errorResponse(
            504,
            ['timeout'],
            'Opening an encrypted PDF for `pdf-unlock` took too long.',
            k.error('timeout', 'Opening this PDF took too long; retry later'),
          ),
        },
      },
    },
    '/v1/batches': {
      post: {
        operationId: 'createBatch',
        tags: ['Batches'],
        summary: 'Submit a batch',
        security: [{ apiKey: ['write'] }],
        description:
          'Atomic: every child job is quoted, its quote reserved and the job queued — or, on any refusal, nothing is recorded or reserved. The children ' +
          `count toward the ${JOB_LIMITS.pendingPerCompany} pending jobs of the company. Each child is an ordinary job (\`GET /v1/jobs/{job_id}\`, with its ` +
          '`batch_id`): charged on success, its reservation released on failure. Poll `GET /v1/batches/{batch_id}` every 3 to 10 seconds until the ' +
          'status is `completed`, `partial` or `failed`.',
        parameters: [idempotencyKey('batch')],
        requestBody: body,
        responses: {
          '202': accepted('Accepted: every child is queued with its quote reserved.'),
          '404': uploadIdNotFound,
          '409': k.errorResponse(
            409,
            ['max_credits_exceeded', 'idempotency_conflict', 'idempotency_in_progress'],
            'The whole quote exceeds `max_credits`, or the `Idempotency-Key` was used with another body (or is still in progress).',
            maxCredits,
          ),
          '422': k.errorResponse(
            422,
            ['validation_failed', 'malformed_json', 'idempotency_key_required', 'idempotency_key_invalid'],
            'Invalid body (every problem in `issues`, naming the item), or a missing or invalid `Idempotency-Key`.',
            invalid,
          ),
          ...bodyErrors,
          ...k.writeErrors(),
          ...submitErrors,
          '504': k.errorResponse(
            504,
            ['timeout'],
            'Opening an encrypted PDF for `pdf-unlock` took too long.',
            k.error('timeout', 'Opening this PDF took too long; retry later'),
          ),
        },
      },
    },
    '/v1/batches/{batch_id}': {
      get: {
        operationId: 'getBatch',
        tags: ['Batches'],
        summary: 'Get a batch: progress, credits and children',
        security: [{ apiKey: ['read'] }],
        description: `Aggregate progress and credits, and the children in item order with their job metadata, ${BATCH_LIMITS.childrenPageDefault} per page by default (every child of a batch).`,
        parameters: [
          batchIdParam,
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: `Children per page, 1 to ${BATCH_LIMITS.maxItems} (default ${BATCH_LIMITS.childrenPageDefault}).`,
            schema: { type: 'integer', minimum: 1, maximum: BATCH_LIMITS.maxItems },
          },
          {
            name: 'after',
            in: 'query',
            required: false,
            description: 'The first `item_index` of the page (default 0): the `next_after` of the previous page.',
            schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
          },
        ],
        responses: {
          '200': {
            description: 'The batch.',
            headers: k.limited(true),
            content: { 'application/json': { schema: schemaRef('Batch') } },
          },
          '404': notFound,
          '422': k.errorResponse(
            422,
            ['validation_failed'],
            'A `limit` or `after` out of range.',
            k.error('validation_failed', 'limit must be an integer from 1 to 100', [
              { path: 'limit', message: 'an integer from 1 to 100' },
            ]),
          ),
          ...k.readErrors(),
        },
      },
    },
    '/v1/batches/{batch_id}/retry-failed': {
      post: {
        operationId: 'retryFailedBatchItems',
        tags: ['Batches'],
        summary: 'Re-run the failed items as a new batch',
        security: [{ apiKey: ['write'] }],
        description:
          'A new batch (`retry_of` the original, same operation, options and webhook) of only the failed items, each quoted and reserved anew, atomically as ' +
          '`POST /v1/batches`. No body. Send a new `Idempotency-Key`; the same key again returns the same new batch.',
        parameters: [batchIdParam, idempotencyKey('retry')],
        responses: {
          '202': accepted('Accepted: the failed items are queued again as a new batch.'),
          '404': k.errorResponse(
            404,
            ['not_found'],
            "Unknown or another company's batch, or a source of a failed item no longer exists (named as `items.<item_index>.upload_ids.<j>` of the original).",
            k.error('not_found', 'Batch not found'),
          ),
          '409': k.errorResponse(
            409,
            [
              'batch_not_terminal',
              'batch_has_no_failed_items',
              'batch_retry_needs_password',
              'idempotency_conflict',
              'idempotency_in_progress',
            ],
            'The batch has not ended; none of its items failed; its operation needs a password that is no longer kept; or the `Idempotency-Key` was used for another request.',
            k.error('batch_not_terminal', 'The batch is processing; failed items can be retried once it has ended'),
          ),
          '410': k.errorResponse(
            410,
            ['gone'],
            'A source of a failed item is past its 7-day retention.',
            k.error('gone', `Upload ${k.uploadId} has expired (sources are kept 7 days)`),
          ),
          '422': k.errorResponse(
            422,
            ['validation_failed', 'idempotency_key_required', 'idempotency_key_invalid'],
            'A missing or invalid `Idempotency-Key`, or a failed item that no longer validates.',
            k.error('idempotency_key_required', 'This request needs an Idempotency-Key header'),
          ),
          ...k.writeErrors(),
          ...submitErrors,
        },
      },
    },
    '/v1/batches/{batch_id}/cancel': {
      post: {
        operationId: 'cancelBatch',
        tags: ['Batches'],
        summary: 'Cancel the queued items of a batch',
        security: [{ apiKey: ['write'] }],
        description:
          'Every item still `queued` becomes `cancelled` and its reservation is released, once, in one transaction; items already processing or ended ' +
          'are left as they are, and the batch ends when they do (a cancelled item counts as not completed: `partial` or `failed`). No body, or `{}`.',
        parameters: [batchIdParam],
        responses: {
          '200': {
            description: 'The batch after the cancellation, and the ids of the jobs it cancelled.',
            headers: k.limited(true),
            content: { 'application/json': { schema: schemaRef('BatchCancellation') } },
          },
          '404': k.errorResponse(
            404,
            ['not_found'],
            "Unknown or another company's batch.",
            k.error('not_found', 'Batch not found'),
          ),
          '409': k.errorResponse(
            409,
            ['batch_not_cancellable'],
            'The batch has ended, or none of its items is still queued; nothing changed.',
            k.error('batch_not_cancellable', 'No item of this batch is still queued; nothing was cancelled'),
          ),
          '422': k.errorResponse(
            422,
            ['validation_failed'],
            'A body with fields: this request takes none.',
            k.error('validation_failed', 'Invalid request: reason: unknown field; this request takes no body (or {})'),
          ),
          ...k.writeErrors(),
        },
      },
    },
    '/v1/batches/{batch_id}/results.zip': {
      get: {
        operationId: 'downloadBatchResults',
        tags: ['Batches'],
        summary: 'Download every successful result as one ZIP',
        security: [{ apiKey: ['read'] }],
        description:
          'Once the batch has ended: a folder per successful item (`item-000/`, `item-001/`, … by `item_index`) with its result files, and `manifest.json` ' +
          '(every item: `item_index`, `job_id`, `status`, `upload_ids`, `files` with `name`, `path` in the ZIP, `bytes`, `sha256`, `content_type`, `error` ' +
          '`{code, message}` of a failed item, and `deleted_at`). A child the client deleted is left out (no folder, `files: []`) and listed with its `deleted_at`. ' +
          'Streamed; at most 1 GB of results.',
        parameters: [batchIdParam],
        responses: {
          '200': {
            description: 'The ZIP.',
            headers: {
              ...k.limited(true),
              'Content-Disposition': header(
                '`attachment; filename="<batch id>-results.zip"`.',
                z.string().regex(/^attachment; filename="bat_[A-Za-z0-9]{20}-results\.zip"$/),
                true,
              ),
            },
            content: binaryContent('application/zip'),
          },
          '404': notFound,
          '409': k.errorResponse(
            409,
            ['batch_not_terminal'],
            'The batch has not ended yet.',
            k.error('batch_not_terminal', 'The batch is processing; its results ZIP is available once it has ended'),
          ),
          '410': k.errorResponse(
            410,
            ['gone'],
            'Results of a completed child that was not deleted are past their 7-day retention: the ZIP is never served incomplete.',
            k.error('gone', 'The results of this batch have expired (results are kept 7 days)'),
          ),
          '413': k.errorResponse(
            413,
            ['batch_zip_too_large'],
            `The results total more than ${BATCH_LIMITS.zipMaxBytes} bytes (1 GB).`,
            k.error(
              'batch_zip_too_large',
              "The batch's results total 1100000000 bytes, over the 1073741824-byte ZIP limit (1 GB); download them one by one from each job's result.files",
            ),
          ),
          ...k.readErrors(),
        },
      },
    },
  };
}

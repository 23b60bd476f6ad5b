import type { ErrorCode } from '../../../domain/errors.js';
import { IDEMPOTENCY_RULES } from '../../../domain/idempotency.js';
import {
  AVAILABLE_OPERATIONS,
  fieldName,
  OPTION_SCHEMAS,
  type AvailableOperation,
} from '../../../domain/validation/processing-request.js';
import { z } from 'zod';
import { Contract, inputJsonSchema } from '../../http/contract.js';
import { jobIdSchema } from '../../../domain/validation/processing-responses.js';
import { errorRows } from '../../http/error-table.js';
import { REGISTRATION_ERRORS } from './openapi.registration.js';
import { OPERATION_SUMMARIES } from './operation-summaries.js';
import { optionsRequired } from '../../../domain/validation/processing-request-schemas.js';
import { transcriptJsonSchema } from '../../../adapters/documents/transcript-formats.js';
import { meetingJsonSchema } from '../../../adapters/documents/meeting-document.js';
import { extractionJsonSchema } from '../../../adapters/documents/extraction-exports.js';

/**
 * What of the `/v1` document is not a body of the zod contract (openapi.contract.ts): the `Error` body (a zod schema
 * here, beside its code table, which the contract cannot import: the registration's codes refer to it) and the code
 * table (written to match `errorBody` and the error middleware's statuses), the result-file schemas of
 * `adapters/documents/`, and each operation's summary and options as the capabilities and the HTML guide show them.
 */
export type Schema = { [key: string]: unknown };

export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export interface OperationDoc {
  summary: string;
  /** The JSON Schema of the options, generated from OPTION_SCHEMAS as zod reads them. */
  options: Schema;
  /** The options object must be present (some option is required: `{}` is refused). */
  optionsRequired: boolean;
}

/** Every operation this release runs, with its options (spec section 2, `OPTION_SCHEMAS`). */
export const OPERATION_DOCS: Readonly<Record<AvailableOperation, OperationDoc>> = Object.fromEntries(
  AVAILABLE_OPERATIONS.map((op) => [
    op,
    {
      summary: OPERATION_SUMMARIES[op],
      options: inputJsonSchema(OPTION_SCHEMAS[op]),
      optionsRequired: optionsRequired(op),
    },
  ]),
) as Record<AvailableOperation, OperationDoc>;

/** A field name of `fields` (a letter, then letters, digits or underscores, at most 64; not a reserved name in any case). */
export const FIELD_NAME_SCHEMA: Schema = inputJsonSchema(fieldName);
/** A zod-made JSON Schema as an OpenAPI 3.1 component: the document's dialect applies, so its `$schema` goes. */
function withoutDialect(schema: Record<string, unknown>): Schema {
  const { $schema: _dialect, ...rest } = schema;
  return rest as Schema;
}

export { requestSchemaName } from './openapi.contract.js';

/** The /v1 error codes, each with when it happens; the status comes from the error middleware's own table. */
export const V1_ERRORS = errorRows([
  {
    code: 'unauthorized',
    when: 'No `Authorization: Bearer` header, or the key is malformed, unknown, revoked or expired.',
  },
  { code: 'api_key_in_url', when: 'A key (or a credential-named parameter) is in the query string. Revoke that key.' },
  { code: 'insufficient_credits', when: 'The wallet cannot cover the quote; nothing is recorded.' },
  { code: 'insufficient_scope', when: 'A read-only key was used for POST or DELETE.' },
  'forbidden',
  {
    code: 'not_found',
    when: 'The job, upload or result index in the path, or an upload of `upload_ids` or the `webhook_id` in the body, does not exist in your company (an id of another company, or a disabled or deleted webhook, gets the same answer; a body field is named in `issues`), or the path is unknown.',
  },
  'method_not_allowed',
  {
    code: 'conflict',
    when: 'Incompatible state: the job has not completed (results) or not ended (deletion), or the upload is a source of an unfinished job.',
  },
  {
    code: 'batch_not_cancellable',
    when: 'Cancelling a batch cancels its queued items: this batch has ended, or none of its items is still queued. Nothing changed.',
  },
  {
    code: 'job_not_cancellable',
    when: 'Only a queued job can be cancelled: this one is processing, completed, failed or already cancelled. Nothing changed.',
  },
  {
    code: 'max_credits_exceeded',
    when: "The quote exceeds the request's `max_credits`; nothing is reserved. The body carries the quote (`estimated_credits`) and your `max_credits`: send the request again with `max_credits` of at least the quote to accept it.",
  },
  {
    code: 'batch_not_terminal',
    when: 'The batch is still queued or processing: its results ZIP and retry-failed are available once it has ended (completed, partial or failed).',
  },
  {
    code: 'batch_has_no_failed_items',
    when: '`retry-failed` of a batch none of whose items failed: there is nothing to retry.',
  },
  {
    code: 'batch_retry_needs_password',
    when: '`retry-failed` of a `pdf-protect` or `pdf-unlock` batch: the password is not kept once a job ends; submit a new batch of the failed items with it.',
  },
  {
    code: 'batch_zip_too_large',
    when: "The batch's results total more than the 1 GB ZIP limit; download them one by one from each job's `result.files`.",
  },
  {
    code: 'idempotency_conflict',
    when: 'The `Idempotency-Key` was already used with a different body; use a new key.',
  },
  {
    code: 'idempotency_key_target_deleted',
    when: 'The `Idempotency-Key` created a job that has since been deleted (`job_id` names it), so its answer can no longer be replayed; to run the job again, send the request with a new key.',
  },
  'idempotency_in_progress',
  {
    code: 'gone',
    when: "The upload (read, estimated or submitted), the result or a batch's results (its ZIP) are past their 7-day retention.",
  },
  {
    code: 'payload_too_large',
    when: 'Too many files or bytes in one upload request, company source storage full, or a JSON body over the limit.',
  },
  {
    code: 'unsupported_media_type',
    when: 'Uploads not sent as `multipart/form-data` with a boundary, or sent with a `Content-Encoding`; or a JSON endpoint body not sent as `application/json`.',
  },
  {
    code: 'validation_failed',
    when: 'Invalid body, options, source kind, page selection or password; unreadable upload; an invalid query parameter of a list. `issues` lists every problem.',
  },
  'malformed_json',
  {
    code: 'idempotency_key_required',
    when: '`POST /v1/jobs`, `POST /v1/batches` or `POST /v1/batches/{batch_id}/retry-failed` without an `Idempotency-Key` header.',
  },
  { code: 'idempotency_key_invalid', when: `The \`Idempotency-Key\` is not ${IDEMPOTENCY_RULES.v1.description}.` },
  { code: 'rate_limited', when: 'Over the request limit; wait for `Retry-After` seconds.' },
  {
    code: 'queue_full',
    when: 'The company already has the maximum of pending jobs; `Retry-After` suggests when to try again.',
  },
  { code: 'internal_error', when: 'Unexpected server error; retry with backoff, quoting `request_id` if it persists.' },
  {
    code: 'service_unavailable',
    when: 'Job processing, the PDF engine needed to quote `pdf-unlock`, or the database is temporarily unavailable; retry later with backoff (after `Retry-After` seconds when it is sent). Nothing was recorded, or the same `Idempotency-Key` replays what was.',
  },
  {
    code: 'timeout',
    when: 'Opening an encrypted PDF to quote `pdf-unlock` took longer than the time limit; retry later.',
  },
  ...REGISTRATION_ERRORS,
]);

/** The codes whose body carries fields of their own (`errorBody`'s `fields`), each a variant of `Error`. */
const CODES_WITH_FIELDS = ['max_credits_exceeded', 'idempotency_key_target_deleted'] as const satisfies ErrorCode[];
const errorFields = {
  detail: z.string(),
  request_id: z.string().meta({ description: 'Also in the `X-Request-Id` header; quote it when asking for help.' }),
  issues: z
    .array(
      z.strictObject({
        path: z.string().meta({ description: 'e.g. `options.angle`, `upload_ids.0`, `files.1`, `(body)`.' }),
        message: z.string(),
      }),
    )
    .min(1)
    .optional()
    .meta({
      description:
        'Validation errors: every problem at once. On a 404 for an id in the body: that field (e.g. `upload_ids.1`).',
    }),
};
const plainCodes = V1_ERRORS.map((e) => e.code).filter(
  (c) => !(CODES_WITH_FIELDS as readonly ErrorCode[]).includes(c),
) as [ErrorCode, ...ErrorCode[]];

/** Every /v1 error body (`errorBody` of api/http/errors.ts): a union on `code`, the codes with fields of their own apart. */
export const v1ErrorSchema = z
  .discriminatedUnion('code', [
    z.strictObject({ ...errorFields, code: z.enum(plainCodes) }),
    z
      .strictObject({
        ...errorFields,
        code: z.literal('max_credits_exceeded'),
        estimated_credits: z.int().min(1).meta({ description: 'The quote of the request.' }),
        max_credits: z.int().min(1).meta({ description: 'The `max_credits` the request sent.' }),
      })
      .meta({ description: '`max_credits_exceeded`: the quote and the limit the request set.' }),
    z
      .strictObject({ ...errorFields, code: z.literal('idempotency_key_target_deleted'), job_id: jobIdSchema })
      .meta({ description: '`idempotency_key_target_deleted`: `job_id` is the deleted job the key created.' }),
  ])
  .meta({ description: 'Every /v1 error. `code` is stable; `detail` is for people.' });

/** The `Error` component, its `job_id` a `$ref` to the document's `JobId`. */
function v1ErrorComponent(): Schema {
  return new Contract({ requests: {}, responses: { JobId: jobIdSchema, Error: v1ErrorSchema } }).schemas()['Error']!;
}

export function componentSchemas(): Record<string, Schema> {
  return {
    TranscriptJson: {
      ...withoutDialect(transcriptJsonSchema),
      description:
        'The `json` result of `transcribe` (a result file to download, not an API answer): times in seconds from the start of the source, ' +
        'millisecond precision, monotonic and within `duration`; `speaker` is an anonymous label (`SPEAKER_1`, … by first appearance).',
    },
    ExtractionJson: {
      ...withoutDialect(extractionJsonSchema),
      description:
        'The `.json` result of `flow-extract` (a result file, when the operation is available): one entry per input document with its ' +
        'fields (missing values are null), line items, evidence and review flags (docs/processing.md, "Field extraction").',
    },
    MeetingJson: {
      ...withoutDialect(meetingJsonSchema),
      description:
        'The `.json` result of `meeting` (a result file): the `TranscriptJson` fields plus the meeting document (docs/processing.md, "Meeting").',
    },
    Error: v1ErrorComponent(),
  };
}

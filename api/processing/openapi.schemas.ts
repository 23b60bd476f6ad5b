import type { ErrorCode } from '../../domain/errors.js';
import { IDEMPOTENCY_RULES } from '../../domain/idempotency.js';
import {
  AVAILABLE_OPERATIONS,
  extractionFields,
  extractionInstructions,
  fieldName,
  OPTION_SCHEMAS,
  RESERVED_FIELD_NAMES,
  workflowIdSchema,
  type AvailableOperation,
} from '../../domain/validation/processing-request.js';
import { inputJsonSchema } from '../http/contract.js';
import { statusOf } from '../http/errors.js';
import { REGISTRATION_ERRORS } from './openapi.registration.js';
import { OPERATION_RULES } from '../../domain/operations.js';
import { transcriptJsonSchema } from '../../adapters/documents/transcript-formats.js';
import { meetingJsonSchema } from '../../adapters/documents/meeting-document.js';
import { extractionJsonSchema } from '../../adapters/documents/extraction-exports.js';

/**
 * JSON Schemas (2020-12, the OpenAPI 3.1 dialect) of the `/v1` request and response bodies, written to match
 * `domain/validation/processing-request.ts`, `uploadJson`, `jobJson`, the estimate handler and `errorBody`.
 * Response objects are closed (`additionalProperties: false`): the conformance test fails on any field the
 * server sends that is not listed here.
 */
export type Schema = { [key: string]: unknown };

export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** What each operation does, in words: the description of its request variants (its options are OPTION_SCHEMAS'). */
const OPERATION_SUMMARIES: Readonly<Record<AvailableOperation, string>> = {
  'pdf-extract': 'Keep only the selected pages of a PDF.',
  'pdf-delete': 'Delete the selected pages of a PDF (not all of them).',
  'pdf-rotate': 'Rotate the selected pages (default: all) clockwise.',
  'pdf-protect': 'Encrypt a PDF with a password.',
  'pdf-unlock':
    'Remove the password of an encrypted PDF; the password is checked and the pages counted before quoting.',
  'pdf-watermark': 'Stamp a text on the selected pages (default: all).',
  'pdf-number': 'Print page numbers on the selected pages (default: all).',
  'pdf-merge': 'Merge 2 to 20 PDFs in the order given.',
  'image-edit': 'Resize (contained in width × height, aspect ratio kept), rotate, flip, crop and convert an image.',
  'image-compress': 'Compress an image, optionally converting it.',
  webp: 'Convert an image to WebP.',
  'ocr-text':
    'Recognise the text of a scanned or mixed PDF, or of an image, as plain UTF-8 text (pages separated by a form feed). Pages that already have a text layer keep their own text.',
  'ocr-docx':
    'Recognise the text of a scanned or mixed PDF, or of an image, as a Word document (DOCX): one page per source page, one paragraph per block of text.',
  'ocr-pdf':
    'Make a scanned or mixed PDF, or an image, searchable: each page as it was with an invisible text layer; pages that already have text are kept unchanged.',
  'audio-trim':
    "Keep the part of an audio file from `start` to `end` (exact to the sample; re-encoded in the source's format when it is MP3, WAV, FLAC or Ogg, else AAC in M4A).",
  'video-trim': 'Keep the part of a video from `start` to `end` (exact to the frame; H.264 + AAC in MP4).',
  'video-rotate':
    'Rotate a video clockwise (H.264 + AAC in MP4; a rotation flag of the source is applied first, so the result is turned from what players showed).',
  'video-resize':
    'Scale a video to a height; the width keeps the display aspect ratio, rounded to an even number (H.264 + AAC in MP4).',
  'audio-compress':
    "Compress audio to AAC in M4A: 96 kbit/s (64 mono), and at most three quarters of the source's bitrate.",
  'video-compress':
    "Compress a video (H.264 CRF 28, at most 70 % of the source's video bitrate; AAC up to 96 kbit/s) in MP4, same size and duration.",
  transcribe:
    "Transcribe the speech of an audio file or of a video's first audio track, with word timestamps and anonymous speakers (`SPEAKER_1`, …). " +
    'Priced per started minute of the decoded duration. Result formats: docs/processing.md, "Transcription".',
  meeting:
    "Transcribe a meeting (audio, or a video's first audio track) and write the meeting document twice, as DOCX and as JSON: speakers with talk " +
    'time, a timeline of turns, a summary, and the transcript with speakers. Priced per started minute of the decoded duration. docs/processing.md, "Meeting".',
  'flow-extract':
    'Extract named fields and line items from PDFs, images and UTF-8 text (1 to 20 documents, one row per document): each value with the ' +
    'evidence it was read from, checked against the source by the platform; `review_required` where a check failed. Results: XLSX, the CSV files ' +
    'in one ZIP, and JSON (`ExtractionJson`). Send `fields` (and optional `instructions`), or a `workflow_id` whose settings take precedence. ' +
    'An e-invoice (a PDF with its CII or UBL XML embedded: Factur-X, ZUGFeRD, XRechnung; or that XML, or a FatturaPA, uploaded as text) is read ' +
    'from its XML: evidence `source` `xml` with the element\'s `path`. 25 credits per page. docs/processing.md, "Field extraction" and "E-invoices".',
};

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
      optionsRequired: !OPTION_SCHEMAS[op].safeParse({}).success,
    },
  ]),
) as Record<AvailableOperation, OperationDoc>;

/** A field name of `fields` (a letter, then letters, digits or underscores, at most 64; not a reserved name in any case). */
export const FIELD_NAME_SCHEMA: Schema = inputJsonSchema(fieldName);
/** A flow-extract body names its fields, or a saved workflow that does. */
export const EXTRACTION_NEEDS: Schema[] = [
  { properties: { fields: true }, required: ['fields'] },
  { properties: { workflow_id: true }, required: ['workflow_id'] },
];
/** `fields`, `instructions` and `workflow_id` of a flow-extract request, as `extractionSpec` parses them. */
export const EXTRACTION_PROPERTIES: Record<string, Schema> = {
  fields: {
    ...inputJsonSchema(extractionFields.min(1)),
    description: `The values to extract, as field names (unique whatever their case; ${RESERVED_FIELD_NAMES.join(', ')} are reserved). Required unless \`workflow_id\` is sent.`,
  },
  instructions: {
    ...inputJsonSchema(extractionInstructions),
    description:
      'Free text for the engine (e.g. "dates are US month/day"); data, never a rule it must obey over its own.',
  },
  workflow_id: {
    ...inputJsonSchema(workflowIdSchema),
    description:
      "A saved workflow of your company (`/api/company/workflows`): its fields, instructions and options are used instead of the body's. " +
      "Unknown, another company's or deleted: 404 naming `workflow_id`.",
  },
};

/** A zod-made JSON Schema as an OpenAPI 3.1 component: the document's dialect applies, so its `$schema` goes. */
function withoutDialect(schema: Record<string, unknown>): Schema {
  const { $schema: _dialect, ...rest } = schema;
  return rest as Schema;
}

/** Component name of the request body variant of an operation, e.g. `PdfRotateRequest`. */
export const requestSchemaName = (op: AvailableOperation) =>
  `${op
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}Request`;

function requestVariant(op: AvailableOperation): Schema {
  const d = { ...OPERATION_DOCS[op], sources: OPERATION_RULES[op].sources };
  return {
    title: op,
    type: 'object',
    additionalProperties: false,
    required: ['operation', 'upload_ids', ...(d.optionsRequired ? ['options'] : [])],
    description: d.summary,
    ...(op === 'flow-extract' ? { anyOf: EXTRACTION_NEEDS } : {}),
    properties: {
      ...(op === 'flow-extract' ? EXTRACTION_PROPERTIES : {}),
      operation: { type: 'string', const: op },
      upload_ids: {
        type: 'array',
        items: schemaRef('UploadId'),
        minItems: d.sources.min,
        maxItems: d.sources.max,
        uniqueItems: true,
      },
      options: d.options,
      max_credits: {
        type: 'integer',
        minimum: 1,
        maximum: 1_000_000_000,
        description: 'Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this.',
      },
      webhook_id: {
        ...schemaRef('WebhookId'),
        description:
          "An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). " +
          "A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`).",
      },
    },
  };
}

/** The /v1 error codes, each with when it happens; the status comes from the error middleware's own table. */
export const V1_ERRORS: ReadonlyArray<{ code: ErrorCode; when: string }> = [
  {
    code: 'unauthorized',
    when: 'No `Authorization: Bearer` header, or the key is malformed, unknown, revoked or expired.',
  },
  { code: 'api_key_in_url', when: 'A key (or a credential-named parameter) is in the query string. Revoke that key.' },
  { code: 'insufficient_credits', when: 'The wallet cannot cover the quote; nothing is recorded.' },
  { code: 'insufficient_scope', when: 'A read-only key was used for POST or DELETE.' },
  { code: 'forbidden', when: 'The company is suspended.' },
  {
    code: 'not_found',
    when: 'The job, upload or result index in the path, or an upload of `upload_ids` or the `webhook_id` in the body, does not exist in your company (an id of another company, or a disabled or deleted webhook, gets the same answer; a body field is named in `issues`), or the path is unknown.',
  },
  { code: 'method_not_allowed', when: 'The path exists, but not with this method (see `Allow`).' },
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
  {
    code: 'idempotency_in_progress',
    when: 'A request with the same `Idempotency-Key` is still being processed; retry shortly.',
  },
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
  { code: 'malformed_json', when: 'The body is not valid JSON.' },
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
];

export const v1Status = (code: ErrorCode) => statusOf('v1', code);

export function componentSchemas(): Record<string, Schema> {
  const variants = Object.fromEntries(AVAILABLE_OPERATIONS.map((op) => [requestSchemaName(op), requestVariant(op)]));
  return {
    JobRequest: {
      description:
        'Body of `POST /v1/estimate` and `POST /v1/jobs`, validated strictly: an unknown field or option is a 422. ' +
        'The spec fields `items` and `webhook_mode` (batches only: `POST /v1/batches`), `fields`, `instructions` and `workflow_id` (extraction) are not ' +
        'available on this route and are refused with 422; `fields`, `instructions` and `workflow_id` belong to `flow-extract` only. ' +
        `Reserved extraction field names: ${RESERVED_FIELD_NAMES.join(', ')}.`,
      oneOf: AVAILABLE_OPERATIONS.map((op) => schemaRef(requestSchemaName(op))),
    },
    ...variants,
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
    Error: {
      type: 'object',
      additionalProperties: false,
      required: ['detail', 'code', 'request_id'],
      description: 'Every /v1 error. `code` is stable; `detail` is for people.',
      properties: {
        detail: { type: 'string' },
        code: { type: 'string', enum: V1_ERRORS.map((e) => e.code) },
        request_id: {
          type: 'string',
          description: 'Also in the `X-Request-Id` header; quote it when asking for help.',
        },
        issues: {
          type: 'array',
          minItems: 1,
          description:
            'Validation errors: every problem at once. On a 404 for an id in the body: that field (e.g. `upload_ids.1`).',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['path', 'message'],
            properties: {
              path: { type: 'string', description: 'e.g. `options.angle`, `upload_ids.0`, `files.1`, `(body)`.' },
              message: { type: 'string' },
            },
          },
        },
        estimated_credits: {
          type: 'integer',
          minimum: 1,
          description: '`max_credits_exceeded` only: the quote of the request.',
        },
        max_credits: {
          type: 'integer',
          minimum: 1,
          description: '`max_credits_exceeded` only: the `max_credits` the request sent.',
        },
        job_id: {
          ...schemaRef('JobId'),
          description: '`idempotency_key_target_deleted` only: the deleted job the key created.',
        },
      },
      allOf: [
        {
          if: { properties: { code: { const: 'max_credits_exceeded' } } },
          then: {
            properties: { estimated_credits: true, max_credits: true },
            required: ['estimated_credits', 'max_credits'],
          },
          else: { properties: { estimated_credits: false, max_credits: false } },
        },
        {
          if: { properties: { code: { const: 'idempotency_key_target_deleted' } } },
          then: { properties: { job_id: true }, required: ['job_id'] },
          else: { properties: { job_id: false } },
        },
      ],
    },
  };
}

import { z } from 'zod';
import { idRegex } from '../ids.js';
import { WEBHOOK_ID_PREFIX } from '../webhooks.js';
import { AVAILABLE_OPERATIONS } from './processing-request.js';

/**
 * The response bodies of `/v1`, written once: the serializers (`uploadJson`, `listedUploadJson` of
 * services/processing/records.ts) return these types and the /v1 OpenAPI document is generated from these schemas
 * (api/shared/processing/openapi.contract.ts names them). Objects are strict, so the document closes them and the
 * conformance test fails on any field the server sends that is not listed here. Clients must still ignore fields they
 * do not know (spec section 9).
 */

const prefixedId = (prefix: string, what: string) =>
  z
    .string()
    .regex(idRegex(prefix))
    .meta({ description: `${what} id: \`${prefix}_\` and 20 letters or digits.` });

export const uploadIdSchema = prefixedId('upl', 'Upload');
export const jobIdSchema = prefixedId('job', 'Job');
export const batchIdSchema = prefixedId('bat', 'Batch');
export const webhookIdSchema = prefixedId(WEBHOOK_ID_PREFIX, 'Webhook');

const dateTime = z.iso.datetime();

export const UPLOAD_KINDS = ['pdf', 'image', 'text', 'audio', 'video'] as const;

const uploadFields = {
  id: uploadIdSchema,
  filename: z
    .string()
    .min(1)
    .max(255)
    .meta({
      description:
        'Your file name for display, decoded as UTF-8, in Unicode normal form C: no directories, no control, line-separator or ' +
        'bidirectional-formatting characters (removed).',
    }),
  kind: z
    .enum(UPLOAD_KINDS)
    .meta({ description: 'Identified from the content, never from the name or declared type.' }),
  mime_type: z.string().meta({
    description:
      'The registered media type of the content: application/pdf, text/plain; charset=utf-8, image/jpeg, image/png, image/webp, ' +
      'image/gif, image/tiff, image/avif, image/heic, video/mp4 or audio/mp4 (MP4, M4A), video/quicktime, video/3gpp, audio/mpeg (MP3), ' +
      'audio/wav, audio/ogg or video/ogg, audio/flac, audio/aac, audio/AMR, video/webm or audio/webm, video/matroska or audio/matroska, ' +
      'video/mp2t, video/mpeg or audio/mpeg (MPEG program stream), video/x-msvideo (AVI, which has no registered type). Audio and video ' +
      'in any other container is refused (422), as are playlists and manifests that name other files (HLS, DASH, ffconcat).',
  }),
  bytes: z.int().min(1),
  pages: z.int().min(0).meta({
    description: 'PDF pages (0 when encrypted), 1 for an image, one per started 4,000 bytes of text, 0 for media.',
  }),
  duration_seconds: z
    .number()
    .min(0)
    .nullable()
    .meta({ description: 'Media duration; null for documents and images.' }),
  encrypted: z.boolean().meta({ description: 'An encrypted PDF; only `pdf-unlock` accepts it.' }),
  width: z
    .int()
    .min(1)
    .nullable()
    .meta({
      description:
        'Images: width in pixels as displayed (after the EXIF orientation); `crop` is taken in these coordinates. Videos: the video ' +
        "stream's width as displayed (after its rotation flag). Null for other kinds.",
    }),
  height: z
    .int()
    .min(1)
    .nullable()
    .meta({ description: 'Images and videos: height in pixels as displayed. Null for other kinds.' }),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: dateTime,
  expires_at: dateTime.meta({ description: 'Sources are kept 7 days.' }),
};

/** An upload as `POST /v1/uploads` and `GET /v1/uploads/{upload_id}` show it. */
export const uploadSchema = z.strictObject(uploadFields);

/** The answer of `POST /v1/uploads`. */
export const uploadListSchema = z.strictObject({
  uploads: z.array(uploadSchema).min(1).meta({ description: 'In the order the files were sent.' }),
});

/** An upload in the upload lists, with whether jobs and batches use it. */
export const listedUploadSchema = z.strictObject({
  ...uploadFields,
  in_use: z.boolean().meta({
    description:
      'A queued or processing job reads it; `DELETE /v1/uploads/{upload_id}` answers 409 until that job ends.',
  }),
  job_count: z.int().min(0).meta({
    description: "Your jobs that name it (not deleted, in any state; a batch's child jobs included).",
  }),
  batch_count: z.int().min(0).meta({ description: 'The distinct batches among those jobs.' }),
});

/** Operations this release runs (the `operation` of a request, a job, a batch, an estimate). */
export const operationSchema = z.enum(AVAILABLE_OPERATIONS).meta({ description: 'Operations this release runs.' });

/** One entry of the credit ledger (credits are whole numbers). */
export const ledgerEntrySchema = z.strictObject({
  id: z.int().min(1).meta({ description: 'Increases with every entry of the platform; the feed cursor.' }),
  kind: z.enum(['grant', 'reserve', 'charge', 'release']).meta({
    description:
      "`grant`: credits added (available += amount). `reserve`: a job's quote held at submission (available -= amount, reserved += amount). " +
      '`charge`: the quote of a completed job spent (reserved -= amount). `release`: the quote of a failed or cancelled job returned ' +
      '(reserved -= amount, available += amount). A reservation is charged or released at most once.',
  }),
  amount: z.int().min(1).meta({ description: 'Credits moved (always positive; the kind says which way).' }),
  job_id: z
    .string()
    .regex(idRegex('job'))
    .nullable()
    .meta({ description: 'The job of a reserve, charge or release; null for grants.' }),
  reason: z.string().nullable().meta({
    description:
      "Grants: `trial`, a plan, a pack or an operator's note. Releases: `job_cancelled` for a cancelled job, null for a failed one.",
  }),
  created_at: dateTime,
});

/** The answer of `GET /v1/credits` (and `GET /api/company/credits`): the wallet and its ledger as a feed. */
export const creditsSchema = z.strictObject({
  available: z.int().min(0).meta({ description: 'Credits new jobs can reserve.' }),
  reserved: z.int().min(0).meta({ description: 'Credits held by queued and processing jobs.' }),
  ledger: z.strictObject({
    data: z.array(ledgerEntrySchema).max(100).meta({ description: 'Oldest first.' }),
    next_cursor: z.int().min(0).meta({ description: 'Pass as `after` to read the entries after these.' }),
  }),
});

/** The answer of `POST /v1/estimate`: the quote and what the server measured of each source. */
export const estimateSchema = z.strictObject({
  operation: operationSchema,
  estimated_credits: z
    .int()
    .min(1)
    .meta({ description: 'The quote: what `POST /v1/jobs` reserves now and charges on success.' }),
  sources: z
    .array(
      z.strictObject({
        upload_id: uploadIdSchema,
        bytes: z.int().min(1),
        pages: z
          .int()
          .min(0)
          .meta({ description: 'For `pdf-unlock`, the pages counted after opening the PDF with the password.' }),
        duration_seconds: z.number().min(0).nullable(),
        credits: z.int().min(1),
      }),
    )
    .min(1)
    .meta({ description: 'What the server measured of each source, and its share of the quote.' }),
});

/** One file of a completed job's `result.files`, as `jobJson` writes it. */
export const resultFileSchema = z.strictObject({
  name: z.string(),
  download_path: z
    .string()
    .regex(/^\/v1\/jobs\/job_[A-Za-z0-9]{20}\/results\/[0-9]+$/)
    .meta({ description: 'GET it with your API key.' }),
  bytes: z.number().int().min(0),
  content_type: z.string(),
});

import { z } from 'zod';
import type { PriceClass } from '../pricing.js';
import { ALL_OPERATIONS } from './processing-request.js';
import { UPLOAD_KINDS } from './processing-responses.js';

/**
 * The answer of `GET /v1/capabilities`, written once: `capabilitiesJson` (api/processing/capabilities.ts) returns this
 * type and the /v1 document is generated from it (api/shared/processing/openapi.contract.ts names the components). An
 * operation is a union on `available`: one that is not built yet has no sources, options or output formats.
 */

const PRICE_CLASSES = [
  'file',
  'ocr_text',
  'ocr_document',
  'extraction',
  'transcribe',
  'meeting',
  'media',
] as const satisfies readonly PriceClass[];

export const priceRuleSchema = z
  .strictObject({
    class: z.enum(PRICE_CLASSES),
    credits_per_unit: z.int().min(1),
    units: z
      .array(
        z.strictObject({
          measure: z
            .enum(['bytes', 'pages', 'duration_seconds'])
            .meta({ description: 'What the server measured of the source (see the upload record).' }),
          per: z.int().min(1).meta({ description: 'How much of it makes one unit; a started unit counts whole.' }),
        }),
      )
      .min(1),
    minimum_units: z.int().min(1),
    description: z.string(),
  })
  .meta({
    description:
      'Each source costs `credits_per_unit` × the largest number of started units over `units` (at least `minimum_units`); the quote is the sum over the sources.',
  });

const capabilityFields = {
  id: z.enum(ALL_OPERATIONS),
  summary: z.string(),
  source_kinds: z.array(z.enum(UPLOAD_KINDS)).min(1).meta({ description: 'The upload kinds it accepts.' }),
  price: priceRuleSchema,
};

export const capabilitySchema = z.discriminatedUnion('available', [
  z
    .strictObject({
      ...capabilityFields,
      available: z.literal(true),
      sources: z
        .strictObject({ min: z.int().min(1), max: z.int().min(1) })
        .meta({ description: 'How many uploads (`upload_ids`) a job takes.' }),
      options: z.record(z.string(), z.unknown()).meta({ description: 'JSON Schema (2020-12) of `options`.' }),
      options_required: z.boolean().meta({ description: 'Whether the request must carry `options`.' }),
      output_formats: z
        .array(z.string())
        .nullable()
        .meta({ description: 'Extensions of the result files; null where this service has not decided them.' }),
    })
    .meta({ title: 'available' }),
  z
    .strictObject({
      ...capabilityFields,
      available: z.literal(false).meta({ description: 'Not built yet: a request with it is refused with 422.' }),
      sources: z.null(),
      options: z.null(),
      options_required: z.literal(false),
      output_formats: z.null(),
    })
    .meta({ title: 'not available' }),
]);

const positive = z.int().min(1);

export const capabilitiesSchema = z.strictObject({
  operations: z.array(capabilitySchema),
  limits: z.strictObject({
    upload_files_per_request: positive,
    upload_bytes_per_request: positive,
    company_source_bytes: positive.meta({ description: 'Bytes of live sources per company.' }),
    pdf_pages: positive.meta({ description: 'Pages per PDF.' }),
    media_seconds: positive.meta({ description: 'Longest audio or video accepted at upload.' }),
    text_bytes: positive.meta({ description: 'Largest UTF-8 text source.' }),
    image_pixels: positive.meta({ description: 'Most pixels of an image source.' }),
    video_pixel_frames: positive.meta({
      description:
        "Most work a video tool takes on one source: frames encoded × pixels per frame (the larger of the source's and the " +
        "output's; a trim counts the frames it keeps). More is refused at the estimate and at submission with 422 naming the source.",
    }),
    pending_jobs_per_company: positive.meta({
      description: 'Queued or processing jobs per company; one more is 429 `queue_full`.',
    }),
    processing_jobs_per_company: positive,
    processing_jobs_platform: positive,
    retention_days: positive.meta({ description: 'Sources and results are kept this long.' }),
    requests_per_minute_per_key: positive,
  }),
  ocr: z
    .strictObject({
      languages: z
        .array(z.string().regex(/^[a-z]{3}(_[a-z]{2,8})?$/))
        .min(1)
        .meta({ description: 'Tesseract language codes installed on this server.' }),
      default_language: z
        .string()
        .meta({ description: 'The language of a request that names none (the first of `languages`).' }),
      max_languages_per_request: positive.meta({
        description: 'How many languages one request may join with `+` (`eng+deu`).',
      }),
    })
    .meta({
      description:
        'The OCR languages of `ocr-text`, `ocr-docx` and `ocr-pdf` (`options.language`); any other is refused at the estimate with 422 naming `options.language`.',
    }),
});

import type Router from '@koa/router';
import type { z } from 'zod';
import type {
  capabilitiesSchema,
  capabilitySchema,
  priceRuleSchema,
} from '../../domain/validation/capability-records.js';
import { DEFAULT_VIDEO_MAX_PIXEL_FRAMES } from '../../domain/media-work.js';
import { JOB_LIMITS } from '../../domain/jobs.js';
import { OPERATION_RULES, priceRule, type PriceRule } from '../../domain/operations.js';
import { MB, type OperationId } from '../../domain/pricing.js';
import {
  ALL_OPERATIONS,
  AVAILABLE_OPERATIONS,
  DEFAULT_OCR_LANGUAGES,
  MAX_OCR_LANGUAGES,
  type AvailableOperation,
} from '../../domain/validation/processing-request.js';
import { LIMITS as SOURCE_LIMITS } from '../../adapters/media/measure.js';
import type { AppState } from '../http/context.js';
import { OPERATION_DOCS } from '../shared/processing/openapi.schemas.js';
import type { UploadLimits } from './uploads.routes.js';

/**
 * `GET /v1/capabilities`: what this server runs, generated from the tables that validate and price requests, so it
 * cannot say something else than they do:
 * - the operations: every identifier the validator knows (`ALL_OPERATIONS`); `available` when it has an options
 *   schema (`OPTION_SCHEMAS`, the same test as `parseJobRequest`'s "not available yet");
 * - options: the JSON Schema of the OpenAPI document (`OPERATION_DOCS`), which the OpenAPI test proves accepts
 *   exactly what the validator accepts;
 * - source kinds, source counts and output formats: `OPERATION_RULES`, which the validator and the quote read;
 * - the price: `PRICES` through `priceRule`; `test/integration/v1-capabilities.test.ts` checks it against the quote;
 * - the OCR languages: OCR_LANGUAGES, the list the quote accepts an OCR `language` from (services/processing/estimate.ts), the
 *   first being the default.
 */
export interface CapabilitySettings {
  limits: UploadLimits;
  rateLimits: { perKeyPerMinute: number };
  /** VIDEO_MAX_PIXEL_FRAMES; default the domain's. */
  videoMaxPixelFrames?: number;
  /** OCR_LANGUAGES (the first is the default); default DEFAULT_OCR_LANGUAGES, as the quote's. */
  ocrLanguages?: readonly string[];
}

const MEASURE_WORDS = {
  bytes: (n: number) => `${n / MB} MB`,
  pages: (n: number) => (n === 1 ? 'page' : `${n} pages`),
  duration_seconds: (n: number) => (n === 60 ? 'minute' : `${n} s`),
} as const;

/** The rule in words, e.g. "2 credits per started 25 MB or 10 pages (the larger), per source; at least 1 unit". */
function describePrice(rule: PriceRule): string {
  const units = rule.units.map((u) => `started ${MEASURE_WORDS[u.measure](u.per)}`);
  const basis = units.length > 1 ? `${units.join(' or ')} (whichever counts more units)` : units[0]!;
  return `${rule.creditsPerUnit} credits per ${basis}, for each source; every source counts at least ${rule.minimumUnits} unit; the quote is the sum over the sources`;
}

export function priceJson(rule: PriceRule): z.input<typeof priceRuleSchema> {
  return {
    class: rule.priceClass,
    credits_per_unit: rule.creditsPerUnit,
    units: rule.units.map((u) => ({ measure: u.measure, per: u.per })),
    minimum_units: rule.minimumUnits,
    description: describePrice(rule),
  };
}

const isAvailable = (op: OperationId): op is AvailableOperation =>
  (AVAILABLE_OPERATIONS as readonly string[]).includes(op);

function operationJson(op: OperationId): z.input<typeof capabilitySchema> {
  const rule = OPERATION_RULES[op];
  const price = priceJson(priceRule(op));
  if (!isAvailable(op)) {
    return {
      id: op,
      available: false,
      summary: 'Not available yet: answered with 422 until a later release builds it.',
      source_kinds: [...rule.sourceKinds],
      sources: null,
      options: null,
      options_required: false,
      output_formats: null,
      price,
    };
  }
  const doc = OPERATION_DOCS[op];
  return {
    id: op,
    available: true,
    summary: doc.summary,
    source_kinds: [...rule.sourceKinds],
    sources: { ...rule.sources },
    options: doc.options,
    options_required: doc.optionsRequired,
    output_formats: rule.outputFormats ? [...rule.outputFormats] : null,
    price,
  };
}

/** The OCR languages: those an ocr-* `language` may name (up to MAX_OCR_LANGUAGES joined by `+`), the first the default. */
const ocrJson = (languages: readonly string[]) => ({
  languages: [...languages],
  default_language: languages[0]!,
  max_languages_per_request: MAX_OCR_LANGUAGES,
});

export function capabilitiesJson(s: CapabilitySettings): z.input<typeof capabilitiesSchema> {
  return {
    operations: ALL_OPERATIONS.map(operationJson),
    limits: {
      upload_files_per_request: s.limits.maxFilesPerUpload,
      upload_bytes_per_request: s.limits.maxUploadBytes,
      company_source_bytes: s.limits.companyQuotaBytes,
      pdf_pages: SOURCE_LIMITS.pdfPages,
      media_seconds: SOURCE_LIMITS.mediaSeconds,
      text_bytes: SOURCE_LIMITS.textBytes,
      image_pixels: SOURCE_LIMITS.imagePixels,
      video_pixel_frames: s.videoMaxPixelFrames ?? DEFAULT_VIDEO_MAX_PIXEL_FRAMES,
      pending_jobs_per_company: JOB_LIMITS.pendingPerCompany,
      processing_jobs_per_company: JOB_LIMITS.activePerCompany,
      processing_jobs_platform: JOB_LIMITS.activePlatform,
      retention_days: s.limits.retentionDays,
      requests_per_minute_per_key: s.rateLimits.perKeyPerMinute,
    },
    ocr: ocrJson(s.ocrLanguages ?? DEFAULT_OCR_LANGUAGES),
  };
}

/** `GET /v1/capabilities` (read scope): the same answer for every company of this server, built once. */
export function mountCapabilities(router: Router<AppState>, s: CapabilitySettings): void {
  const body = JSON.stringify(capabilitiesJson(s));
  router.get('/capabilities', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = body;
  });
}

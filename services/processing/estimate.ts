import { LIMITS } from '../../domain/accounts.js';
import { bodyIdNotFound } from '../../domain/body-ids.js';
import { DomainError } from '../../domain/errors.js';
import {
  quoteCredits,
  PRICE_CLASS,
  sourceCredits,
  type OperationId,
  type SourceMeasure,
} from '../../domain/pricing.js';
import { OPERATION_RULES, sourceKindsPhrase } from '../../domain/operations.js';
import { parsePageRanges } from '../../domain/validation/page-ranges.js';
import { imageRequestIssues, type ImageRequest } from '../../domain/image-geometry.js';
import { mediaToolIssues } from '../../domain/media-trim.js';
import {
  DEFAULT_VIDEO_MAX_PIXEL_FRAMES,
  VIDEO_OPERATIONS,
  videoWorkIssues,
  type VideoMeasure,
} from '../../domain/media-work.js';
import { displayedImageSize, measureVideoWork } from '../../adapters/media/measure.js';
import { normalizeLanguage } from '../../adapters/providers/transcription/whisper-languages.js';
import { isSpeechOperation } from '../../domain/speech.js';
import {
  layoutWatermark,
  loadWatermarkFonts,
  WatermarkFontsUnavailable,
} from '../../adapters/media/pdf/watermark-fonts.js';
import { DEFAULT_OCR_LANGUAGES, type JobRequest } from '../../domain/validation/processing-request.js';
import {
  encryptedPdfPageCount,
  QpdfTimeout,
  QpdfUnavailable,
  WrongPdfPassword,
  type QpdfOptions,
} from '../../adapters/media/pdf/qpdf.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import { getUpload, type Upload } from '../../db/repositories/uploads.repo.js';
import { findUsableV1Webhook } from '../../db/repositories/v1-events.repo.js';
import { getSavedWorkflow } from '../../db/repositories/saved-workflows.repo.js';
import type { JobExtraction } from '../../domain/extraction.js';

/** qpdf settings from the media config. */
export const qpdfOptions = (media: { qpdfPath: string; qpdfTimeoutMs: number }): QpdfOptions => ({
  qpdfPath: media.qpdfPath,
  timeoutMs: media.qpdfTimeoutMs,
});

/** The bound on a video tool's work (VIDEO_MAX_PIXEL_FRAMES) and the ffprobe that measures older uploads. */
export interface VideoWorkPolicy {
  maxPixelFrames: number;
  ffprobePath?: string;
}

/** The video work policy from the media config. */
export const videoWorkPolicy = (media: { videoMaxPixelFrames: number; ffprobePath: string }): VideoWorkPolicy => ({
  maxPixelFrames: media.videoMaxPixelFrames,
  ffprobePath: media.ffprobePath,
});

export interface QuoteDeps {
  db: Db;
  store: FileStore;
  qpdf: QpdfOptions;
  /** The Tesseract languages installed here (OCR_LANGUAGES); an OCR `language` outside them is refused. Default DEFAULT_OCR_LANGUAGES. */
  ocrLanguages?: readonly string[];
  /** The bound on a video tool's work; default DEFAULT_VIDEO_MAX_PIXEL_FRAMES (the bound always applies). */
  video?: VideoWorkPolicy;
  now?: () => Date;
}

export interface Quote {
  operation: string;
  /** `flow-extract`: what the job reads, the saved workflow resolved (its settings take precedence); null otherwise. */
  extraction: JobExtraction | null;
  credits: number;
  sources: Array<{ upload: Upload; measure: SourceMeasure; credits: number }>;
}

/** The image operations: their requests are checked against the image's geometry. */
const isImageOperation = (op: string) => OPERATION_RULES[op as OperationId].sourceKinds.includes('image');

/**
 * An image request against the source's size as displayed: the crop inside the image, the output within its format's
 * bounds. Uploads measured before sizes were stored have none on their row: their header is read.
 */
async function imageIssues(store: FileStore, req: JobRequest, u: Upload, path: string) {
  const size =
    u.width && u.height ? { width: u.width, height: u.height } : await displayedImageSize(store.pathOf(u.id));
  if (!size) return [{ path, message: `${u.id} could not be opened as an image` }];
  return imageRequestIssues({ operation: req.operation, options: req.options } as ImageRequest, size, u.mimeType, path);
}

/**
 * A video tool's work against the bound (domain/media-work.ts): the size and frames measured at upload, or, for a video
 * uploaded before they were stored, measured from the stored file now.
 */
async function videoIssues(deps: QuoteDeps, req: JobRequest, u: Upload, path: string) {
  let video: VideoMeasure | null = null;
  if (u.width && u.height && u.videoFrames)
    video = { width: u.width, height: u.height, frames: u.videoFrames, durationSeconds: u.durationSeconds ?? 0 };
  else
    video = await measureVideoWork(
      deps.store.pathOf(u.id),
      u.durationSeconds ?? 0,
      deps.video?.ffprobePath ? { ffprobePath: deps.video.ffprobePath } : {},
    );
  return videoWorkIssues(
    req.operation,
    req.options,
    video,
    deps.video?.maxPixelFrames ?? DEFAULT_VIDEO_MAX_PIXEL_FRAMES,
    path,
  );
}

/** `pdf-watermark`: every character must be drawable by a shipped font (else the job would fail after quoting). */
async function watermarkTextIssues(text: string): Promise<Array<{ path: string; message: string }>> {
  let fonts;
  try {
    fonts = await loadWatermarkFonts();
  } catch (e) {
    if (e instanceof WatermarkFontsUnavailable)
      throw new DomainError('service_unavailable', 'Watermarking is temporarily unavailable; retry later');
    throw e;
  }
  const layout = layoutWatermark(text, fonts);
  return layout.ok ? [] : [{ path: 'options.text', message: layout.problem }];
}

/** OCR: every language of `eng+deu` must be installed here (else the job would fail after quoting). */
function ocrLanguageIssues(language: string, installed: readonly string[]): Array<{ path: string; message: string }> {
  const missing = language.split('+').filter((l) => !installed.includes(l));
  if (missing.length === 0) return [];
  return [
    {
      path: 'options.language',
      message: `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed on this server; installed: ${installed.join(', ')}`,
    },
  ];
}

/**
 * `flow-extract`'s fields and instructions: the saved workflow's when the request names one (404 naming `workflow_id`
 * when the company has no such workflow, or it was deleted), else the body's.
 */
async function resolveExtraction(
  deps: QuoteDeps,
  companyId: string,
  spec: JobRequest['extraction'],
): Promise<JobExtraction | null> {
  if (!spec) return null;
  if (spec.workflowId !== undefined) {
    const w = await getSavedWorkflow(deps.db, companyId, spec.workflowId);
    if (!w) throw bodyIdNotFound('workflow_id', 'no saved workflow with this id in your company');
    return { fields: w.fields, instructions: w.instructions, workflow_id: w.id, workflow_revision: w.revision };
  }
  return {
    fields: spec.fields ?? [],
    instructions: spec.instructions ?? null,
    workflow_id: null,
    workflow_revision: null,
  };
}

/** How a quote resolves a request's extraction (ExtractionResolver: once per batch). */
export type ExtractionResolver = (spec: JobRequest['extraction']) => Promise<JobExtraction | null>;

/**
 * A resolver that looks each extraction up once: the children of a batch share their request's extraction, so the
 * saved workflow is read once and every child gets the same revision, even if the workflow is edited meanwhile.
 */
export function extractionResolver(deps: QuoteDeps, companyId: string): ExtractionResolver {
  const seen = new Map<NonNullable<JobRequest['extraction']>, Promise<JobExtraction | null>>();
  return (spec) => {
    if (!spec) return Promise.resolve(null);
    let resolved = seen.get(spec);
    if (!resolved) {
      resolved = resolveExtraction(deps, companyId, spec);
      seen.set(spec, resolved);
    }
    return resolved;
  };
}

/** 410 for a source past its retention (or whose bytes retention purged). */
export const sourceGone = (id: string): DomainError =>
  new DomainError('gone', `Upload ${id} has expired (sources are kept ${LIMITS.retentionDays} days)`);

/**
 * Prices a validated request on what the server measured: the sources must exist in the caller's company
 * and fit the operation; page selections are checked against the real page count; `pdf-unlock` opens the PDF
 * with the password to count its pages; a quote above `max_credits` is refused (409 `max_credits_exceeded`, with the quote).
 */
export async function quoteRequest(
  deps: QuoteDeps,
  companyId: string,
  req: JobRequest,
  /** The body path of source i: `upload_ids.<i>` for a job; a batch child names its place in the batch body. */
  sourcePath: (i: number) => string = (i) => `upload_ids.${i}`,
  /** How the extraction is resolved (a batch passes one resolver to all its children). */
  resolve: ExtractionResolver = (spec) => resolveExtraction(deps, companyId, spec),
): Promise<Quote> {
  const now = (deps.now ?? (() => new Date()))();
  const uploads: Upload[] = [];
  for (const [i, id] of req.uploadIds.entries()) {
    const upload = await getUpload(deps.db, companyId, id);
    if (!upload) throw bodyIdNotFound(sourcePath(i), 'no upload with this id in your company');
    if (upload.purgedAt || upload.expiresAt.getTime() <= now.getTime()) throw sourceGone(id);
    uploads.push(upload);
  }
  // The ids of the body in body order (docs/platform.md, "Ids"): `workflow_id`, then `webhook_id`, after `upload_ids`.
  const extraction = await resolve(req.extraction);
  if (req.webhookId !== undefined && !(await findUsableV1Webhook(deps.db, companyId, req.webhookId))) {
    throw bodyIdNotFound('webhook_id', 'no enabled webhook with this id in your company');
  }
  const issues: Array<{ path: string; message: string }> = [];
  const measures: SourceMeasure[] = [];
  for (const [i, u] of uploads.entries()) {
    const path = sourcePath(i);
    const kinds = OPERATION_RULES[req.operation].sourceKinds;
    if (!kinds.includes(u.kind))
      issues.push({ path, message: `${req.operation} needs ${sourceKindsPhrase(kinds)}; ${u.id} is ${u.kind}` });
    let pages = u.pages;
    if (u.kind === 'pdf' && req.operation === 'pdf-unlock') {
      if (!u.encrypted) issues.push({ path, message: `${u.id} is not encrypted; there is nothing to unlock` });
      else {
        try {
          pages = await encryptedPdfPageCount(deps.store.pathOf(u.id), String(req.options['password']), deps.qpdf);
        } catch (e) {
          if (e instanceof QpdfUnavailable)
            throw new DomainError('service_unavailable', 'PDF processing is temporarily unavailable; retry shortly');
          if (e instanceof QpdfTimeout) throw new DomainError('timeout', 'Opening this PDF took too long; retry later');
          if (e instanceof WrongPdfPassword)
            issues.push({ path: 'options.password', message: 'the password does not open this PDF' });
          else issues.push({ path, message: `${u.id} could not be opened as a PDF` });
        }
      }
    } else if (u.kind === 'pdf' && u.encrypted) {
      issues.push({ path, message: `${u.id} is encrypted; unlock it first with pdf-unlock` });
    }
    const spec = req.options['pages'];
    if (typeof spec === 'string' && u.kind === 'pdf' && !u.encrypted) {
      const emptyMeansAll = req.operation !== 'pdf-extract' && req.operation !== 'pdf-delete';
      try {
        const selected = parsePageRanges(spec, pages, { emptyMeansAll });
        if (req.operation === 'pdf-delete' && selected.length === pages)
          issues.push({ path: 'options.pages', message: 'pdf-delete cannot delete every page' });
      } catch (e) {
        issues.push({ path: 'options.pages', message: e instanceof DomainError ? e.message : 'invalid pages' });
      }
    }
    if (isImageOperation(req.operation) && u.kind === 'image')
      issues.push(...(await imageIssues(deps.store, req, u, path)));
    if (PRICE_CLASS[req.operation] === 'media' && kinds.includes(u.kind))
      issues.push(...mediaToolIssues(req.operation, req.options, u.durationSeconds, path));
    if ((VIDEO_OPERATIONS as readonly string[]).includes(req.operation) && u.kind === 'video' && issues.length === 0)
      issues.push(...(await videoIssues(deps, req, u, path)));
    measures.push({ bytes: u.bytes, pages, durationSeconds: u.durationSeconds });
  }
  if (req.operation === 'pdf-watermark') issues.push(...(await watermarkTextIssues(String(req.options['text']))));
  if (typeof req.options['language'] === 'string' && req.operation.startsWith('ocr-'))
    issues.push(...ocrLanguageIssues(req.options['language'], deps.ocrLanguages ?? DEFAULT_OCR_LANGUAGES));
  if (
    typeof req.options['language'] === 'string' &&
    isSpeechOperation(req.operation) &&
    normalizeLanguage(req.options['language']) !== req.options['language']
  ) {
    issues.push({
      path: 'options.language',
      message: `${req.options['language']} is not a language the speech engine knows; send an ISO 639-1 code such as en, de or ja, or leave it out to detect the language`,
    });
  }
  if (issues.length) {
    throw new DomainError(
      'validation_failed',
      `Invalid request: ${issues.map((x) => `${x.path}: ${x.message}`).join('; ')}`,
      { issues },
    );
  }
  const credits = quoteCredits(req.operation, measures);
  if (req.maxCredits !== undefined && credits > req.maxCredits) {
    throw new DomainError(
      'max_credits_exceeded',
      `The quote of ${credits} credits exceeds max_credits (${req.maxCredits}); send max_credits of at least ${credits} to accept it`,
      { fields: { estimated_credits: credits, max_credits: req.maxCredits } },
    );
  }
  const cls = PRICE_CLASS[req.operation];
  return {
    operation: req.operation,
    extraction,
    credits,
    sources: uploads.map((upload, i) => ({ upload, measure: measures[i]!, credits: sourceCredits(cls, measures[i]!) })),
  };
}

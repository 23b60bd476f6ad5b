import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { parsePageRanges } from '../../domain/validation/page-ranges.js';
import {
  engineDetail,
  InvalidSourceError,
  ProviderUnavailableError,
  WorkTimeoutError,
} from '../providers/provider-errors.js';
import {
  compressImage,
  CropOutsideImage,
  editImage,
  toWebp,
  type ImageEdit,
  type ImageFormat,
} from './image/image-operations.js';
import {
  deletePages,
  extractPages,
  mergePdfs,
  numberPages,
  rotatePages,
  UndrawableText,
  watermarkPages,
} from './pdf/pdf-operations.js';
import { WatermarkFontsUnavailable } from './pdf/watermark-fonts.js';
import { protectPdf, QpdfTimeout, QpdfUnavailable, unlockPdf, WrongPdfPassword, type QpdfOptions } from './pdf/qpdf.js';
import { createOcrEngine, type OcrEngineOptions } from './ocr/ocr-engine.js';
import { createOcrRunners, type OcrRunnerOptions } from './ocr/ocr-runners.js';
import { createExtractionRunner } from '../extraction/extraction-runner.js';
import { OfflineExtractionEngine } from '../extraction/offline-engine.js';
import type { ExtractionProvider } from '../extraction/extraction-provider.js';
import { runAvOperation, UnsuitableMedia, type AvOperation } from './av/av-operations.js';
import {
  DEFAULT_FFMPEG_TIMEOUT_MS,
  MediaToolFailed,
  MediaToolTimeout,
  MediaToolUnavailable,
  type MediaToolOptions,
} from './av/media-process.js';
import type { RunnerSource, OperationRunner, OperationRunners } from './runner-contract.js';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  txt: 'text/plain; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  srt: 'application/x-subrip; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
  vtt: 'text/vtt; charset=utf-8',
  json: 'application/json',
};

/**
 * Library errors on user-supplied bytes are failures of the source, not of the platform: the client is told `what`
 * could not be read, in these words; the library's own text is the error's `detail`, for the log only.
 */
async function onSource<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof InvalidSourceError) throw e;
    if (e instanceof QpdfUnavailable) throw new ProviderUnavailableError(e.message);
    if (e instanceof QpdfTimeout) throw e; // retried, then the job fails as processing_error
    // A deployment fault (fonts not installed): retried, then processing_error; never blamed on the source.
    if (e instanceof WatermarkFontsUnavailable) throw e;
    if (e instanceof UndrawableText) throw new InvalidSourceError(`options.text: ${e.problem}`);
    if (e instanceof WrongPdfPassword) throw new InvalidSourceError('the password does not open this PDF');
    if (e instanceof CropOutsideImage) throw new InvalidSourceError(e.message);
    // System errors (disk full, too many open files…) are the platform's: let them be retried.
    if (e && typeof e === 'object' && 'syscall' in e) throw e;
    throw new InvalidSourceError(
      `${what} could not be processed: it is damaged or in a form this operation does not support`,
      { detail: engineDetail(e) },
    );
  }
}

const only = (sources: RunnerSource[]): RunnerSource => {
  if (sources.length !== 1) throw new InvalidSourceError('this operation takes exactly one source');
  return sources[0]!;
};

/** The PDF page operations: load, select pages against the real page count, transform. */
function pdfPages(
  emptyMeansAll: boolean,
  transform: (bytes: Uint8Array, pages: number[], options: Record<string, unknown>) => Promise<Uint8Array>,
): OperationRunner {
  return async ({ sources, options }) => {
    const source = only(sources);
    const bytes = await readFile(source.path);
    return onSource('the PDF', async () => {
      const pageCount = (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
      const spec = typeof options['pages'] === 'string' ? options['pages'] : '';
      let pages: number[];
      try {
        pages = parsePageRanges(spec, pageCount, { emptyMeansAll });
      } catch (e) {
        throw new InvalidSourceError(e instanceof Error ? e.message : 'invalid pages');
      }
      return [{ data: await transform(bytes, pages, options), format: 'pdf' }];
    });
  };
}

function qpdfRunner(run: (input: string, output: string, password: string) => Promise<void>): OperationRunner {
  return async ({ sources, options, workDir }) => {
    const source = only(sources);
    const output = join(workDir, 'out.pdf');
    await onSource('the PDF', () => run(source.path, output, String(options['password'] ?? '')));
    return [{ data: await readFile(output), format: 'pdf' }];
  };
}

function imageRunner(
  transform: (bytes: Buffer, options: Record<string, unknown>) => Promise<{ data: Buffer; format: ImageFormat }>,
): OperationRunner {
  return async ({ sources, options }) => {
    const bytes = await readFile(only(sources).path);
    const out = await onSource('the image', () => transform(bytes, options));
    return [{ data: out.data, format: out.format }];
  };
}

/**
 * An audio or video tool on ffmpeg. Progress (seconds encoded of the output's length) is reported as the
 * heartbeat; a retry starts the encode over (no checkpoint: one ffmpeg run has no resumable state).
 */
function avRunner(operation: AvOperation, tools: MediaToolOptions): OperationRunner {
  return async ({ sources, options, workDir, progress, signal }) => {
    const source = only(sources);
    try {
      const out = await runAvOperation(
        {
          operation,
          path: source.path,
          options,
          workDir,
          signal,
          onProgress:
            progress &&
            ((p) =>
              progress({
                fraction: p.totalSeconds > 0 ? p.doneSeconds / p.totalSeconds : 0,
                detail: `${p.doneSeconds.toFixed(1)} s of ${p.totalSeconds.toFixed(1)} s`,
              })),
        },
        tools,
      );
      return [out];
    } catch (e) {
      if (e instanceof UnsuitableMedia) throw new InvalidSourceError(e.message);
      if (e instanceof MediaToolUnavailable) throw new ProviderUnavailableError(e.message);
      // The encode ran past FFMPEG_TIMEOUT_MS: the source's size, which the quote bounds (VIDEO_MAX_PIXEL_FRAMES), is
      // what it ran out of. Not retried: each attempt would hold a processing slot for the whole limit again.
      if (e instanceof MediaToolTimeout) throw new WorkTimeoutError(tools.timeoutMs ?? DEFAULT_FFMPEG_TIMEOUT_MS);
      // ffmpeg refused the file's content (a damaged stream): the source's fault, told in these words (ffmpeg's last log
      // line is logged only: it may name the stored file's path). Aborts (a lost heartbeat, a shutdown) are retried.
      if (e instanceof MediaToolFailed) {
        throw new InvalidSourceError(
          'the media could not be processed: a stream is damaged or in a codec this service cannot decode',
          { detail: e.detail },
        );
      }
      throw e;
    }
  };
}

/**
 * The file operations of this release: PDF and image tools on pdf-lib, qpdf and sharp; OCR (adapters/media/ocr) on
 * Tesseract and ocrmypdf; the audio and video tools on ffmpeg.
 */
export function createFileOperationRunners(
  qpdf: QpdfOptions = {},
  ocr: OcrEngineOptions & OcrRunnerOptions = {},
  media: MediaToolOptions = {},
  extraction: { provider?: ExtractionProvider } = {},
): OperationRunners {
  const ocrEngine = createOcrEngine({ ...(qpdf.qpdfPath ? { qpdfPath: qpdf.qpdfPath } : {}), ...ocr });
  return {
    ...createOcrRunners(ocrEngine, ocr),
    // Field extraction reads scanned pages with the same OCR engine (and its page bound); the offline engine by default.
    'flow-extract': createExtractionRunner(ocrEngine, {
      provider: extraction.provider ?? new OfflineExtractionEngine(),
      ...(ocr.defaultLanguage ? { language: ocr.defaultLanguage } : {}),
    }),
    'pdf-extract': pdfPages(false, (b, pages) => extractPages(b, pages)),
    'pdf-delete': pdfPages(false, async (b, pages) => {
      const doc = await PDFDocument.load(b, { updateMetadata: false });
      if (pages.length >= doc.getPageCount()) throw new InvalidSourceError('pdf-delete cannot delete every page');
      return deletePages(b, pages);
    }),
    'pdf-rotate': pdfPages(true, (b, pages, o) => rotatePages(b, pages, o['angle'] as 90 | 180 | 270)),
    'pdf-watermark': pdfPages(true, (b, pages, o) => watermarkPages(b, pages, String(o['text']))),
    'pdf-number': pdfPages(true, (b, pages, o) =>
      numberPages(b, pages, typeof o['start'] === 'number' ? o['start'] : 1),
    ),
    'pdf-protect': qpdfRunner((i, o, pw) => protectPdf(i, o, pw, qpdf)),
    'pdf-unlock': qpdfRunner((i, o, pw) => unlockPdf(i, o, pw, qpdf)),
    'pdf-merge': async ({ sources }) => {
      if (sources.length < 2 || sources.length > 20) throw new InvalidSourceError('pdf-merge takes 2 to 20 PDFs');
      const inputs = await Promise.all(sources.map((s) => readFile(s.path)));
      return [{ data: await onSource('a PDF', () => mergePdfs(inputs)), format: 'pdf' }];
    },
    'image-edit': imageRunner((b, o) => editImage(b, o as ImageEdit)),
    'image-compress': imageRunner((b, o) =>
      compressImage(b, o as { format?: ImageFormat; level?: 'balanced' | 'strong' }),
    ),
    webp: imageRunner((b) => toWebp(b)),
    'audio-trim': avRunner('audio-trim', media),
    'audio-compress': avRunner('audio-compress', media),
    'video-trim': avRunner('video-trim', media),
    'video-rotate': avRunner('video-rotate', media),
    'video-resize': avRunner('video-resize', media),
    'video-compress': avRunner('video-compress', media),
  };
}

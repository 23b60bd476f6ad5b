/**
 * Credit prices of the processing interface (spec section 8), computed from server-measured bytes, pages and
 * duration. The quote is the sum over a job's sources. Units: 1 MB = 1,000,000 bytes; a "started" unit rounds
 * up; every source costs at least one unit, so no job is free.
 */
export type PriceClass = 'file' | 'ocr_text' | 'ocr_document' | 'extraction' | 'transcribe' | 'meeting' | 'media';

export const FILE_OPERATIONS = [
  'pdf-extract',
  'pdf-delete',
  'pdf-rotate',
  'pdf-protect',
  'pdf-unlock',
  'pdf-watermark',
  'pdf-number',
  'pdf-merge',
  'image-edit',
  'image-compress',
  'webp',
] as const;
export const MEDIA_OPERATIONS = [
  'audio-trim',
  'video-trim',
  'video-rotate',
  'video-resize',
  'audio-compress',
  'video-compress',
] as const;

/** Longest source the audio and video file tools take (spec section 8: file-tool media 2 hours). */
export const MEDIA_TOOL_MAX_SECONDS = 2 * 3600;
/** Shortest part a trim keeps, in seconds. */
export const MIN_TRIM_SECONDS = 0.1;
/** Heights `video-resize` scales to (the width follows the aspect ratio, even). */
export const VIDEO_HEIGHTS = [240, 360, 480, 720, 1080, 1440, 2160] as const;

export type FileOperation = (typeof FILE_OPERATIONS)[number];
export type MediaOperation = (typeof MEDIA_OPERATIONS)[number];
export type OperationId =
  FileOperation | MediaOperation | 'ocr-text' | 'ocr-docx' | 'ocr-pdf' | 'flow-extract' | 'transcribe' | 'meeting';

export const PRICE_CLASS: Readonly<Record<OperationId, PriceClass>> = {
  ...(Object.fromEntries(FILE_OPERATIONS.map((o) => [o, 'file'])) as Record<FileOperation, 'file'>),
  ...(Object.fromEntries(MEDIA_OPERATIONS.map((o) => [o, 'media'])) as Record<MediaOperation, 'media'>),
  'ocr-text': 'ocr_text',
  'ocr-docx': 'ocr_document',
  'ocr-pdf': 'ocr_document',
  'flow-extract': 'extraction',
  transcribe: 'transcribe',
  meeting: 'meeting',
};

export const MB = 1_000_000;
export const TEXT_PAGE_BYTES = 4_000;

/** The price table: credits per unit, and the unit. */
export const PRICES = {
  file: { credits: 2, perBytes: 25 * MB, perPages: 10 },
  ocr_text: { credits: 3, perPage: 1 },
  ocr_document: { credits: 10, perPage: 1 },
  extraction: { credits: 25, perPage: 1 },
  transcribe: { credits: 8, perSeconds: 60 },
  meeting: { credits: 15, perSeconds: 60 },
  media: { credits: 4, perSeconds: 60 },
} as const;

/** What the server measured of one source. */
export interface SourceMeasure {
  bytes: number;
  /** PDF pages (0 for an encrypted PDF), 1 for an image, one per started 4,000 bytes of text, 0 for media. */
  pages: number;
  /** Media duration in seconds; null for documents and images. */
  durationSeconds: number | null;
}

const started = (amount: number, per: number) => Math.ceil(amount / per);

/** Pages of a UTF-8 text source: one per started 4,000 bytes (at least one). */
export function textPages(bytes: number): number {
  return Math.max(1, started(bytes, TEXT_PAGE_BYTES));
}

/** How far before a 4,000-byte mark a text page may end to end at a break rather than inside a line or word. */
export const TEXT_PAGE_SLACK = 500;

/**
 * Where each page of a UTF-8 text source starts (byte offsets; the first is 0): exactly `textPages(bytes.length)`
 * pages, the pages the source is quoted and charged for, so reading, billing and every report count the same pages.
 * Page k (from 1) ends near byte 4,000 × k: at the last form feed, else line break, else space or tab within
 * TEXT_PAGE_SLACK bytes before the mark (the break stays on the earlier page), else at the mark itself, moved back to
 * the start of the character it would split. Every page is non-empty: each end lies after the previous one (the slack
 * is under 4,000) and the last begins before the end of the text.
 */
export function textPageStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let k = 1; k < textPages(bytes.length); k++) {
    const mark = k * TEXT_PAGE_BYTES;
    const breakAfter = (isBreak: (b: number) => boolean): number | null => {
      for (let i = mark - 1; i >= mark - TEXT_PAGE_SLACK; i--) if (isBreak(bytes[i]!)) return i + 1;
      return null;
    };
    let cut =
      breakAfter((b) => b === 0x0c) ??
      breakAfter((b) => b === 0x0a) ??
      breakAfter((b) => b === 0x20 || b === 0x09) ??
      mark;
    while ((bytes[cut]! & 0xc0) === 0x80) cut--; // a UTF-8 continuation byte: back to its character's first byte
    starts.push(cut);
  }
  return starts;
}

/** Credits for one source under a price class. */
export function sourceCredits(cls: PriceClass, m: SourceMeasure): number {
  switch (cls) {
    case 'file': {
      const p = PRICES.file;
      // "per started 25 MB or 10 pages, larger basis per source"
      const units = Math.max(1, started(m.bytes, p.perBytes), started(m.pages, p.perPages));
      return p.credits * units;
    }
    case 'ocr_text':
    case 'ocr_document':
    case 'extraction':
      return PRICES[cls].credits * Math.max(1, m.pages);
    case 'transcribe':
    case 'meeting':
    case 'media':
      return PRICES[cls].credits * Math.max(1, started(m.durationSeconds ?? 0, PRICES[cls].perSeconds));
  }
}

/** The quote of a job: the sum of its sources' credits. */
export function quoteCredits(operation: OperationId, sources: readonly SourceMeasure[]): number {
  const cls = PRICE_CLASS[operation];
  return sources.reduce((sum, m) => sum + sourceCredits(cls, m), 0);
}

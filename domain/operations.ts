import { PRICE_CLASS, PRICES, type OperationId, type PriceClass } from './pricing.js';

/**
 * What each operation takes and gives: the kinds of source it accepts, how many sources, and its output formats.
 * One table, read by the request validator (source count), the quote (source kinds), the OpenAPI document and the
 * capabilities endpoint, so none of them can say something else. Operations not built yet carry what the spec says
 * of them; they are refused with 422 "not available yet" before these rules apply.
 */
export type SourceKind = 'pdf' | 'image' | 'text' | 'audio' | 'video';

export interface OperationRule {
  sourceKinds: readonly SourceKind[];
  sources: { min: number; max: number };
  /** File extensions of the results; null where this service has not decided them yet (unavailable operations). */
  outputFormats: readonly string[] | null;
}

const IMAGE_OUTPUTS = ['jpg', 'png', 'webp'] as const;
const pdfTool: OperationRule = { sourceKinds: ['pdf'], sources: { min: 1, max: 1 }, outputFormats: ['pdf'] };
const one = (kinds: readonly SourceKind[], outputFormats: readonly string[] | null): OperationRule => ({
  sourceKinds: kinds,
  sources: { min: 1, max: 1 },
  outputFormats,
});

export const OPERATION_RULES: Readonly<Record<OperationId, OperationRule>> = {
  'pdf-extract': pdfTool,
  'pdf-delete': pdfTool,
  'pdf-rotate': pdfTool,
  'pdf-protect': pdfTool,
  'pdf-unlock': pdfTool,
  'pdf-watermark': pdfTool,
  'pdf-number': pdfTool,
  'pdf-merge': { sourceKinds: ['pdf'], sources: { min: 2, max: 20 }, outputFormats: ['pdf'] },
  // The output is `format`, else the source's format when it is PNG or WebP, else JPEG.
  'image-edit': one(['image'], IMAGE_OUTPUTS),
  'image-compress': one(['image'], IMAGE_OUTPUTS),
  webp: one(['image'], ['webp']),
  // A trim keeps the source's format when it is MP3, WAV, FLAC or Ogg, else AAC in M4A; compressing gives M4A.
  'audio-trim': one(['audio'], ['mp3', 'wav', 'flac', 'ogg', 'm4a']),
  'audio-compress': one(['audio'], ['m4a']),
  // Video tools give H.264 + AAC in MP4.
  'video-trim': one(['video'], ['mp4']),
  'video-rotate': one(['video'], ['mp4']),
  'video-resize': one(['video'], ['mp4']),
  'video-compress': one(['video'], ['mp4']),
  'ocr-text': one(['pdf', 'image'], ['txt']),
  'ocr-docx': one(['pdf', 'image'], ['docx']),
  'ocr-pdf': one(['pdf', 'image'], ['pdf']),
  // One row per document: XLSX, the CSV files in one ZIP, and JSON (all three are results of one job).
  'flow-extract': {
    sourceKinds: ['pdf', 'image', 'text'],
    sources: { min: 1, max: 20 },
    outputFormats: ['xlsx', 'zip', 'json'],
  },
  transcribe: one(['audio', 'video'], ['txt', 'docx', 'srt', 'vtt', 'json']),
  // The meeting document as DOCX and as JSON (both are results of one job).
  meeting: one(['audio', 'video'], ['docx', 'json']),
};

const ARTICLE: Readonly<Record<SourceKind, string>> = {
  pdf: 'a PDF',
  image: 'an image',
  text: 'a text',
  audio: 'an audio file',
  video: 'a video',
};

/** `needs a PDF`, `needs audio or video`…: the phrase of a source-kind refusal. */
export function sourceKindsPhrase(kinds: readonly SourceKind[]): string {
  return kinds.map((k) => ARTICLE[k]).join(' or ');
}

/** A measure of a source a price counts in, and how many of it make one unit. */
export interface PriceUnit {
  measure: 'bytes' | 'pages' | 'duration_seconds';
  per: number;
}

/**
 * A price class as data: each source costs `creditsPerUnit` × the largest number of started units over `units`
 * (at least `minimumUnits`); a job's quote is the sum over its sources. Read from PRICES, the table the quote uses.
 */
export interface PriceRule {
  priceClass: PriceClass;
  creditsPerUnit: number;
  units: PriceUnit[];
  minimumUnits: 1;
}

export function priceRule(operation: OperationId): PriceRule {
  const cls = PRICE_CLASS[operation];
  const p: Readonly<Record<string, number>> = PRICES[cls];
  const units: PriceUnit[] = [];
  if (p['perBytes'] !== undefined) units.push({ measure: 'bytes', per: p['perBytes'] });
  const perPages = p['perPages'] ?? p['perPage'];
  if (perPages !== undefined) units.push({ measure: 'pages', per: perPages });
  if (p['perSeconds'] !== undefined) units.push({ measure: 'duration_seconds', per: p['perSeconds'] });
  return { priceClass: cls, creditsPerUnit: PRICES[cls].credits, units, minimumUnits: 1 };
}

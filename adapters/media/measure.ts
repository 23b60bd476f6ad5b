import { open, readFile } from 'node:fs/promises';
import ffmpeg from 'fluent-ffmpeg';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { textPages } from '../../domain/pricing.js';

/** What the server measured of an uploaded file; prices and limits use these numbers, never the client's. */
export interface MeasuredSource {
  kind: 'pdf' | 'image' | 'text' | 'audio' | 'video';
  mimeType: string;
  bytes: number;
  /** PDF pages (0 when encrypted), 1 for an image, one per started 4,000 bytes of text, 0 for media. */
  pages: number;
  durationSeconds: number | null;
  encrypted: boolean;
}

/** The file is not something the service can read (422); `reason` is safe to show. */
export class UnreadableSource extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnreadableSource';
  }
}

export const LIMITS = {
  pdfPages: 100,
  /** Longest media any operation accepts (transcribe and meeting: 10 hours). */
  mediaSeconds: 10 * 3600,
  /** Text sources are read whole to check UTF-8; larger text files are refused. */
  textBytes: 20_000_000,
};

const IMAGE_MIME: Record<string, string> = {
  jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', tiff: 'image/tiff', avif: 'image/avif', heif: 'image/heif',
};

async function head(path: string, n: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

async function measurePdf(path: string, bytes: number): Promise<MeasuredSource> {
  let encrypted: boolean;
  let pages: number;
  try {
    // A damaged PDF may load and only fail when its page tree is read: both are inside the guard.
    const doc = await PDFDocument.load(await readFile(path), { ignoreEncryption: true, updateMetadata: false });
    encrypted = doc.isEncrypted;
    pages = encrypted ? 0 : doc.getPageCount();
  } catch {
    throw new UnreadableSource('the PDF cannot be read');
  }
  if (!encrypted && pages === 0) throw new UnreadableSource('the PDF has no pages');
  if (pages > LIMITS.pdfPages) throw new UnreadableSource(`the PDF has ${pages} pages; at most ${LIMITS.pdfPages} are accepted`);
  return { kind: 'pdf', mimeType: 'application/pdf', bytes, pages, durationSeconds: null, encrypted };
}

async function measureImage(path: string, bytes: number): Promise<MeasuredSource | null> {
  try {
    const meta = await sharp(path, { failOn: 'error' }).metadata();
    const mimeType = meta.format ? IMAGE_MIME[meta.format] : undefined;
    if (!mimeType || !meta.width || !meta.height) return null;
    return { kind: 'image', mimeType, bytes, pages: 1, durationSeconds: null, encrypted: false };
  } catch {
    return null;
  }
}

async function measureText(path: string, bytes: number): Promise<MeasuredSource | null> {
  if (bytes > LIMITS.textBytes) return null;
  const buf = await readFile(path);
  if (buf.includes(0)) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return null;
  }
  return { kind: 'text', mimeType: 'text/plain; charset=utf-8', bytes, pages: textPages(bytes), durationSeconds: null, encrypted: false };
}

function probe(path: string, ffprobePath: string | undefined): Promise<ffmpeg.FfprobeData | null> {
  return new Promise((resolve) => {
    const cmd = ffmpeg(path);
    if (ffprobePath) cmd.setFfprobePath(ffprobePath);
    cmd.ffprobe((err, data) => resolve(err ? null : data));
  });
}

async function measureMedia(path: string, bytes: number, ffprobePath: string | undefined): Promise<MeasuredSource | null> {
  const data = await probe(path, ffprobePath);
  if (!data) return null;
  const streams = data.streams ?? [];
  const video = streams.some((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = streams.some((s) => s.codec_type === 'audio');
  const duration = Number(data.format?.duration);
  if ((!video && !audio) || !Number.isFinite(duration) || duration <= 0) return null;
  if (duration > LIMITS.mediaSeconds) throw new UnreadableSource('the media is longer than 10 hours');
  const format = String(data.format?.format_name ?? '').split(',')[0] ?? '';
  return {
    kind: video ? 'video' : 'audio',
    mimeType: `${video ? 'video' : 'audio'}/${format || 'octet-stream'}`,
    bytes,
    pages: 0,
    durationSeconds: Math.round(duration * 1000) / 1000,
    encrypted: false,
  };
}

/**
 * Identifies and measures an uploaded file by its content (never by its name or declared type): PDF, image,
 * UTF-8 text, or audio/video (ffprobe). Anything else is unreadable.
 */
export async function measureSource(path: string, bytes: number, opts: { ffprobePath?: string } = {}): Promise<MeasuredSource> {
  if (bytes === 0) throw new UnreadableSource('the file is empty');
  const start = await head(path, 1024);
  if (start.includes(Buffer.from('%PDF-'))) return measurePdf(path, bytes);
  const measured = (await measureImage(path, bytes)) ?? (await measureText(path, bytes)) ?? (await measureMedia(path, bytes, opts.ffprobePath));
  if (!measured) throw new UnreadableSource('the file is not a readable PDF, image, UTF-8 text, audio or video');
  return measured;
}

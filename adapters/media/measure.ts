import { open, readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import sharp, { type Metadata } from 'sharp';
import type { VideoMeasure } from '../../domain/media-work.js';
import { textPages } from '../../domain/pricing.js';
import {
  isMovingVideo,
  mediaDuration,
  probeMedia,
  videoFrameCount,
  type ProbeData,
  type ProbeStream,
} from './av/media-probe.js';
import {
  isAcceptedContainer,
  MediaToolTimeout,
  MediaToolUnavailable,
  type MediaToolOptions,
} from './av/media-process.js';

/** What the server measured of an uploaded file; prices and limits use these numbers, never the client's. */
export interface MeasuredSource {
  kind: 'pdf' | 'image' | 'text' | 'audio' | 'video';
  mimeType: string;
  bytes: number;
  /** PDF pages (0 when encrypted), 1 for an image, one per started 4,000 bytes of text, 0 for media. */
  pages: number;
  durationSeconds: number | null;
  encrypted: boolean;
  /**
   * Images: pixels as displayed (after the EXIF orientation); videos: the first moving video stream's, as displayed
   * (after its rotation flag); null for other kinds.
   */
  width: number | null;
  height: number | null;
  /** Videos: the frames of that stream (its packets, counted); null for other kinds. */
  videoFrames: number | null;
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
  /** The image engine's (sharp's) default bound on input pixels; a larger image could be quoted but never opened. */
  imagePixels: 0x3fff * 0x3fff,
};

const IMAGE_MIME: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  tiff: 'image/tiff',
  avif: 'image/avif',
  heif: 'image/heif',
};

/** sharp reports AVIF and HEIC as `heif`; the compression tells them apart (both types are registered). */
function imageMime(format: string | undefined, compression: string | undefined): string | undefined {
  if (format === 'heif')
    return compression === 'av1' ? 'image/avif' : compression === 'hevc' ? 'image/heic' : 'image/heif';
  return format ? IMAGE_MIME[format] : undefined;
}

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
  if (pages > LIMITS.pdfPages)
    throw new UnreadableSource(`the PDF has ${pages} pages; at most ${LIMITS.pdfPages} are accepted`);
  return {
    kind: 'pdf',
    mimeType: 'application/pdf',
    bytes,
    pages,
    durationSeconds: null,
    encrypted,
    width: null,
    height: null,
    videoFrames: null,
  };
}

async function measureImage(path: string, bytes: number): Promise<MeasuredSource | null> {
  let meta: Metadata;
  try {
    // The pixel bound is checked below, so an oversized image is named as such rather than as unreadable.
    meta = await sharp(path, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    return null;
  }
  const mimeType = imageMime(meta.format, meta.compression);
  if (!mimeType || !meta.width || !meta.height) return null;
  if (meta.width * meta.height > LIMITS.imagePixels) {
    throw new UnreadableSource(
      `the image has ${meta.width}x${meta.height} pixels; at most ${LIMITS.imagePixels.toLocaleString('en-US')} pixels are accepted`,
    );
  }
  // As displayed: an EXIF orientation of 5 to 8 swaps width and height (crops are taken in these coordinates).
  const { width, height } = meta.autoOrient ?? { width: meta.width, height: meta.height };
  return {
    kind: 'image',
    mimeType,
    bytes,
    pages: 1,
    durationSeconds: null,
    encrypted: false,
    width,
    height,
    videoFrames: null,
  };
}

/** Whether bytes are UTF-8 text as uploads accept it: no NUL byte, every sequence valid. */
export function isUtf8Text(buf: Uint8Array): boolean {
  if (buf.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

async function measureText(path: string, bytes: number): Promise<MeasuredSource | null> {
  if (bytes > LIMITS.textBytes) return null;
  if (!isUtf8Text(await readFile(path))) return null;
  return {
    kind: 'text',
    mimeType: 'text/plain; charset=utf-8',
    bytes,
    pages: textPages(bytes),
    durationSeconds: null,
    encrypted: false,
    width: null,
    height: null,
    videoFrames: null,
  };
}

/**
 * Audio or video: the kind from ffprobe's streams (cover art is not video), the duration measured as prices and
 * trims need it (./av/media-probe.ts: the streams' own figures in exact containers, else decoded).
 */
async function measureMedia(path: string, bytes: number, opts: MediaToolOptions): Promise<MeasuredSource | null> {
  let data: ProbeData | null;
  let duration: number | null = null;
  let frames: number | null = null;
  try {
    data = await probeMedia(path, opts);
    if (data && (data.streams ?? []).some((s) => s.codec_type === 'audio' || isMovingVideo(s)))
      duration = await mediaDuration(path, data, opts);
    if (data && (data.streams ?? []).some(isMovingVideo)) frames = await videoFrameCount(path, opts);
  } catch (e) {
    if (e instanceof MediaToolTimeout) throw new UnreadableSource('the media took too long to read');
    if (e instanceof MediaToolUnavailable) return null;
    throw e;
  }
  // ffprobe reads only ACCEPTED_CONTAINERS (media-process.ts); the name is checked again here, so no other container
  // is ever recorded as a source, whatever the ffprobe in use does with its options.
  if (!data || !isAcceptedContainer(data.format?.format_name)) return null;
  const streams = data.streams ?? [];
  const video = streams.some(isMovingVideo);
  const audio = streams.some((s) => s.codec_type === 'audio');
  if (!video && !audio) return null;
  if (duration === null || !Number.isFinite(duration) || duration <= 0) return null;
  if (duration > LIMITS.mediaSeconds) throw new UnreadableSource('the media is longer than 10 hours');
  const kind = video ? 'video' : 'audio';
  const size = video ? displayedSize(streams.find(isMovingVideo)!) : null;
  return {
    kind,
    mimeType: mediaMimeType(kind, data),
    bytes,
    pages: 0,
    durationSeconds: Math.round(duration * 1000) / 1000,
    encrypted: false,
    width: size?.width ?? null,
    height: size?.height ?? null,
    videoFrames: video ? frames : null,
  };
}

/** A video stream's size as players show it: a rotation flag of ±90° swaps width and height. Null when unstated. */
function displayedSize(stream: ProbeStream): { width: number; height: number } | null {
  if (!stream.width || !stream.height) return null;
  const rotation = stream.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? 0;
  return Math.abs(rotation) % 180 === 90
    ? { width: stream.height, height: stream.width }
    : { width: stream.width, height: stream.height };
}

/**
 * What a video costs to process, measured from its file (domain/media-work.ts): for an upload measured before its
 * frames were stored. Null when the file has no moving video stream that can be measured.
 */
export async function measureVideoWork(
  path: string,
  durationSeconds: number,
  opts: MediaToolOptions = {},
): Promise<VideoMeasure | null> {
  const data = await probeMedia(path, opts);
  const stream =
    data && isAcceptedContainer(data.format?.format_name) ? (data.streams ?? []).find(isMovingVideo) : undefined;
  const size = stream ? displayedSize(stream) : null;
  const frames = size ? await videoFrameCount(path, opts) : null;
  return size && frames ? { ...size, frames, durationSeconds } : null;
}

/** Codecs a WebM file may hold (the WebM subset of Matroska); anything else is Matroska proper. */
const WEBM_CODECS = new Set(['vp8', 'vp9', 'av1', 'vorbis', 'opus']);

/**
 * The registered media type of an audio or video container (IANA), from what ffprobe found, never from the file
 * name. ffprobe names one demuxer for the whole ISO-BMFF family ("mov,mp4,m4a,3gp,3g2,mj2"): the file's major
 * brand tells QuickTime, 3GPP, 3GPP2 and Motion JPEG 2000 from MP4. AVI has no registered type; it gets the one
 * every client knows. An unknown container is application/octet-stream.
 */
export function mediaMimeType(kind: 'audio' | 'video', data: ProbeData): string {
  const format = String(data.format?.format_name ?? '').split(',')[0] ?? '';
  const brand = String(data.format?.tags?.['major_brand'] ?? '')
    .trim()
    .toLowerCase();
  switch (format) {
    case 'mov':
      if (brand === 'qt') return 'video/quicktime';
      if (brand.startsWith('3gp') || brand.startsWith('3gs') || brand.startsWith('3gr') || brand.startsWith('3ge'))
        return `${kind}/3gpp`;
      if (brand.startsWith('3g2')) return `${kind}/3gpp2`;
      if (brand === 'mjp2' || brand === 'mj2s') return 'video/mj2';
      return `${kind}/mp4`;
    case 'matroska': {
      const codecs = (data.streams ?? [])
        .filter((s) => s.codec_type === 'audio' || s.codec_type === 'video')
        .map((s) => String(s.codec_name));
      return codecs.length > 0 && codecs.every((c) => WEBM_CODECS.has(c)) ? `${kind}/webm` : `${kind}/matroska`;
    }
    case 'mp3':
      return 'audio/mpeg';
    case 'wav':
      return 'audio/wav';
    case 'ogg':
      return `${kind}/ogg`;
    case 'flac':
      return 'audio/flac';
    case 'aac':
      return 'audio/aac';
    case 'amr':
      return 'audio/AMR';
    case 'mpegts':
      return 'video/mp2t';
    case 'mpeg':
      return `${kind}/mpeg`;
    case 'avi':
      return 'video/x-msvideo';
    default:
      return 'application/octet-stream';
  }
}

/** Width and height of a stored image as displayed (EXIF orientation applied), from its header. */
export async function displayedImageSize(path: string): Promise<{ width: number; height: number } | null> {
  try {
    const meta = await sharp(path, { limitInputPixels: false }).metadata();
    return meta.autoOrient ?? (meta.width && meta.height ? { width: meta.width, height: meta.height } : null);
  } catch {
    return null;
  }
}

/**
 * A playlist, manifest or list that names other files, as ffmpeg would detect it (its probes read the same marks):
 * an HLS playlist (`#EXTM3U` first), a DASH manifest (an `<MPD` element near the start) or an ffconcat list
 * (`ffconcat version` first). Null for anything else. Only asked of files that are not UTF-8 text: as text such a file
 * is read as the text it is, never followed.
 */
export function namesOtherFiles(start: Buffer): string | null {
  const text = start
    .toString('latin1')
    .replace(/^\xEF\xBB\xBF/, '')
    .trimStart();
  if (text.startsWith('#EXTM3U')) return 'HLS playlist';
  if (text.startsWith('ffconcat version')) return 'ffconcat list';
  if (/<MPD[\s>]/.test(text)) return 'DASH manifest';
  return null;
}

/**
 * Identifies and measures an uploaded file by its content (never by its name or declared type): PDF, image,
 * UTF-8 text, or audio/video (ffprobe, in an accepted container). A playlist, manifest or list naming other files,
 * and anything else, is unreadable.
 */
export async function measureSource(path: string, bytes: number, opts: MediaToolOptions = {}): Promise<MeasuredSource> {
  if (bytes === 0) throw new UnreadableSource('the file is empty');
  const start = await head(path, 1024);
  if (start.includes(Buffer.from('%PDF-'))) return measurePdf(path, bytes);
  const asDocument = (await measureImage(path, bytes)) ?? (await measureText(path, bytes));
  if (asDocument) return asDocument;
  const manifest = namesOtherFiles(start);
  if (manifest)
    throw new UnreadableSource(
      `the file is a media playlist or manifest (${manifest}) that names other files; upload the audio or video file itself`,
    );
  const measured = await measureMedia(path, bytes, opts);
  if (!measured) throw new UnreadableSource('the file is not a readable PDF, image, UTF-8 text, audio or video');
  return measured;
}

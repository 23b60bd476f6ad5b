import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import zlib from 'node:zlib';
import sharp from 'sharp';

/** A PDF with `pages` pages, each showing its number. */
export async function samplePdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([300, 400]).drawText(`Page ${i}`, { x: 40, y: 300, size: 24, font });
  return Buffer.from(await doc.save());
}

/** The same PDF encrypted with qpdf (AES-256) under `password`. */
export async function sampleEncryptedPdf(pages: number, password: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
  writeFileSync(join(dir, 'in.pdf'), await samplePdf(pages));
  execFileSync('qpdf', [
    '--encrypt',
    password,
    `${password}-owner`,
    '256',
    '--',
    join(dir, 'in.pdf'),
    join(dir, 'out.pdf'),
  ]);
  return readFileSync(join(dir, 'out.pdf'));
}

export function samplePng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
}

/** A mono 8 kHz 16-bit PCM WAV of `seconds` of silence. */
export function sampleWav(seconds: number): Buffer {
  const rate = 8000;
  const samples = Math.round(seconds * rate);
  const data = samples * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVE', 8);
  b.write('fmt ', 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(data, 40);
  return b;
}

/** Media containers the tests upload, made by ffmpeg (installed by scripts/setup.sh) from generated tone and colour. */
export const SAMPLE_MEDIA = {
  mp4: ['-c:v', 'mpeg4', '-c:a', 'aac'],
  mov: ['-c:v', 'mpeg4', '-c:a', 'aac'],
  m4a: ['-vn', '-c:a', 'aac'],
  '3gp': ['-c:v', 'mpeg4', '-c:a', 'aac'],
  mp3: ['-vn', '-c:a', 'libmp3lame'],
  wav: ['-vn', '-c:a', 'pcm_s16le'],
  ogg: ['-vn', '-c:a', 'libvorbis'],
  opus: ['-vn', '-c:a', 'libopus'],
  flac: ['-vn', '-c:a', 'flac'],
  aac: ['-vn', '-c:a', 'aac', '-f', 'adts'],
  webm: ['-c:v', 'libvpx', '-c:a', 'libopus'],
  mkv: ['-c:v', 'mpeg4', '-c:a', 'aac'],
  avi: ['-c:v', 'mpeg4', '-c:a', 'libmp3lame'],
  ts: ['-c:v', 'mpeg4', '-c:a', 'aac', '-f', 'mpegts'],
} as const;

/** One second of a 440 Hz tone (and, for video containers, a red 64×48 picture) in the container `ext`. */
export function sampleMedia(ext: keyof typeof SAMPLE_MEDIA): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'media-'));
  const out = join(dir, `sample.${ext}`);
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=red:s=64x48:d=1:r=10',
    '-f',
    'lavfi',
    '-i',
    'sine=f=440:d=1',
    ...SAMPLE_MEDIA[ext],
    '-shortest',
    out,
  ]);
  return readFileSync(out);
}

/**
 * A PNG whose header declares `width` × `height` pixels but whose data is a single pixel: cheap to make and to
 * upload, and measured by its header like any PNG.
 */
export async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  // IHDR is the first chunk: length (4) type (4) at offset 8, its data from offset 16, its CRC over type + data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

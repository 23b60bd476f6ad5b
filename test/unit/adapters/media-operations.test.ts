import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { pageContents, pdfHexText, pdfPageText } from '../../helpers/pdf-inspect.js';
import sharp from 'sharp';
import {
  deletePages,
  extractPages,
  mergePdfs,
  numberPages,
  rotatePages,
  watermarkPages,
} from '../../../adapters/media/pdf/pdf-operations.js';
import {
  encryptedPdfPageCount,
  protectPdf,
  QpdfTimeout,
  QpdfUnavailable,
  unlockPdf,
  WrongPdfPassword,
} from '../../../adapters/media/pdf/qpdf.js';
import { createFileOperationRunners } from '../../../adapters/media/operation-runners.js';
import { InvalidSourceError, ProviderUnavailableError } from '../../../adapters/providers/provider-errors.js';
import { compressImage, editImage, toWebp } from '../../../adapters/media/image/image-operations.js';

/** Pages of distinct widths (300 + page number) so every page can be recognised in the output. */
async function sizedPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([300 + i, 400]).drawText(`Page ${i}`, { x: 30, y: 300, size: 20, font });
  return doc.save();
}
const widths = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPages().map((p) => p.getWidth());

const contents = pageContents;
const hex = pdfHexText;

describe('PDF operations', () => {
  it('extracts and deletes exactly the selected pages', async () => {
    const pdf = await sizedPdf(6);
    expect(await widths(await extractPages(pdf, [2, 5]))).toEqual([302, 305]);
    expect(await widths(await deletePages(pdf, [1, 3, 6]))).toEqual([302, 304, 305]);
  });

  it('rotates the selected pages by 90, 180 or 270 degrees', async () => {
    const rotated = await rotatePages(await sizedPdf(3), [1, 3], 90);
    expect((await PDFDocument.load(rotated)).getPages().map((p) => p.getRotation().angle)).toEqual([90, 0, 90]);
    const back = await rotatePages(rotated, [1], 270);
    expect((await PDFDocument.load(back)).getPages().map((p) => p.getRotation().angle)).toEqual([0, 0, 90]);
  });

  it('draws the watermark text on the selected pages only', async () => {
    // Drawn in an embedded font (glyph ids in the content stream): read back as a reader extracts it.
    const out = await watermarkPages(await sizedPdf(3), [1, 3], 'CONFIDENTIAL');
    const marked = [1, 2, 3].map((p) => pdfPageText(out, p).replace(/\s+/g, '').includes('CONFIDENTIAL'));
    expect(marked).toEqual([true, false, true]);
  });

  it('numbers the selected pages from the start value', async () => {
    const doc = await PDFDocument.load(await numberPages(await sizedPdf(3), [2, 3], 4242));
    expect(doc.getPages().map((p) => [contents(p).includes(hex('4242')), contents(p).includes(hex('4243'))])).toEqual([
      [false, false],
      [true, false],
      [false, true],
    ]);
  });

  it('merges PDFs in order', async () => {
    expect(await widths(await mergePdfs([await sizedPdf(2), await sizedPdf(1), await sizedPdf(3)]))).toEqual([
      301, 302, 301, 301, 302, 303,
    ]);
  });

  it('protects a PDF so it opens only with its password, and unlocks it again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qpdf-'));
    const [plain, locked, unlocked] = ['plain.pdf', 'locked.pdf', 'unlocked.pdf'].map((f) => join(dir, f)) as [
      string,
      string,
      string,
    ];
    writeFileSync(plain, await sizedPdf(3));
    await protectPdf(plain, locked, 's3cret pass');
    await expect(PDFDocument.load(readFileSync(locked))).rejects.toThrow(/is encrypted/);
    expect(await encryptedPdfPageCount(locked, 's3cret pass')).toBe(3);
    await expect(encryptedPdfPageCount(locked, 'wrong')).rejects.toBeInstanceOf(WrongPdfPassword);
    await expect(unlockPdf(locked, unlocked, 'wrong')).rejects.toBeInstanceOf(WrongPdfPassword);
    await unlockPdf(locked, unlocked, 's3cret pass');
    expect(await widths(readFileSync(unlocked))).toEqual([301, 302, 303]);
    expect(readFileSync(locked).includes(Buffer.from('s3cret'))).toBe(false);
  });

  it('tells a missing or stalled qpdf apart from a bad file; the job runner treats a missing engine as an outage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qpdf-fail-'));
    const plain = join(dir, 'plain.pdf');
    writeFileSync(plain, await sizedPdf(1));
    await expect(encryptedPdfPageCount(plain, 'pw', { qpdfPath: join(dir, 'no-such-qpdf') })).rejects.toBeInstanceOf(
      QpdfUnavailable,
    );
    const slow = join(dir, 'slow-qpdf');
    writeFileSync(slow, '#!/bin/sh\nsleep 5\n', { mode: 0o755 });
    await expect(encryptedPdfPageCount(plain, 'pw', { qpdfPath: slow, timeoutMs: 150 })).rejects.toBeInstanceOf(
      QpdfTimeout,
    );
    writeFileSync(join(dir, 'junk.pdf'), 'not a pdf at all');
    await expect(encryptedPdfPageCount(join(dir, 'junk.pdf'), 'pw')).rejects.toThrow(/could not process/);

    const runners = createFileOperationRunners({ qpdfPath: join(dir, 'no-such-qpdf') });
    const input = { sources: [{ path: plain, filename: 'plain.pdf' }], options: { password: 'pw' }, workDir: dir };
    await expect(runners['pdf-protect'](input)).rejects.toBeInstanceOf(ProviderUnavailableError);
    const junk = { ...input, sources: [{ path: join(dir, 'junk.pdf'), filename: 'junk.pdf' }] };
    await expect(createFileOperationRunners()['pdf-unlock'](junk)).rejects.toBeInstanceOf(InvalidSourceError);
  });
});

/** An 800 × 600 PNG: left half red, right half blue. */
const halves = () =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .composite([
      {
        input: { create: { width: 400, height: 600, channels: 3, background: { r: 0, g: 0, b: 255 } } },
        left: 400,
        top: 0,
      },
    ])
    .png()
    .toBuffer();
const pixel = async (img: Buffer, x: number, y: number) => {
  const { data, info } = await sharp(img).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i], data[i + 1], data[i + 2]];
};

describe('image operations', () => {
  it('contains the image in width × height, keeping the aspect ratio, and converts the format', async () => {
    const { data, format } = await editImage(await halves(), { width: 300, height: 200, format: 'webp' });
    expect(format).toBe('webp');
    expect(await sharp(data).metadata()).toMatchObject({ format: 'webp', width: 267, height: 200 });
  });

  it('crops, rotates and flips', async () => {
    const src = await halves();
    expect(await sharp((await editImage(src, { crop: [350, 0, 100, 50] })).data).metadata()).toMatchObject({
      width: 100,
      height: 50,
      format: 'png',
    });
    expect(await sharp((await editImage(src, { angle: 90 })).data).metadata()).toMatchObject({
      width: 600,
      height: 800,
    });
    const flopped = (await editImage(src, { flip: 'horizontal' })).data;
    expect(await pixel(flopped, 10, 10)).toEqual([0, 0, 255]);
    expect(await pixel(src, 10, 10)).toEqual([255, 0, 0]);
    await expect(editImage(src, { crop: [700, 0, 200, 10] })).rejects.toThrow(/outside/);
  });

  it('compresses in the requested format, strong at most as large as balanced', async () => {
    const noisy = await sharp(Buffer.from(Array.from({ length: 300 * 200 * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: 300, height: 200, channels: 3 },
    })
      .png()
      .toBuffer();
    const balanced = await compressImage(noisy, { format: 'jpg', level: 'balanced' });
    const strong = await compressImage(noisy, { format: 'jpg', level: 'strong' });
    expect((await sharp(balanced.data).metadata()).format).toBe('jpeg');
    expect(strong.data.length).toBeLessThanOrEqual(balanced.data.length);
    expect((await compressImage(noisy, {})).format).toBe('png');
    expect(await sharp((await toWebp(noisy)).data).metadata()).toMatchObject({
      format: 'webp',
      width: 300,
      height: 200,
    });
  });
});

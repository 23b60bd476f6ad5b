import { open, readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { engineDetail, InvalidSourceError } from '../../providers/provider-errors.js';
import { MAX_PAGE_PIXELS, OCR_DPI } from './ocr-engine.js';
import { pageImageDpi } from './page-resolution.js';

/* A source's pages for OCR: whether it is a PDF, its pages' sizes, the resolution to render them at, an image made
 * ready for Tesseract. Used by the ocr-* runners and by extraction's OCR (adapters/extraction/source-text.ts). */

export async function isPdf(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(buf, 0, 1024, 0);
    return buf.subarray(0, bytesRead).includes('%PDF-');
  } finally {
    await fh.close();
  }
}

/** Page sizes of a PDF in points (media box, before `rotation`, its /Rotate in degrees); refuses an encrypted or unreadable one. */
export async function pdfPageSizes(path: string): Promise<Array<{ width: number; height: number; rotation: number }>> {
  const bytes = await readFile(path);
  let pages: Array<{ width: number; height: number; rotation: number }>;
  try {
    // A damaged PDF may load and only fail when its page tree is read: both are inside the guard.
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    if (doc.isEncrypted) throw new InvalidSourceError('the PDF is encrypted; unlock it first with pdf-unlock');
    pages = doc.getPages().map((p) => ({ ...p.getSize(), rotation: ((p.getRotation().angle % 360) + 360) % 360 }));
  } catch (e) {
    if (e instanceof InvalidSourceError) throw e;
    throw new InvalidSourceError('the PDF could not be read', { detail: engineDetail(e) });
  }
  if (pages.length === 0) throw new InvalidSourceError('the PDF has no pages');
  return pages;
}

/** Render resolution of a page: 300 dpi unless that would pass MAX_PAGE_PIXELS on its longest side. */
export const renderDpi = (size: { width: number; height: number }) =>
  Math.max(50, Math.min(OCR_DPI, Math.floor((MAX_PAGE_PIXELS * 72) / Math.max(size.width, size.height, 1))));

/**
 * An image as Tesseract and ocrmypdf read it: turned upright (EXIF), transparency laid over white, 8-bit sRGB PNG,
 * with its resolution: the image's own when it states a plausible one (100 to 1,200 dpi); else, with `pageSized`,
 * the resolution its pixel size gives a page (pageImageDpi: a 96-dpi screen image of an A4 page); else 300.
 */
export async function normaliseImage(path: string, out: string, opts: { pageSized?: boolean } = {}): Promise<number> {
  try {
    const meta = await sharp(path).metadata();
    const stated = meta.density && meta.density >= 100 && meta.density <= 1200 ? Math.round(meta.density) : null;
    const fromSize =
      opts.pageSized && meta.width && meta.height ? pageImageDpi(meta.width, meta.height, meta.density) : null;
    const dpi = stated ?? fromSize ?? OCR_DPI;
    await sharp(path, { failOn: 'error' })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .withMetadata({ density: dpi })
      .png()
      .toFile(out);
    return dpi;
  } catch (e) {
    if (e && typeof e === 'object' && 'syscall' in e) throw e;
    throw new InvalidSourceError('the image could not be read', { detail: engineDetail(e) });
  }
}

import sharp from 'sharp';
import { MAX_PAGE_PIXELS } from './ocr-engine.js';

/**
 * The resolution of an image of a page, and its enlargement before OCR (docs/processing.md, "Source text"). Tesseract
 * reads printed text best at about 300 dpi; a page saved as a 96-dpi screen image (a browser's or a PDF viewer's
 * "save as image") has letters 8 to 10 pixels high, below what it reads well. Such an image is enlarged (Lanczos) to
 * UPSCALE_TO_DPI first and told that resolution, so Tesseract's boxes divided by it are still the page's own points.
 */

/** Below this resolution an image is enlarged before OCR. */
export const MIN_OCR_DPI = 200;
/** The resolution an enlarged image is brought to (chosen by measurement on the extraction corpus' tune part). */
export const UPSCALE_TO_DPI = 300;

/** Paper whose shape an image of a page has: A4 (and the A series, 1 : √2) and US letter (8.5 × 11 in); long side in inches. */
const PAPER = [
  { ratio: Math.SQRT2, longInches: 11.69 },
  { ratio: 11 / 8.5, longInches: 11 },
];

/**
 * The resolution of an image that states none, or one below 100 dpi (the range `normaliseImage` takes as stated): when
 * the image has a page's shape (A4 or letter, within 3 %), its pixels over the page's inches; else null. A stated
 * resolution that puts the page within a page's size (at most 14 in on its long side) is kept: a 96-dpi A5 page.
 */
export function pageImageDpi(width: number, height: number, stated: number | undefined): number | null {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (stated && stated >= 50 && long / stated <= 14) return Math.round(stated);
  const paper = PAPER.find((p) => Math.abs(long / short / p.ratio - 1) <= 0.03);
  return paper ? Math.round(long / paper.longInches) : null;
}

/** How much an image at `dpi` is enlarged before OCR (1: not at all), within MAX_PAGE_PIXELS. */
export function upscaleFactor(dpi: number, longSide: number): number {
  if (dpi >= MIN_OCR_DPI) return 1;
  return Math.max(1, Math.min(UPSCALE_TO_DPI / dpi, MAX_PAGE_PIXELS / Math.max(1, longSide)));
}

/**
 * The image `png` at `dpi` as Tesseract should read it: itself when its resolution is enough, else enlarged into `out`
 * by upscaleFactor. Resolves the file and the resolution to tell Tesseract (dpi × the factor, so pixel boxes × 72 / it
 * are points of the page).
 */
export async function imageForOcr(png: string, dpi: number, out: string): Promise<{ path: string; dpi: number }> {
  const { width, height } = await sharp(png).metadata();
  const factor = upscaleFactor(dpi, Math.max(width ?? 0, height ?? 0));
  if (factor === 1 || !width || !height) return { path: png, dpi };
  // A whole resolution for Tesseract's --dpi; the pixel size within half a pixel of it.
  const target = Math.floor(dpi * factor);
  await sharp(png)
    .resize({
      width: Math.round((width * target) / dpi),
      height: Math.round((height * target) / dpi),
      fit: 'fill',
      kernel: 'lanczos3',
    })
    .withMetadata({ density: target })
    .png()
    .toFile(out);
  return { path: out, dpi: target };
}

import { degrees, PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';
import { layoutWatermark, loadWatermarkFonts, pdfFontkit } from './watermark-fonts.js';

/**
 * The PDF file operations on bytes in memory (pdf-lib). Pages are 1-based and already validated against the
 * page count; the input must not be encrypted (`pdf-unlock` and `pdf-protect` are in qpdf.ts).
 */
const load = (input: Uint8Array) => PDFDocument.load(input, { updateMetadata: false });
const save = (doc: PDFDocument) => doc.save({ useObjectStreams: true });

export async function extractPages(input: Uint8Array, pages: number[]): Promise<Uint8Array> {
  const source = await load(input);
  const out = await PDFDocument.create();
  for (const page of await out.copyPages(
    source,
    pages.map((p) => p - 1),
  ))
    out.addPage(page);
  return save(out);
}

export async function deletePages(input: Uint8Array, pages: number[]): Promise<Uint8Array> {
  const doc = await load(input);
  for (const p of [...pages].sort((a, b) => b - a)) doc.removePage(p - 1);
  return save(doc);
}

export async function rotatePages(input: Uint8Array, pages: number[], angle: 90 | 180 | 270): Promise<Uint8Array> {
  const doc = await load(input);
  for (const p of pages) {
    const page = doc.getPage(p - 1);
    page.setRotation(degrees((page.getRotation().angle + angle) % 360));
  }
  return save(doc);
}

/**
 * Draws `text` diagonally (45°, grey, 35 % opaque) across the centre of each selected page, run by run in the fonts
 * `layoutWatermark` chose (embedded as subsets; the text stays extractable). The size fits the text to about 70 %
 * of the page diagonal, between 12 and 72 points.
 */
export async function watermarkPages(
  input: Uint8Array,
  pages: number[],
  text: string,
  fontFiles?: readonly string[],
): Promise<Uint8Array> {
  const chain = await loadWatermarkFonts(fontFiles);
  const layout = layoutWatermark(text, chain);
  if (!layout.ok) throw new UndrawableText(layout.problem);
  const doc = await load(input);
  doc.registerFontkit(pdfFontkit);
  const embedded = new Map<number, PDFFont>();
  for (const run of layout.runs) {
    if (!embedded.has(run.font)) embedded.set(run.font, await doc.embedFont(chain[run.font]!.bytes, { subset: true }));
  }
  const runs = layout.runs.map((r) => ({
    text: r.text,
    font: embedded.get(r.font)!,
    width: embedded.get(r.font)!.widthOfTextAtSize(r.text, 1),
  }));
  const unitWidth = runs.reduce((sum, r) => sum + r.width, 0);
  for (const p of pages) {
    const page = doc.getPage(p - 1);
    const { width, height } = page.getSize();
    const size = Math.max(12, Math.min(72, (Math.hypot(width, height) * 0.7) / Math.max(unitWidth, 0.001)));
    // Along the 45° baseline, centred on the page: each run starts where the one before ended.
    let offset = -(unitWidth * size) / 2;
    for (const run of runs) {
      page.drawText(run.text, {
        x: width / 2 + offset * Math.SQRT1_2,
        y: height / 2 + offset * Math.SQRT1_2,
        size,
        font: run.font,
        color: rgb(0.6, 0.6, 0.6),
        opacity: 0.35,
        rotate: degrees(45),
      });
      offset += run.width * size;
    }
  }
  return save(doc);
}

/** The watermark text cannot be drawn with the shipped fonts (checked at quoting; `problem` is safe to show). */
export class UndrawableText extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'UndrawableText';
  }
}

/** Numbers the selected pages consecutively from `start`, bottom centre. */
export async function numberPages(input: Uint8Array, pages: number[], start: number): Promise<Uint8Array> {
  const doc = await load(input);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  pages.forEach((p, i) => {
    const page = doc.getPage(p - 1);
    const label = String(start + i);
    const size = 10;
    page.drawText(label, {
      x: page.getWidth() / 2 - font.widthOfTextAtSize(label, size) / 2,
      y: 18,
      size,
      font,
      color: rgb(0.2, 0.2, 0.2),
    });
  });
  return save(doc);
}

export async function mergePdfs(inputs: Uint8Array[]): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const input of inputs) {
    const source = await load(input);
    for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
  }
  return save(out);
}

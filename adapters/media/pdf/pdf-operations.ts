import { degrees, PDFDocument, rgb, StandardFonts } from 'pdf-lib';

/**
 * The PDF file operations on bytes in memory (pdf-lib). Pages are 1-based and already validated against the
 * page count; the input must not be encrypted (`pdf-unlock` and `pdf-protect` are in qpdf.ts).
 */
const load = (input: Uint8Array) => PDFDocument.load(input, { updateMetadata: false });
const save = (doc: PDFDocument) => doc.save({ useObjectStreams: true });

export async function extractPages(input: Uint8Array, pages: number[]): Promise<Uint8Array> {
  const source = await load(input);
  const out = await PDFDocument.create();
  for (const page of await out.copyPages(source, pages.map((p) => p - 1))) out.addPage(page);
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

export async function watermarkPages(input: Uint8Array, pages: number[], text: string): Promise<Uint8Array> {
  const doc = await load(input);
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const p of pages) {
    const page = doc.getPage(p - 1);
    const { width, height } = page.getSize();
    const size = Math.max(12, Math.min(72, (Math.min(width, height) / Math.max(4, text.length)) * 1.6));
    const textWidth = font.widthOfTextAtSize(text, size);
    page.drawText(text, {
      x: width / 2 - (textWidth / 2) * Math.SQRT1_2,
      y: height / 2 - (textWidth / 2) * Math.SQRT1_2,
      size,
      font,
      color: rgb(0.6, 0.6, 0.6),
      opacity: 0.35,
      rotate: degrees(45),
    });
  }
  return save(doc);
}

/** Numbers the selected pages consecutively from `start`, bottom centre. */
export async function numberPages(input: Uint8Array, pages: number[], start: number): Promise<Uint8Array> {
  const doc = await load(input);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  pages.forEach((p, i) => {
    const page = doc.getPage(p - 1);
    const label = String(start + i);
    const size = 10;
    page.drawText(label, { x: page.getWidth() / 2 - font.widthOfTextAtSize(label, size) / 2, y: 18, size, font, color: rgb(0.2, 0.2, 0.2) });
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

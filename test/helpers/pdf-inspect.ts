import { decodePDFRawStream, PDFArray, PDFRawStream, type PDFPage } from 'pdf-lib';

/** The decoded content streams of a page, as text (where pdf-lib draws text as hex strings). */
export function pageContents(page: PDFPage): string {
  const raw = page.node.Contents();
  const streams = raw instanceof PDFArray ? raw.asArray().map((r) => page.doc.context.lookup(r)) : [raw];
  return streams.map((s) => (s instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(s).decode()).toString('latin1') : '')).join('\n');
}

/** How pdf-lib writes a standard-font string inside a content stream. */
export const pdfHexText = (s: string) => Buffer.from(s, 'latin1').toString('hex').toUpperCase();

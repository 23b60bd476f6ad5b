import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePDFRawStream, PDFArray, PDFRawStream, type PDFPage } from 'pdf-lib';

/** The decoded content streams of a page, as text (where pdf-lib draws text as hex strings). */
export function pageContents(page: PDFPage): string {
  const raw = page.node.Contents();
  const streams = raw instanceof PDFArray ? raw.asArray().map((r) => page.doc.context.lookup(r)) : [raw];
  return streams
    .map((s) => (s instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(s).decode()).toString('latin1') : ''))
    .join('\n');
}

/** How pdf-lib writes a standard-font string inside a content stream. */
export const pdfHexText = (s: string) => Buffer.from(s, 'latin1').toString('hex').toUpperCase();

/**
 * The text of one page (1-based) as a reader extracts it, in the order it was drawn: pdftotext -raw (poppler-utils,
 * installed by scripts/setup.sh --tests). Rotated text comes out a glyph per line, without its spaces.
 */
export function pdfPageText(pdf: Uint8Array, page: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'pdftext-'));
  const file = join(dir, 'in.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-q', '-raw', '-enc', 'UTF-8', '-f', String(page), '-l', String(page), file, '-'], {
    encoding: 'utf8',
  });
}

/** The fonts of a PDF as `pdffonts` lists them (name, type, embedded, subset, ToUnicode). */
export function pdfFonts(pdf: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'pdffonts-'));
  const file = join(dir, 'in.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdffonts', [file], { encoding: 'utf8' });
}

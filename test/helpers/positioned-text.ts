/**
 * Builds PositionedText for extraction tests without the source-text adapter: a page laid out from rows of cells
 * (each cell at an x position, words 6 pt per character, rows 14 pt apart) or a plain-text page.
 */
import type { ExtractedValue, PageText, PositionedText, PositionedWord } from '../../domain/extraction.js';
import type { LineSegment } from '../../adapters/extraction/tsv-words.js';

export type Cell = [x: number, text: string];
/** A row: one text at x = 50, cells at their x, or null for a blank line. */
export type Row = string | Cell[] | null;

export const CHAR_WIDTH = 6;
export const ROW_HEIGHT = 14;

export function layoutPage(
  rows: readonly Row[],
  options: { page?: number; source?: 'text_layer' | 'ocr' } = {},
): PageText {
  const words: PositionedWord[] = [];
  const lines: string[] = [];
  let offset = 0;
  rows.forEach((row, r) => {
    if (row === null) {
      lines.push('');
      offset += 1;
      return;
    }
    const cells: Cell[] = typeof row === 'string' ? [[50, row]] : [...row].sort((a, b) => a[0] - b[0]);
    const placed: { text: string; x0: number }[] = [];
    for (const [x, text] of cells)
      for (const m of text.matchAll(/\S+/gu)) placed.push({ text: m[0], x0: x + m.index * CHAR_WIDTH });
    const y0 = 40 + r * ROW_HEIGHT;
    const parts: string[] = [];
    let lineOffset = offset;
    for (const p of placed) {
      words.push({
        text: p.text,
        offset: lineOffset,
        box: { x0: p.x0, y0, x1: p.x0 + p.text.length * CHAR_WIDTH, y1: y0 + 10 },
      });
      parts.push(p.text);
      lineOffset += p.text.length + 1;
    }
    const line = parts.join(' ');
    lines.push(line);
    offset += line.length + 1;
  });
  return {
    page: options.page ?? 1,
    text: lines.join('\n'),
    words,
    source: options.source ?? 'text_layer',
    width: 612,
    height: 792,
  };
}

/** A plain-text page: words at their offsets with zero boxes. */
export function plainPage(text: string, page = 1): PageText {
  const words = [...text.matchAll(/\S+/gu)].map((m) => ({
    text: m[0],
    offset: m.index,
    box: { x0: 0, y0: 0, x1: 0, y1: 0 },
  }));
  return { page, text, words, source: 'plain_text', width: 0, height: 0 };
}

export function documentOf(...pages: PageText[]): PositionedText {
  return { pages: pages.map((p, i) => ({ ...p, page: i + 1 })), truncated: false, warnings: [] };
}

/** A line segment of `text` from (x, y), 5 points a character, 10 points high (one character's width between words). */
export function lineSegment(text: string, x: number, y: number): LineSegment {
  let at = x;
  const words = text.split(' ').map((t) => {
    const box = { x0: at, y0: y, x1: at + 5 * t.length, y1: y + 10 };
    at = box.x1 + 5;
    return { text: t, box };
  });
  return { words, box: { x0: x, y0: y, x1: at - 5, y1: y + 10 } };
}

/**
 * The VAT summary of de-zugferd-comfort-einfach (a ZUGFeRD sample of the extraction corpus) as OCR reads it: the tax
 * printed only per rate (19,25 + 37,62), never as one figure.
 */
export const EINFACH_VAT_SUMMARY: readonly Row[] = [
  [
    [50, 'Rechnungssumme Netto (excl. USt.)'],
    [480, '473,00'],
  ],
  [
    [50, 'Steuerbasisbetrag USt. 7%'],
    [400, '275,00'],
    [480, '19,25'],
  ],
  [
    [50, 'Steuerbasisbetrag USt. 19%'],
    [400, '198,00'],
    [480, '37,62'],
  ],
  [
    [50, 'Rechnungssumme Brutto (inkl. USt.)'],
    [480, '529,87'],
  ],
];

/**
 * The value read from the `nth` (default the first) occurrence of `snippet` on the page (after the text `after`), with
 * its words' box; the value is the snippet unless given, the engine's confidence 0.9 unless given.
 */
export function valueAt(
  page: PageText,
  snippet: string,
  options: { after?: string; value?: string; nth?: number; confidence?: number } = {},
): ExtractedValue {
  let i = options.after ? page.text.indexOf(options.after) + options.after.length - 1 : -1;
  for (let n = 0; n <= (options.nth ?? 0); n++) i = page.text.indexOf(snippet, i + 1);
  if (i < 0) throw new Error(`"${snippet}" is not on the page`);
  const words = page.words.filter((w) => w.offset < i + snippet.length && w.offset + w.text.length > i);
  const box = {
    x0: Math.min(...words.map((w) => w.box.x0)),
    y0: Math.min(...words.map((w) => w.box.y0)),
    x1: Math.max(...words.map((w) => w.box.x1)),
    y1: Math.max(...words.map((w) => w.box.y1)),
  };
  return {
    value: options.value ?? snippet,
    evidence: { page: page.page, snippet, box },
    confidence: options.confidence ?? 0.9,
  };
}

import { unionBox, type Box } from '../../domain/extraction.js';

/**
 * Words with boxes from the TSV both engines write (pdftotext `-tsv` for a PDF's text layer, Tesseract `tsv` for
 * OCR): the header `level page_num par_num|block_num block_num|par_num line_num word_num left top width height conf
 * text`, one row per page (level 1), block/paragraph/line (2–4) and word (5). Only the page size and the words are
 * used; the engine's own grouping (the three numbers before `word_num`) keeps the words of one line segment together.
 */
export interface TsvWord {
  text: string;
  box: Box;
  /** The engine's word confidence, 0–100, when below 100 (Tesseract's; pdftotext writes 100 for every word). */
  confidence?: number;
}

/** A run of words the engine put on one line (pdftotext: one line of one block; Tesseract: one line of a paragraph). */
export interface LineSegment {
  words: TsvWord[];
  box: Box;
}

export interface TsvPage {
  /** The page size in the TSV's units scaled by `scale` (0 when the TSV has no page row). */
  width: number;
  height: number;
  segments: LineSegment[];
  /** The words' mean confidence, 0–100 (Tesseract's; pdftotext writes none: 100 when no word has one). */
  confidence: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Parses one page of TSV. `scale` converts its units to points (pdftotext: 1; Tesseract at `dpi`: 72 / dpi).
 * Words that are only whitespace (Tesseract writes empty words for blank areas) are skipped.
 */
export function parseTsvPage(tsv: string, scale: number): TsvPage {
  let width = 0;
  let height = 0;
  const segments = new Map<string, TsvWord[]>();
  let confSum = 0;
  let confWords = 0;
  for (const row of tsv.split(/\r?\n/)) {
    const cols = row.split('\t');
    if (cols.length < 12 || !/^\d+$/.test(cols[0]!)) continue; // the header, or a blank line
    const [level, , a, b, c, , left, top, w, h] = cols.slice(0, 10).map(Number) as number[];
    // The text is the last column; it never holds a tab, but keep anything after the 11th tab as text all the same.
    const text = cols.slice(11).join('\t').trim();
    if (level === 1) {
      width = round2(w! * scale);
      height = round2(h! * scale);
      continue;
    }
    if (level !== 5 || text === '' || ![left, top, w, h].every((n) => Number.isFinite(n))) continue;
    const conf = Number(cols[10]);
    const known = Number.isFinite(conf) && conf >= 0;
    if (known) {
      confSum += Math.min(100, conf);
      confWords++;
    }
    const key = `${a}/${b}/${c}`;
    const words = segments.get(key) ?? [];
    const box = {
      x0: round2(left! * scale),
      y0: round2(top! * scale),
      x1: round2((left! + w!) * scale),
      y1: round2((top! + h!) * scale),
    };
    words.push(known && conf < 100 ? { text, box, confidence: round2(conf) } : { text, box });
    segments.set(key, words);
  }
  return {
    width,
    height,
    segments: [...segments.values()].map((words) => ({ words, box: unionBox(words.map((w) => w.box))! })),
    confidence: confWords ? confSum / confWords : 100,
  };
}

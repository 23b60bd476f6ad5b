/**
 * Lines, word clusters and evidence of a page for the offline extraction engine (offline-engine.ts). A page with word
 * boxes (text layer, OCR) is read by positions; a plain-text page by its lines.
 */
import { unionBox, type Box, type Evidence, type PageText, type PositionedWord } from '../../domain/extraction.js';

export interface Line {
  page: PageText;
  /** Index of the line among the page's non-empty lines. */
  index: number;
  start: number;
  end: number;
  text: string;
  /** The page's words on this line, in text order (empty on a page without words). */
  words: PositionedWord[];
}

/** True when the page's words carry real boxes (not a plain-text page with zero boxes). */
export function hasBoxes(page: PageText): boolean {
  let v = boxed.get(page);
  if (v === undefined)
    boxed.set(
      page,
      (v = page.source !== 'plain_text' && page.words.some((w) => w.box.x1 > w.box.x0 && w.box.y1 > w.box.y0)),
    );
  return v;
}
const boxed = new WeakMap<PageText, boolean>();

/** The page's non-empty lines with their words. */
export function pageLines(page: PageText): Line[] {
  const lines: Line[] = [];
  const words = sortedWords(page);
  let wi = 0;
  let start = 0;
  for (const raw of page.text.split('\n')) {
    const end = start + raw.length;
    const lineWords: PositionedWord[] = [];
    while (wi < words.length && words[wi]!.offset < start) wi++;
    while (wi < words.length && words[wi]!.offset < end) lineWords.push(words[wi++]!);
    if (raw.trim()) lines.push({ page, index: lines.length, start, end, text: raw, words: lineWords });
    start = end + 1;
  }
  return lines;
}

/** Evidence for the page text between `start` and `end`: the exact snippet and the box of the words it covers. */
export function evidenceOf(page: PageText, start: number, end: number): Evidence {
  const covered: PositionedWord[] = [];
  if (hasBoxes(page)) {
    const words = sortedWords(page);
    let lo = 0;
    let hi = words.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (words[mid]!.offset + words[mid]!.text.length <= start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < words.length && words[i]!.offset < end; i++) covered.push(words[i]!);
  }
  return { page: page.page, snippet: page.text.slice(start, end), box: unionBox(covered.map((w) => w.box)) };
}

const sorted = new WeakMap<PageText, PositionedWord[]>();
function sortedWords(page: PageText): PositionedWord[] {
  let words = sorted.get(page);
  if (!words) sorted.set(page, (words = [...page.words].sort((a, b) => a.offset - b.offset)));
  return words;
}

/** Typical height of a line of words on the page (median word height), for gap thresholds. */
export function lineHeight(page: PageText): number {
  const hs = page.words
    .map((w) => w.box.y1 - w.box.y0)
    .filter((h) => h > 0)
    .sort((a, b) => a - b);
  return hs.length ? hs[Math.floor(hs.length / 2)]! : 10;
}

/**
 * How much taller a line is than the ink of its words. A text layer's word box spans the font's ascent to descent; an
 * OCR word box spans only the glyphs' ink (cap or x-height, a descender when there is one). On the tune part's pages
 * read both ways (text layer and a 150-dpi scan of it) the median text-layer height is 1.22–1.51 times the median OCR
 * height (1.35 on average).
 */
const OCR_INK_TO_LINE = 1.35;

/**
 * The line height vertical gaps between rows are measured in: lineHeight, scaled from ink to line on an OCR page (so
 * that a table's rows stand as many "lines" apart on a scan as on its text layer). Horizontal gaps keep lineHeight.
 */
export function rowHeight(page: PageText): number {
  return page.source === 'ocr' ? lineHeight(page) * OCR_INK_TO_LINE : lineHeight(page);
}

/** Splits words (sorted by x) into clusters separated by a horizontal gap wider than `gap`. */
export function clusters(words: readonly PositionedWord[], gap: number): PositionedWord[][] {
  const out: PositionedWord[][] = [];
  for (const w of [...words].sort((a, b) => a.box.x0 - b.box.x0)) {
    const cur = out[out.length - 1];
    if (cur && w.box.x0 - cur[cur.length - 1]!.box.x1 <= gap) cur.push(w);
    else out.push([w]);
  }
  return out;
}

/** Vertical centre of a box. */
export function midY(b: Box): number {
  return (b.y0 + b.y1) / 2;
}

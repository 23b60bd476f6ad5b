import { unionBox, type Box, type PositionedWord } from '../../domain/extraction.js';
import type { LineSegment } from './tsv-words.js';

/**
 * The reading order of a page's line segments, by recursive cuts along white space (the XY-cut of document layout
 * analysis), the same for a text layer and for OCR:
 * - a vertical gutter splits the region into columns, read left to right, when both sides read as running text
 *   (at least two rows each, three words a row on average, most words with a letter): two columns of prose are read
 *   one after the other, but a table's descriptions and its columns of numbers beside them are not two columns,
 *   nor is a region in which some row has words on the left and only numbers on the right (a table row: a two-
 *   column header's gutter running on down between a table's descriptions and its numbers);
 * - otherwise the widest horizontal gap splits it into what is above and what is below;
 * - a region with no gap left is a set of rows: segments side by side on one row (the cells of a table row, a
 *   label and its value) become one line, left to right.
 * So a table is read row by row ("Printer paper A4 12 4.50 54.00"), whatever the engine's own blocks were.
 * Blocks (a blank line in `text`) are where a column ends or where a horizontal gap is wider than
 * PARAGRAPH_GAP line heights.
 */

/** A horizontal gap wider than this share of the page's median line height starts a new block. */
const PARAGRAPH_GAP = 0.9;
/** A gutter between columns is at least this many line heights wide. */
const MIN_GUTTER = 1;
/** Running text: words per row, on average, on each side of a gutter. */
const MIN_COLUMN_WORDS = 3;

interface Gap {
  /** Where the region is cut (the middle of the gap). */
  at: number;
  size: number;
}

/** Gaps between the intervals' union, widest first. */
function gaps(intervals: Array<[number, number]>): Gap[] {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const out: Gap[] = [];
  let end = sorted[0]?.[1] ?? 0;
  for (const [s, e] of sorted.slice(1)) {
    if (s > end) out.push({ at: (s + end) / 2, size: s - end });
    end = Math.max(end, e);
  }
  return out.sort((a, b) => b.size - a.size);
}

const height = (b: Box) => b.y1 - b.y0;
const overlapY = (a: Box, b: Box) => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);

/** Segments grouped into rows (vertically overlapping by half the smaller height), top to bottom, each left to right. */
function rows(segments: readonly LineSegment[]): LineSegment[][] {
  const out: Array<{ box: Box; segs: LineSegment[] }> = [];
  for (const s of [...segments].sort((a, b) => (a.box.y0 + a.box.y1) / 2 - (b.box.y0 + b.box.y1) / 2)) {
    const row = out.find((r) => overlapY(r.box, s.box) >= 0.5 * Math.min(height(r.box), height(s.box)));
    if (row) {
      row.segs.push(s);
      row.box = unionBox([row.box, s.box])!;
    } else out.push({ box: s.box, segs: [s] });
  }
  return out.sort((a, b) => a.box.y0 - b.box.y0).map((r) => r.segs.sort((a, b) => a.box.x0 - b.box.x0));
}

const LETTER = /\p{L}/u;

/**
 * Rows that overlap vertically by more than this share of the smaller one's height are one line of the page: the
 * words of a header cell stacked over two lines half a line above and below the row's other cells ("Prezzo /
 * unitario" beside "Quantità") are not two lines of running text (lines of text touch at most, or overlap by a
 * descender).
 */
const SAME_LINE = 0.25;

/** How many lines the rows (top to bottom) make, rows overlapping by more than SAME_LINE counted once. */
function lineCount(r: readonly LineSegment[][]): number {
  let n = 0;
  let last: Box | null = null;
  for (const row of r) {
    const box = unionBox(row.map((s) => s.box))!;
    if (!last || overlapY(last, box) <= SAME_LINE * Math.min(height(last), height(box))) n++;
    last = box;
  }
  return n;
}

const readsAsText = (segs: readonly LineSegment[]) => {
  const lines = lineCount(rows(segs));
  const words = segs.flatMap((s) => s.words);
  const lettered = words.filter((w) => LETTER.test(w.text)).length;
  return lines >= 2 && words.length / lines >= MIN_COLUMN_WORDS && lettered * 2 > words.length;
};

/**
 * A unit printed in a table row beside its numbers ("2.0 j 250.00€", "3 Stk 4,50", "10 h", "10,00 unidades $1.000,00"):
 * one to three letters, or a unit word of the six languages (pieces, hours, days, months), no other mark (so "Tel." or
 * "rue" with a dot or beside no amount is not one).
 */
const UNIT = /^(?:\p{L}{1,3}|m[²³23]|pz\.?|pce?s?)$/u;
const UNIT_WORD =
  /^(?:units?|unidad(?:es)?|unités?|unità|unidades|einheiten|stück|stck|pieces?|pièces?|pezzi|stuks?|hours?|hrs|horas?|heures?|ore|uren|stunden?|std\.?|days?|días?|jours?|giorni|dagen?|tage?|months?|mes(?:es)?|mois|monate?|mesi|maanden?|litres?|liters?|litros?|kgs?)$/iu;
/** An amount with two decimals (or a rate): what a table row's numbers include. */
const AMOUNT_LIKE = /\d[.,]\d{2}(?!\d)|\d%/u;

/**
 * Only numbers (amounts, quantities, perhaps a currency code): the right-hand cells of a table row. A unit among them
 * ("j 250.00€ 20.0% 500.00€") when the numbers hold two at least, one of them an amount with decimals, and outnumber
 * the units.
 */
const onlyNumbers = (words: LineSegment['words']) => {
  if (!words.some((w) => /\d/u.test(w.text))) return false;
  const lettered = words.filter((w) => LETTER.test(w.text) && !/^\p{Lu}{3}$/u.test(w.text));
  if (lettered.length === 0) return true;
  const numbers = words.filter((w) => /\d/u.test(w.text) && !LETTER.test(w.text));
  return (
    lettered.every((w) => UNIT.test(w.text) || UNIT_WORD.test(w.text)) &&
    numbers.length >= 2 &&
    numbers.length > lettered.length &&
    numbers.some((w) => AMOUNT_LIKE.test(w.text))
  );
};

/**
 * Some row has only numbers on the right of `at` and words on its left: the gutter runs through a table. The words on
 * the left need only stand beside the row, overlapping it at all: an item's description printed on two lines, one a
 * little above its numbers and one a little below, shares no row with them.
 */
const splitsTableRow = (segs: readonly LineSegment[], at: number) =>
  rows(segs.filter((s) => s.box.x0 >= at)).some((row) => {
    if (!onlyNumbers(row.flatMap((s) => s.words))) return false;
    const box = unionBox(row.map((s) => s.box))!;
    return segs.some((s) => s.box.x1 <= at && overlapY(s.box, box) > 0 && s.words.some((w) => LETTER.test(w.text)));
  });

/** One line of the output: its words left to right, and whether a blank line comes before it. */
export interface OrderedLine {
  words: LineSegment['words'];
  box: Box;
  newBlock: boolean;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)]!;
}

/** A word set vertically (a margin note printed sideways): much taller than wide although it has several letters. */
const vertical = (w: LineSegment['words'][number]) =>
  w.text.length >= 3 && w.box.y1 - w.box.y0 > 2 * (w.box.x1 - w.box.x0);

/**
 * The page's segments as lines in reading order. Text set vertically (a copyright line up the margin) is read last,
 * as a block of its own: its tall box would otherwise leave no horizontal gap on the page and tie the rows of a table
 * beside it into one line.
 */
export function orderLines(all: readonly LineSegment[]): OrderedLine[] {
  const sideways = all.filter((s) => s.words.filter(vertical).length * 2 > s.words.length);
  const segments = sideways.length ? all.filter((s) => !sideways.includes(s)) : all;
  const lineHeight = median(segments.map((s) => height(s.box))) || 1;
  const out: OrderedLine[] = [];
  let pendingBlock = false;
  const emit = (segs: readonly LineSegment[]) => {
    for (const row of rows(segs)) {
      out.push({
        words: row.flatMap((s) => s.words),
        box: unionBox(row.map((s) => s.box))!,
        newBlock: pendingBlock && out.length > 0,
      });
      pendingBlock = false;
    }
  };
  const cut = (segs: readonly LineSegment[]) => {
    if (segs.length <= 1) return emit(segs);
    const h = gaps(segs.map((s) => [s.box.y0, s.box.y1]))[0];
    const column = gaps(segs.map((s) => [s.box.x0, s.box.x1]))
      .filter((g) => g.size >= MIN_GUTTER * lineHeight && (!h || g.size >= h.size))
      .find(
        (g) =>
          readsAsText(segs.filter((s) => s.box.x1 <= g.at)) &&
          readsAsText(segs.filter((s) => s.box.x0 >= g.at)) &&
          !splitsTableRow(segs, g.at),
      );
    if (column) {
      cut(segs.filter((s) => s.box.x1 <= column.at));
      pendingBlock = true;
      cut(segs.filter((s) => s.box.x0 >= column.at));
      pendingBlock = true;
      return;
    }
    if (!h) return emit(segs);
    cut(segs.filter((s) => s.box.y1 <= h.at));
    if (h.size > PARAGRAPH_GAP * lineHeight) pendingBlock = true;
    cut(segs.filter((s) => s.box.y0 >= h.at));
  };
  cut(segments);
  for (const s of sideways) {
    out.push({ words: s.words, box: s.box, newBlock: out.length > 0 });
  }
  return out;
}

/** A page's text and words from ordered lines: words by single spaces, lines by `\n`, blocks by a blank line. */
export function layoutText(lines: readonly OrderedLine[]): { text: string; words: PositionedWord[] } {
  let text = '';
  const words: PositionedWord[] = [];
  for (const line of lines) {
    if (text !== '') text += line.newBlock ? '\n\n' : '\n';
    line.words.forEach((w, i) => {
      if (i > 0) text += ' ';
      words.push({
        text: w.text,
        box: w.box,
        offset: text.length,
        ...(w.confidence !== undefined ? { confidence: w.confidence } : {}),
      });
      text += w.text;
    });
  }
  return { text, words };
}

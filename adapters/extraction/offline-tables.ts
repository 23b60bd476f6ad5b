/**
 * The line-item table reader of the offline extraction engine: a header row is a line naming at least two columns
 * of LINE_ITEM_HEADERS (one of them a price or an amount); the rows below it are read column by column, by x
 * position on a page with word boxes, by trailing numbers on a plain-text page. A line with only a description
 * continues the item above (multi-line descriptions). quantity × unit price ≈ amount is a consistency hint: it sets
 * the confidence and, when it fails, a warning; it never invents a missing value.
 */
import {
  EXTRACTION_LIMITS,
  LINE_ITEM_COLUMNS,
  LINE_ITEM_HEADERS,
  LINE_ITEM_OTHER_HEADERS,
  type EngineFlag,
  type ExtractedValue,
  type LineItem,
  type LineItemColumn,
  type PageText,
  type PositionedWord,
} from '../../domain/extraction.js';
import { documentDecimalMark, findAmounts, type DecimalMark } from '../../domain/extraction-values.js';
import { conceptOf, findLabels, STARTS_WITH_LABEL } from './offline-labels.js';
import { clusters, evidenceOf, hasBoxes, lineHeight, midY, rowHeight, type Line } from './offline-layout.js';

export interface TableRead {
  items: LineItem[];
  warnings: string[];
  /** Lines that belong to a table (header and rows), as `page:start`: labels are not looked for there. */
  tableLines: Set<string>;
  /** Line items' values the reader is unsure of, and why (a table without a header, its columns guessed). */
  flags: EngineFlag[];
}

const SUMMARY_WORDS = String.raw`sub-?\s*total|total|taxes?|grand\s+total|net\s+total|net\s+amount|nettobetrag|vat|tax|sales\s+tax|gst|mwst|ust|tva|iva|btw|amount\s+due|balance|discount|shipping|zwischensumme|gesamt|summe|netto|rechnungsbetrag|zu\s+zahlen|sous-?\s*total|montant|net\s+à\s+payer|base\s+imponible|importe|subtotal|totale|imponibile|subtotaal|totaal|te\s+betalen|bedrag|descuento|envío|impuestos?|saldo|total\s+parcial|rabatt|skonto|remise|sconto|korting|frais\s+de\s+port|versandkosten|porto|spedizione|verzendkosten|riepiloghi|riepilogo|dati\s+cassa\s+previdenziale|dati\s+ritenuta`;
/** A note line: a short label, a colon and its value ("GTIN: 4012…", "Liefer-Datum: KW 38/2013"). */
const NOTE = /^[\p{L}][\p{L}\p{N} ./-]{0,30}:\s*\S/u;
/** A summary line (subtotal, tax, total, discount, shipping…) in six languages: the table ends there. */
const SUMMARY = new RegExp(`^(?:${SUMMARY_WORDS})(?![\\p{L}])`, 'iu');
/** A summary label in capitals anywhere in a row ("Please use this reference: TOTAL PARCIAL 1419.00"). */
const SUMMARY_INSIDE = new RegExp(
  `(?<![\\p{L}])(?:sub-?\\s*total|total(?:\\s+\\p{L}+)?|subtotal|zwischensumme|gesamtbetrag|sous-total|total\\s+parcial|totale|totaal)\\s*:?\\s+[-(]?[$€£]?\\s?\\d[\\d.,'’ ]*\\)?\\s*(?:[$€£]|[A-Z]{3})?\\s*$`,
  'iu',
);

/**
 * An allowance printed under an item, outside the description column ("abzgl. 16,7% Rabatt -2,00"): a note of the item
 * above (its amount is already net of it, or the document's totals carry it), not an item of its own.
 */
const ITEM_ALLOWANCE =
  /(?<![\p{L}])(?:abzgl\.?|abzüglich|rabatt|nachlass|discount|remise|sconto|descuento|korting)(?![\p{L}])/iu;

/**
 * A line that starts with the label of the document's pre-tax total, tax or total ("Untaxed Amount $ 260.00"): the
 * lexicon's labels in every language, beyond the summary words above.
 */
function startsWithTotal(text: string): boolean {
  return ['subtotal', 'tax', 'total'].some((f) => findLabels(conceptOf(f), text).some((h) => h.start === 0));
}

/**
 * A summary label, a colon and an amount that is no rate ("Total with tax: $22,200.00", "Total amount due: 22.200,00 €"):
 * a line of the document's totals, not a note under an item ("Tax: 0.2%" is one).
 */
function summaryWithAmount(text: string, mark: DecimalMark | null): boolean {
  const colon = text.indexOf(':');
  if (colon < 0 || !(SUMMARY.test(text) || startsWithTotal(text))) return false;
  const value = text.slice(colon + 1);
  return !/%/u.test(value) && findAmounts(value, mark).length > 0;
}

/** Marks OCR reads from specks before a line's first word ("~ Net amount", "| Total"). */
const LEADING_MARKS = /^(?:[|_~'‘’"`.,:;—–-]+\s+)+/u;

/** A table's column: one of the line item's, or another (a tax rate, a unit, a position number) read as nothing. */
interface Column {
  col: LineItemColumn | 'other';
  start: number;
  end: number;
  x0: number;
  x1: number;
}

/**
 * The header names as patterns, longest first. A name of several words matches with or without the spaces between
 * them: OCR joins words set close together ("Prezzototale" for "Prezzo totale").
 */
const HEADER_TERMS = [
  ...LINE_ITEM_COLUMNS.flatMap((col) => LINE_ITEM_HEADERS[col].map((term) => ({ col: col as Column['col'], term }))),
  ...LINE_ITEM_OTHER_HEADERS.map((term) => ({ col: 'other' as const, term })),
]
  .sort((a, b) => b.term.length - a.term.length)
  .map(({ col, term }) => ({
    col,
    re: new RegExp(
      `(?<![\\p{L}\\p{N}])${term.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&').replace(/ /gu, '\\s*')}(?![\\p{L}\\p{N}])`,
      'giu',
    ),
  }));

/** The columns a line names when it is a table header, in x (or text) order; null when it is not one. */
export function headerColumns(line: Line): Column[] | null {
  const found: Column[] = [];
  for (const { col, re } of HEADER_TERMS) {
    if (col !== 'other' && found.some((c) => c.col === col)) continue;
    for (const m of line.text.matchAll(re)) {
      const start = line.start + m.index;
      const end = start + m[0].length;
      if (found.some((c) => start < c.end && end > c.start)) continue;
      // The words the name is part of ("IVA" in "%IVA", "%" in "MwSt-%"): a name inside a word takes the word's box.
      const ws = line.words.filter((w) => w.offset < end && w.offset + w.text.length > start);
      // Two names in one word ("MwSt-%") are one column: a line item's column before another.
      const same =
        ws.length === 1 && hasBoxes(line.page)
          ? found.findIndex((c) => c.x0 === ws[0]!.box.x0 && c.x1 === ws[0]!.box.x1)
          : -1;
      if (same >= 0) {
        if (found[same]!.col === 'other' && col !== 'other') found.splice(same, 1);
        else continue;
      }
      found.push({
        col,
        start,
        end,
        x0: Math.min(...ws.map((w) => w.box.x0), Infinity),
        x1: Math.max(...ws.map((w) => w.box.x1), -Infinity),
      });
      if (col !== 'other') break;
    }
  }
  secondPriceIsAmount(line, found);
  const real = found.filter((c) => c.col !== 'other');
  if (real.length < 2 || !real.some((c) => c.col === 'amount' || c.col === 'unit_price')) return null;
  if (findAmounts(line.text).length > 0) return null;
  const covered = found.reduce((n, c) => n + (c.end - c.start), 0);
  if (line.text.replace(/\s/gu, '').length > covered * 2 + 6) return null; // mostly other words: a sentence
  return found.sort((a, b) => (hasBoxes(line.page) ? a.x0 - b.x0 : a.start - b.start));
}

/**
 * A price named twice and no amount ("Unit Price  Taxes  Price"): the second price, right of the first, is the line's
 * amount (as in a stacked header, "Prix unitaire … Prix HT"). Adds it to `found` as the amount column.
 */
function secondPriceIsAmount(line: Line, found: Column[]): void {
  const price = found.find((c) => c.col === 'unit_price');
  if (!price || found.some((c) => c.col === 'amount')) return;
  const terms = HEADER_TERMS.filter(({ col }) => col === 'unit_price');
  for (const { re } of terms)
    for (const m of line.text.matchAll(re)) {
      const start = line.start + m.index;
      const end = start + m[0].length;
      if (start < price.end || found.some((c) => start < c.end && end > c.start)) continue;
      const ws = line.words.filter((w) => w.offset < end && w.offset + w.text.length > start);
      found.push({
        col: 'amount',
        start,
        end,
        x0: Math.min(...ws.map((w) => w.box.x0), Infinity),
        x1: Math.max(...ws.map((w) => w.box.x1), -Infinity),
      });
      return;
    }
}

/**
 * A header whose column names are stacked over two or three lines ("Prix" / "Prix HT" / "unitaire", "Menge" above
 * "Meng.- einheit"): the words of the line and of its neighbours within 1.6 row heights (rowHeight) that hold no number are put
 * into stacks by column (words one above the other, or side by side a word space apart), and each stack's words are
 * matched as one name. It is a header when at least two stacks name line-item columns (one a price or an amount)
 * and at most one more stack than those names nothing. Two price columns and no amount: the right one is the amount
 * ("Prix unitaire … Prix HT"). With word boxes only; null when line `i` is not such a header.
 */
export function stackedHeader(
  lines: readonly Line[],
  i: number,
  lh: number,
): { cols: Column[]; first: number; last: number } | null {
  const line = lines[i]!;
  if (line.words.length < 2 || /\d/u.test(line.text) || line.words.length > 16) return null;
  // The line itself names two columns at least (the neighbours only complete names stacked over lines).
  const own = new Set(
    HEADER_TERMS.filter(({ col, re }) => col !== 'other' && line.text.search(re) >= 0).map(({ col }) => col),
  );
  if (own.size < 2) return null;
  const y = midY(line.words[0]!.box);
  // Vertical distances in row heights (an OCR word box is the glyphs' ink: a header's lines 9 pt apart stand 1.6 ink
  // heights apart on a 150-dpi scan), horizontal ones in line heights.
  const rh = rowHeight(line.page);
  const near = (k: number) => {
    const l = lines[k];
    return l &&
      l.words.length > 0 &&
      l.words.length <= 8 &&
      !/\d/u.test(l.text) &&
      Math.abs(midY(l.words[0]!.box) - y) <= 1.6 * rh
      ? l
      : null;
  };
  const above = near(i - 1);
  const below = near(i + 1);
  if (!above && !below) return null;
  const words = [above, line, below].flatMap((l, n) => (l ? l.words.map((w) => ({ w, n })) : []));
  // Stacks: words overlapping in x on different lines, or a word space apart on one line.
  const stacks: { w: (typeof words)[number]['w']; n: number }[][] = [];
  for (const item of [...words].sort((a, b) => a.w.box.x0 - b.w.box.x0)) {
    const joined = stacks.filter((st) =>
      st.some(
        (o) =>
          (o.n !== item.n && o.w.box.x0 < item.w.box.x1 && item.w.box.x0 < o.w.box.x1) ||
          (o.n === item.n && item.w.box.x0 - o.w.box.x1 <= 0.5 * lh && item.w.box.x0 >= o.w.box.x0),
      ),
    );
    if (joined.length === 0) stacks.push([item]);
    else {
      const into = joined[0]!;
      into.push(item);
      for (const other of joined.slice(1)) {
        into.push(...other);
        stacks.splice(stacks.indexOf(other), 1);
      }
    }
  }
  const cols: Column[] = [];
  let unnamed = 0;
  for (const st of stacks) {
    const ordered = [...st].sort((a, b) => a.n - b.n || a.w.box.x0 - b.w.box.x0);
    const text = stackText(ordered);
    const term = stackTerm(text);
    if (!term) {
      unnamed++;
      continue;
    }
    const x0 = Math.min(...st.map((o) => o.w.box.x0));
    const x1 = Math.max(...st.map((o) => o.w.box.x1));
    const mid = st.filter((o) => o.n === 1).map((o) => o.w);
    const start = mid.length ? Math.min(...mid.map((w) => w.offset)) : line.start;
    const end = mid.length ? Math.max(...mid.map((w) => w.offset + w.text.length)) : line.start;
    cols.push({ col: term.col, start, end, x0, x1 });
  }
  cols.sort((a, b) => a.x0 - b.x0);
  const prices = cols.filter((c) => c.col === 'unit_price');
  if (prices.length === 2 && !cols.some((c) => c.col === 'amount')) prices[1]!.col = 'amount';
  const seen = new Set<string>();
  for (const c of cols) {
    if (c.col !== 'other' && seen.has(c.col)) c.col = 'other';
    seen.add(c.col);
  }
  const real = cols.filter((c) => c.col !== 'other');
  if (real.length < 2 || !real.some((c) => c.col === 'amount' || c.col === 'unit_price') || unnamed > cols.length + 1)
    return null;
  // Only worth it when a neighbour adds a column the line alone does not name.
  const alone = headerColumns(line);
  if (alone && alone.filter((c) => c.col !== 'other').length >= real.length) return null;
  return { cols, first: above ? i - 1 : i, last: below ? i + 1 : i };
}

/** HEADER_TERMS' patterns without their flags' state (no `g`), for an `exec` of one word; compiled once. */
const HEADER_TERM_WORDS = HEADER_TERMS.map(({ re }) => new RegExp(re.source, 'iu'));

/** A word that is one of the header names by itself ("Descuento"). */
const isHeaderWord = (word: string) =>
  HEADER_TERM_WORDS.some((re) => {
    const m = re.exec(word);
    return m !== null && m.index === 0 && m[0].length === word.length;
  });

/**
 * A stack's words as one name, line after line. A word a narrow cell broke over two lines with no hyphen ("Descuen" /
 * "to total") is joined again when the two halves make a header name ("Descuento total"); else words are spaced.
 */
function stackText(ordered: readonly { w: { text: string }; n: number }[]): string {
  let text = '';
  ordered.forEach((o, k) => {
    const prev = ordered[k - 1];
    const broken = prev !== undefined && prev.n < o.n && isHeaderWord(prev.w.text + o.w.text);
    text += k === 0 ? o.w.text : broken ? o.w.text : ` ${o.w.text}`;
  });
  return text;
}

/**
 * The column a stack's words name: a line item's column before another ("Menge Meng.- einheit" is the quantity),
 * unless the other column's name contains it ("Cod. articolo" is a code, not the article's description).
 */
function stackTerm(text: string): (typeof HEADER_TERMS)[number] | undefined {
  const match = (re: RegExp) => {
    const m = new RegExp(re.source, 'iu').exec(text);
    return m ? { start: m.index, end: m.index + m[0].length } : null;
  };
  const real = HEADER_TERMS.find(({ col, re }) => col !== 'other' && match(re));
  if (!real) return HEADER_TERMS.find(({ re }) => match(re));
  const r = match(real.re)!;
  const wider = HEADER_TERMS.find(({ col, re }) => {
    const o = col === 'other' ? match(re) : null;
    return o !== null && o.start <= r.start && o.end >= r.end && o.end - o.start > r.end - r.start;
  });
  return wider ?? real;
}

interface Cell {
  start: number;
  end: number;
}

type Row = Partial<Record<LineItemColumn, Cell>>;

/**
 * Stray marks OCR reads at the ends of a description (a table rule as `|`, specks as `.`, `'`, `~`, dashes): words made
 * of nothing else are dropped from its start and end (`Desk lamp |` → `Desk lamp`); the value stays a part of its
 * snippet, so its evidence is unchanged.
 */
const STRAY_MARKS = /^(?:[|_~'‘’"`.,:;—–-]+ )+|(?: [|_~'‘’"`.,:;—–-]+)+$/gu;

/**
 * The cells of a row by x position: boundaries after a description at the next header, after a number at its end. A
 * number set apart at the end of the description's cell, under nothing, while the numeric column right of the
 * description is empty on this row, is that column's (a right-aligned quantity under a header printed further right:
 * "Justificatif PDF        1" under "Désignation … Nombre").
 */
function rowByPosition(line: Line, cols: Column[], lh: number): Row {
  const bounds = cols
    .slice(0, -1)
    .map((c, i) =>
      c.col === 'description' || (c.col === 'other' && cols[i + 1]!.col === 'description')
        ? cols[i + 1]!.x0 - 1
        : Math.max(c.x1 + 1, (c.x1 + cols[i + 1]!.x0) / 2),
    );
  const row: Row = {};
  const byCol = new Map<number, PositionedWord[]>();
  for (const [k, w] of line.words.entries()) {
    const cx = (w.box.x0 + w.box.x1) / 2;
    let i = bounds.findIndex((b) => cx <= b);
    if (i < 0) i = cols.length - 1;
    // A word that ends before its column's name starts, right of the column name before it, is that one's: numbers
    // right-aligned under names left-aligned in their cells ("Aantal … 1   Prijs"), past the middle between the names.
    // Whatever way a column aligns its cells, a cell of it ends at or after its name's start. Not a word a word space
    // before the next one: the start of a longer cell ("1 794,59").
    const nextWord = line.words[k + 1];
    const joined = nextWord !== undefined && nextWord.box.x0 - w.box.x1 < 0.5 * lh;
    if (
      i > 0 &&
      !joined &&
      w.box.x1 < cols[i]!.x0 - 1 &&
      w.box.x0 > cols[i - 1]!.x1 &&
      cols[i - 1]!.col !== 'description'
    )
      i--;
    // A word that starts past the end of a code column's header, left of a description header centred over a wide
    // cell ("Cod. articolo … Descrizione"), is the description's: a cell's text starts at its left edge.
    if (cols[i]!.col === 'other' && cols[i + 1]?.col === 'description' && w.box.x0 > cols[i]!.x1 + 0.5 * lh) i++;
    byCol.set(i, [...(byCol.get(i) ?? []), w]);
  }
  const d = cols.findIndex((c) => c.col === 'description');
  const next = cols[d + 1];
  const descWords = byCol.get(d);
  // The numeric column holds no number on this row: empty, or only the unit printed after the number that stands
  // left of the header's edge ("6.000 Unit(s)" under "Quantity").
  const nextWords = byCol.get(d + 1) ?? [];
  if (d >= 0 && next && next.col !== 'other' && !nextWords.some((w) => /\d/u.test(w.text)) && descWords) {
    const last = descWords[descWords.length - 1]!;
    const before = descWords[descWords.length - 2];
    if (before && NUMBER_TOKEN.test(last.text) && last.box.x0 - before.box.x1 > 1.5 * lh && last.box.x0 > cols[d]!.x1) {
      byCol.set(d, descWords.slice(0, -1));
      byCol.set(d + 1, [last, ...nextWords]);
    }
  }
  for (const [i, words] of byCol) {
    const col = cols[i]!.col;
    if (col === 'other') continue;
    for (const w of words) {
      const cur = row[col];
      row[col] = {
        start: Math.min(cur?.start ?? Infinity, w.offset),
        end: Math.max(cur?.end ?? -Infinity, w.offset + w.text.length),
      };
    }
  }
  return row;
}

/** The cells of a plain-text row: trailing numeric tokens fill the numeric columns from the right, the rest is the description. */
function rowByTokens(line: Line, cols: Column[]): Row {
  const tokens = [...line.text.matchAll(/\S+/gu)].map((m) => ({
    start: line.start + m.index,
    end: line.start + m.index + m[0].length,
    text: m[0],
  }));
  const numeric = cols.flatMap((c) => (c.col === 'description' || c.col === 'other' ? [] : [c.col]));
  const row: Row = {};
  let k = tokens.length;
  let n = numeric.length;
  while (k > 0 && n > 0 && /^[-(]?[$€£]?\d[\d.,'’]*\)?$/u.test(tokens[k - 1]!.text)) {
    k--;
    n--;
    row[numeric[n]!] = { start: tokens[k]!.start, end: tokens[k]!.end };
  }
  if (k > 0 && cols.some((c) => c.col === 'description'))
    row.description = { start: tokens[0]!.start, end: tokens[k - 1]!.end };
  return row;
}

/**
 * "4 x 164.56", "2 × 3,50", "3 @ 1.20", "10 x 1 493,80": a receipt's quantity and unit price, printed where a
 * description would be (after the "x" only one number can follow, so spaces between groups of three are grouping).
 */
const TIMES = /^(\d+(?:[.,]\d+)?)\s*[x×@]\s*(?:[$€£]\s?)?(\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d[\d.,'’]*)$/u;

/**
 * A row whose description cell is only "quantity x unit price" (receipts print it under the item's name) gives its
 * quantity and unit price, and no description, when the row has no quantity or unit price column of its own.
 */
function splitTimes(page: PageText, row: Row): Row {
  const d = row.description;
  if (!d || row.quantity || row.unit_price) return row;
  const m = TIMES.exec(page.text.slice(d.start, d.end));
  if (!m) return row;
  const priceAt = d.start + m[0].length - m[2]!.length;
  const { description: _, ...rest } = row;
  const glued = /^\d+(?:[.,]\d+)?[x×]/u.test(m[0]) ? 1 : 0;
  return {
    ...rest,
    quantity: { start: d.start, end: d.start + m[1]!.length + glued },
    unit_price: { start: priceAt, end: priceAt + m[2]!.length },
  };
}

const empty = (): ExtractedValue => ({ value: null, evidence: null, confidence: null });

/** Quantity × unit price is the amount, within a cent or 0.5 % (a printed unit price is rounded). */
const productAgrees = (quantity: number, unit: number, amount: number): boolean =>
  Math.abs(quantity * unit - amount) <= Math.max(0.011, Math.abs(amount) * 0.005);

/**
 * The number of a cell. `mark`: the document's decimal mark, for a number whose one mark stands before three digits
 * ("5,000" kg among decimal commas is 5; "1.500" among decimal points is 1.5).
 */
function numberCell(page: PageText, cell: Cell | undefined, mark: DecimalMark | null): ExtractedValue {
  if (!cell) return empty();
  const text = page.text.slice(cell.start, cell.end);
  const m = [...findAmounts(text, mark), ...fourDecimals(text)].sort((x, y) => x.index - y.index)[0];
  if (!m) return empty();
  // "4x" (a quantity glued to its "x"): the quote is the whole token, so it is not cut out of a word.
  const glued = /^[x×]/u.test(text.slice(m.index + m.raw.length)) ? 1 : 0;
  return {
    value: m.value,
    evidence: evidenceOf(page, cell.start + m.index, cell.start + m.index + m.raw.length + glued),
    confidence: 0.8,
  };
}

/**
 * Quantities and unit prices printed with four or five decimals ("10000,0000", "0,0520", "10.5000", an energy tariff's
 * "0,00101" per kWh), which are no amount in the amount grammar (findAmounts: at most three decimals): in a table
 * cell, one mark before four or five digits is the decimal mark.
 */
const FOUR_DECIMALS = /(?<![\p{L}\p{N}.,'’/_#-])(-?)(\d+)[.,](\d{4,5})(?![\p{N}%]|[.,'’]\d)/gu;
function fourDecimals(text: string): { index: number; raw: string; value: string }[] {
  return [...text.matchAll(FOUR_DECIMALS)].map((m) => ({
    index: m.index,
    raw: m[0],
    value: `${m[1]}${m[2]!.replace(/^0+(?=\d)/u, '')}.${m[3]}`,
  }));
}

interface Draft {
  item: LineItem;
  desc: Cell[];
  page: PageText;
  y: number;
  /** The header word the description column was taken from when it names no column (unnamedFirstColumn). */
  guessedDescription: string | null;
}

/** Reads the line items of every table on the given pages (lines per page from pageLines). */
export function readLineItems(pages: readonly { page: PageText; lines: Line[] }[]): TableRead {
  const items: LineItem[] = [];
  const warnings: string[] = [];
  const tableLines = new Set<string>();
  const flags: EngineFlag[] = [];
  const drafts: Draft[] = [];
  const mark = documentDecimalMark(pages.map((p) => p.page.text));
  for (const { page, lines } of pages) {
    const boxes = hasBoxes(page);
    const lh = lineHeight(page);
    const rh = rowHeight(page);
    for (let i = 0; i < lines.length; i++) {
      const head = boxes ? stackedHeader(lines, i, lh) : null;
      let cols = head?.cols ?? headerColumns(lines[i]!);
      if (!cols) continue;
      const [first, lastHeader] = head ? [head.first, head.last] : [i, i];
      const unnamed = boxes ? unnamedFirstColumn(lines.slice(first, lastHeader + 1), cols) : null;
      if (unnamed) cols = [unnamed.col, ...cols];
      if (boxes) cols = currencyAmountColumn(lines.slice(first, lastHeader + 1), cols);
      for (let k = first; k <= lastHeader; k++) tableLines.add(`${page.page}:${lines[k]!.start}`);
      let last: Draft | null = null;
      let pending: Cell[] = [];
      /** The y of each pending description line. */
      let pendingY: number[] = [];
      let above = false;
      let prevY = boxes ? midY(lines[lastHeader]!.words[0]!.box) : 0;
      /** The y of each item's row of numbers in this table. */
      const rowYs: number[] = [];
      const slot = boxes ? unnamedPriceSlot(lines.slice(first, lastHeader + 1), cols) : null;
      let j = lastHeader + 1;
      for (; j < lines.length; j++) {
        const line = lines[j]!;
        if (headerColumns(line) || (boxes && stackedHeader(lines, j, lh))) break;
        const y = boxes && line.words[0] ? midY(line.words[0].box) : 0;
        // A header row often stands further from its first row (its cell padding, a rule) than the rows from each other.
        if (boxes && y - prevY > (j === lastHeader + 1 ? 4.5 : 3) * rh && !atPitch(rowYs, y, rh)) break;
        const row = splitTimes(page, boxes ? rowByPosition(line, cols, lh) : rowByTokens(line, cols));
        let q = numberCell(page, row.quantity, mark);
        let u = numberCell(page, row.unit_price, mark);
        // The quantity cell's number stands wholly right of the quantity's header, under a header word that names
        // nothing readable (unnamedPriceSlot: OCR's "UezO," for "Prezzo / unitario") and the row has no unit price: it
        // is the unit price of a row that prints no quantity ("Competenze  100,00 … 100,00"), unsure.
        const slotted = slot && u.value === null && q.value !== null && inSlot(line, row.quantity!, slot);
        if (slotted) {
          u = { ...q, confidence: 0.6 };
          q = empty();
        }
        const a = numberCell(page, row.amount, mark);
        // A note with numbers under an item, nothing in the amount column: its numbers are a label's values
        // ("Besteller: Hr. Mayer, Personalnr. 4488", "Zählerstand von-bis: 543210 - 544420") or words of a sentence or
        // an address running across the columns ("KOSTENLIEFERANT GMBH, Werk 3, HAUPTSTR. 1, 99199 …"), not cells.
        if (
          boxes &&
          a.value === null &&
          (q.value !== null || u.value !== null) &&
          cols.some((c) => c.col === 'amount') &&
          (labelBeforeNumber(line.text, mark) || clusters(line.words, 1.5 * lh).length === 1)
        ) {
          tableLines.add(`${page.page}:${line.start}`);
          prevY = y;
          continue;
        }
        const desc =
          boxes && q.value === null && u.value === null && a.value === null ? phrase(line, row, lh) : row.description;
        // A note under an item ("GTIN: 4012345001235", "Notes: Replaced capacitor", "Tax: 0.2%"): part of the table,
        // not of the item's description and not its end. A summary label with an amount ("Total with tax: $22,200.00")
        // is the table's end, read as a label below.
        if (
          q.value === null &&
          u.value === null &&
          (a.value === null || desc === undefined) &&
          (NOTE.test(line.text.trim()) || (desc === undefined && ITEM_ALLOWANCE.test(line.text))) &&
          !SUMMARY_INSIDE.test(line.text.trim()) &&
          !summaryWithAmount(line.text.trim().replace(LEADING_MARKS, ''), mark)
        ) {
          tableLines.add(`${page.page}:${line.start}`);
          prevY = y;
          continue;
        }
        // (A stray mark OCR put before the label does not hide it: "~ Net amount '€2'633.96".)
        const bare = line.text.trim().replace(LEADING_MARKS, '');
        if (
          (SUMMARY.test(bare) || SUMMARY_INSIDE.test(bare) || startsWithTotal(bare)) &&
          q.value === null &&
          u.value === null
        )
          break;
        if (q.value === null && u.value === null && a.value === null) {
          if (!desc) break;
          if (/:\s*$/u.test(line.text)) {
            // A sentence introducing the items, between the header row and the first item ("Wir erlauben uns Ihnen
            // folgende Positionen … in Rechnung zu stellen:"): neither an item's description nor the table's end.
            if (!last && pending.length === 0 && line.words.length >= 5) {
              prevY = y;
              continue;
            }
            // Else a line ending with a colon is a label or a heading ("Observaciones / Instrucciones de pago:"): the
            // table ends.
            break;
          }
          // A rule drawn with dashes ("------------------------") separates what is above it from the next item (also
          // with a speck OCR read at one end of it: "a-----------------------").
          const ruleText = page.text.slice(desc.start, desc.end);
          if (/^[-–—_=*.\s]{3,}$/u.test(ruleText) || /^\S?[-–—_=]{8,}\S?$/u.test(ruleText.trim())) {
            pending = [];
            pendingY = [];
            tableLines.add(`${page.page}:${line.start}`);
            prevY = y;
            continue;
          }
          // A description line: continues the item above when close to it, else starts the next item's description.
          // In a table whose first item had its description above its numbers (receipts), it starts the next, unless
          // it stands less than a row's height under the item's last line: a description on two lines centred on its
          // row of numbers, one half a line above it and one half a line below (lines of their own stand a row apart).
          if (last && (above ? boxes && y - last.y < 0.85 * rh : !boxes || y - last.y <= 1.6 * rh)) {
            last.desc.push(desc);
            last.y = y;
          } else {
            pending.push(desc);
            pendingY.push(y);
          }
          tableLines.add(`${page.page}:${line.start}`);
          prevY = y;
          continue;
        }
        tableLines.add(`${page.page}:${line.start}`);
        // Description lines above a row are its own only as far as they stand together with it: a blank row between
        // them (a rule OCR did not read, a gap before the item) leaves the lines above it as notes of the table.
        if (boxes && pending.length > 0) {
          let k = pending.length;
          let below = y;
          while (k > 0 && below - pendingY[k - 1]! <= 1.6 * rh) below = pendingY[--k]!;
          pending = pending.slice(k);
          pendingY = pendingY.slice(k);
        }
        if (!last && !desc && pending.length > 0) above = true;
        const price = u.value === null && slot ? priceInSlot(page, line, slot, q, a, mark) : null;
        if (slotted)
          flags.push({
            field: 'unit_price',
            item: items.length + drafts.length,
            reason: `line item ${items.length + drafts.length + 1}: unit price read under a column header that names nothing readable ("${slot.name}"), right of the quantity's column; no quantity printed`,
          });
        if (price)
          flags.push({
            field: 'unit_price',
            item: items.length + drafts.length,
            reason: `line item ${items.length + drafts.length + 1}: unit price read under a column header that names nothing readable ("${slot!.name}"), taken because quantity × it = amount`,
          });
        last = {
          item: { description: empty(), quantity: q, unit_price: price ?? u, amount: a },
          desc: [...pending, ...(desc ? [desc] : [])],
          page,
          y,
          guessedDescription: unnamed?.name ?? null,
        };
        pending = [];
        pendingY = [];
        if (items.length + drafts.length >= EXTRACTION_LIMITS.maxLineItems) {
          warnings.push(`More than ${EXTRACTION_LIMITS.maxLineItems} line items: the rest are not read.`);
          finish();
          return { items, warnings, tableLines, flags };
        }
        drafts.push(last);
        rowYs.push(y);
        prevY = y;
      }
      finish();
      i = j - 1;
    }
  }
  if (items.length === 0) {
    for (const { page, lines } of pages) {
      for (const row of headerlessRows(page, lines, mark)) {
        if (items.length >= EXTRACTION_LIMITS.maxLineItems) break;
        tableLines.add(`${page.page}:${row.line.start}`);
        items.push(row.item);
        flags.push({
          field: 'amount',
          item: items.length - 1,
          reason: `line item ${items.length}: read from a table with no header row (its columns taken from quantity × unit price = amount on every line)`,
        });
      }
    }
  }
  if (items.length === 0) {
    for (const { page, lines } of pages) {
      const { rows, total } = oneAmountRows(page, lines, mark);
      for (const row of rows) {
        if (items.length >= EXTRACTION_LIMITS.maxLineItems) break;
        tableLines.add(`${page.page}:${row.line.start}`);
        items.push(row.item);
        flags.push({
          field: 'amount',
          item: items.length - 1,
          reason: `line item ${items.length}: read from a table with one amount column and no header row; its lines add up to the printed total ${total}`,
        });
      }
    }
  }
  if (items.length === 0) {
    for (const { page, lines } of pages) {
      for (const row of receiptRows(page, lines, mark)) {
        if (items.length >= EXTRACTION_LIMITS.maxLineItems) break;
        for (const l of row.lines) tableLines.add(`${page.page}:${l.start}`);
        items.push(row.item);
        flags.push({ field: 'amount', item: items.length - 1, reason: `line item ${items.length}: ${row.reason}` });
      }
    }
  }
  return { items, warnings, tableLines, flags };

  function finish() {
    for (const d of drafts.splice(0)) {
      const it = complete(d);
      if (d.guessedDescription !== null && it.description.value !== null)
        flags.push({
          field: 'description',
          item: items.length,
          reason: `line item ${items.length + 1}: description read under a header word that names no column ("${d.guessedDescription}"), left of the table's named columns`,
        });
      items.push(it);
    }
  }
  function complete(d: Draft): LineItem {
    const it = d.item;
    if (d.desc.length > 0) {
      const value = d.desc
        .map((c) => d.page.text.slice(c.start, c.end))
        .join(' ')
        .replace(/\s+/gu, ' ')
        .replace(STRAY_MARKS, '')
        .slice(0, EXTRACTION_LIMITS.maxValueChars);
      it.description = {
        value,
        evidence: evidenceOf(d.page, d.desc[0]!.start, d.desc[d.desc.length - 1]!.end),
        confidence: 0.8,
      };
    }
    const [q, u, a] = [it.quantity.value, it.unit_price.value, it.amount.value].map((v) =>
      v === null ? null : Number(v),
    );
    if (q != null && u != null && a != null) {
      const ok = productAgrees(q, u, a);
      for (const v of [it.quantity, it.unit_price, it.amount]) v.confidence = ok ? 0.95 : 0.6;
      if (!ok)
        warnings.push(
          `Line item ${items.length + 1}: quantity × unit price (${q} × ${u}) differs from the amount ${a}.`,
        );
    }
    return it;
  }
}

/**
 * A line within the pitch of the table's last two rows of numbers below the last one, when that pitch is wider than
 * the three row heights that otherwise end a table: the rows of a spacious table (descriptions on two lines around
 * their numbers, 3.8 row heights from row to row) go on at their pitch after a one-line item's white space.
 */
function atPitch(rowYs: readonly number[], y: number, rh: number): boolean {
  if (rowYs.length < 2) return false;
  const last = rowYs[rowYs.length - 1]!;
  const pitch = last - rowYs[rowYs.length - 2]!;
  return pitch > 3 * rh && y - last <= 1.15 * pitch;
}

const NUMBER_TOKEN = /^[-(]?[$€£]?\d[\d.,'’]*\)?$/u;
/** A currency printed as a word of its own after an amount ("50,00 €", "12.00 EUR"). */
const CURRENCY_AFTER = /^(?:[€$£]|EUR|USD|GBP|CHF)$/u;
/** A tax rate in a table cell ("21%", "7,5 %" is two tokens and not one). */
const RATE_TOKEN = /^\d{1,2}(?:[.,]\d{1,2})?%$/u;

/**
 * A header word that names no column, right of the quantity's header and before the next column's, in a table without
 * a unit price column (OCR's "UezO," for the stacked "Prezzo / unitario"): the x range of the cells under it.
 */
function unnamedPriceSlot(
  header: readonly Line[],
  cols: readonly Column[],
): { x0: number; x1: number; name: string } | null {
  const q = cols.find((c) => c.col === 'quantity');
  const a = cols.find((c) => c.col === 'amount');
  if (!q || !a || cols.some((c) => c.col === 'unit_price')) return null;
  // The word stands right of the quantity's header, before the next column's.
  const next = [...cols].sort((x, y) => x.x0 - y.x0).find((c) => c.x0 > q.x1);
  if (!next || next.x0 > a.x0) return null;
  const words = header
    .flatMap((l) => l.words)
    .filter((w) => w.box.x0 > q.x1 && w.box.x1 < next.x0 && /\p{L}/u.test(w.text));
  if (words.length !== 1) return null;
  return { x0: q.x1, x1: next.x0, name: words[0]!.text };
}

/**
 * A table whose header names no description column but has words left of its first named column (OCR's "ltem" for
 * "Item"): those words head the description column, the text under them is the description (unsure: a reviewer sees
 * why). Null when no lettered word stands there, or when those words are two cells apart (two columns unnamed).
 */
function unnamedFirstColumn(header: readonly Line[], cols: readonly Column[]): { col: Column; name: string } | null {
  if (cols.some((c) => c.col === 'description')) return null;
  const left = Math.min(...cols.map((c) => c.x0));
  const words = header
    .flatMap((l) => l.words)
    .filter((w) => w.box.x1 < left && !cols.some((c) => w.offset < c.end && w.offset + w.text.length > c.start));
  if (words.length === 0 || !words.some((w) => /\p{L}{2}/u.test(w.text))) return null;
  const lh = lineHeight(header[0]!.page);
  if (clusters(words, 1.5 * lh).length !== 1) return null;
  const x0 = Math.min(...words.map((w) => w.box.x0));
  const x1 = Math.max(...words.map((w) => w.box.x1));
  const start = Math.min(...words.map((w) => w.offset));
  const end = Math.max(...words.map((w) => w.offset + w.text.length));
  return { col: { col: 'description', start, end, x0, x1 }, name: words.map((w) => w.text).join(' ') };
}

/** A column header that is a currency's name alone ("Euro", "EUR", "€", "USD"). */
const CURRENCY_HEADER = /^(?:euros?|eur|€|usd|dollars?|\$|gbp|£|chf|francs?|franken)$/iu;

/**
 * An expense table that converts foreign amounts ("Expense  Currency  Amount  Factor  Euro"): a column right of the
 * amount's that a currency's name heads holds the line's amount in the statement's currency; the named amount column
 * left of it is the amount in the expense's own currency (another column), with a named column between them
 * ("Factor"): a currency right after the amount's name ("Amount EUR") is that column's unit. The columns unchanged
 * when no such word stands there.
 */
function currencyAmountColumn(header: readonly Line[], cols: Column[]): Column[] {
  const amount = cols.find((c) => c.col === 'amount');
  if (!amount) return cols;
  const word = header
    .flatMap((l) => l.words)
    .find(
      (w) =>
        w.box.x0 > amount.x1 &&
        CURRENCY_HEADER.test(w.text) &&
        cols.some((c) => c !== amount && c.x0 > amount.x1 && c.x1 < w.box.x0) &&
        !cols.some((c) => w.offset < c.end && w.offset + w.text.length > c.start),
    );
  if (!word) return cols;
  const named = {
    col: 'amount' as const,
    start: word.offset,
    end: word.offset + word.text.length,
    x0: word.box.x0,
    x1: word.box.x1,
  };
  return [...cols.map((c) => (c === amount ? { ...c, col: 'other' as const } : c)), named].sort((a, b) => a.x0 - b.x0);
}

/** True when the words of `cell` on the line stand wholly inside the slot (right of the quantity's header). */
function inSlot(line: Line, cell: Cell, slot: { x0: number; x1: number }): boolean {
  const ws = line.words.filter((w) => w.offset >= cell.start && w.offset < cell.end);
  return ws.length > 0 && ws.every((w) => w.box.x0 > slot.x0 && w.box.x1 < slot.x1);
}

/**
 * The unit price of a row under an unnamed header word (unnamedPriceSlot): the one number whose box overlaps the word's
 * column and that gives quantity × it = amount (within 0.5 %); unsure (0.6).
 */
function priceInSlot(
  page: PageText,
  line: Line,
  slot: { x0: number; x1: number },
  q: ExtractedValue,
  a: ExtractedValue,
  mark: DecimalMark | null,
): ExtractedValue | null {
  if (q.value === null || a.value === null) return null;
  const [qn, an] = [Number(q.value), Number(a.value)];
  const found = line.words
    .filter((w) => w.box.x0 > slot.x0 && w.box.x1 < slot.x1 && NUMBER_TOKEN.test(w.text))
    .map((w) => numberCell(page, { start: w.offset, end: w.offset + w.text.length }, mark))
    .filter((v) => v.value !== null && productAgrees(qn, Number(v.value), an));
  if (found.length !== 1) return null;
  return { ...found[0]!, confidence: 0.6 };
}

/** A label ("Besteller:", "von-bis:") written before the first number of a line. */
function labelBeforeNumber(text: string, mark: DecimalMark | null): boolean {
  const first = [...findAmounts(text, mark), ...fourDecimals(text)].sort((x, y) => x.index - y.index)[0];
  return first !== undefined && /\p{L}[\p{L}.)-]*\s?:(?:\s|$)/u.test(text.slice(0, first.index));
}

/**
 * The description of a line that holds no number: its description cell and the words that follow it a word space
 * apart, also past the next column's header ("Kommissionierer 1250032 D. Muster", its last word under "Menge").
 */
function phrase(line: Line, row: Row, lh: number): Cell | undefined {
  const d = row.description;
  if (!d) return d;
  let end = d.end;
  let right = Math.max(...line.words.filter((w) => w.offset < d.end && w.offset >= d.start).map((w) => w.box.x1));
  for (const w of line.words.filter((w) => w.offset >= d.end).sort((a, b) => a.box.x0 - b.box.x0)) {
    if (w.box.x0 - right > 1.5 * lh || !/\p{L}/u.test(w.text)) break;
    end = Math.max(end, w.offset + w.text.length);
    right = w.box.x1;
  }
  return { start: d.start, end };
}

interface HeaderlessRow {
  line: Line;
  item: LineItem;
  /** Right edges of the three numbers (boxes), for the columns' alignment. */
  rights: number[];
  /** Left edges of the three numbers (boxes). */
  lefts: number[];
  /** Where the description starts in the page's text. */
  descStart: number;
  y: number;
}

/**
 * A table without a header row: consecutive lines (at least two), each a description followed by exactly three
 * numbers, quantity × unit price = amount on every line (within 0.5 %), and on a page with word boxes the numbers
 * right-aligned in three columns (right edges within two line heights of the first row's). Anything less is no table:
 * three numbers alone may be a date, a phone number or a postcode.
 */
function headerlessRows(page: PageText, lines: readonly Line[], mark: DecimalMark | null): HeaderlessRow[] {
  const boxes = hasBoxes(page);
  const lh = lineHeight(page);
  const rh = rowHeight(page);
  const out: HeaderlessRow[] = [];
  let run: HeaderlessRow[] = [];
  /** Lines of words only under a row, left of its numbers: its description's next lines, if another row follows. */
  let more: Line[] = [];
  const flush = () => {
    if (run.length >= 2) out.push(...run);
    run = [];
    more = [];
  };
  for (const line of lines) {
    const row = itemRow(page, line, boxes, mark);
    const prev = run[run.length - 1];
    const lastY = more.length > 0 && more.at(-1)!.words[0] ? midY(more.at(-1)!.words[0]!.box) : prev?.y;
    if (!row && prev && boxes && continues(line, prev, lastY!, rh)) {
      more.push(line);
      continue;
    }
    const fits =
      row &&
      prev &&
      (!boxes || (row.y - lastY! <= 3 * lh && row.rights.every((r, k) => Math.abs(r - run[0]!.rights[k]!) <= 2 * lh)));
    if (!row || (prev && !fits)) flush();
    if (row && prev && fits && more.length > 0) {
      const d = prev.item.description;
      const end = more.at(-1)!.end;
      d.value = [d.value, ...more.map((l) => l.text.trim())].join(' ').replace(/\s+/gu, ' ').replace(STRAY_MARKS, '');
      d.evidence = evidenceOf(page, prev.descStart, end);
      more = [];
    }
    if (row) run.push(row);
  }
  flush();
  return out;
}

/**
 * A line of a headerless table that continues the description of the row above: within 1.6 row heights of the line
 * above it, with a letter, every word ending before the row's first number and none of them a number of its own.
 */
function continues(line: Line, prev: HeaderlessRow, lastY: number, rh: number): boolean {
  const w0 = line.words[0];
  if (!w0 || midY(w0.box) - lastY > 1.6 * rh || !/\p{L}/u.test(line.text)) return false;
  if (SUMMARY.test(line.text.trim()) || NOTE.test(line.text.trim())) return false;
  return line.words.every((w) => w.box.x1 < prev.lefts[0]! && !NUMBER_TOKEN.test(w.text));
}

function itemRow(page: PageText, line: Line, boxes: boolean, mark: DecimalMark | null): HeaderlessRow | null {
  const tokens = boxes
    ? line.words.map((w) => ({
        start: w.offset,
        end: w.offset + w.text.length,
        text: w.text,
        right: w.box.x1,
        left: w.box.x0,
      }))
    : [...line.text.matchAll(/\S+/gu)].map((m) => ({
        start: line.start + m.index,
        end: line.start + m.index + m[0].length,
        text: m[0],
        right: 0,
        left: 0,
      }));
  if (tokens.length < 4 || SUMMARY.test(line.text.trim())) return null;
  // The trailing numbers, less one tax rate among them ("1  45,00  21%  45,00"): a rate is no cell of the item.
  let k = tokens.length;
  let rate = 0;
  while (k > 0 && (NUMBER_TOKEN.test(tokens[k - 1]!.text) || (RATE_TOKEN.test(tokens[k - 1]!.text) && rate++ < 1))) k--;
  if (rate > 1) return null;
  const trailing = tokens.slice(k);
  if (trailing.length - rate !== 3 || (rate === 1 && RATE_TOKEN.test(trailing[0]!.text))) return null;
  const nums = trailing.filter((t) => !RATE_TOKEN.test(t.text));
  const desc = tokens.slice(0, k);
  if (!desc.some((t) => /\p{L}/u.test(t.text))) return null;
  const [q, u, a] = nums.map((t) => numberCell(page, t, mark));
  if (!q!.value || !u!.value || !a!.value) return null;
  const [qn, un, an] = [q!.value, u!.value, a!.value].map(Number) as [number, number, number];
  if (qn <= 0 || !productAgrees(qn, un, an)) return null;
  for (const v of [q!, u!, a!]) v.confidence = 0.95;
  const start = desc[0]!.start;
  const end = desc[desc.length - 1]!.end;
  const value = page.text.slice(start, end).replace(/\s+/gu, ' ').replace(STRAY_MARKS, '');
  const y = boxes && line.words[0] ? midY(line.words[0].box) : 0;
  return {
    line,
    item: {
      description: { value, evidence: evidenceOf(page, start, end), confidence: 0.8 },
      quantity: q!,
      unit_price: u!,
      amount: a!,
    },
    rights: nums.map((t) => t.right),
    lefts: nums.map((t) => t.left),
    descStart: start,
    y,
  };
}

/**
 * A table of one amount column and no header (a cloud bill's "Detail": each service over its "Charges" and "VAT"
 * sub-rows): at least three consecutive lines, each words ending in one amount, the amounts right-aligned (within a
 * line height). Rows that start with a known label (tax, total…) and rows whose description recurs in the run are the
 * items' sub-rows; the rest are the items, taken only when there are two at least and their amounts add up to a total
 * or subtotal printed on the page outside the run. With word boxes only.
 */
function oneAmountRows(
  page: PageText,
  lines: readonly Line[],
  mark: DecimalMark | null,
): { rows: { line: Line; item: LineItem }[]; total: string | null } {
  if (!hasBoxes(page)) return { rows: [], total: null };
  const lh = lineHeight(page);
  const totals = lines.filter(
    (l) => findLabels(conceptOf('total'), l.text).length > 0 || findLabels(conceptOf('subtotal'), l.text).length > 0,
  );
  type One = {
    line: Line;
    desc: { start: number; end: number; text: string };
    amount: ExtractedValue;
    right: number;
    y: number;
  };
  const one = (line: Line): One | null => {
    // A currency sign printed after each amount ("50,00 €"): the amount is the word before it.
    const sign = line.words.length > 2 && CURRENCY_AFTER.test(line.words.at(-1)!.text);
    const words = sign ? line.words.slice(0, -1) : line.words;
    const last = words[words.length - 1];
    // Or glued to it ("0,00€"): the right edges compared are the sign's either way.
    const bare = last?.text.replace(/(?<=\d)[€$£]$/u, '');
    if (!last || words.length < 2 || !NUMBER_TOKEN.test(bare!) || !/[.,]\d{2}\)?$/u.test(bare!)) return null;
    const desc = words.slice(0, -1).filter((w) => /[\p{L}\p{N}]/u.test(w.text));
    if (desc.length === 0 || !desc.some((w) => /\p{L}/u.test(w.text)) || desc.some((w) => NUMBER_TOKEN.test(w.text)))
      return null;
    const amount = numberCell(page, { start: last.offset, end: last.offset + last.text.length }, mark);
    if (amount.value === null) return null;
    const start = desc[0]!.offset;
    const end = desc[desc.length - 1]!.offset + desc[desc.length - 1]!.text.length;
    return {
      line,
      desc: {
        start,
        end,
        text: page.text
          .slice(start, end)
          .replace(/[\s*†]+$/u, '')
          .trim(),
      },
      amount,
      right: sign ? line.words.at(-1)!.box.x1 : last.box.x1,
      y: midY(last.box),
    };
  };
  const runs: { rows: One[]; closer: Line | null }[] = [];
  let run: One[] = [];
  for (const line of lines) {
    // A total's line ends the run (it is what the run adds up to).
    const row = totals.includes(line) ? null : one(line);
    const prev = run[run.length - 1];
    if (row && prev && row.y - prev.y <= 3 * lh && Math.abs(row.right - run[0]!.right) <= lh) {
      run.push(row);
      continue;
    }
    // Two rows are enough when the line right under them is a total's or subtotal's: its amount is checked below.
    const closer =
      prev && totals.includes(line) && line.words[0] && midY(line.words[0].box) - prev.y <= 3 * lh ? line : null;
    if (run.length >= 3 || (run.length === 2 && closer)) runs.push({ rows: run, closer });
    run = row ? [row] : [];
  }
  if (run.length >= 3) runs.push({ rows: run, closer: null });
  for (const { rows: r, closer } of runs) {
    const count = new Map<string, number>();
    for (const x of r) count.set(x.desc.text.toLowerCase(), (count.get(x.desc.text.toLowerCase()) ?? 0) + 1);
    const items = r.filter(
      (x) =>
        count.get(x.desc.text.toLowerCase()) === 1 &&
        !STARTS_WITH_LABEL.test(x.desc.text) &&
        !SUMMARY.test(x.desc.text),
    );
    if (items.length < 2) continue;
    const cents = items.reduce((sum, x) => sum + Math.round(Number(x.amount.value) * 100), 0);
    const inRun = new Set(r.map((x) => x.line));
    const total = (r.length >= 3 ? totals.filter((l) => !inRun.has(l)) : closer ? [closer] : [])
      .flatMap((l) => findAmounts(l.text, mark))
      .find((a) => Math.round(Number(a.value) * 100) === cents);
    if (!total) continue;
    return {
      total: total.value,
      rows: items.map((x) => ({
        line: x.line,
        item: {
          description: {
            value: x.desc.text,
            evidence: evidenceOf(page, x.desc.start, x.desc.start + x.desc.text.length),
            confidence: 0.6,
          },
          quantity: empty(),
          unit_price: empty(),
          amount: x.amount,
        },
      })),
    };
  }
  return { rows: [], total: null };
}

/** A price on a till receipt's row: two decimals, perhaps a currency sign before it. */
const RECEIPT_PRICE = /^-?[$€£]?\d{1,6}[.,]\d{2}-?$/u;
/** What a till receipt prints after a price: a tax letter or code ("A", "T", "*"), a word like "SALE" (two at most). */
const RECEIPT_PRICE_FLAG = /^(?:\p{Lu}{1,4}|\*{1,2})$/u;
/** A product code printed on an item's row (a UPC or a store's article number). */
const RECEIPT_CODE = /^\d{6,}$/u;
/** A receipt's quantity line, "2 @ 1.25" or "3 x 0.99" (more may follow: "1 @ 2.19 or 2/4.00"). */
const RECEIPT_TIMES = /^(\d{1,3}(?:[.,]\d{1,3})?)\s*[x×@]\s*[$€£]?\s?(\d{1,5}[.,]\d{2})(?![\d.,])/u;
/**
 * A note printed under a receipt's item, with the price it was and what was saved ("REGULAR PRICE 9.99", "YOU SAVED
 * 0.50", "MYSTORE SAVINGS 1.20", "RETURN VALUE 8.79"): not an item (the item's own row carries the price paid).
 */
const RECEIPT_NOTE =
  /(?<![\p{L}])(?:(?:regular|reg|orig(?:inal)?|list)\.?\s+price|you\s+saved?|savings?|return\s+value|price\s+you\s+pay|coupon|promo(?:tion)?|points?)(?![\p{L}])/iu;
/**
 * A payment line under a receipt's total (cash, change, a card): it shows the page is a till receipt. In the six
 * languages.
 */
const RECEIPT_TENDER =
  /^(?:cash|change|visa|master\s?card|amex|american\s+express|discover|debit|credit(?:\s+card)?|card|tend(?:er(?:ed)?)?|eftpos|bar(?:geld)?|rückgeld|wechselgeld|ec[- ]?karte|girocard|espèces|rendu|carte(?:\s+bancaire)?|efectivo|cambio|tarjeta|contanti|resto|bancomat|contant|wisselgeld|pinnen)(?![\p{L}])/iu;

type ReceiptLine =
  | {
      kind: 'price';
      line: Line;
      desc: Cell | null;
      amount: ExtractedValue;
      quantity: ExtractedValue;
      unit: ExtractedValue;
    }
  | { kind: 'name'; line: Line; desc: Cell }
  | { kind: 'times'; line: Line; quantity: number; unit: number; at: number; match: RegExpExecArray }
  | { kind: 'note'; line: Line }
  | { kind: 'end'; line: Line };

/** What a line of a till receipt's item block is; null when it is none of these (a date, an address's digits…). */
function receiptLine(page: PageText, line: Line, mark: DecimalMark | null): ReceiptLine | null {
  const bare = line.text.trim().replace(LEADING_MARKS, '');
  if (!bare) return null;
  if (SUMMARY.test(bare) || startsWithTotal(bare) || RECEIPT_TENDER.test(bare)) return { kind: 'end', line };
  const words = line.words.filter((w) => /[\p{L}\p{N}]/u.test(w.text));
  // The price: the last word, or the word before one or two flags ("8.79 SALE", "3.49 F").
  let p = words.length - 1;
  while (p > 0 && words.length - 1 - p < 2 && RECEIPT_PRICE_FLAG.test(words[p]!.text)) p--;
  const priceWord = p >= 0 && RECEIPT_PRICE.test(words[p]!.text) ? words[p]! : null;
  if (!priceWord) {
    const times = RECEIPT_TIMES.exec(bare);
    // The match's offset on the page: `bare` ends where the line's text ends (leading marks stripped).
    const at = line.start + line.text.trimEnd().length - bare.length;
    if (times) return { kind: 'times', line, quantity: num(times[1]!), unit: num(times[2]!), at, match: times };
    if (RECEIPT_NOTE.test(bare)) return { kind: 'note', line };
    const letters = (bare.match(/\p{L}/gu) ?? []).length;
    const digits = (bare.match(/\p{N}/gu) ?? []).length;
    if (!/\p{L}{2}/u.test(bare) || letters < digits || words.length > 10 || /:\s*$/u.test(bare) || NOTE.test(bare))
      return null;
    return {
      kind: 'name',
      line,
      desc: { start: words[0]!.offset, end: words.at(-1)!.offset + words.at(-1)!.text.length },
    };
  }
  // A negative price is an allowance or a refund, not an item.
  if (/^-|-$/u.test(priceWord.text)) return { kind: 'note', line };
  const amount = numberCell(page, { start: priceWord.offset, end: priceWord.offset + priceWord.text.length }, mark);
  if (amount.value === null) return null;
  // Before the price: a tax letter and a product code are no part of the name ("61126943157 A 8.79").
  let before = words.slice(0, p);
  if (before.length > 0 && /^\p{Lu}$/u.test(before.at(-1)!.text)) before = before.slice(0, -1);
  if (before.length > 0 && RECEIPT_CODE.test(before.at(-1)!.text)) before = before.slice(0, -1);
  if (before.length > 0 && RECEIPT_CODE.test(before[0]!.text)) before = before.slice(1);
  let quantity = empty();
  let unit = empty();
  const lead =
    before.length > 0 ? page.text.slice(before[0]!.offset, before.at(-1)!.offset + before.at(-1)!.text.length) : '';
  const times = RECEIPT_TIMES.exec(lead);
  if (times && times[0].length === lead.length) {
    if (productAgrees(num(times[1]!), num(times[2]!), Number(amount.value)))
      ({ quantity, unit } = timesCells(page, before[0]!.offset, times));
    before = [];
  }
  if (before.length === 0) return { kind: 'price', line, desc: null, amount, quantity, unit };
  const desc = { start: before[0]!.offset, end: before.at(-1)!.offset + before.at(-1)!.text.length };
  const text = page.text.slice(desc.start, desc.end);
  if (RECEIPT_NOTE.test(text) || ITEM_ALLOWANCE.test(text)) return { kind: 'note', line };
  if (!/\p{L}{2}/u.test(text)) return null;
  return { kind: 'price', line, desc, amount, quantity, unit };
}

function num(s: string): number {
  return Number(s.replace(',', '.'));
}

/** The quantity and unit price of a receipt's quantity text (a RECEIPT_TIMES match starting at offset `at`). */
function timesCells(
  page: PageText,
  at: number,
  m: RegExpExecArray,
): { quantity: ExtractedValue; unit: ExtractedValue } {
  const uAt = at + m[0].lastIndexOf(m[2]!);
  return {
    quantity: { value: String(num(m[1]!)), evidence: evidenceOf(page, at, at + m[1]!.length), confidence: 0.8 },
    unit: { value: num(m[2]!).toFixed(2), evidence: evidenceOf(page, uAt, uAt + m[2]!.length), confidence: 0.8 },
  };
}

/** A receipt's subtotal or total line ("SUBTOTAL 12.34", "TOTAL 13.00", the lexicon's total labels). */
const opensTotal = (text: string): boolean =>
  /^(?:sub-?\s*total|total)(?![\p{L}])/iu.test(text) || startsWithTotal(text);

/**
 * A till receipt's items, printed without a header row: the block of lines right above its first subtotal or total
 * line, each an item's name and price ("SHOPPING BAG FEE 0.25", a tax letter or "SALE" after the price), an item's
 * name on a line of its own over a row of its code and price ("DORITOS NACHO" / "02840032505 2.00"), a quantity line
 * ("2 @ 1.25", taken when quantity × unit price = the item's price), or a note under an item ("REGULAR PRICE 9.99",
 * "YOU SAVED 0.50": not an item). The block ends upwards at the first line that is none of these (the date and till
 * line, an address's numbers), at a summary or payment line, or at a gap of three row heights. Taken only when the
 * page shows it is a receipt: a payment line (cash, change, a card) under the total, or the prices adding up to the
 * printed subtotal or total; and two priced items at least. A name followed by a note but by no price (its price
 * unread) is an item with no amount. Every line is unsure (no column header): its reason says whether the prices add
 * up to the printed subtotal.
 */
function receiptRows(
  page: PageText,
  lines: readonly Line[],
  mark: DecimalMark | null,
): { lines: Line[]; item: LineItem; reason: string }[] {
  const boxes = hasBoxes(page);
  const rh = rowHeight(page);
  const closer = lines.findIndex((l) => {
    const bare = l.text.trim().replace(LEADING_MARKS, '');
    return opensTotal(bare) && findAmounts(bare, mark).length > 0;
  });
  if (closer <= 0) return [];
  const block: Exclude<ReceiptLine, { kind: 'end' }>[] = [];
  for (let k = closer - 1; k >= 0; k--) {
    const r = receiptLine(page, lines[k]!, mark);
    if (!r || r.kind === 'end') break;
    const below = lines[k + 1]!.words[0];
    const here = lines[k]!.words[0];
    if (boxes && below && here && midY(below.box) - midY(here.box) > 3 * rh) break;
    block.unshift(r);
  }
  type Out = { lines: Line[]; item: LineItem; priced: boolean };
  const out: Out[] = [];
  let pending: { kind: 'name'; line: Line; desc: Cell }[] = [];
  const describe = (c: Cell): ExtractedValue => ({
    value: page.text
      .slice(c.start, c.end)
      .replace(/\s+/gu, ' ')
      .replace(STRAY_MARKS, '')
      .slice(0, EXTRACTION_LIMITS.maxValueChars),
    evidence: evidenceOf(page, c.start, c.end),
    confidence: 0.6,
  });
  // Names with no price of their own after the first item: items whose price was not read.
  const unpriced = () => {
    if (out.length > 0)
      for (const n of pending)
        out.push({
          lines: [n.line],
          item: { description: describe(n.desc), quantity: empty(), unit_price: empty(), amount: empty() },
          priced: false,
        });
    pending = [];
  };
  for (const r of block) {
    if (r.kind === 'name') pending.push(r);
    else if (r.kind === 'note') unpriced();
    else if (r.kind === 'times') {
      const last = out.at(-1);
      const a = last?.priced ? Number(last.item.amount.value) : NaN;
      if (last && pending.length === 0 && last.item.quantity.value === null && productAgrees(r.quantity, r.unit, a)) {
        const { quantity, unit } = timesCells(page, r.at, r.match);
        last.item.quantity = quantity;
        last.item.unit_price = unit;
        last.lines.push(r.line);
      }
    } else if (r.desc === null) {
      // A code-and-price row: the name is the line right above it.
      const name = pending.pop();
      unpriced();
      if (!name) continue;
      out.push({
        lines: [name.line, r.line],
        item: { description: describe(name.desc), quantity: r.quantity, unit_price: r.unit, amount: r.amount },
        priced: true,
      });
    } else {
      unpriced();
      out.push({
        lines: [r.line],
        item: { description: describe(r.desc), quantity: r.quantity, unit_price: r.unit, amount: r.amount },
        priced: true,
      });
    }
  }
  unpriced();
  const priced = out.filter((o) => o.priced);
  if (priced.length < 2) return [];
  const cents = priced.reduce((sum, o) => sum + Math.round(Number(o.item.amount.value) * 100), 0);
  const printed = lines
    .slice(closer, closer + 4)
    .filter((l) => opensTotal(l.text.trim()))
    .flatMap((l) => findAmounts(l.text, mark));
  const adds = out.length === priced.length && printed.some((a) => Math.round(Number(a.value) * 100) === cents);
  const paid = lines
    .slice(closer + 1, closer + 12)
    .some((l) => RECEIPT_TENDER.test(l.text.trim().replace(LEADING_MARKS, '')));
  if (!adds && !paid) return [];
  const first = printed[0]?.value ?? null;
  const sum = (cents / 100).toFixed(2);
  return out.map((o) => ({
    lines: o.lines,
    item: o.item,
    reason: !o.priced
      ? "read from a till receipt's rows (no header row); no price read on its line"
      : adds
        ? `read from a till receipt's rows (no header row); the prices add up to the printed ${sum}`
        : `read from a till receipt's rows (no header row); the prices read add up to ${sum}${first ? `, not the printed ${first}` : ''}`,
  }));
}

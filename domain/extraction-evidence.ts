/**
 * The platform's own check of an engine's evidence (issue 17, section 3), whatever engine answered and whatever
 * confidence it claimed: every non-null value must quote a snippet that occurs in its page's text (whitespace
 * normalised, otherwise exactly as written) and the value must be derivable from that snippet by its kind. A value
 * that fails is kept but flagged; the document then needs review.
 *
 * Pure: no I/O.
 */
import {
  fieldKind,
  LINE_ITEM_COLUMNS,
  type Box,
  unionBox,
  type Evidence,
  type ExtractedValue,
  type ExtractionResult,
  type LineItem,
  type LineItemColumn,
  type PositionedText,
  type ValueKind,
} from './extraction.js';
import {
  amountReadings,
  canonicalDecimal,
  compactId,
  CURRENCY_SYMBOLS,
  dateReadings,
  findCurrencies,
  findIbans,
  insideAny,
  isCurrencyCode,
  isValidIban,
} from './extraction-values.js';

/** The outcome of one non-null value's check. */
export interface EvidenceCheck {
  /** The field name, or for a line item its column (`description`, `quantity`, `unit_price`, `amount`). */
  field: string;
  /** 0-based index of the line item in `items`; null for a document field. */
  item: number | null;
  ok: boolean;
  /** Why the check failed (human-readable, names the field and, for a line item, its 1-based number); null when ok. */
  reason: string | null;
}

/** An engine's result with the platform's check of every non-null value. */
export interface ReviewedResult extends ExtractionResult {
  /** One entry per non-null value: the document's fields in request order, then the line items row by row. */
  checks: EvidenceCheck[];
  /** True when any check failed. */
  review_required: boolean;
  /** The reasons of the failed checks, in the order of `checks`. */
  review_reasons: string[];
}

const ITEM_KINDS: Record<LineItemColumn, ValueKind> = {
  description: 'text',
  quantity: 'number',
  unit_price: 'amount',
  amount: 'amount',
};

/** Whitespace runs (incl. no-break spaces and line breaks) as one space, trimmed. */
export function normaliseWhitespace(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}

/** Checks every non-null value of `result` against `document`; never throws on malformed values, flags them. */
export function checkEvidence(result: ExtractionResult, document: PositionedText): ReviewedResult {
  const pages = new Map(document.pages.map((p) => [p.page, normaliseWhitespace(p.text)]));
  const xml = document.einvoice
    ? {
        file: document.einvoice.file,
        elements: new Map(document.einvoice.elements.map((e) => [e.path, normaliseWhitespace(e.text)])),
      }
    : null;
  const checks: EvidenceCheck[] = [];
  const check = (field: string, item: number | null, kind: ValueKind, v: ExtractedValue) => {
    if (v.value === null) return;
    const failure =
      v.evidence?.source === 'xml'
        ? checkXml(kind, v, xml)
        : checkOne(kind, item !== null && field === 'description', v, pages);
    const where = item === null ? field : `line item ${item + 1} ${field}`;
    checks.push({ field, item, ok: failure === null, reason: failure === null ? null : `${where}: ${failure}` });
  };
  for (const [name, v] of Object.entries(result.fields)) check(name, null, fieldKind(name), v);
  result.items.forEach((it, i) => {
    for (const col of Object.keys(ITEM_KINDS) as LineItemColumn[]) if (it[col]) check(col, i, ITEM_KINDS[col], it[col]);
  });
  // What the engine itself says needs review (e.g. an e-invoice's value its PDF's visible text does not show).
  for (const f of result.flags ?? []) checks.push({ field: f.field, item: f.item, ok: false, reason: f.reason });
  const reasons = checks.flatMap((c) => (c.reason === null ? [] : [c.reason]));
  return { ...result, checks, review_required: reasons.length > 0, review_reasons: reasons };
}

/**
 * A value read from the document's e-invoice XML (`source: 'xml'`): the element its path names must exist in the
 * XML the source carries, the snippet must be that element's text (whitespace normalised) and the value derivable
 * from it by its kind, as on a page (a CII date `20240315` reads as 2024-03-15).
 */
function checkXml(
  kind: ValueKind,
  v: ExtractedValue,
  xml: { file: string | null; elements: Map<string, string> } | null,
): string | null {
  const ev = v.evidence!;
  if (!xml) return 'the evidence names an XML element, but the document has no e-invoice XML';
  if ((ev.file ?? null) !== xml.file)
    return `the evidence names the XML file ${ev.file ?? '(the source)'}, which is not the document's e-invoice XML`;
  const paths = ev.path?.split(SUM_SEPARATOR) ?? [];
  if (paths.length > 1) return checkXmlSum(kind, v, paths, xml.elements);
  const text = ev.path === undefined ? undefined : xml.elements.get(ev.path);
  if (text === undefined)
    return `the evidence names the XML element ${clip(ev.path ?? '(none)')}, which the e-invoice XML does not have`;
  const snippet = normaliseWhitespace(ev.snippet ?? '');
  if (snippet !== text) return `the snippet "${clip(snippet)}" is not the text of the XML element ${clip(ev.path!)}`;
  const cii = kind === 'date' ? /^(\d{4})(\d{2})(\d{2})$/u.exec(snippet) : null;
  const why = derivable(kind, false, v.value!, cii ? `${cii[1]}-${cii[2]}-${cii[3]}` : snippet);
  return why === null
    ? null
    : `the value "${clip(v.value!)}" ${why} "${clip(snippet)}" (XML element ${clip(ev.path!)})`;
}

/** How the paths (and snippets) of a value that is the sum of several XML elements are joined (Evidence.path). */
export const SUM_SEPARATOR = ' + ';

/**
 * A value that is the sum of several XML elements (Evidence.path names them joined by SUM_SEPARATOR): each must
 * exist, the snippet must be their texts joined the same way, each a plain decimal, and the value their exact sum.
 */
function checkXmlSum(
  kind: ValueKind,
  v: ExtractedValue,
  paths: string[],
  elements: Map<string, string>,
): string | null {
  const ev = v.evidence!;
  const missing = paths.find((p) => !elements.has(p));
  if (missing !== undefined)
    return `the evidence names the XML element ${clip(missing)}, which the e-invoice XML does not have`;
  const texts = paths.map((p) => elements.get(p)!);
  const snippet = normaliseWhitespace(ev.snippet ?? '');
  if (snippet !== texts.join(SUM_SEPARATOR))
    return `the snippet "${clip(snippet)}" is not the text of the XML elements ${clip(ev.path!)}`;
  const sum = kind === 'amount' || kind === 'number' ? sumDecimals(texts) : null;
  if (sum === null || !/^-?\d+(\.\d+)?$/u.test(v.value!) || canonicalDecimal(v.value!) !== canonicalDecimal(sum)) {
    return `the value "${clip(v.value!)}" is not the sum of the XML elements ${clip(ev.path!)} ("${clip(snippet)}")`;
  }
  return null;
}

/**
 * The exact sum of plain decimals (`-12.5`, `+3.10`), written with the most decimals any of them has; null when one
 * is not a plain decimal.
 */
export function sumDecimals(values: readonly string[]): string | null {
  const parsed = values.map((s) => /^([+-]?)(\d{1,18})(?:\.(\d{1,12}))?$/u.exec(s.trim()));
  if (parsed.some((m) => m === null)) return null;
  const scale = Math.max(0, ...parsed.map((m) => (m![3] ?? '').length));
  let total = 0n;
  for (const m of parsed) {
    const units = BigInt(m![2]! + (m![3] ?? '').padEnd(scale, '0'));
    total += m![1] === '-' ? -units : units;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  return `${negative ? '-' : ''}${int}${scale > 0 ? `.${digits.slice(digits.length - scale)}` : ''}`;
}

function checkOne(
  kind: ValueKind,
  isItemDescription: boolean,
  v: ExtractedValue,
  pages: Map<number, string>,
): string | null {
  const value = v.value!;
  const ev = v.evidence;
  if (!ev) return 'no evidence was given for the value';
  if (ev.page === null) return 'the evidence names no page';
  const pageText = pages.get(ev.page);
  if (pageText === undefined) return `the evidence names page ${ev.page}, which the document does not have`;
  const snippet = normaliseWhitespace(ev.snippet ?? '');
  if (!snippet) return 'the evidence snippet is empty';
  // A sum of printed figures (a tax printed only per rate): each part on the page, the value their sum.
  if ((kind === 'amount' || kind === 'number') && snippet.includes(SUM_SEPARATOR) && !pageText.includes(snippet))
    return checkPageSum(value, snippet, pageText, ev.page);
  if (!pageText.includes(snippet))
    return `the snippet "${clip(snippet)}" does not occur in the text of page ${ev.page}`;
  if (!occursWhole(pageText, snippet))
    return `the snippet "${clip(snippet)}" occurs on page ${ev.page} only inside a longer word or number`;
  // A tax id is never read out of an IBAN ("DE12 5854 0436 9189" of "DE12 5854 0436 9189 7803 900").
  if (kind === 'tax_id' && onlyInsideIban(pageText, snippet))
    return `the value "${clip(value)}" is read out of an IBAN, in "${clip(snippet)}"`;
  const why = derivable(kind, isItemDescription, value, snippet);
  return why === null ? null : `the value "${clip(value)}" ${why} "${clip(snippet)}"`;
}

/** At most this many parts in a page sum (a VAT summary has a row per rate; more is no summary). */
export const MAX_SUM_PARTS = 12;

/** An amount printed as one figure, with its sign ("-12,50", "(3.00)", "120.00€"); null when the part is not one. */
function printedFigure(part: string): { readings: string[]; negative: boolean } | null {
  const tokens = part.match(/\d[\d.,'’ \u00a0\u202f]*\d|\d/gu) ?? [];
  if (tokens.length !== 1) return null;
  const at = part.indexOf(tokens[0]!);
  const rest = part.slice(0, at) + part.slice(at + tokens[0]!.length);
  // Around the figure only a sign, brackets or a currency (no words: "USt. 19" is no figure of a sum).
  if (/\p{L}{4,}/u.test(rest) || (/\p{L}/u.test(rest) && !findCurrencies(rest).length)) return null;
  const readings = [...amountReadings(tokens[0]!)];
  return readings.length > 0 ? { readings, negative: /[-−(]/u.test(part.slice(0, at)) } : null;
}

/**
 * A value given as the sum of figures printed on one page (a tax printed only per VAT rate, "19,25 + 37,62"): the
 * snippet lists each part joined by SUM_SEPARATOR; each must be one printed amount, occur whole on the page as many
 * times as the snippet lists it, and the value must be their exact sum under some reading of each part's decimal
 * mark. Whether the parts are the right figures to add (the VAT rows' taxes) is the document checks' question.
 */
function checkPageSum(value: string, snippet: string, pageText: string, page: number): string | null {
  const parts = snippet.split(SUM_SEPARATOR).map((p) => p.trim());
  if (parts.length > MAX_SUM_PARTS)
    return `the snippet "${clip(snippet)}" lists ${parts.length} parts of a sum, more than ${MAX_SUM_PARTS}`;
  const figures = [];
  for (const part of parts) {
    const f = part ? printedFigure(part) : null;
    if (!f)
      return `the snippet "${clip(snippet)}" lists "${clip(part)}", which is not one printed amount, as a part of a sum`;
    figures.push(f);
  }
  for (const part of new Set(parts)) {
    const listed = parts.filter((p) => p === part).length;
    const printed = wholeOccurrences(pageText, part);
    if (printed === 0) {
      return pageText.includes(part)
        ? `the part "${clip(part)}" of the sum "${clip(snippet)}" occurs on page ${page} only inside a longer word or number`
        : `the part "${clip(part)}" of the sum "${clip(snippet)}" does not occur on page ${page}`;
    }
    if (printed < listed)
      return `the part "${clip(part)}" of the sum "${clip(snippet)}" is listed ${listed} times but occurs on page ${page} only ${printed === 1 ? 'once' : `${printed} times`}`;
  }
  const want = /^-?\d+(\.\d+)?$/u.test(value) ? canonicalDecimal(value) : null;
  // Every reading of each part's decimal mark (at most two each), bounded: a page's parts share one mark.
  let sums: string[][] = [[]];
  for (const f of figures) {
    sums = sums.flatMap((s) => f.readings.map((r) => [...s, `${f.negative ? '-' : ''}${r}`])).slice(0, 256);
  }
  const ok = want !== null && sums.some((s) => canonicalDecimal(sumDecimals(s) ?? '') === want);
  return ok
    ? null
    : `the value "${clip(value)}" is not the sum of the figures "${clip(snippet)}" printed on page ${page}`;
}

/** How many times `snippet` occurs in `text` without cutting a word or a number (occursWhole), not overlapping. */
function wholeOccurrences(text: string, snippet: string): number {
  let n = 0;
  for (let i = text.indexOf(snippet); i >= 0; i = text.indexOf(snippet, i + 1)) {
    if (!wholeAt(text, snippet, i)) continue;
    n++;
    i += snippet.length - 1;
  }
  return n;
}

/** Null when `value` can be read from `snippet` as a value of `kind`, else the reason (completed by the caller). */
function derivable(kind: ValueKind, isItemDescription: boolean, value: string, snippet: string): string | null {
  switch (kind) {
    case 'amount':
    case 'number': {
      if (!/^-?\d+(\.\d+)?$/u.test(value)) return 'is not a plain decimal number, in';
      const negative = value.startsWith('-');
      const want = canonicalDecimal(value.replace(/^-/u, ''));
      const tokens = snippet.match(/\d[\d.,'’ \u00a0\u202f]*\d|\d/gu) ?? [];
      // Each maximal run and each of its space-separated parts, under either decimal mark.
      const found = tokens.some((t) => [t, ...t.split(' ')].some((part) => amountReadings(part).has(want)));
      if (!found) return 'has other digits or another decimal value than the snippet';
      if (negative && !/[-−(]/u.test(snippet)) return 'is negative but no minus sign or parenthesis is in the snippet';
      return null;
    }
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/u.test(value)) return 'is not a YYYY-MM-DD date, in';
      return dateReadings(snippet).has(value) ? null : 'is not the date written (in any common format) in the snippet';
    case 'currency': {
      if (!isCurrencyCode(value)) return 'is not an ISO 4217 code, in';
      const ok =
        findCurrencies(snippet).some((c) => c.codes.includes(value)) ||
        Object.entries(CURRENCY_SYMBOLS).some(([sym, codes]) => codes.includes(value) && snippet.includes(sym));
      return ok ? null : 'is named by neither its code nor its symbol in the snippet';
    }
    case 'iban': {
      const compact = value.replace(/\s/gu, '').toUpperCase();
      if (!isValidIban(compact)) return 'fails the IBAN checksum or length, in';
      return snippet.replace(/\s/gu, '').toUpperCase().includes(compact) ? null : 'does not occur in the snippet';
    }
    case 'tax_id':
      return compactId(snippet).includes(compactId(value)) && compactId(value) !== ''
        ? null
        : 'does not occur in the snippet';
    case 'email':
      return snippet.toLowerCase().includes(value.trim().toLowerCase()) && value.includes('@')
        ? null
        : 'does not occur in the snippet';
    case 'text': {
      const val = normaliseWhitespace(value);
      if (!val) return 'is blank, for the snippet';
      if (snippet.includes(val)) return null;
      // A line item's description may span lines with the other columns' words between: its words, in order.
      if (isItemDescription && isSubsequence(val.split(' '), snippet.split(' '))) return null;
      return 'does not occur in the snippet';
    }
  }
}

/**
 * True when `snippet` occurs in `text` somewhere without cutting a word or a number: not "3,593" out of "3,593.80",
 * nor "INV-1" out of "INV-12".
 */
function occursWhole(text: string, snippet: string): boolean {
  for (let i = text.indexOf(snippet); i >= 0; i = text.indexOf(snippet, i + 1))
    if (wholeAt(text, snippet, i)) return true;
  return false;
}

/** True when `snippet`, found in `text` at `i`, cuts no word or number there (occursWhole). */
function wholeAt(text: string, snippet: string, i: number): boolean {
  const startsWord = /^[\p{L}\p{N}]/u.test(snippet);
  const endsWord = /[\p{L}\p{N}]$/u.test(snippet);
  const before = text.slice(Math.max(0, i - 2), i);
  const after = text.slice(i + snippet.length, i + snippet.length + 2);
  if (startsWord && (/[\p{L}\p{N}]$/u.test(before) || (/^\d/u.test(snippet) && /\d[.,'’]$/u.test(before))))
    return false;
  if (endsWord && (/^[\p{L}\p{N}]/u.test(after) || (/\d$/u.test(snippet) && /^[.,'’]\d/u.test(after)))) return false;
  return true;
}

/** True when every occurrence of `snippet` in `text` lies inside an IBAN of the text. */
function onlyInsideIban(text: string, snippet: string): boolean {
  const ibans = findIbans(text);
  if (ibans.length === 0) return false;
  for (let i = text.indexOf(snippet); i >= 0; i = text.indexOf(snippet, i + 1))
    if (!insideAny(ibans, i, i + snippet.length)) return false;
  return true;
}

function isSubsequence(words: string[], of: string[]): boolean {
  let i = 0;
  for (const w of of) if (i < words.length && w === words[i]) i++;
  return i === words.length;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

/**
 * Where a line item was read, for a reviewer (issue 29, item 5): the page of its description (else of its first cell
 * with evidence), the union of the boxes of its cells on that page (null when none has a box: a plain-text page), and
 * its cells' snippets on that page in reading order (top to bottom, left to right, when every one has a box; else in
 * column order), separated by spaces. Null when no cell has evidence on a page (an e-invoice's XML line: each of its
 * cells names its own XML element).
 */
export function lineEvidence(item: LineItem): Evidence | null {
  const cells = LINE_ITEM_COLUMNS.map((c) => item[c]?.evidence).filter(
    (e): e is Evidence => !!e && e.page !== null && e.source !== 'xml',
  );
  if (cells.length === 0) return null;
  const page = (item.description?.evidence ?? cells[0]!).page;
  const on = cells.filter((e) => e.page === page);
  const boxes = on.map((e) => e.box).filter((b): b is Box => b !== null);
  const ordered =
    boxes.length === on.length ? [...on].sort((a, b) => a.box!.y0 - b.box!.y0 || a.box!.x0 - b.box!.x0) : on;
  return {
    page,
    snippet: ordered
      .map((e) => normaliseWhitespace(e.snippet))
      .filter(Boolean)
      .join(' '),
    box: unionBox(boxes),
  };
}

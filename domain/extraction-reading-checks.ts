/**
 * Checks of how a value was read off its page (issue 29, item 4: "no wrong value without a review flag", through each
 * value's own flag; session 16). Each class below was a wrong value that passed the evidence check and the document's
 * arithmetic, and went out flagged for its document only:
 * - a buyer's VAT id printed on the line of the sender line's name (a legal footer "Muster GmbH  USt-IdNr.: …"): the
 *   seller's, whatever name was given for the seller;
 * - a party name in capitals that stops before the end of its phrase ("ALCHIMIE DATA" of "ALCHIMIE DATA SOLUTIONS",
 *   a slanted letterhead line OCR read at two heights);
 * - OCR's doubts inside a line's description or a name: a bar "|" among its words (a letter l or I, or a table rule),
 *   a word with digits read under OCR_ID_DOUBT ("759" for "75g": no sum confirms a description's figures);
 * - a line item with no quantity, under a table header that names a quantity column (OCR lost a single digit).
 * And three the offline engine flagged by its own doubt only, so that a sure engine (a language model) is flagged too:
 * - a seller's name that is not the sender line's name (the addressee under the sender line given as the seller);
 * - a party's name that is a document's title ("KOSTENRECHNUNG", "Invoice").
 * (The third, a tax of 0 beside VAT rows that carry tax, is check 7a of extraction-checks.ts.)
 * Whatever engine answered: the answer's values and their evidence only. Pure: no I/O.
 */
import {
  centreIn,
  clip,
  fieldKind,
  LINE_ITEM_HEADERS,
  lineAround,
  OCR_DOUBT,
  type Box,
  type ExtractedValue,
  type ExtractionResult,
  type PageText,
  type PositionedText,
  type PositionedWord,
} from './extraction.js';
import { lineEvidence } from './extraction-evidence.js';
import { nameContains, senderLineOf } from './extraction-parties.js';

/** A flag of these checks: fields by name, line items' columns by index. */
export interface ReadingFlag {
  reason: string;
  fields: string[];
  items?: { field: string; item: number }[];
}

/**
 * Under this OCR word confidence, a figure inside a description is doubtful. Words under OCR_DOUBT (60) are flagged by
 * the document checks already (check 14). On the tune scans, article codes and sizes read right stood at 74–89, the
 * misread "759" (for "75g") at 69: 75 flags one right line's code ("ÖST250" at 74) to catch it.
 */
const DIGIT_DOUBT = 75;

const midY = (b: Box) => (b.y0 + b.y1) / 2;

/** The page of a value read from a page (null for XML, a missing page, or no evidence). */
function pageOf(document: PositionedText, v: ExtractedValue | undefined): PageText | null {
  const ev = v?.evidence;
  if (!v || v.value === null || !ev || ev.source === 'xml' || ev.page === null) return null;
  return document.pages.find((p) => p.page === ev.page) ?? null;
}

/** The words of a value on its page: those inside its box when it has one, else those of its snippet's first place. */
function wordsOf(page: PageText, v: ExtractedValue): PositionedWord[] {
  const ev = v.evidence!;
  if (ev.box && page.words.some((w) => w.box.x1 > w.box.x0)) {
    const box = ev.box;
    return page.words.filter((w) => centreIn(w.box, box));
  }
  const at = page.text.indexOf(ev.snippet);
  return at < 0 ? [] : page.words.filter((w) => w.offset >= at && w.offset < at + ev.snippet.length);
}

export function checkReadings(
  result: ExtractionResult,
  document: PositionedText,
  conceptOf: (field: string) => string,
): ReadingFlag[] {
  return [
    ...senderChecks(result, document, conceptOf),
    ...titlesAsNames(result, document, conceptOf),
    ...cutNames(result, document, conceptOf),
    ...ocrDoubts(result, document, conceptOf),
    ...quantitiesNotRead(result, document),
  ];
}

/** The name on page 1's sender line (a business letter's return address over its address window), if any. */
function senderName(document: PositionedText): string | null {
  const first = document.pages.find((p) => p.page === 1);
  // OCR reads a sender line's dashes as em dashes ("Muster GmbH — Hafenstraße 9 — 20459 Hamburg"): read as en dashes
  // (the same length, so every offset holds).
  return (first && senderLineOf({ ...first, text: first.text.replace(/—/gu, '–') })?.name.text.trim()) || null;
}

/** The party names of `concepts` read from a page, with their field names. */
const namesRead = (
  result: ExtractionResult,
  document: PositionedText,
  conceptOf: (field: string) => string,
  concepts: readonly string[],
): [string, string][] =>
  Object.entries(result.fields).flatMap(([f, v]) =>
    concepts.includes(conceptOf(f)) && pageOf(document, v) ? [[f, v.value!] as [string, string]] : [],
  );

/** A document's title: an invoice or a credit note, in the six languages (the last word of a name, compounds too). */
const TITLE =
  /(?:rechnung|gutschrift|^invoice|^facture|^factura|^fattura|^factuur|^avoir|^proforma|^pro-forma|^creditnota)$/iu;
const lastWord = (name: string) =>
  name
    .trim()
    .split(/\s+/u)
    .at(-1)!
    .replace(/[^\p{L}-]/gu, '');

/** A party's name that is a document's title ("KOSTENRECHNUNG" right of "Kunde:", "Invoice" over the buyer's block). */
function titlesAsNames(
  result: ExtractionResult,
  document: PositionedText,
  conceptOf: (field: string) => string,
): ReadingFlag[] {
  return namesRead(result, document, conceptOf, ['vendor_name', 'customer_name'])
    .filter(([, name]) => TITLE.test(lastWord(name)))
    .map(([f, name]) => ({
      reason: `${f} "${clip(name)}" is a document's title (an invoice, a credit note), not a name`,
      fields: [f],
    }));
}

/**
 * What the sender line's name (the seller's) says of the parties: a seller's name read from a page that is not it (the
 * addressee under it, or another name), and a buyer's VAT id printed on a line that names it.
 */
function senderChecks(
  result: ExtractionResult,
  document: PositionedText,
  conceptOf: (field: string) => string,
): ReadingFlag[] {
  const sender = senderName(document);
  if (!sender) return [];
  const out: ReadingFlag[] = namesRead(result, document, conceptOf, ['vendor_name'])
    .filter(([, name]) => !nameContains(name, sender))
    .map(([f, name]) => ({
      reason: `${f} "${clip(name)}" is not "${clip(sender)}", the name on the sender line above the address window`,
      fields: [f],
    }));
  const buyer = Object.entries(result.fields).find(([f, v]) => conceptOf(f) === 'customer_name' && v.value)?.[1].value;
  if (buyer && nameContains(buyer, sender)) return out;
  for (const [f, v] of Object.entries(result.fields)) {
    const page = conceptOf(f) === 'buyer_tax_id' ? pageOf(document, v) : null;
    if (!page) continue;
    const places = wordsOf(page, v).map((w) => lineAround(page.text, w.offset).text);
    if (places.some((line) => nameContains(line, sender)))
      out.push({
        reason: `${f} "${clip(v.value!)}" is printed on the line of "${clip(sender)}", the sender line's name: it is the seller's`,
        fields: [f],
      });
  }
  return out;
}

const CAPITALS = /^[\p{Lu}][\p{Lu}&'’.-]+$/u;

/**
 * A name in capitals that stops before the end of its phrase: the word after it on its page line, a word space away
 * (at most its words' height), is in capitals too, and so is the rest of the line up to the next gap.
 */
function cutNames(
  result: ExtractionResult,
  document: PositionedText,
  conceptOf: (field: string) => string,
): ReadingFlag[] {
  const out: ReadingFlag[] = [];
  for (const [f, v] of Object.entries(result.fields)) {
    if (!['vendor_name', 'customer_name'].includes(conceptOf(f))) continue;
    const page = pageOf(document, v);
    if (!page || page.source === 'plain_text') continue;
    const words = wordsOf(page, v).sort((a, b) => a.offset - b.offset);
    const lettered = words.filter((w) => /\p{L}{2}/u.test(w.text));
    if (lettered.length === 0 || !lettered.every((w) => CAPITALS.test(w.text))) continue;
    const last = words.at(-1)!;
    const h = Math.max(...words.map((w) => w.box.y1 - w.box.y0));
    const line = lineAround(page.text, last.offset).text;
    const lineEnd = last.offset + line.length;
    const after = page.words
      .filter(
        (w) => w.offset > last.offset && w.offset < lineEnd && !page.text.slice(last.offset, w.offset).includes('\n'),
      )
      .sort((a, b) => a.offset - b.offset);
    const run: PositionedWord[] = [];
    let prev = last;
    for (const w of after) {
      if (w.box.x0 - prev.box.x1 > h || w.box.x0 < prev.box.x1 - h) break;
      run.push(w);
      prev = w;
    }
    if (run.length === 0 || run.length < after.length || !run.every((w) => CAPITALS.test(w.text))) continue;
    out.push({
      reason: `${f} "${clip(v.value!)}" stops before "${clip(run.map((w) => w.text).join(' '))}", which goes on in the same words on its line: the name may be cut short`,
      fields: [f],
    });
  }
  return out;
}

/** OCR's doubts inside a text value (a name, a line's description): a bar among its words, a figure read with doubt. */
function ocrDoubts(
  result: ExtractionResult,
  document: PositionedText,
  conceptOf: (field: string) => string,
): ReadingFlag[] {
  const out: ReadingFlag[] = [];
  const judge = (name: string, v: ExtractedValue | undefined): string | null => {
    const page = pageOf(document, v);
    if (!page || page.source !== 'ocr' || !v!.evidence!.box) return null;
    const words = wordsOf(page, v!);
    if (/(?:^|\s)\|(?:\s|$)/u.test(v!.value!) && words.some((w) => w.text === '|'))
      return `${name} "${clip(v!.value!)}": the OCR read a bar "|" in it, a letter (l, I) or a table's rule misread`;
    const tokens = new Set(v!.value!.split(/\s+/u));
    const doubt = words
      .filter(
        (w) =>
          tokens.has(w.text) &&
          /\p{N}/u.test(w.text) &&
          w.confidence !== undefined &&
          w.confidence >= OCR_DOUBT &&
          w.confidence < DIGIT_DOUBT,
      )
      .sort((a, b) => a.confidence! - b.confidence!)[0];
    return doubt
      ? `${name} "${clip(v!.value!)}": the OCR read "${clip(doubt.text)}" with a word confidence of ${Math.round(doubt.confidence!)} of 100, and no sum confirms a figure in a text`
      : null;
  };
  for (const [f, v] of Object.entries(result.fields)) {
    if (fieldKind(f) !== 'text' || !['vendor_name', 'customer_name'].includes(conceptOf(f))) continue;
    const why = judge(f, v);
    if (why && why.includes('bar')) out.push({ reason: why, fields: [f] });
  }
  result.items.forEach((it, i) => {
    const why = judge(`line item ${i + 1} description`, it.description);
    if (why) out.push({ reason: why, fields: [], items: [{ field: 'description', item: i }] });
  });
  return out;
}

const headerWord = (t: string) => t.toLowerCase().replace(/[:.,]+$/u, '');
const QUANTITY_HEADERS = new Set(LINE_ITEM_HEADERS.quantity);
const OTHER_HEADERS = new Set([...LINE_ITEM_HEADERS.description, ...LINE_ITEM_HEADERS.amount]);

/**
 * A line item with an amount but no quantity on an OCR page, under a table header that names a quantity column and a
 * description or amount column but no unit price: each row's figures are its quantity and its amount, so a row with
 * an amount alone has lost one (a single digit at 96 dpi). A text layer loses no digit, and a table with a unit price
 * column may print a flat charge with no quantity ("le-tout-lyon.fr du 06/12/2022  45,93 €" under "Nombre  P.U. HT").
 */
function quantitiesNotRead(result: ExtractionResult, document: PositionedText): ReadingFlag[] {
  const out: ReadingFlag[] = [];
  result.items.forEach((it, i) => {
    if (it.quantity?.value != null || it.amount?.value == null) return;
    const ev = lineEvidence(it);
    const page = ev?.box ? document.pages.find((p) => p.page === ev.page) : undefined;
    if (!page || page.source !== 'ocr' || !ev?.box) return;
    const box = ev.box;
    const h = Math.max(1, box.y1 - box.y0);
    const above = page.words
      .filter((w) => w.box.y1 <= box.y0 + 1 && QUANTITY_HEADERS.has(headerWord(w.text)))
      .sort((a, b) => b.box.y1 - a.box.y1);
    const rowOf = (q: PositionedWord) => page.words.filter((w) => Math.abs(midY(w.box) - midY(q.box)) < h / 2);
    const head = above.find((q) => rowOf(q).some((w) => OTHER_HEADERS.has(headerWord(w.text))));
    if (!head) return;
    const cells = rowOf(head).sort((a, b) => a.box.x0 - b.box.x0);
    // The header's words as printed and without their trailing stops ("P.U. HT", "Prix unit."), lower case.
    const texts = [(w: PositionedWord) => w.text.toLowerCase(), (w: PositionedWord) => headerWord(w.text)].map(
      (form) => ` ${cells.map(form).join(' ')} `,
    );
    if (LINE_ITEM_HEADERS.unit_price.some((t) => texts.some((x) => x.includes(` ${t} `)))) return;
    const given = (['description', 'unit_price', 'amount'] as const).filter((c) => it[c]?.value != null);
    out.push({
      reason: `line item ${i + 1}: no quantity was read for it, though its table's header names a quantity column ("${head.text}")`,
      fields: [],
      items: given.map((c) => ({ field: c, item: i })),
    });
  });
  return out;
}

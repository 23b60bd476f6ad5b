/**
 * The offline extraction engine (issue 17, section 2; the default engine and what tests use): deterministic label and
 * synonym matching over a document's positioned text, value grammars per kind (domain/extraction-values.ts) and a
 * table reader for line items (offline-tables.ts). It reads a value to the right of its label, or below it when
 * nothing is to the right, and leaves a field null rather than guess. Every value it gives quotes the exact page
 * text it was read from, with the words' box when the page has boxes.
 */
import {
  EXTRACTION_LIMITS,
  type Box,
  type EngineFlag,
  type ExtractedValue,
  type ExtractionRequest,
  type ExtractionResult,
  type PageText,
  type PositionedText,
} from '../../domain/extraction.js';
import { isRateOf, printedFigure, printedRates, taxOfRateRows, taxOfVatRows } from '../../domain/extraction-checks.js';
import {
  currencyCodeOf,
  dateOrderOfCurrency,
  dollarOfDocument,
  findAmounts,
  findCurrencies,
  findDates,
  findEmails,
  findIbans,
  findTaxIds,
  insideAny,
  type AmountMatch,
  compactId,
  resolveDate,
  type CurrencyMatch,
  type DateOrder,
  type DollarReading,
  vatIdProblem,
} from '../../domain/extraction-values.js';
import type { ExtractionProvider } from './extraction-provider.js';
import {
  ATTENTION,
  conceptOf,
  DOCUMENT_TITLE,
  findLabels,
  findMisreadLabels,
  foreignLabels,
  isLabelGroup,
  NEXT_LABEL,
  STARTS_WITH_LABEL,
  type Concept,
  type LabelHit,
  type Reader,
} from './offline-labels.js';
import { clusters, evidenceOf, hasBoxes, lineHeight, midY, pageLines, rowHeight, type Line } from './offline-layout.js';
import { isAddressLine, nameContains } from '../../domain/extraction-parties.js';
import { isCopyMark, isPartyHeading, PARTY_NAME_LABEL, PARTY_NAME_LINE } from '../../domain/extraction-lexicon.js';
import { buyerFromBlocks, nameUnderLabel, sellerFromBlocks, type PartyReading } from './offline-parties.js';
import { readLineItems } from './offline-tables.js';

export class OfflineExtractionEngine implements ExtractionProvider {
  readonly name = 'offline';

  async extract(request: ExtractionRequest): Promise<ExtractionResult> {
    request.signal?.throwIfAborted();
    return extractOffline(request.document, request.fields);
  }
}

const empty = (): ExtractedValue => ({ value: null, evidence: null, confidence: null });

interface Context {
  document: PositionedText;
  pages: { page: PageText; lines: Line[] }[];
  tableLines: Set<string>;
  order: DateOrder | null;
  /** Why a numeric date read in `order` that could be read either way needs review (the order is a guess), or null. */
  orderReason: string | null;
  currency: ExtractedValue;
  /** What a bare `$` on this document is (domain/extraction-values.ts, dollarOfDocument). */
  dollar: DollarReading;
  /** Why a value the engine gives needs review (a weak pairing, an unlabelled or contradicted reading), by value. */
  reasons: Map<ExtractedValue, string>;
  /** The concepts being read (see readField). */
  busy: Set<string>;
}

/** Reads the requested fields and the line items of one document (synchronous, deterministic). */
export function extractOffline(document: PositionedText, fields: readonly string[]): ExtractionResult {
  const pages = document.pages.map((page) => ({ page, lines: pageLines(page) }));
  const table = readLineItems(pages);
  const texts = pages.map((p) => p.page);
  const dollar = dollarOfDocument(texts.map((p) => p.text).join('\n'));
  const currency = documentCurrency(texts, dollar);
  const order = dateOrderOf(texts, currency.value.value, currency.reason ? dollar : null);
  const ctx: Context = {
    document,
    pages,
    tableLines: table.tableLines,
    order: order.order,
    orderReason: order.reason,
    currency: currency.value,
    dollar,
    reasons: new Map(),
    busy: new Set(),
  };
  if (currency.reason) ctx.reasons.set(currency.value, currency.reason);
  const out: Record<string, ExtractedValue> = {};
  const flags: EngineFlag[] = [];
  for (const field of fields) {
    const v = readField(conceptOf(field), ctx) ?? empty();
    out[field] = v;
    const reason = ctx.reasons.get(v);
    if (reason && v.value !== null)
      flags.push({
        field,
        item: null,
        reason: `${field} "${v.value.length > 60 ? `${v.value.slice(0, 57)}…` : v.value}": ${reason}`,
      });
  }
  const all = [...table.flags, ...flags];
  return { fields: out, items: table.items, warnings: table.warnings, ...(all.length > 0 ? { flags: all } : {}) };
}

/**
 * The day/month order of a document's numeric dates: its unambiguous dates (31/01 → day first, 01/31 → month first;
 * both kinds → unknown), else day first when every numeric date is written with dots, else the usual order of the
 * document's currency (USD → month first; EUR, GBP, … → day first), else unknown (ambiguous dates stay null).
 */
export function documentDateOrder(pages: readonly PageText[], currency: string | null): DateOrder | null {
  return dateOrderOf(pages, currency, null).order;
}

/**
 * documentDateOrder, where the currency is a `$` whose reading is unsure (`doubtfulDollar`, see dollarOfDocument):
 * the currency says nothing of the order; a Spanish or Portuguese document's dates are read day first, else by the
 * amounts' decimal commas, and a date that could be read either way is given with a reason to review it.
 */
function dateOrderOf(
  pages: readonly PageText[],
  currency: string | null,
  doubtfulDollar: DollarReading | null,
): { order: DateOrder | null; reason: string | null } {
  const numeric = pages.flatMap((p) => findDates(p.text)).filter((d) => d.separator !== null);
  const dmyOnly = numeric.some((d) => d.dmy && !d.mdy);
  const mdyOnly = numeric.some((d) => d.mdy && !d.dmy);
  const sure = (order: DateOrder | null) => ({ order, reason: null });
  if (dmyOnly !== mdyOnly) return sure(dmyOnly ? 'dmy' : 'mdy');
  if (dmyOnly && mdyOnly) return sure(null);
  if (numeric.length > 0 && numeric.every((d) => d.separator === '.')) return sure('dmy');
  if (currency && !doubtfulDollar) return sure(dateOrderOfCurrency(currency));
  // Amounts written with a decimal comma ("2.470,00", "12,50") and none with a decimal point: the writing of the
  // countries that put the day first (no country writing month-first dates writes decimal commas).
  const decimals = pages.flatMap((p) => findAmounts(p.text)).map((a) => /([.,])\d{1,2}$/u.exec(a.raw)?.[1]);
  const commas = decimals.filter((d) => d === ',').length;
  const order = doubtfulDollar?.dayFirst || (commas >= 1 && !decimals.includes('.')) ? 'dmy' : null;
  if (!doubtfulDollar || order === null) return sure(order);
  return {
    order,
    reason: `read day first as the document's language writes dates, but its "$" is unsure (${doubtfulDollar.reason}): the day and month may be the other way round`,
  };
}

/** Currency markers written next to an amount ("€ 12.00", "12,00 EUR", "$5"). */
function adjacentMarkers(page: PageText): CurrencyMatch[] {
  const amounts = findAmounts(page.text);
  return findCurrencies(page.text).filter((c) =>
    amounts.some((a) => {
      const between =
        c.index < a.index
          ? page.text.slice(c.index + c.raw.length, a.index)
          : page.text.slice(a.index + a.raw.length, c.index);
      return /^[ \u00a0]?$/u.test(between);
    }),
  );
}

/**
 * The document's currency: a "Currency" label is read by the field itself; here the markers next to amounts. ISO
 * codes win; a symbol naming one currency (€, £) counts as it; `$` counts as the currency a dollar code written names,
 * else as the document's evidence says (`dollar`: a peso country's peso, else USD, with a reason to review it when
 * that evidence is missing or mixed); a symbol naming several (¥, kr) only confirms a code. More than one currency →
 * null.
 */
function documentCurrency(
  pages: readonly PageText[],
  dollar: DollarReading,
): { value: ExtractedValue; reason: string | null } {
  const named = amountColumnCurrency(pages);
  if (named) return { value: named, reason: null };
  const found: { code: string; page: PageText; m: CurrencyMatch }[] = [];
  const marks = pages.flatMap((page) => adjacentMarkers(page).map((m) => ({ page, m })));
  const codes = new Set(marks.filter((x) => x.m.isCode).map((x) => x.m.codes[0]!));
  for (const { page, m } of marks) {
    const named = m.codes.filter((c) => codes.has(c));
    const code = m.isCode
      ? m.codes[0]!
      : named.length === 1
        ? named[0]!
        : m.codes.length === 1
          ? m.codes[0]!
          : m.raw === '$'
            ? dollar.code
            : null;
    if (code) found.push({ code, page, m });
  }
  // OCR reads the section sign as a dollar ("gemäß § 8 Ziff. II" → "$ 8 Ziff."): on an OCR page a `$` before a whole
  // number is set aside when other markers name the currency; a dollar amount has its cents ("$ 8.00").
  const section = ({ page, m }: { page: PageText; m: CurrencyMatch }) =>
    page.source === 'ocr' && m.raw === '$' && /^[ \u00a0]?\d{1,4}(?![\d.,])/u.test(page.text.slice(m.index + 1));
  const sure = found.filter((f) => !section(f));
  const counted = sure.length > 0 ? sure : found;
  const distinct = new Set(counted.map((f) => f.code));
  if (distinct.size !== 1) return { value: empty(), reason: null };
  const f = counted[0]!;
  const value = { value: f.code, evidence: evidenceOf(f.page, f.m.index, f.m.index + f.m.raw.length), confidence: 0.7 };
  // A bare `$` read by the document's evidence, that evidence missing or mixed.
  const guessed = counted.every((x) => x.m.raw === '$' && !x.m.isCode && !codes.has(x.code));
  return { value, reason: guessed ? dollar.reason : null };
}

/** An amount column's header with its currency in brackets: "Amount (Euro)", "Betrag (EUR)", "Montant (€)". */
const AMOUNT_HEADER_CURRENCY =
  /(?<![\p{L}])(?:amount|betrag|montant|bedrag|importe|importo|total|totaal|summe|price|preis|prix)\s*\(\s*([^()\s]{1,6})\s*\)/giu;

/**
 * The currency an amount column's header names ("Amount (Euro)"): the amounts under it, and the sums of them, are in
 * it, whatever another row's marker says (an expense paid in HK$ and converted). Null when no header names one, or
 * the headers name more than one.
 */
function amountColumnCurrency(pages: readonly PageText[]): ExtractedValue | null {
  const found = pages.flatMap((page) =>
    [...page.text.matchAll(AMOUNT_HEADER_CURRENCY)].flatMap((m) => {
      const code = currencyCodeOf(m[1]!);
      const index = m.index + m[0].lastIndexOf(m[1]!);
      return code ? [{ code, page, index, raw: m[1]! }] : [];
    }),
  );
  if (found.length === 0 || new Set(found.map((f) => f.code)).size !== 1) return null;
  const f = found[0]!;
  return { value: f.code, evidence: evidenceOf(f.page, f.index, f.index + f.raw.length), confidence: 0.7 };
}

function readField(concept: Concept, ctx: Context): ExtractedValue | null {
  // The parties' readings ask for each other (the buyer is not the seller, a letterhead is not the customer): a concept
  // already being read gives null to the one asking.
  if (ctx.busy.has(concept.id)) return null;
  ctx.busy.add(concept.id);
  try {
    const v = readConcept(concept, ctx);
    // A block's heading read as a party's name ("Cedente/prestatore (fornitore)") is a label, no name; a copy mark
    // ("ORIGINAL", "DUPLICADO") says which copy the print is.
    return concept.name && v?.value && (isPartyHeading(v.value) || isCopyMark(v.value)) ? null : v;
  } finally {
    ctx.busy.delete(concept.id);
  }
}

/**
 * The concept's labels on a line. On a page with word boxes each cell (words a word gap apart, clusters) is looked at on
 * its own: the words of neighbouring cells are no label of one, and the words around a label that make it another
 * concept's are the label's cell's ("INVOICE NO.   DATE   DUE DATE" holds no "date due", and its "DATE" is no date
 * that "due" follows).
 */
function labelsInLine(concept: Concept, line: Line): LabelHit[] {
  const page = line.page;
  if (!hasBoxes(page) || line.words.length === 0) return findLabels(concept, line.text);
  const hits: LabelHit[] = [];
  for (const cell of clusters(line.words, 1.5 * lineHeight(page))) {
    const start = Math.min(...cell.map((w) => w.offset));
    const end = Math.max(...cell.map((w) => w.offset + w.text.length));
    const shift = start - line.start;
    for (const h of findLabels(concept, page.text.slice(start, end)))
      hits.push({ rank: h.rank, start: h.start + shift, end: h.end + shift });
  }
  return hits.sort((a, b) => a.rank - b.rank || a.start - b.start);
}

function readConcept(concept: Concept, ctx: Context): ExtractedValue | null {
  const hits = ctx.pages.flatMap(({ page, lines }) =>
    lines
      .filter((l) => !ctx.tableLines.has(`${page.page}:${l.start}`))
      .flatMap((line) =>
        [...labelsInLine(concept, line), ...stackedLabels(concept, lines, line)].map((hit) => ({
          page,
          lines,
          line,
          hit,
        })),
      ),
  );
  // A tax id's label in the buyer's block ("Bill To:" over "Tax Identifier:" over the number, beside the seller's
  // block with a label of its own) labels the buyer's id, not the seller's; the buyer's id, when no label says
  // "customer VAT", is read from such a label.
  if (concept.reader === 'tax_id') {
    const inBuyer = (h: (typeof hits)[number]) => inBuyerColumn(h.page, h.lines, h.line, h.hit.start);
    if (concept.id === 'buyer_tax_id' && hits.length === 0) {
      const generic = conceptOf('seller_vat_id');
      for (const { page, lines } of ctx.pages)
        for (const line of lines) {
          if (ctx.tableLines.has(`${page.page}:${line.start}`)) continue;
          for (const hit of labelsInLine(generic, line)) {
            if (!inBuyerColumn(page, lines, line, hit.start)) continue;
            const v = readNearLabel(generic, ctx, page, lines, line, hit.start, hit.end);
            if (v) return v;
          }
        }
      return null;
    }
    if (concept.id === 'tax_id') hits.splice(0, hits.length, ...hits.filter((h) => !inBuyer(h)));
  }
  // No label of the concept anywhere: on an OCR page, one misread by a letter or two (a long word, nearer this
  // concept's label than any other's); its value is read as any other, less sure (FUZZY_LABEL).
  const misread = new Set<(typeof hits)[number]['hit']>();
  if (hits.length === 0) {
    for (const { page, lines } of ctx.pages) {
      if (page.source !== 'ocr') continue;
      for (const line of lines) {
        if (ctx.tableLines.has(`${page.page}:${line.start}`)) continue;
        for (const hit of findMisreadLabels(concept, line.text)) {
          misread.add(hit);
          hits.push({ page, lines, line, hit });
        }
      }
    }
  }
  hits.sort(
    (a, b) =>
      a.hit.rank - b.hit.rank || a.page.page - b.page.page || a.line.index - b.line.index || a.hit.start - b.hit.start,
  );
  // A tax printed per rate ("USt. 7% … 9,06", "USt. 19% … 12,25") is no document's tax: only a line without a rate
  // (a sum) is read when the document prints more than one rate.
  const rated = (text: string) => RATE.exec(text)?.[1]?.replace(',', '.') ?? null;
  const rates = new Set(
    concept.id === 'tax' ? hits.map((h) => rated(h.line.text.slice(h.hit.start))).filter((r) => r !== null) : [],
  );
  const usable = hits.filter(({ line, hit }) => !(rates.size > 1 && rated(line.text.slice(hit.start)) !== null));
  // A party block's heading with the name's own label in the block ("Denominazione: …") says more than a label
  // elsewhere that ranks higher ("Codice destinatario" beside the document's number).
  for (const { page, lines, line, hit } of concept.name ? usable : []) {
    const v = isPartyHeading(line.text) ? nameInBlock(page, lines, line, line.start + hit.start) : null;
    if (v) return v;
  }
  // The seller's tax id is not the buyer's: a buyer's block repeated on a later page without its heading labels the
  // buyer's id with a label of any party's ("DNI / CIF").
  const buyerId = concept.id === 'tax_id' ? readField(conceptOf('buyer_vat_id'), ctx)?.value : undefined;
  for (const [k, { page, lines, line, hit }] of usable.entries()) {
    const v =
      readNearLabel(concept, ctx, page, lines, line, hit.start, hit.end) ??
      (concept.name && hasBoxes(page) ? given(ctx, nameUnderLabel(page, line.start + hit.start)) : null);
    if (v && buyerId && v.value === buyerId) continue;
    if (v && misread.has(hit))
      return v.confidence !== null && v.confidence > FUZZY_LABEL && !ctx.reasons.has(v)
        ? { ...v, confidence: FUZZY_LABEL }
        : v;
    if (v) return competing(concept, ctx, v, usable.slice(k + 1));
  }
  if (concept.reader === 'currency') return ctx.currency.value ? ctx.currency : null;
  // No tax under a label of its own, and the tax printed per rate (two VAT rows or more of different rates on one page,
  // perhaps read as a table): their taxes added up, each figure in the evidence (domain/extraction-checks.ts).
  if (concept.id === 'tax') return taxOfVatRows(ctx.document) ?? rateRowsTax(ctx);
  if (concept.id === 'tax_id') {
    // The seller's tax id without a label: the one id printed that is not the buyer's.
    return soleCandidate(concept.reader, ctx, buyerId ?? null);
  }
  if (concept.soleCandidate) return soleCandidate(concept.reader, ctx);
  const pageTexts = ctx.pages.map((p) => p.page).filter(hasBoxes);
  if (concept.id === 'vendor_name') {
    const seller = sellerFromBlocks(pageTexts, readField(conceptOf('seller_vat_id'), ctx)?.value ?? null);
    const top = letterhead(ctx);
    // The letterhead of a document that names itself (or its customer) confirms a block reading the layout alone suggests.
    if (seller && seller.reason && top && nameContains(top.value!, seller.value.value!)) return top;
    return given(ctx, seller) ?? top;
  }
  if (concept.letterhead) return letterhead(ctx);
  // The vendor's reading asks whether a customer is labelled: the blocks' guess is no label.
  if (concept.id === 'customer_name' && !ctx.busy.has('vendor_name')) {
    const seller = readField(conceptOf('seller_name'), ctx)?.value ?? null;
    return given(ctx, buyerFromBlocks(pageTexts, seller, readField(conceptOf('seller_vat_id'), ctx)?.value ?? null));
  }
  return null;
}

/**
 * The tax printed only as rows of their own rates, without a base ("IVA 21%: $2.310,00", "IVA 10,5%: $1.050,00"):
 * their sum (taxOfRateRows), sure only when the subtotal and the total read add up with it; else given with the reason
 * (another tax, such as a "Percepción", may be in the total, or a row misread).
 */
function rateRowsTax(ctx: Context): ExtractedValue | null {
  const v = taxOfRateRows(ctx.document);
  if (!v) return null;
  const subtotal = readField(conceptOf('subtotal'), ctx)?.value ?? null;
  const total = readField(conceptOf('total'), ctx)?.value ?? null;
  const rows = v.evidence!.snippet;
  // (Half a cent either way: each figure is printed to the cent.)
  if (subtotal !== null && total !== null && Math.abs(Number(subtotal) + Number(v.value) - Number(total)) < 0.015)
    return v;
  const unsure = { ...v, confidence: UNSURE };
  ctx.reasons.set(
    unsure,
    subtotal === null || total === null
      ? `the tax is the sum of the rows of its rates (${rows}), and no subtotal and total were read to confirm it is the whole tax`
      : `the tax is the sum of the rows of its rates (${rows}), but subtotal ${subtotal} + ${v.value} is not the total ${total}`,
  );
  return unsure;
}

/**
 * Whether a label at `at` of `line` stands in the buyer's block: below a customer's label ("Bill To:") on the same page
 * (within ten lines), its left edge from that label's left edge up to the next cell right of that label on its line
 * (the seller's block beside it). Pages with word boxes only; a page without a customer's label has no buyer's block.
 */
function inBuyerColumn(page: PageText, lines: readonly Line[], line: Line, at: number): boolean {
  if (!hasBoxes(page)) return false;
  const word = line.words.find((w) => w.offset <= line.start + at && line.start + at < w.offset + w.text.length);
  if (!word) return false;
  const lh = lineHeight(page);
  const customer = conceptOf('buyer_name');
  for (const l of lines.slice(Math.max(0, line.index - 10), line.index)) {
    for (const hit of labelsInLine(customer, l)) {
      const cells = clusters(l.words, 1.5 * lh);
      const k = cells.findIndex((c) =>
        c.some((w) => w.offset <= l.start + hit.start && l.start + hit.start < w.offset + w.text.length),
      );
      if (k < 0) continue;
      const x0 = Math.min(...cells[k]!.map((w) => w.box.x0));
      const x1 = cells[k + 1] ? Math.min(...cells[k + 1]!.map((w) => w.box.x0)) : Infinity;
      // (A scan's boxes are off by a point or two: the seller's block starts a line height left of its cell at most.)
      if (word.box.x0 >= x0 - lh && word.box.x0 < x1 - lh) return true;
    }
  }
  return false;
}

/**
 * A value read under one label while the same concept's label elsewhere on the document gives another value (two
 * totals, two invoice numbers): which one is meant is the page's to say, so the value is given unsure, naming the
 * other. Amounts, dates and identifiers only (a name's label recurs with other words after it).
 */
function competing(
  concept: Concept,
  ctx: Context,
  v: ExtractedValue,
  others: readonly { page: PageText; lines: Line[]; line: Line; hit: { start: number; end: number } }[],
): ExtractedValue {
  if (concept.reader === 'text' || ctx.reasons.has(v) || v.confidence === null || v.confidence <= UNSURE) return v;
  const same = (a: string, b: string) =>
    a === b || (PLAIN_NUMBER.test(a) && PLAIN_NUMBER.test(b) && Number(a) === Number(b));
  for (const o of others) {
    const w = readNearLabel(concept, ctx, o.page, o.lines, o.line, o.hit.start, o.hit.end);
    if (!w || w.value === null || same(w.value, v.value!)) continue;
    const unsure = { ...v, confidence: UNSURE };
    const label = o.line.text.slice(o.hit.start, o.hit.end).replace(/[\s:#–-]+$/u, '');
    ctx.reasons.set(
      unsure,
      `another "${label}" on page ${o.page.page} gives ${w.value}; which of the two is meant needs a look`,
    );
    return unsure;
  }
  return v;
}
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/u;

/** A reading's value, its reason to review it kept for the engine's flags. */
function given(ctx: Context, r: PartyReading | null): ExtractedValue | null {
  if (!r) return null;
  if (r.reason) ctx.reasons.set(r.value, r.reason);
  return r.value;
}

/**
 * The vendor's name when no label names it: the letterhead, i.e. the first line of page 1 that is not the document's
 * title (with word boxes: the line's first group of words, so "ACME Ltd      INVOICE" gives "ACME Ltd"). Taken only
 * when the document is recognisably an invoice or receipt whose top is its issuer's: a title among the first three
 * lines, or a labelled customer ("Bill to", "Customer"…) that is not the same name. The line must not start with a
 * label, hold a colon, a date, an amount, an e-mail address, an IBAN or a tax id, and must have more letters than
 * digits. Anything else gives null: an unlabelled top line may as well be the addressee.
 */
function letterhead(ctx: Context): ExtractedValue | null {
  const first = ctx.pages[0];
  if (!first || first.page.page !== 1) return null;
  const { page, lines } = first;
  const lh = lineHeight(page);
  const groups = lines
    .slice(0, 3)
    .filter((l) => !ctx.tableLines.has(`${page.page}:${l.start}`))
    .flatMap((line) =>
      hasBoxes(page) && line.words.length > 0
        ? clusters(line.words, 1.5 * lh).map(
            (c) => [Math.min(...c.map((w) => w.offset)), Math.max(...c.map((w) => w.offset + w.text.length))] as const,
          )
        : [
            [
              line.start + line.text.length - line.text.trimStart().length,
              line.start + line.text.trimEnd().length,
            ] as const,
          ],
    );
  const texts = groups.map(([s, e]) => ({ start: s, end: e, text: page.text.slice(s, e) }));
  const titled = texts.some((g) => DOCUMENT_TITLE.test(g.text));
  // The document's number under its title ("FACTURA / INV/2024/00005 / TECNATIVA") is not the letterhead, nor is the
  // copy mark over the title ("ORIGINAL").
  const candidate = texts.find(
    (g) =>
      !DOCUMENT_TITLE.test(g.text) &&
      !isCopyMark(g.text) &&
      (g.text.match(/\p{L}/gu) ?? []).length > (g.text.match(/\p{N}/gu) ?? []).length,
  );
  if (!candidate) return null;
  // A stray mark OCR puts before the letterhead ("‘Northwind…") is not part of the name.
  const lead = /^[^\p{L}\p{N}]*/u.exec(candidate.text)![0].length;
  // A name with its e-mail address after it in one group ("Sammy Maystone smaystone4@fake.com", the address set under
  // the name and read into its line): the name.
  const mail = findEmails(candidate.text.slice(lead))[0];
  const t = candidate.text.slice(lead, mail && mail.index > 0 ? lead + mail.index : undefined).trimEnd();
  const letters = (t.match(/\p{L}/gu) ?? []).length;
  const digits = (t.match(/\p{N}/gu) ?? []).length;
  if (
    letters < 2 ||
    digits >= letters ||
    t.includes(':') ||
    STARTS_WITH_LABEL.test(t) ||
    t.length > EXTRACTION_LIMITS.maxValueChars
  )
    return null;
  if (
    findDates(t).length ||
    findEmails(t).length ||
    findIbans(t).length ||
    findTaxIds(t).length ||
    findAmounts(t).some((a) => /[.,'’]/u.test(a.raw))
  )
    return null;
  const value = t.replace(/\s+/gu, ' ');
  const customer = readField(conceptOf('customer_name'), ctx)?.value ?? null;
  if ((!titled && !customer) || customer?.toLowerCase() === value.toLowerCase()) return null;
  return { ...at(page, candidate.start + lead, t, value), confidence: 0.6 };
}

/**
 * A label stacked over two lines in a header cell ("Data" over "documento", centred on each other): the word of this
 * line and the one word right above it (less than two lines up, its centre over this word or this word's centre under
 * it) read together as one of the concept's labels. The hit is this line's word, so the value is read right of it or
 * under it as for any label. Positioned words only.
 */
function stackedLabels(concept: Concept, lines: readonly Line[], line: Line): LabelHit[] {
  const above = lines[line.index - 1];
  if (!above || !hasBoxes(line.page) || line.words.length === 0) return [];
  const lh = lineHeight(line.page);
  const out: LabelHit[] = [];
  // The line above holds header fragments only: no digit, no document title ("Receipt" over "No." is no label).
  if (/\p{N}/u.test(above.text) || DOCUMENT_TITLE.test(above.text.trim())) return [];
  for (const w of line.words) {
    if (!/^\p{L}[\p{L}.]*$/u.test(w.text)) continue;
    const cx = (w.box.x0 + w.box.x1) / 2;
    const over = above.words.filter((u) => u.box.x1 > w.box.x0 && u.box.x0 < w.box.x1);
    if (over.length !== 1) continue;
    const u = over[0]!;
    const ux = (u.box.x0 + u.box.x1) / 2;
    if (!(ux >= w.box.x0 && ux <= w.box.x1) && !(cx >= u.box.x0 && cx <= u.box.x1)) continue;
    if (midY(w.box) - midY(u.box) > 2 * lh || midY(w.box) <= midY(u.box)) continue;
    const joined = `${u.text} ${w.text}`;
    const hit = findLabels(concept, joined).find((h) => h.start === 0 && joined.slice(h.end).trim() === '');
    if (!hit) continue;
    const start = w.offset - line.start;
    if (out.some((h) => h.start === start)) continue;
    out.push({ rank: hit.rank, start, end: start + w.text.length });
  }
  return out;
}

/**
 * A value read at its label with the placement's confidence, unless the reader gave it unsure (with its reason); a
 * reason the reader gave (a date's guessed day/month order) stays with it.
 */
function placed(ctx: Context, v: ExtractedValue, confidence: number): ExtractedValue {
  if (v.confidence !== null && v.confidence <= UNSURE) return v;
  const out = { ...v, confidence };
  const reason = ctx.reasons.get(v);
  if (reason) ctx.reasons.set(out, reason);
  return out;
}

function readNearLabel(
  concept: Concept,
  ctx: Context,
  page: PageText,
  lines: Line[],
  line: Line,
  hitStart: number,
  hitEnd: number,
): ExtractedValue | null {
  const reader = concept.reader;
  const from = line.start + hitEnd;
  const foreign = foreignLabels(concept);
  /** The value, unless another concept's label stands between the label and it (it is that label's value). */
  const owned = (v: ExtractedValue | null, start: number) =>
    v &&
    !foreign?.test(unbracketed(page.text.slice(start, valueIndex(page, v, start)))) &&
    (!concept.name || isName(v.value!))
      ? v
      : null;
  // A party's label without a colon with words right after it is part of a name ("Lieferant GmbH", "Client Services").
  const bare = concept.name === true && !/[:#]\s*$/u.test(line.text.slice(hitStart, hitEnd));
  if (!hasBoxes(page)) {
    const rest = page.text.slice(from, line.end);
    if (bare && rest.trim()) return null;
    if (rest.trim() && !startsWithLabel(rest)) {
      const right = owned(readValue(reader, ctx, page, from, textKindEnd(reader, page, from, line.end)), from);
      return right && placed(ctx, right, 0.9);
    }
    const next = lines[line.index + 1];
    if (!next || ctx.tableLines.has(`${page.page}:${next.start}`) || isLabelGroup(next.text, true)) return null;
    const below = owned(
      readValue(reader, ctx, page, next.start, textKindEnd(reader, page, next.start, next.end)),
      next.start,
    );
    return below && placed(ctx, below, 0.8);
  }
  const lh = lineHeight(page);
  const labelWords = line.words.filter(
    (w) => w.offset < line.start + hitEnd && w.offset + w.text.length > line.start + hitStart,
  );
  if (labelWords.length === 0) return null;
  const lx0 = Math.min(...labelWords.map((w) => w.box.x0));
  const lx1 = Math.max(...labelWords.map((w) => w.box.x1));
  const near =
    reader === 'text' || reader === 'identifier' || reader === 'email' || reader === 'tax_id' || reader === 'iban';
  // Text-like values: a word of marks alone ("_", "|": OCR noise, leaders) is not where the value starts.
  const rightWords = withoutQualifier(
    line.words.filter((w) => w.offset >= from && (!near || /[\p{L}\p{N}]/u.test(w.text))),
    lx1,
    lh,
  );
  const allGroups = clusters(rightWords, 1.5 * lh).map((g) => ({
    words: g,
    start: Math.min(...g.map((w) => w.offset)),
    end: Math.max(...g.map((w) => w.offset + w.text.length)),
  }));
  // A value on the label's line that starts under the same concept's label on the line just above, right of this one
  // (two party blocks side by side, each with "Tax Identifier:" over its number, one block a line lower), is that
  // label's: this label's column ends where it starts, and this label's value is looked for below.
  const above = near ? lines[line.index - 1] : undefined;
  const claimers = above
    ? labelsInLine(concept, above).map((h) => {
        const ws = above.words.filter(
          (w) => w.offset < above.start + h.end && w.offset + w.text.length > above.start + h.start,
        );
        return ws.length && midY(labelWords[0]!.box) - midY(ws[0]!.box) <= 2.5 * lh
          ? ([Math.min(...ws.map((w) => w.box.x0)), Math.max(...ws.map((w) => w.box.x1))] as const)
          : null;
      })
    : [];
  const claimed = allGroups.findIndex((g) =>
    claimers.some((c) => c !== null && c[0] > lx1 && g.words[0]!.box.x0 >= c[0] - lh && g.words[0]!.box.x0 <= c[1]),
  );
  const groups = claimed < 0 ? allGroups : allGroups.slice(0, claimed);
  if (bare && groups[0] && groups[0].words[0]!.box.x0 - lx1 <= 1.5 * lh) return null;
  const labelAt = groups.findIndex((g) => isLabelGroup(page.text.slice(g.start, g.end)));
  // Same line, at any distance: the groups of words right of the label, up to the first that is itself a label (what
  // follows is that label's). Text-like values: the first group only; amounts, dates, currencies: the first group that
  // has one ("VAT 19%      596.60"). Right text that is no value of the kind gives null, not a value further on.
  let far: ExtractedValue | null = null;
  let farBy = 0;
  // A row of column headers (the label one cell of three or more, no date and no amount with decimals anywhere on
  // the line; the label not a document's title word, "Receipt"): the values are on the line below, each under its own
  // header; a header right of the label that is no value of its kind does not end the search, it goes on below.
  const headerRow =
    !bare &&
    !DOCUMENT_TITLE.test(line.text.slice(hitStart, hitEnd).trim()) &&
    groups.length > 0 &&
    clusters(line.words, 1.5 * lh).length >= 3 &&
    findDates(line.text).length === 0 &&
    !findAmounts(line.text).some((a) => /[.,'’]\d/u.test(a.raw));
  const valueGroups = labelAt < 0 ? groups : groups.slice(0, labelAt);
  for (const [k, g] of valueGroups.entries()) {
    const right = owned(readValue(reader, ctx, page, g.start, textKindEnd(reader, page, g.start, g.end)), from);
    // A VAT row's cells "USt. 19% | 198,00 | 37,62": the base the rate is charged on, then the tax; the base is skipped.
    const next = valueGroups[k + 1];
    if (right && reader === 'amount' && next) {
      const after = readValue(reader, ctx, page, next.start, textKindEnd(reader, page, next.start, next.end));
      if (after && isRatedBase(page.text.slice(line.start + hitStart, g.start), right.value!, after.value!)) continue;
    }
    if (right && reader === 'text' && g.words[0]!.box.x0 - lx1 > 12 * lh) {
      far = right;
      farBy = g.words[0]!.box.x0 - lx1;
      break;
    }
    if (right) return placed(ctx, right, 0.9);
    if (headerRow) continue;
    if (near || foreign?.test(unbracketed(page.text.slice(g.start, g.end)))) return null;
  }
  if (!far && !headerRow && labelAt !== 0 && groups.length > 0) return null;
  // Below: the words of the next line or the one after it in the label's column (between the words left and right of
  // it on its line) and under the label; a group that is itself a label is no value.
  const left = line.words.filter((w) => w.offset < line.start + hitStart);
  const colStart = left.length ? Math.max(...left.map((w) => w.box.x1)) : -Infinity;
  const colEnd =
    labelAt >= 0 ? groups[labelAt]!.words[0]!.box.x0 : claimed >= 0 ? allGroups[claimed]!.words[0]!.box.x0 : Infinity;
  const y = midY(labelWords[0]!.box);
  for (const next of lines.slice(line.index + 1, line.index + 3)) {
    if (
      !next.words[0] ||
      midY(next.words[0].box) - y > 2.5 * Math.max(lh, labelWords[0]!.box.y1 - labelWords[0]!.box.y0) ||
      ctx.tableLines.has(`${page.page}:${next.start}`)
    )
      break;
    const inColumn = next.words.filter(
      (w) => (w.box.x0 + w.box.x1) / 2 > colStart && (w.box.x0 + w.box.x1) / 2 < colEnd,
    );
    // An amount or a date under the last header of a row may be set right-aligned, past the header's end: up to one
    // header's width further right.
    const reach =
      colEnd === Infinity && (reader === 'amount' || reader === 'date')
        ? lx1 + (lx1 - lx0)
        : Math.max(lx1, lx0 + 4 * lh);
    const under = clusters(inColumn, 1.5 * lh).find((c) => c.some((w) => w.box.x1 >= lx0 - 1 && w.box.x0 <= reach));
    if (!under) continue;
    const start = Math.min(...under.map((w) => w.offset));
    const end = Math.max(...under.map((w) => w.offset + w.text.length));
    if (isLabelGroup(page.text.slice(start, end), true)) break;
    // A note in brackets under a party's label ("(Not to be used for payment remittance)") is not its name.
    if (concept.name && /^\(.*\)$/u.test(page.text.slice(start, end).trim())) return null;
    const below = owned(readValue(reader, ctx, page, start, textKindEnd(reader, page, start, end)), start);
    if (!below) break;
    // An amount with more amounts under it in its column (a breakdown per VAT rate, "22,00 … 2.470,00" over "N2 …
    // 38,78") is one row of several, not necessarily the document's figure: given, flagged.
    const x0 = Math.min(...under.map((w) => w.box.x0));
    const x1 = Math.max(...under.map((w) => w.box.x1));
    const more =
      reader === 'amount' &&
      lines
        .slice(next.index + 1, next.index + 4)
        .filter((l) => !ctx.tableLines.has(`${page.page}:${l.start}`))
        .some((l) =>
          l.words.some((w) => w.box.x1 >= x0 && w.box.x0 <= x1 && findAmounts(w.text).length > 0 && /\d/u.test(w.text)),
        );
    if (more) {
      const unsure = { ...below, confidence: UNSURE };
      ctx.reasons.set(
        unsure,
        "read under its column header, with more amounts below it in that column: one row of a breakdown (per VAT rate) rather than the document's figure, perhaps",
      );
      return unsure;
    }
    return placed(ctx, below, 0.8);
  }
  // A name far right of its label with nothing under the label may be another column's text: given, flagged as unsure.
  if (!far) return null;
  const unsure = { ...far, confidence: UNSURE };
  ctx.reasons.set(
    unsure,
    `read ${Math.round(farBy)} pt right of its label with nothing under the label: it may be another column's text`,
  );
  return unsure;
}

/** Whether a line holds a party's own name label ("Name:", "Denominazione:"). */
const PARTY_NAME_LABEL_AT = (text: string) => new RegExp(PARTY_NAME_LABEL.source, 'iu').test(text);

/**
 * The name in a party block under its heading ("Cedente/prestatore (fornitore)" over "Denominazione: GAV spa"): the
 * block's lines up to the next blank line or the next heading, the first whose own label is a name's (PARTY_NAME_LINE).
 * Two blocks side by side (their headings on one line, each block's lines read with the other's: "Denominazione:
 * SOCIETA' ALPHA SRL Denominazione: BETA GAMMA"): the name label in the heading's own column (the heading, of the
 * groups of words a word gap apart on its line, whose left edge is the nearest at or before the label's), the name
 * ending where the next label starts. `at`: where the concept's label starts in the page text.
 */
function nameInBlock(page: PageText, lines: readonly Line[], heading: Line, at: number): ExtractedValue | null {
  const boxes = hasBoxes(page);
  const lh = lineHeight(page);
  const heads = boxes ? clusters(heading.words, 1.5 * lh) : [];
  const own = heads.find((c) => c.some((w) => w.offset <= at && at < w.offset + w.text.length));
  const columnOf = (x: number) => {
    const left = heads.filter((c) => c[0]!.box.x0 <= x + lh);
    return left.length ? left[left.length - 1] : heads[0];
  };
  let prev = heading;
  for (const l of lines.slice(heading.index + 1, heading.index + 9)) {
    // A blank line ends the block, except right under its heading when the line there holds the name's own label
    // (a block whose rows are set apart, "Service Provider" over "Name: PyInvoice" a row further down).
    const gap = page.text.slice(prev.end, l.start).includes('\n\n');
    if ((gap && !(prev === heading && PARTY_NAME_LABEL_AT(l.text))) || isPartyHeading(l.text)) break;
    prev = l;
    if (own && heads.length > 1) {
      for (const m of l.text.matchAll(PARTY_NAME_LABEL)) {
        const word = l.words.find((w) => w.offset >= l.start + m.index);
        if (!word || columnOf(word.box.x0) !== own) continue;
        const from = l.start + m.index + m[0].length;
        const end = textKindEnd('text', page, from, l.end);
        const value = page.text.slice(from, end).trim();
        if (isName(value)) return { value, evidence: evidenceOf(page, from, from + value.length), confidence: 0.8 };
      }
      continue;
    }
    const m = PARTY_NAME_LINE.exec(l.text);
    if (m && isName(m[1]!)) {
      const start = l.start + m.index + m[0].lastIndexOf(m[1]!);
      return { value: m[1]!, evidence: evidenceOf(page, start, start + m[1]!.length), confidence: 0.8 };
    }
    // The name's label after another of the block's values on its line ("CUIT: 30-71234567-6   Razón Social: …"
    // under "DATOS DEL RECEPTOR"): the name up to the next label.
    const mid = m ? null : nameAfterLabel(page, l);
    if (mid) return mid;
  }
  return boxes && !(own && heads.length > 1) ? nameOnRowsUnder(page, lines, heading) : null;
}

/**
 * The name's own label on the rows right under a party block's heading, wherever the reading order puts it: a text
 * layer read column by column gives the block's left column ("CUIT: …", "Condición IVA: …") before its right one
 * ("Razón Social: …"), each line apart. Within three rows under the heading, no other heading between.
 */
function nameOnRowsUnder(page: PageText, lines: readonly Line[], heading: Line): ExtractedValue | null {
  const rh = rowHeight(page);
  const y0 = Math.min(...heading.words.map((w) => midY(w.box)));
  const below = (l: Line) => (l.words.length ? Math.min(...l.words.map((w) => midY(w.box))) - y0 : -1);
  const rows = lines
    .slice(heading.index + 1, heading.index + 13)
    .filter((l) => below(l) > 0.5 * rh && below(l) <= 3.5 * rh);
  const stop = Math.min(...rows.filter((l) => isPartyHeading(l.text)).map(below));
  for (const l of rows.filter((r) => below(r) < stop).sort((a, b) => below(a) - below(b))) {
    const name = nameAfterLabel(page, l);
    if (name) return name;
  }
  return null;
}

/** The name after the first name label on a line ("… Razón Social: Distribuidora El Faro S.R.L."), up to the next label. */
function nameAfterLabel(page: PageText, l: Line): ExtractedValue | null {
  const m = l.text.matchAll(PARTY_NAME_LABEL).next().value;
  if (!m) return null;
  const from = l.start + m.index + m[0].length;
  const value = page.text.slice(from, textKindEnd('text', page, from, l.end)).trim();
  return isName(value) ? { value, evidence: evidenceOf(page, from, from + value.length), confidence: 0.8 } : null;
}

/** Plain text: the rest of the line starts with another label ("Invoice date: Due date: 14/04/2024"), or is one. */
function startsWithLabel(rest: string): boolean {
  const t = rest.trim();
  const m = STARTS_WITH_LABEL.exec(t);
  return (m !== null && /^\.?\s*(?:[:#]|$)/u.test(t.slice(m[0].length))) || /^[^\s\d:]{1,30}:(?:\s|$)/u.test(t);
}

/**
 * The words right of a label less a bracketed qualifier that ends the label ("Zwischensumme (Netto):", "Gesamtbetrag
 * (Brutto):", "Total (excl. VAT):"): up to three words from one starting with "(" right by the label to one ending
 * with ")", perhaps with a colon. Left in, the qualifier would be read as the next label ("(Netto):" ends with a
 * colon) and the value after it as that label's (session 13, the erechnung prints).
 */
function withoutQualifier<W extends { text: string; box: Box }>(
  words: readonly W[],
  labelEnd: number,
  lh: number,
): W[] {
  const first = words[0];
  if (!first || !first.text.startsWith('(') || first.box.x0 - labelEnd > 1.5 * lh) return [...words];
  const close = words.slice(0, 3).findIndex((w) => /\)[:#]?$/u.test(w.text));
  if (
    close < 0 ||
    /\d/u.test(
      words
        .slice(0, close + 1)
        .map((w) => w.text)
        .join(' '),
    )
  )
    return [...words];
  return words.slice(close + 1);
}

/** Text without its bracketed qualifiers ("(excl. USt.)" qualifies the label before it; it names no other value). */
const unbracketed = (text: string) => text.replace(/\([^()]*\)/gu, ' ');

/** The engine's confidence for a value it gives but is unsure of (under the checks' UNSURE_CONFIDENCE: review). */
const UNSURE = 0.4;
/**
 * A value read after a label the OCR misread (findMisreadLabels): under the checks' LABELLED_CONFIDENCE, so an amount
 * read so needs a sum to confirm it.
 */
const FUZZY_LABEL = 0.75;

/** Where a value's snippet starts in the page text (its evidence quotes the page text at or after `from`). */
function valueIndex(page: PageText, v: ExtractedValue, from: number): number {
  const i = v.evidence ? page.text.indexOf(v.evidence.snippet, from) : -1;
  return i < 0 ? from : i;
}

/**
 * The digit groups from `from` to `end` in the page text when they are all that is there and each stands less than a
 * character's height after the one before it (the groups of one printed number, not a figure of another column);
 * null when there is a single group.
 */
function digitGroups(page: PageText, from: number, end: number): string | null {
  const raw = page.text.slice(from, end).trimEnd();
  if (!/^\d+(?: \d+)+$/u.test(raw)) return null;
  const words = page.words.filter((w) => w.offset >= from && w.offset < from + raw.length);
  const close = words.every((w, i) => {
    const prev = words[i - 1];
    return !prev || (w.box.x0 - prev.box.x1 >= 0 && w.box.x0 - prev.box.x1 < w.box.y1 - w.box.y0);
  });
  return words.length === raw.split(' ').length && close ? raw : null;
}

/** A party's name has letters, more of them than digits ("1.40660897" after "N° de compte client" is none), and a word. */
function isName(value: string): boolean {
  const letters = (value.match(/\p{L}/gu) ?? []).length;
  // A word of three letters at least: "OO / O00 0 oo" (OCR of a logo) is none.
  return letters >= 2 && letters > (value.match(/\p{N}/gu) ?? []).length && /\p{L}{3}/u.test(value);
}

/** Text values end before the next label ("Name: ACME Ltd Date: …" → "ACME Ltd"). */
function textKindEnd(reader: Reader, page: PageText, start: number, end: number): number {
  if (reader !== 'text' && reader !== 'identifier') return end;
  const m = NEXT_LABEL.exec(page.text.slice(start, end));
  return m ? start + m.index : end;
}

/** A tax rate ("19 %", "7,5%") right after a label. */
const RATE = /^[^\d\n]{0,40}?(\d{1,2}(?:[.,]\d{1,2})?)\s?%/u;
/** Text before an amount that makes it a rate's base: "7% von ", "20 % sur ", "21% of €". */
const BASE_OF = /%\s*(?:von|of|on|sur|de|su|sobre|over|van|auf|base)\s*(?:[€$£]|EUR|USD|GBP|CHF)?\s*$/iu;

/**
 * The amounts after a rate without the base it is charged on, when the amount after that base is the rate of it: a
 * VAT row "USt. 19% | 198,00 | 37,62" or "VAT 20% 100.00 20.00" prints the base, then the tax.
 */
function withoutRatedBase(text: string, amounts: AmountMatch[]): AmountMatch[] {
  for (let i = 0; i + 1 < amounts.length; i++) {
    const [base, tax] = [amounts[i]!, amounts[i + 1]!];
    if (isRatedBase(text.slice(0, base.index), base.value, tax.value)) return amounts.filter((a) => a !== base);
  }
  return amounts;
}

/**
 * `base` is what the tax rate last printed in `before` is charged on, `tax` being that rate of it (to the rounding of
 * the figures, as domain/extraction-checks.ts's VAT rows).
 */
function isRatedBase(before: string, base: string, tax: string): boolean {
  const rate = printedRates(before).at(-1);
  return rate !== undefined && Number(base) > 0 && isRateOf(rate, printedFigure(base), printedFigure(tax));
}

/** The amount is all the text holds but for currency markers and marks ("5", "EUR 5", "5 €"). */
function isBareAmount(text: string, a: AmountMatch): boolean {
  const rest = text.slice(0, a.index) + ' ' + text.slice(a.index + a.raw.length);
  let r = rest;
  for (const c of findCurrencies(rest).reverse()) r = r.slice(0, c.index) + r.slice(c.index + c.raw.length);
  return !/[\p{L}\p{N}]/u.test(r);
}

function at(page: PageText, start: number, raw: string, value: string): ExtractedValue {
  return { value, evidence: evidenceOf(page, start, start + raw.length), confidence: null };
}

/** The first value of the reader's kind in `page.text[start, end)`, or null. */
function readValue(reader: Reader, ctx: Context, page: PageText, start: number, end: number): ExtractedValue | null {
  const text = page.text.slice(start, end);
  switch (reader) {
    case 'amount':
    case 'number': {
      // Not a part of a date, a tax id, an IBAN. An amount has a decimal part or grouping unless it stands alone
      // (perhaps with its currency): "art. 293 B du CGI", "Kundennr. 4711 … 12,00" are no amount of 293 or 4711.
      const taken = [...findDates(text), ...findTaxIds(text), ...findIbans(text)];
      // "7% von 129,37", "20 % sur 1 509,00", "21% of 100.00": the base the rate is charged on, not the tax.
      const amounts = withoutRatedBase(
        text,
        findAmounts(text).filter(
          (a) => !insideAny(taken, a.index, a.index + a.raw.length) && !BASE_OF.test(text.slice(0, a.index)),
        ),
      );
      const m =
        reader === 'number' ? amounts[0] : amounts.find((a) => /[.,'’\s]\d/u.test(a.raw) || isBareAmount(text, a));
      return m ? at(page, start + m.index, m.raw, m.value) : null;
    }
    case 'date': {
      const d = findDates(text)[0];
      const v = d ? resolveDate(d, ctx.order) : null;
      return d && v ? orderedDate(ctx, at(page, start + d.index, d.raw, v), d.value) : null;
    }
    case 'currency': {
      const c = findCurrencies(text)[0];
      if (!c) return null;
      const code =
        c.isCode || c.codes.length === 1
          ? c.codes[0]!
          : ctx.currency.value && c.codes.includes(ctx.currency.value)
            ? ctx.currency.value
            : c.raw === '$'
              ? ctx.dollar.code
              : null;
      if (!code) return null;
      const v = at(page, start + c.index, c.raw, code);
      // A bare `$` under a currency label is read as the document's evidence says, and as unsure as that evidence.
      if (c.raw === '$' && code === ctx.dollar.code && ctx.dollar.reason) ctx.reasons.set(v, ctx.dollar.reason);
      return v;
    }
    case 'tax_id': {
      const ibans = findIbans(text);
      const t = findTaxIds(text).find(
        (x) => !ibans.some((i) => x.index < i.index + i.raw.length && x.index + x.raw.length > i.index),
      );
      const token = t ? null : /^\s*([A-Z0-9][A-Z0-9./-]{4,}[A-Z0-9])(?!\S)/u.exec(text);
      if (!t && (!token || (token[1]!.match(/\d/gu) ?? []).length < 6)) return null;
      // An amount with its cents after a tax's name ("Sum VAT  8847.54") is the tax, no id.
      if (!t && /^\d{1,3}(?:[.,]\d{3})*[.,]\d{2}$|^\d+[.,]\d{2}$/u.test(token![1]!)) return null;
      const index = t ? t.index : text.indexOf(token![1]!);
      const raw = t ? t.raw : token![1]!;
      const id = at(page, start + index, raw, t ? t.value : compactId(raw));
      // On a scan, a number without letters with more text after it in its cell ("35235234 oVVN 9222") may be the
      // start of an id the OCR broke up: given unsure.
      const rest = text.slice(index + raw.length).trim();
      if (page.source !== 'ocr' || /\p{L}/u.test(raw) || !/[\p{L}\p{N}]/u.test(rest)) return id;
      const unsure = { ...id, confidence: UNSURE };
      ctx.reasons.set(unsure, `read by OCR with more text after it ("${rest.slice(0, 20)}"): the id may be cut short`);
      return unsure;
    }
    case 'email': {
      const m = findEmails(text)[0];
      return m ? at(page, start + m.index, m.raw, m.value) : null;
    }
    case 'iban': {
      // After its label, an IBAN set in small capitals gives lower-case letters in the text ("iban: nl91abna…"): read
      // as written in capitals (the same offsets), its check digits decide.
      const m =
        findIbans(text, { ocr: page.source === 'ocr' })[0] ??
        (/^[\s:.]*[a-z]{2}\d{2}[a-z0-9]{10,30}(?![\p{L}\p{N}])/u.test(text)
          ? findIbans(text.toUpperCase())[0]
          : undefined);
      if (!m) return null;
      const v = at(page, start + m.index, m.raw, m.value);
      return m.repaired ? { ...v, confidence: UNSURE } : v;
    }
    case 'identifier': {
      // Leader marks ("........", "—-—-") and a stray quote OCR puts between label and value are skipped.
      const m =
        /^\s*(?:(?:no|nr|n°|number)(?:\.|\s)\s*:?\s*)?#?[\s.·…_~\-–—|'‘’"“”]*([A-Za-z0-9](?:[A-Za-z0-9\-/._]*[A-Za-z0-9])?)/iu.exec(
          text,
        );
      if (!m) return null;
      const from = start + m.index + m[0].length - m[1]!.length;
      // An identifier has a digit and is neither a date nor an amount ("Invoice 2024-03-01", "Receipt 12.50").
      // A short capital prefix and a space before the number ("FPR 16/19", "FT 2015/0009"): one identifier.
      const spaced = /^[A-Z]{2,4}$/u.test(m[1]!)
        ? /^ (\d[A-Za-z0-9\-/._]*[A-Za-z0-9])(?!\S)/u.exec(text.slice(m.index + m[0].length))
        : null;
      if (spaced) {
        const raw = `${m[1]} ${spaced[1]}`;
        return at(page, from, raw, raw);
      }
      // Groups of digits a word gap apart filling the rest of the cell ("Factura 1 24 0005 0001201345"): one number.
      const grouped = /^\d+$/u.test(m[1]!) ? digitGroups(page, from, end) : null;
      if (grouped) return at(page, from, grouped, grouped);
      if (
        !/\d/u.test(m[1]!) ||
        findDates(m[1]!).some((d) => d.raw === m[1]) ||
        /^\d{1,3}(?:[.,]\d{3})*[.,]\d{2}$/u.test(m[1]!)
      )
        return null;
      return at(page, from, m[1]!, m[1]!);
    }
    case 'text': {
      const lead =
        /^[\s:#\-–]*/u.exec(text)![0].length + (ATTENTION.exec(text.replace(/^[\s:#\-–]*/u, ''))?.[0].length ?? 0);
      const raw = text.slice(lead).trimEnd().slice(0, EXTRACTION_LIMITS.maxValueChars);
      if (!/[\p{L}\p{N}]/u.test(raw)) return null;
      // A street with its number or a postcode and town under a party's label is the party's address, not its name:
      // the name's line is missing, or the label is the name ("Klant" over "Bedrijfslaan 4").
      if (isAddressLine(raw)) return null;
      return at(page, start + lead, raw, raw.replace(/\s+/gu, ' '));
    }
  }
}

/** A date read in the document's day/month order: given with that order's reason to review it when it could be read either way (`unambiguous` null). */
function orderedDate(ctx: Context, v: ExtractedValue, unambiguous: string | null): ExtractedValue {
  if (!unambiguous && ctx.orderReason) ctx.reasons.set(v, ctx.orderReason);
  return v;
}

const OTHER_DATE =
  /(?<![\p{L}])(due|deliver\w*|order\w*|ship\w*|expir\w*|valid\w*|until|period|birth|payable|pay by|service|supply|fällig\w*|échéance|livraison)(?![\p{L}])/iu;

/**
 * Tax ids found without a label, one for each id: an id printed once with its country prefix and once without
 * ("ESA79935607", "CIF A-79935607") is one; of several, those well formed (an order number "ES9812110233" has a VAT
 * id's prefix, not its format) when some are.
 */
function oneTaxIdEach(found: readonly ExtractedValue[]): ExtractedValue[] {
  const prefixed = new Set(found.flatMap((f) => (/^[A-Z]{2}[A-Z0-9]/u.test(f.value!) ? [f.value!.slice(2)] : [])));
  const ids = found.filter((f) => !prefixed.has(f.value!));
  if (new Set(ids.map((f) => f.value)).size < 2) return ids;
  const formed = ids.filter((f) => vatIdProblem(f.value!) === null);
  return formed.length > 0 ? formed : ids;
}

/** A value found without a label, taken only when the document holds exactly one distinct candidate of its kind. */
function soleCandidate(reader: Reader, ctx: Context, except: string | null = null): ExtractedValue | null {
  const found: ExtractedValue[] = [];
  for (const { page, lines } of ctx.pages) {
    for (const line of lines) {
      if (ctx.tableLines.has(`${page.page}:${line.start}`)) continue;
      const text = line.text;
      const add = (index: number, raw: string, value: string | null) => {
        if (value) found.push(at(page, line.start + index, raw, value));
      };
      // A date on a line that names another date (due, delivery, order…) is not the document's date.
      if (reader === 'date' && !OTHER_DATE.test(text))
        for (const d of findDates(text)) {
          const resolved = resolveDate(d, ctx.order);
          add(d.index, d.raw, resolved ?? `?${d.raw}`);
          if (resolved) orderedDate(ctx, found[found.length - 1]!, d.value);
        }
      if (reader === 'email') for (const m of findEmails(text)) add(m.index, m.raw, m.value);
      if (reader === 'iban')
        for (const m of findIbans(text, { ocr: page.source === 'ocr' })) {
          add(m.index, m.raw, m.value);
          // An IBAN repaired from the OCR's letter O is unsure: its printed form is not its value.
          if (m.repaired) found[found.length - 1]!.confidence = UNSURE;
        }
      // Not on a line naming an IBAN: an IBAN OCR misread (its checksum fails) has a VAT number's shape.
      if (reader === 'tax_id' && !/\bIBAN\b/iu.test(text))
        for (const m of findTaxIds(text)) if (m.value !== except) add(m.index, m.raw, m.value);
    }
  }
  if (reader === 'tax_id') found.splice(0, found.length, ...oneTaxIdEach(found));
  const distinct = new Set(found.map((f) => f.value));
  if (distinct.size !== 1 || found[0]!.value!.startsWith('?')) return null;
  const out = { ...found[0]!, confidence: found.some((f) => f.confidence !== null) ? UNSURE : 0.5 };
  const reason = found.map((f) => ctx.reasons.get(f)).find((r) => r !== undefined);
  if (reason) ctx.reasons.set(out, reason);
  return out;
}

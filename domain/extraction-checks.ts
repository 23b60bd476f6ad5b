/**
 * The document's own arithmetic and semantics (issue 29, item 4; docs/processing.md "Document checks"): whatever
 * engine answered (offline, e-invoice, language model), its values must agree with each other and with what the page
 * prints, not only occur on it (that is the evidence check, extraction-evidence.ts). Line amount = quantity × unit
 * price; the lines add up to the subtotal (or the total); subtotal + tax = total; tax = rate × base where a rate is
 * printed; the due date is not before the invoice date; an amount is not the day or year of a date, nor a percentage;
 * a value the engine itself was unsure of needs a look. A failed check names every value it involves, which are kept
 * as the engine gave them and flagged for review: a document whose totals do not add up needs review even when each
 * of its values has evidence.
 *
 * Which field is the total, the subtotal, the tax, the invoice date or the due date comes from the client's field
 * names, through the concept mapping the engines use (passed in as `conceptOf`, so this module stays pure).
 *
 * Pure: no I/O.
 */
import {
  fieldKind,
  LINE_ITEM_COLUMNS,
  type Box,
  type Evidence,
  type ExtractedValue,
  type ExtractionResult,
  type LineItem,
  type LineItemColumn,
  type PageText,
  type PositionedText,
  centreIn,
  clip,
  lineAround,
  OCR_DOUBT,
  onRows,
  textLines,
  unionBox,
} from './extraction.js';
import { lineEvidence, type ReviewedResult, SUM_SEPARATOR, sumDecimals } from './extraction-evidence.js';
import { checkReadings } from './extraction-reading-checks.js';
import {
  allWords,
  CHARGE_WORDS,
  CONCEPTS,
  isCopyMark,
  labelAlternation,
  CUSTOMER_NUMBER_LABELS,
  OTHER_LABELS,
  PARTY_NAME_LABEL,
  PHONE_LABELS,
  TAX_INCLUDED_WORDS,
  TAX_NAMES,
  TAX_STEMS,
  wordsPattern,
} from './extraction-lexicon.js';
import {
  addresseeUnderSender,
  blockAt,
  blockName,
  carriesParty,
  legalBlocks,
  nameContains,
  REGISTRATION,
  sameName,
  senderLineOf,
} from './extraction-parties.js';
import {
  amountReadings,
  canonicalDecimal,
  CURRENCY_SYMBOLS,
  dollarOfDocument,
  findAmounts,
  findCurrencies,
  findDates,
  findTaxIds,
  monthNumber,
  PLAIN_DECIMAL,
  vatIdChecksumHolds,
  vatIdProblem,
} from './extraction-values.js';

/** The concept id of a field name (`total`, `subtotal`, `tax`, `invoice_date`, `due_date`, or any other id). */
export type ConceptOf = (field: string) => string;

/** A value a check failed: a field by name (`item` null), or a line item's column with its 0-based index. */
export interface CheckFlag {
  field: string;
  item: number | null;
  reason: string;
}

export interface DocumentCheck {
  /** One entry per value and failed check (a value may fail several). */
  flags: CheckFlag[];
  /** The failed checks' reasons, each once, naming the values concerned by the client's field names. */
  reasons: string[];
}

/** An engine's confidence below this is a value it was unsure of: flagged (a null confidence says nothing). */
export const UNSURE_CONFIDENCE = 0.5;
/**
 * The confidence of a value read on its label's line (the offline engine's 0.9): what an engine gives below it (a value
 * under its label, or found without one) is a weaker reading, which an amount needs a sum to confirm (13.).
 */
export const LABELLED_CONFIDENCE = 0.9;
/** Under this, a value was found without a label (the offline engine's sole candidate of its kind: 0.5; under its label: 0.8). */
export const UNLABELLED_CONFIDENCE = 0.6;
/**
 * An invoice number, order number or VAT id of letters and digits the OCR read with a word confidence under this is
 * flagged too (14b.): no sum confirms them, and one letter read as a digit ("94115I" read as "941151", at 89.5) makes
 * them wrong. Tesseract reads most words it is sure of at 91–97; an amount keeps OCR_DOUBT, as the document's
 * arithmetic checks it.
 */
export const OCR_ID_DOUBT = 90;
/** A tax rate above this (in %) is not a sales tax or VAT rate: a tax above this share of its base is implausible. */
const MAX_TAX_RATE = 30;

/** Words that name a tax on a page (the lexicon's tax names and their stems in compounds). */
const TAX_WORD = new RegExp(`${wordsPattern(allWords(TAX_NAMES)).source}|${TAX_STEMS.join('|')}`, 'iu');
/** Words saying a tax is included in the amounts (a receipt: "incl. 19% VAT"). */
const TAX_INCLUDED = wordsPattern(allWords(TAX_INCLUDED_WORDS));
/** Words of charges and deductions between the lines and the subtotal or total (shipping, discount, rounding…). */
const CHARGE_WORD = new RegExp(allWords(CHARGE_WORDS).join('|'), 'iu');
/** A company's registration on a legal footer beside its VAT number, or its bank account: no tax line. */
const REGISTRATION_WORD = new RegExp(`${REGISTRATION.source}|handelsreg|registro|register|\\biban\\b|\\bbic\\b`, 'iu');
/** A percentage (`19%`, `7,7 %`, `-10%`). */
const PERCENT = /(?<![\p{N}.,])(-?)(\d{1,3}(?:[.,]\d{1,3})?)\s?%/gu;

interface Num {
  /** The field name, or `line item N column`. */
  name: string;
  value: number;
  /** The printed precision: the number of decimals of the value as given. */
  decimals: number;
  text: string;
}

function num(name: string, v: ExtractedValue | undefined): Num | null {
  const s = v?.value;
  if (s == null || !PLAIN_DECIMAL.test(s)) return null;
  return { name, ...printedFigure(s), text: s };
}

/** Half a unit of the last printed decimal: how far a correctly rounded printed value may be from the exact one. */
const half = (n: { decimals: number }) => 0.5 * 10 ** -n.decimals;
const EPSILON = 1e-9;
const fmt = (x: number, decimals: number) => (Object.is(x, -0) ? 0 : x).toFixed(Math.min(10, Math.max(0, decimals)));
const maxDecimals = (...ns: Num[]) => Math.max(2, ...ns.map((n) => n.decimals));

/** Checks `result` against itself and `document`; never throws on malformed values (they are not numbers or dates). */
export function checkDocument(result: ExtractionResult, document: PositionedText, conceptOf: ConceptOf): DocumentCheck {
  const flags: CheckFlag[] = [];
  const reasons: string[] = [];
  const fail = (reason: string, values: ReadonlyArray<{ field: string; item: number | null }>) => {
    if (!reasons.includes(reason)) reasons.push(reason);
    for (const v of values) flags.push({ field: v.field, item: v.item, reason });
  };
  const field = (f: string) => ({ field: f, item: null });
  // What the document's arithmetic confirms (13.): fields by name, line items by index.
  const confirmed = new Set<string>();
  const confirmedLines = new Set<number>();

  /** The first requested field of a concept that has a value (an amount, or a date for a date's concept). */
  const byConcept = (id: string): string | null =>
    ofConcept(result, conceptOf, id).find(({ f }) => id.endsWith('date') || fieldKind(f) === 'amount')?.f ?? null;
  const totalF = byConcept('total');
  const subtotalF = byConcept('subtotal');
  const taxF = byConcept('tax');
  const total = totalF ? num(totalF, result.fields[totalF]) : null;
  const subtotal = subtotalF ? num(subtotalF, result.fields[subtotalF]) : null;
  const tax = taxF ? num(taxF, result.fields[taxF]) : null;

  // An uploaded e-invoice XML has no printed page: its text is markup, not lines a page check reads (a one-line XML is
  // one "line" naming taxes and every amount). Its values are checked by what the XML states.
  const printed: PositionedText = document.einvoice?.file === null ? { ...document, pages: [] } : document;
  const pages = new Map(printed.pages.map((p) => [p.page, p]));
  const lines = printed.pages.flatMap((p) => p.text.split('\n'));
  const vatRows = findVatRows(printed);
  /** A value whose evidence is a sum of figures printed on its page ("19,25 + 37,62"; extraction-evidence.ts). */
  const pageSum = (v: ExtractedValue) => {
    const ev = v.evidence;
    if (!ev || ev.source === 'xml' || ev.page === null || !ev.snippet.includes(SUM_SEPARATOR)) return false;
    const text = pages.get(ev.page)?.text;
    return text !== undefined && !normaliseLine(text).includes(normaliseLine(ev.snippet));
  };
  // Lines about a tax amount or rate: naming a tax, but not a tax id or a company's registration ("TVA : FR11999999998 -
  // SIRET : … - capital 120 000,00" is a footer, not a tax line).
  const taxLines = lines.filter((l) => TAX_WORD.test(l) && findTaxIds(l).length === 0 && !REGISTRATION_WORD.test(l));
  // The page says this tax is included: a tax line saying so carries the tax amount ("incl. 19% VAT 19.00", "dont TVA
  // 3,17"), not a total ("Total incl. VAT 119.00" says nothing about which figure is the tax).
  const taxIncluded =
    tax !== null &&
    taxLines.some(
      (l) =>
        TAX_INCLUDED.test(l) &&
        findAmounts(l).some((a) => Math.abs(Math.abs(Number(a.value)) - Math.abs(tax.value)) <= half(tax) + EPSILON),
    );
  const taxRates = [
    ...new Set(
      taxLines
        .flatMap((l) => [...l.matchAll(PERCENT)].map((m) => Number(m[2]!.replace(',', '.'))))
        .filter((r) => r >= 0 && r <= MAX_TAX_RATE),
    ),
  ].sort((x, y) => y - x);
  const printedTaxes = taxLines.flatMap((l) => findAmounts(l).map((a) => Math.abs(Number(a.value))));
  // Amounts on a line naming a charge or deduction, or on the line below one that names some and has no amount (a
  // summary table: "Warenwert  Zu-/Abschlag  Fracht  Skonto  Nettobetrag" over its figures).
  const charges = lines
    .flatMap((l, i) => {
      if (!CHARGE_WORD.test(l)) return [];
      const own = findAmounts(l);
      return (own.length > 0 ? own : findAmounts(lines[i + 1] ?? '')).map((a) => Math.abs(Number(a.value)));
    })
    .slice(0, 40)
    .concat(xmlStatedCharges(document));
  // An e-invoice says how its lines become its subtotal (its allowances and charges) and its total its amount due.
  const xmlAdjusted = xmlDocumentAdjustment(document);
  /** A gap the page explains by a printed charge or deduction (shipping, discount…), two of them (a charge less a deduction), or all together. */
  const explained = (gap: number, tol: number) => {
    const g = Math.abs(gap);
    if (charges.some((c) => Math.abs(g - c) <= tol)) return true;
    for (let i = 0; i < charges.length; i++)
      for (let j = i + 1; j < charges.length; j++)
        if (
          Math.abs(g - (charges[i]! + charges[j]!)) <= tol ||
          Math.abs(g - Math.abs(charges[i]! - charges[j]!)) <= tol
        )
          return true;
    return charges.length > 2 && Math.abs(g - charges.reduce((a, b) => a + b, 0)) <= tol;
  };
  // Money as the document prints it: the amounts with a decimal part; how many decimals most of them have.
  const money = printed.pages
    .flatMap((p) => findAmounts(p.text))
    .filter((a) => a.value.includes('.'))
    .map((a) => ({ value: Math.abs(Number(a.value)), decimals: a.value.split('.')[1]!.length }));
  const byDecimals = new Map<number, number>();
  for (const m of money) byDecimals.set(m.decimals, (byDecimals.get(m.decimals) ?? 0) + 1);
  const [moneyDecimals, moneyCount] = [...byDecimals.entries()].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
  const largest = money.reduce((m, a) => Math.max(m, a.value), 0);

  // 1. A value the engine was unsure of.
  const unsure = (name: string, ref: { field: string; item: number | null }, v: ExtractedValue) => {
    if (v.value !== null && v.confidence !== null && v.confidence < UNSURE_CONFIDENCE)
      fail(`${name}: the engine was unsure of "${clip(v.value)}" (confidence ${Number(v.confidence.toFixed(2))})`, [
        ref,
      ]);
  };
  for (const [f, v] of Object.entries(result.fields)) unsure(f, field(f), v);
  result.items.forEach((it, i) => {
    for (const c of LINE_ITEM_COLUMNS) if (it[c]) unsure(`line item ${i + 1} ${c}`, { field: c, item: i }, it[c]);
  });

  // 2. Amounts that are the day or year of a date, or a percentage.
  for (const [f, v] of Object.entries(result.fields)) {
    if (fieldKind(f) !== 'amount' || v.value === null || !v.evidence) continue;
    const page = v.evidence.page === null ? undefined : pages.get(v.evidence.page);
    const why = page ? notAnAmount(page, v.evidence, v.value) : null;
    if (why) fail(`${f} "${clip(v.value)}" ${why}`, [field(f)]);
  }

  // 2b. A total, subtotal or tax written with other decimals than most of the document's money ("19.0" from a VAT
  // rate column on a page of "12.50"s, "3" from a date): not one of its money figures. Only when that many decimals
  // are rare on the document (under a quarter of its amounts with decimals): a bill of many 4-decimal unit prices
  // still has its 2-decimal total.
  for (const f of [totalF, subtotalF, taxF]) {
    const n = f ? num(f, result.fields[f]) : null;
    // An XML number has no printed form to misread: how many decimals it is written with says nothing.
    if (f && result.fields[f]?.evidence?.source === 'xml') continue;
    if (!n || moneyDecimals === null || moneyCount < 3 || n.decimals === moneyDecimals) continue;
    if ((byDecimals.get(n.decimals) ?? 0) >= 0.25 * money.length) continue;
    fail(
      `${n.name} "${n.text}" is written with ${n.decimals} decimal${n.decimals === 1 ? '' : 's'}, but the document's amounts have ${moneyDecimals}`,
      [field(n.name)],
    );
  }

  // 3. Each line: amount = quantity × unit price (a discount or a rate printed on the row may explain the difference).
  const items = result.items.map((it, i) => ({
    it,
    i,
    q: num(`line item ${i + 1} quantity`, it.quantity),
    p: num(`line item ${i + 1} unit price`, it.unit_price),
    a: num(`line item ${i + 1} amount`, it.amount),
  }));
  // Rows whose quantity × unit price = amount (or with a printed rate): their quantity and unit price are confirmed.
  const productRows = new Set<number>();
  for (const { it, i, q, p, a } of items) {
    if (!q || !p || !a) continue;
    const product = q.value * p.value;
    const tol = half(a) + Math.abs(q.value) * half(p) + EPSILON;
    if (Math.abs(product - a.value) <= tol) {
      confirmedLines.add(i);
      productRows.add(i);
      continue;
    }
    const rates = rowPercentages(document, it);
    const near = (x: number) => Math.abs(x - a.value) <= tol + Math.abs(product) * 0.0005;
    if (
      rates.some((r) => near(product * (1 - Math.abs(r) / 100)) || near(product * (1 + Math.abs(r) / 100))) ||
      xmlLineExplains(document, it, product, near)
    ) {
      confirmedLines.add(i);
      productRows.add(i);
      continue;
    }
    fail(
      `line item ${i + 1}: quantity ${q.text} × unit price ${p.text} = ${fmt(product, Math.max(a.decimals, 2))}, but its amount is ${a.text}`,
      (['quantity', 'unit_price', 'amount'] as const).map((c) => ({ field: c, item: i })),
    );
  }

  // 4. The lines add up to the subtotal, else the total (net lines: the total less the tax).
  const amounts = items.map((x) => x.a);
  const target = subtotal ?? total;
  if (target && items.length > 0 && amounts.every((a): a is Num => a !== null)) {
    const sum = amounts.reduce((s, a) => s + a.value, 0);
    const tol = amounts.reduce((t, a) => t + half(a), half(target)) + EPSILON;
    const candidates = [subtotal, total, total && tax && !subtotal ? { value: total.value - tax.value } : null].filter(
      (x): x is { value: number } => x !== null,
    );
    // Net lines and a gross total whose tax was not asked for: the gap is a tax the page prints (an amount on a tax
    // line, or a printed rate of the lines' sum), perhaps with a printed charge.
    const taxGap = (gap: number) =>
      !tax &&
      total &&
      !subtotal &&
      (printedTaxes.some((t) => Math.abs(gap - t) <= tol || explained(gap - t, tol)) ||
        taxRates.some((r) => Math.abs(gap - (sum * r) / 100) <= tol * (1 + items.length)));
    const adds = candidates.filter(
      (c) =>
        Math.abs(c.value - sum) <= tol ||
        explained(c.value - sum, tol) ||
        (c === total && taxGap(c.value - sum)) ||
        (c === subtotal && xmlAdjusted !== null && Math.abs(c.value - sum - xmlAdjusted.lines) <= tol),
    );
    for (const c of adds) {
      for (const i of items) confirmedLines.add(i.i);
      if (c === subtotal && subtotal) confirmed.add(subtotal.name);
      else if (c === total && total) confirmed.add(total.name);
      else if (total && tax) {
        confirmed.add(total.name);
        confirmed.add(tax.name);
      }
    }
    if (adds.length === 0) {
      fail(
        `the line items do not add up: their amounts sum to ${fmt(sum, maxDecimals(...amounts))}, but ${target.name} is ${target.text}`,
        [field(target.name), ...items.map((x) => ({ field: 'amount', item: x.i }))],
      );
    }
  }

  // 5. subtotal + tax = total (a tax the page says is included: subtotal = total).
  if (subtotal && tax && total) {
    const gap = total.value - (subtotal.value + tax.value);
    const tol = half(subtotal) + half(tax) + half(total) + EPSILON;
    const included = taxIncluded && Math.abs(total.value - subtotal.value) <= half(subtotal) + half(total) + EPSILON;
    const xmlDue = xmlAdjusted !== null && Math.abs(gap - xmlAdjusted.due) <= tol;
    if (Math.abs(gap) <= tol || included || explained(gap, tol) || xmlDue)
      for (const n of [subtotal, tax, total]) confirmed.add(n.name);
    else {
      fail(
        `the totals do not add up: ${subtotal.name} ${subtotal.text} + ${tax.name} ${tax.text} = ${fmt(subtotal.value + tax.value, maxDecimals(subtotal, tax))}, but ${total.name} is ${total.text}`,
        [field(subtotal.name), field(tax.name), field(total.name)],
      );
    }
  }

  // 5b. No tax given, but the page prints its VAT rows (a tax printed only per rate, "USt. 7% 275,00 19,25" and
  // "USt. 19% 198,00 37,62", never as one figure): subtotal + the rows' taxes = total (session 12).
  if (subtotal && total && !tax && vatRows.length > 0) {
    const decimals = Math.max(...vatRows.map((v) => v.decimals));
    const gap = total.value - subtotal.value;
    const adds = [distinctVatRows(vatRows), vatRows].some(
      (rows) =>
        Math.abs(gap - rows.reduce((sum, v) => sum + v.tax, 0)) <=
        half(subtotal) + half(total) + rows.length * 0.5 * 10 ** -decimals + EPSILON,
    );
    if (adds) for (const n of [subtotal, total]) confirmed.add(n.name);
  }

  // 6. A total below an amount printed on a tax line ("TOTAL IMPUESTOS 302.00" beside a total of 60.00; "Total incl.
  // VAT 119.00" beside the pre-tax 100.00).
  if (total && total.value > 0) {
    const above = taxLines.flatMap((l) =>
      findAmounts(l)
        .filter((a) => a.value.includes('.') && Number(a.value) > total.value + half(total) + EPSILON)
        .map((a) => ({ l, a })),
    )[0];
    if (above)
      fail(
        `${total.name} ${total.text} is less than ${above.a.raw} printed on a tax line ("${clip(normaliseLine(above.l))}")`,
        [field(total.name)],
      );
  }

  // 7a. VAT rows: a rate, its base and its tax on one row (a VAT summary: "MwSt 19% 100.00 19.00"; "20.0% 600.00€
  // 120.00€ 720.00€" under "Taux TVA  Base HT  MT TVA  TTC"), the row naming a tax or under a line that does (a
  // discount row "Rabatt 10% 1200.00 120.00" is none). Their arithmetic confirms a tax as a sum would: the one rate's
  // tax, or the rates' taxes together. A tax that is one rate's tax where the page prints several is not the
  // document's tax (session 11: "a tax printed only per rate"), even where the rates bracket it (7.).
  let oneRateOnly: string | null = null;
  if (tax && tax.value !== 0 && vatRows.length > 0) {
    const near = (x: number, d: number) => Math.abs(Math.abs(tax.value) - x) <= half(tax) + 0.5 * 10 ** -d + EPSILON;
    // The same rate and tax on two rows is a repeated summary, or two taxes of one rate (India's CGST 9% and SGST
    // 9%): the rows' sum with and without the repeats.
    const distinct = distinctVatRows(vatRows);
    const decimals = Math.max(...vatRows.map((v) => v.decimals));
    const sums = [distinct, vatRows].map((rows) => ({
      value: rows.reduce((s, v) => s + v.tax, 0),
      tol: rows.length * 0.5 * 10 ** -decimals,
    }));
    const rates = new Set(vatRows.map((v) => v.rate));
    const own = vatRows.find((v) => near(v.tax, v.decimals));
    if (vatRows.length === 1 && own) confirmed.add(tax.name);
    else if (
      vatRows.length > 1 &&
      sums.some((x) => Math.abs(Math.abs(tax.value) - x.value) <= half(tax) + x.tol + EPSILON)
    )
      confirmed.add(tax.name);
    else if (rates.size > 1 && own && !confirmed.has(tax.name))
      oneRateOnly = `${tax.name} ${tax.text} is the tax of one VAT rate only (${own.rate}%): the page prints a tax per rate (${distinct.map((v) => `${v.rate}%: ${fmt(v.tax, v.decimals)}`).join(', ')}), ${fmt(sums[0]!.value, decimals)} together`;
  }
  // A tax of 0 read from the 0 % row of a breakdown whose other rates carry tax (session 16).
  if (tax && tax.value === 0 && vatRows.length > 0) {
    const rows = distinctVatRows(vatRows);
    const together = fmt(
      rows.reduce((sum, v) => sum + v.tax, 0),
      Math.max(...rows.map((v) => v.decimals)),
    );
    oneRateOnly = `${tax.name} ${tax.text} is not the document's tax: the page prints a tax per rate (${rows.map((v) => `${v.rate}%: ${fmt(v.tax, v.decimals)}`).join(', ')}), ${together} together`;
  }
  if (oneRateOnly && tax) fail(oneRateOnly, [field(tax.name)]);

  // 7. The tax: named by the document, not more than the total, and the rate printed times its base.
  if (tax && tax.value !== 0 && !oneRateOnly) {
    // An XML's tax total is a tax by its element (TaxTotal, Imposta): the markup need not be searched for a tax word.
    const xmlTax = result.fields[tax.name]?.evidence?.source === 'xml';
    if (!xmlTax && !printed.pages.some((p) => TAX_WORD.test(p.text))) {
      fail(`${tax.name} ${tax.text} is given, but the document names no tax (VAT, GST, sales tax…)`, [field(tax.name)]);
    } else if (total && total.value > 0 && tax.value > total.value + EPSILON) {
      fail(`${tax.name} ${tax.text} is more than ${total.name} ${total.text}`, [field(tax.name), field(total.name)]);
    } else {
      const included =
        taxIncluded &&
        (!subtotal || (total !== null && Math.abs(total.value - subtotal.value) <= half(subtotal) + half(total)));
      const base =
        subtotal && !included
          ? {
              value: subtotal.value,
              label: `${subtotal.name} ${subtotal.text}`,
              fields: [subtotal.name],
              decimals: subtotal.decimals,
            }
          : total
            ? {
                value: total.value - tax.value,
                label: `${total.name} ${total.text} − ${tax.name} ${tax.text} = ${fmt(total.value - tax.value, maxDecimals(total, tax))}`,
                fields: [total.name],
                decimals: maxDecimals(total, tax),
              }
            : null;
      if (base && base.value > 0) {
        const rates = taxRates;
        // Rounding: the tax's own, the base's times the rate, and one per line when the tax is summed line by line.
        const tol = half(tax) * (1 + items.length) + (MAX_TAX_RATE / 100) * 0.5 * 10 ** -base.decimals + EPSILON;
        const of = (r: number) => (base.value * r) / 100;
        if (rates.length > 0) {
          const fits =
            rates.some((r) => Math.abs(of(r) - tax.value) <= tol) ||
            (rates.length > 1 && tax.value >= of(rates.at(-1)!) - tol && tax.value <= of(rates[0]!) + tol);
          if (fits) for (const f of [tax.name, ...base.fields]) confirmed.add(f);
          else {
            fail(
              `${tax.name} ${tax.text} is not the rate printed on the page (${rates.map((r) => `${r}%`).join(' or ')}) of ${base.label} (that is ${rates.map((r) => fmt(of(r), tax.decimals)).join(' or ')})`,
              [field(tax.name), ...base.fields.map(field)],
            );
          }
        } else if (tax.value > of(MAX_TAX_RATE) + tol) {
          fail(`${tax.name} ${tax.text} is more than ${MAX_TAX_RATE}% of ${base.label}`, [
            field(tax.name),
            ...base.fields.map(field),
          ]);
        }
      } else if (
        !base &&
        largest > 0 &&
        tax.value > (largest * MAX_TAX_RATE) / (100 + MAX_TAX_RATE) + half(tax) + EPSILON
      ) {
        // No base given: at most 30% tax, the tax is at most 30/130 of any gross total the document prints.
        fail(
          `${tax.name} ${tax.text} is more than a tax of ${MAX_TAX_RATE}% can be of the largest amount the document prints (${fmt(largest, moneyDecimals ?? 2)})`,
          [field(tax.name)],
        );
      }
    }
  }

  // 8. The due date is not before the invoice date.
  const invoiceDateF = byConcept('invoice_date');
  const dueDateF = byConcept('due_date');
  const isoOf = (f: string | null) =>
    f && /^\d{4}-\d{2}-\d{2}$/u.test(result.fields[f]!.value ?? '') ? result.fields[f]!.value! : null;
  const issued = isoOf(invoiceDateF);
  const due = isoOf(dueDateF);
  if (issued && due && due < issued)
    fail(`${dueDateF} ${due} is before ${invoiceDateF} ${issued}`, [field(dueDateF!), field(invoiceDateF!)]);

  // 13. What no cross-check confirms, read by a weak rule: a line item that neither quantity × unit price nor the lines'
  // sum confirms; a total, subtotal or tax that no sum or rate confirms and that the engine did not read on its label's
  // line (read under it, or without a label). A value from the e-invoice XML is exact; a value already flagged keeps
  // its own reason.
  const already = (f: string, item: number | null) => flags.some((x) => x.field === f && x.item === item);
  const fromPage = (v: ExtractedValue | undefined) => !!v && v.value !== null && v.evidence?.source !== 'xml';
  /** A value read from an OCR page (a scan or an image), not from a text layer or the XML. */
  const ocrRead = (v: ExtractedValue | undefined) =>
    fromPage(v) && v!.evidence?.page != null && pages.get(v!.evidence.page)?.source === 'ocr';
  for (const { it, i, a } of items) {
    if (confirmedLines.has(i)) continue;
    const numbers = (['quantity', 'unit_price', 'amount'] as const).filter((c) => fromPage(it[c]) && !already(c, i));
    if (!a || !fromPage(it.amount) || numbers.length === 0) continue;
    fail(
      `line item ${i + 1}: neither quantity × unit price nor a subtotal or total the lines add up to confirms its amount ${a.text}`,
      numbers.map((c) => ({ field: c, item: i })),
    );
  }
  for (const n of [total, subtotal, tax]) {
    const v = n ? result.fields[n.name] : undefined;
    if (!n || !v || confirmed.has(n.name) || !fromPage(v) || already(n.name, null)) continue;
    // A sum of printed figures (evidence listing each) is only as good as the arithmetic that says they add up to it.
    if (pageSum(v))
      fail(
        `${n.name} ${n.text} is given as the sum of the figures "${clip(normaliseLine(v.evidence!.snippet))}", and neither the document's VAT rows nor its totals confirm that they make it`,
        [field(n.name)],
      );
    else if (v.confidence !== null && v.confidence < LABELLED_CONFIDENCE)
      fail(
        `${n.name} "${n.text}" was not read on its label's line (confidence ${Number(v.confidence.toFixed(2))}) and no sum on the document confirms it`,
        [field(n.name)],
      );
    // Read by OCR, even on its label's line: a digit misread as another (3 as 8) leaves a well-formed amount.
    else if (ocrRead(v))
      fail(
        `${n.name} "${n.text}" was read by OCR and no sum on the document confirms it (a misread digit would go unseen)`,
        [field(n.name)],
      );
  }
  // 13b. On an OCR page, a line's quantity and unit price are confirmed only by their product: a line the lines' sum
  // confirms says nothing of them, nor does a product with a factor 0 ("0 × 8.50 = 0", the 3.50 misread) or a missing one
  // (a unit price read into the quantity column, the unit price left empty).
  for (const { it, i, q, p } of items) {
    if (productRows.has(i) && q!.value !== 0 && p!.value !== 0) continue;
    const why = (other: Num | null, otherName: string) =>
      other === null ? `no ${otherName}` : other.value === 0 ? `${otherName} 0` : null;
    for (const [c, n, other, otherName] of [
      ['quantity', q, p, 'unit price'],
      ['unit_price', p, q, 'quantity'],
    ] as const) {
      if (!n || n.value === 0 || !ocrRead(it[c]) || already(c, i)) continue;
      const because = why(other, otherName);
      if (because === null) continue;
      fail(
        `line item ${i + 1} ${c === 'unit_price' ? 'unit price' : c} ${n.text}: read by OCR, and its row's quantity × unit price cannot confirm it (${because})`,
        [{ field: c, item: i }],
      );
    }
  }
  // A date has no sum to confirm it: one found without any label (the only date printed) may be any date.
  for (const [f, v] of Object.entries(result.fields)) {
    if (
      fieldKind(f) !== 'date' ||
      !fromPage(v) ||
      already(f, null) ||
      v.confidence === null ||
      v.confidence >= UNLABELLED_CONFIDENCE
    )
      continue;
    fail(
      `${f} "${clip(v.value!)}" was read without a label (confidence ${Number(v.confidence.toFixed(2))}): nothing on the document says which date it is`,
      [field(f)],
    );
  }

  // 14. The OCR's own doubt: a value whose words it read with a low word confidence (a digit it was unsure of reads as
  // another digit as easily). Every field and line cell read from an OCR page with a box.
  const doubt = (name: string, ref: { field: string; item: number | null }, v: ExtractedValue | undefined) => {
    const box = v?.evidence?.box;
    const page =
      v?.value != null && box && v.evidence!.page !== null && v.evidence!.source !== 'xml'
        ? pages.get(v.evidence!.page)
        : undefined;
    if (!page || page.source !== 'ocr' || !box) return;
    const weakest = page.words
      .filter((w) => w.confidence !== undefined && centreIn(w.box, box))
      .sort((a, b) => a.confidence! - b.confidence!)[0];
    if (weakest && weakest.confidence! < OCR_DOUBT)
      fail(
        `${name} "${clip(v!.value!)}": the OCR read "${clip(weakest.text)}" with a word confidence of ${Math.round(weakest.confidence!)} of 100`,
        [ref],
      );
    // 14b. An identifier of letters and digits: nothing confirms it, so a doubt under OCR_ID_DOUBT is enough.
    else if (weakest && weakest.confidence! < OCR_ID_DOUBT && ref.item === null && identifierLike(ref.field))
      fail(
        `${name} "${clip(v!.value!)}": the OCR read "${clip(weakest.text)}" with a word confidence of ${Number(weakest.confidence!.toFixed(1))} of 100, and nothing on the document can confirm an identifier of letters and digits the way a sum confirms an amount`,
        [ref],
      );
  };
  // An identifier of letters and digits ("IT23-94115I-790"): OCR's letter/digit confusions (I/1, O/0, S/5, B/8) leave
  // it well formed, and no grammar or dictionary settles them. Digits alone (a date, "49-8332110") are read at these
  // confidences right as often as wrong (the generated corpus's PNG). A VAT id whose check digits hold confirms itself.
  const identifierLike = (f: string) => {
    const value = result.fields[f]?.value ?? '';
    if (!/\p{L}/u.test(value) || !/\p{N}/u.test(value)) return false;
    if (fieldKind(f) === 'tax_id') return !vatIdChecksumHolds(value);
    return ['invoice_number', 'po_number'].includes(conceptOf(f));
  };
  for (const [f, v] of Object.entries(result.fields)) doubt(f, field(f), v);
  result.items.forEach((it, i) => {
    for (const c of LINE_ITEM_COLUMNS) doubt(`line item ${i + 1} ${c}`, { field: c, item: i }, it[c]);
  });

  // 9–11. Text fields have no arithmetic: names, invoice numbers and VAT ids are checked by where and how they are printed.
  // 15. How a value was read off its page (domain/extraction-reading-checks.ts, session 16).
  for (const t of [...checkTextFields(result, document, conceptOf), ...checkReadings(result, document, conceptOf)])
    fail(t.reason, [...t.fields.map(field), ...(t.items ?? [])]);

  return { flags, reasons };
}

// --------------------------------------------------------------------------------------------------------- VAT rows

/** A VAT row of a page: its rate, its tax and where that tax is printed. */
export interface VatRow {
  rate: number;
  tax: number;
  decimals: number;
  /** The tax as printed ("19,25"). */
  raw: string;
  page: number;
  /** Offset of `raw` in its page's text. */
  offset: number;
}

/** The tax rates printed in `text`, in order: percentages above 0 and up to MAX_TAX_RATE. */
export const printedRates = (text: string): number[] =>
  [...text.matchAll(PERCENT)].map((m) => Number(m[2]!.replace(',', '.'))).filter((r) => r > 0 && r <= MAX_TAX_RATE);

/** A figure as printed: its value and its number of decimals. */
export type PrintedFigure = { value: number; decimals: number };

/** A plain decimal ("37.62", "100") as a printed figure. */
export const printedFigure = (plain: string): PrintedFigure => ({
  value: Number(plain),
  decimals: plain.split('.')[1]?.length ?? 0,
});

/** `tax` is `rate` % of `base`, to the rounding of the two figures as printed (their decimals). */
export const isRateOf = (rate: number, base: PrintedFigure, tax: PrintedFigure): boolean =>
  Math.abs((base.value * rate) / 100 - tax.value) <= half(tax) + (rate / 100) * half(base) + EPSILON;

/** A breakdown's 0 % row ("0.00%  $0.00  $22,200.00"): no VAT row of its own, but the rows under it still are. */
const ZERO_RATE_ROW = /^\s*0(?:[.,]0{1,2})?\s?%/u;

/**
 * The document's VAT rows: a rate, its base and its tax on one row (a VAT summary: "MwSt 19% 100.00 19.00"; "20.0%
 * 600.00€ 120.00€ 720.00€" under "Taux TVA  Base HT  MT TVA  TTC"), base × rate = tax, the row naming a tax or under a
 * line that does (a discount row "Rabatt 10% 1200.00 120.00" is none). In page and line order.
 */
export function findVatRows(document: PositionedText): VatRow[] {
  const rows: VatRow[] = [];
  let underTaxName = false;
  for (const p of document.pages) {
    for (const { text: l, start: lineStart } of textLines(p.text)) {
      if (l.trim() === '') continue;
      const named = TAX_WORD.test(l) && findTaxIds(l).length === 0 && !REGISTRATION_WORD.test(l);
      const rates = printedRates(l);
      // The rates blanked out, offsets kept.
      const figures = findAmounts(l.replace(PERCENT, (m) => ' '.repeat(m.length)))
        .filter((a) => a.value.includes('.'))
        .map((a) => ({
          value: Math.abs(Number(a.value)),
          decimals: a.value.split('.')[1]!.length,
          raw: a.raw,
          index: a.index,
        }));
      const r = rates.length === 1 ? rates[0]! : null;
      const t =
        r === null
          ? undefined
          : figures.find((t) => figures.some((b) => b !== t && b.value > t.value && isRateOf(r, b, t)));
      if (r !== null && t && t.value > 0 && (named || underTaxName)) {
        rows.push({
          rate: r,
          tax: t.value,
          decimals: t.decimals,
          raw: t.raw,
          page: p.page,
          offset: lineStart + t.index,
        });
        underTaxName = true;
      } else underTaxName = named || (underTaxName && ZERO_RATE_ROW.test(l));
    }
  }
  return rows;
}

/** The rows without repeats: the same rate and tax twice is a repeated summary, or two taxes of one rate (CGST + SGST). */
const distinctVatRows = (rows: readonly VatRow[]) =>
  rows.filter((v, i) => rows.findIndex((w) => w.rate === v.rate && Math.abs(w.tax - v.tax) <= EPSILON) === i);

/**
 * The tax of a page that prints it only per VAT rate (two rows or more, each of its own rate, on one page): the rows'
 * taxes added up, with evidence listing each row's figure ("19,25 + 37,62", extraction-evidence.ts's page sum) and the
 * box around them. Null when the page prints one rate (its row's tax is a figure of its own), repeats a rate (a
 * repeated summary, or CGST + SGST: which rows add up is not the page's to say), or its rows are on several pages.
 */
export function taxOfVatRows(document: PositionedText): ExtractedValue | null {
  return taxOfRows(document, findVatRows(document));
}

/** A tax name with its rate right after it ("IVA 21%", "IVA 10,5 %", "USt. 19%"). */
const RATE_AFTER_TAX = new RegExp(
  `(?:${wordsPattern(allWords(TAX_NAMES)).source})\\.?\\s*(\\d{1,2}(?:[.,]\\d{1,3})?)\\s?%`,
  'iu',
);

/**
 * The document's tax rows printed without their base ("IVA 21%: $2.310,00" and "IVA 10,5%: $1.050,00" under an
 * Argentine invoice's "Importe Neto Gravado"): a tax name, its rate right after it, then (a colon, a currency sign or
 * code at most between) the line's one amount, its tax. A line with a base and a tax is a VAT row (findVatRows); a line
 * with a tax id or a registration is none. In page and line order.
 */
export function findRateRows(document: PositionedText): VatRow[] {
  const rows: VatRow[] = [];
  for (const p of document.pages) {
    for (const { text: l, start: lineStart } of textLines(p.text)) {
      const m = RATE_AFTER_TAX.exec(l);
      if (!m || printedRates(l).length !== 1 || findTaxIds(l).length > 0 || REGISTRATION_WORD.test(l)) continue;
      const rate = Number(m[1]!.replace(',', '.'));
      const from = m.index + m[0].length;
      const amounts = findAmounts(l.slice(from)).filter((a) => a.value.includes('.'));
      const a = amounts[0];
      if (amounts.length !== 1 || !/^[\s:=]*(?:\p{Sc}|\p{Lu}{3})?\s*$/u.test(l.slice(from, from + a!.index))) continue;
      const value = Math.abs(Number(a!.value));
      if (!(rate > 0 && rate <= MAX_TAX_RATE) || value === 0) continue;
      rows.push({
        rate,
        tax: value,
        decimals: a!.value.split('.')[1]!.length,
        raw: a!.raw,
        page: p.page,
        offset: lineStart + from + a!.index,
      });
    }
  }
  return rows;
}

/**
 * The tax of a page that prints it only as rows of their own rates without a base (findRateRows, two or more of
 * different rates, on one page): their taxes added up, with evidence as taxOfVatRows gives it. Whether they are the
 * whole tax is the totals' to say (subtotal + tax = total; the engine and the document checks ask).
 */
export function taxOfRateRows(document: PositionedText): ExtractedValue | null {
  return taxOfRows(document, findRateRows(document));
}

function taxOfRows(document: PositionedText, rows: readonly VatRow[]): ExtractedValue | null {
  if (rows.length < 2 || new Set(rows.map((r) => r.rate)).size !== rows.length) return null;
  const page = document.pages.find((p) => p.page === rows[0]!.page);
  if (!page || rows.some((r) => r.page !== page.page)) return null;
  const value = sumDecimals(rows.map((r) => fmt(r.tax, r.decimals)));
  if (value === null) return null;
  const boxes = rows.flatMap((r) =>
    page.words
      .filter((w) => w.offset < r.offset + r.raw.length && w.offset + w.text.length > r.offset)
      .map((w) => w.box),
  );
  return {
    value,
    evidence: { page: page.page, snippet: rows.map((r) => r.raw).join(SUM_SEPARATOR), box: unionBox(boxes) },
    confidence: LABELLED_CONFIDENCE,
  };
}

// ------------------------------------------------------------------------------------------------------- text fields

/** The values of the fields of one concept, in request order, with their field names. */
const ofConcept = (result: ExtractionResult, conceptOf: ConceptOf, id: string) =>
  Object.entries(result.fields)
    .filter(([f, v]) => conceptOf(f) === id && v.value !== null)
    .map(([f, v]) => ({ f, v, value: v.value! }));

/** Where a value's snippet starts in its page's text: within its box's words when it has one, else every place. */
function snippetStarts(page: PageText, ev: Evidence): number[] {
  const starts: number[] = [];
  for (let i = page.text.indexOf(ev.snippet); i >= 0 && starts.length < 50; i = page.text.indexOf(ev.snippet, i + 1))
    starts.push(i);
  const box = ev.box;
  if (!box || page.words.length === 0) return starts;
  const inBox = page.words.filter((w) => centreIn(w.box, box));
  if (inBox.length === 0) return starts;
  const lo = Math.min(...inBox.map((w) => w.offset));
  const hi = Math.max(...inBox.map((w) => w.offset + w.text.length));
  return starts.filter((i) => i >= lo && i < hi);
}

/** The page a value was read from (null for XML, a missing page, or no evidence). */
const pageOf = (document: PositionedText, v: ExtractedValue): PageText | null =>
  v.evidence && v.evidence.source !== 'xml' && v.evidence.page !== null
    ? (document.pages.find((p) => p.page === v.evidence!.page) ?? null)
    : null;

interface TextFlag {
  reason: string;
  fields: string[];
  /** Line items' columns. */
  items?: { field: string; item: number }[];
}

/** Words that may stand between a label and the number it names ("Invoice No.", "Rechnung Nr.", "n°"). */
const NUMBER_WORDS = /^(?:no|nr|n°|nº|number|nummer|numéro|numero|número|núm|num|#|id|ref)\.?$/iu;

/**
 * Checks of the text fields: (9) a party's name is the head of a block that carries the party's address, VAT id or
 * IBAN, or the letterhead at the top of page 1 (or comes from the e-invoice XML), the seller and buyer are not the
 * same name, and the seller's name agrees with the head of the block that carries the seller's VAT id or its company
 * registration; (10) an invoice number is not a date, an amount, a phone number, a postcode or a customer or order
 * number; (11) a VAT id has an EU country prefix, its country's format and checksum.
 */
export function checkTextFields(result: ExtractionResult, document: PositionedText, conceptOf: ConceptOf): TextFlag[] {
  const out: TextFlag[] = [];
  const sellers = ofConcept(result, conceptOf, 'vendor_name');
  const buyers = ofConcept(result, conceptOf, 'customer_name');

  // 9. Names.
  for (const { f, v, value } of [...sellers, ...buyers]) {
    const page = pageOf(document, v);
    if (!page) continue;
    const starts = snippetStarts(page, v.evidence!);
    if (starts.length === 0) continue; // the evidence check flags a snippet that is not on its page
    // A business letter's sender line names the seller, the first line of the address block under it the buyer.
    const letterParty =
      conceptOf(f) === 'vendor_name' ? senderLineOf(page)?.name.start : addresseeUnderSender(page)?.start;
    const inBlock = starts.some(
      (at) =>
        at === letterParty ||
        labelledBy(page, at, conceptOf(f)) ||
        (() => {
          const where = blockAt(page, at);
          const name = where ? blockName(where.block) : null;
          return (
            name !== null &&
            at >= name.start &&
            at < name.end &&
            !/[\p{L}\p{N}]/u.test(page.text.slice(name.start, at)) &&
            (carriesParty(where!.block) || where!.block.top)
          );
        })(),
    );
    if (!inBlock)
      out.push({
        reason: `${f} "${clip(value)}" was not read from a party's block: no party label names it, no address, VAT id or IBAN is printed with it, and it is not the letterhead at the top of page 1`,
        fields: [f],
      });
  }
  // A remark printed by a party's name ("(Not to be used for payment remittance)", OCR's "{…)") is in brackets; a name is not.
  for (const { f, value } of [...sellers, ...buyers])
    if (/^\s*[([{<]/u.test(value) && /[)\]}>]\s*$/u.test(value))
      out.push({ reason: `${f} "${clip(value)}" is written in brackets: a remark, not a name`, fields: [f] });
  // The copy mark over an Argentine invoice's title ("ORIGINAL", "DUPLICADO") says which copy the print is.
  for (const { f, value } of [...sellers, ...buyers])
    if (isCopyMark(value))
      out.push({
        reason: `${f} "${clip(value)}" is a copy mark (which copy of the print this is), not a name`,
        fields: [f],
      });
  const seller = sellers[0];
  const buyer = buyers[0];
  if (seller && buyer && sameName(seller.value, buyer.value)) {
    out.push({
      reason: `${seller.f} and ${buyer.f} are the same name "${clip(seller.value)}": one of them is the other party's`,
      fields: [seller.f, buyer.f],
    });
  }
  // The seller's own block: the one carrying its VAT id, or its registered office and registration (a legal footer).
  const sellerVat = ofConcept(result, conceptOf, 'tax_id')[0]?.value;
  const legal = legalBlocks(document.pages, sellerVat ?? null).map((l) => ({
    name: l.name.text.trim(),
    page: l.page.page,
    why: l.ownVat ? `the seller's VAT id ${sellerVat}` : "the company's registration",
  }));
  if (
    seller &&
    pageOf(document, seller.v) &&
    legal.length > 0 &&
    !legal.some((l) => nameContains(l.name, seller.value))
  ) {
    const l = legal[0]!;
    out.push({
      reason: `${seller.f} "${clip(seller.value)}" disagrees with "${clip(l.name)}", the name heading the block with ${l.why} (page ${l.page})`,
      fields: [seller.f],
    });
  }
  if (buyer && pageOf(document, buyer.v)) {
    const l = legal.find((x) => sameName(x.name, buyer.value));
    if (l)
      out.push({
        reason: `${buyer.f} "${clip(buyer.value)}" is the name heading the block with ${l.why} (page ${l.page}): the seller's`,
        fields: [buyer.f],
      });
  }

  // 10. Invoice numbers.
  for (const { f, v, value } of ofConcept(result, conceptOf, 'invoice_number')) {
    const why = notAnInvoiceNumber(document, v, value);
    if (why) out.push({ reason: `${f} "${clip(value)}" ${why}`, fields: [f] });
  }

  // 10b. Dates: a date printed after (on its line) or under (its column's header) another date's label is that date
  // ("Due date: 31/03/2024" read as the invoice date; the "Date de livraison" column read as the due date).
  for (const id of ['invoice_date', 'due_date'] as const) {
    for (const { f, v, value } of ofConcept(result, conceptOf, id)) {
      if (v.evidence?.source === 'xml') continue;
      const why = anotherDatesLabel(document, v, id);
      if (why) out.push({ reason: `${f} "${clip(value)}" ${why}`, fields: [f] });
    }
  }

  // 12. Line items that look misread: a row with a quantity or price but no amount; a description with no word.
  result.items.forEach((it, i) => {
    // An engine may leave a cell out: a missing cell is a null value.
    const val = (c: LineItemColumn) => (it[c] as ExtractedValue | undefined)?.value ?? null;
    const given = LINE_ITEM_COLUMNS.filter((c) => val(c) !== null);
    if (val('amount') === null && (val('quantity') !== null || val('unit_price') !== null)) {
      out.push({
        reason: `line item ${i + 1}: no amount was read for it; its row may be misread`,
        fields: [],
        items: given.map((c) => ({ field: c, item: i })),
      });
    }
    const d = val('description');
    // A description read from an e-invoice's XML is its sender's text, not a reading that may be misread.
    const fromXml = it.description?.evidence?.source === 'xml';
    if (d === null && val('amount') !== null) {
      out.push({
        reason: `line item ${i + 1}: no description was read for it; its row may be misread`,
        fields: [],
        items: given.map((c) => ({ field: c, item: i })),
      });
    }
    if (
      d !== null &&
      !fromXml &&
      (!/\p{L}{3}/u.test(d) || (d.match(/\p{L}/gu) ?? []).length < (d.match(/[^\p{L}\s]/gu) ?? []).length)
    ) {
      out.push({
        reason: `line item ${i + 1} description "${clip(d)}" has no word: it may be misread`,
        fields: [],
        items: [{ field: 'description', item: i }],
      });
    }
  });

  // 11. VAT ids.
  for (const id of ['tax_id', 'buyer_tax_id']) {
    for (const { f, value } of ofConcept(result, conceptOf, id)) {
      const why = vatIdProblem(value);
      if (why) out.push({ reason: `${f} "${clip(value)}" ${why}`, fields: [f] });
    }
  }
  // 12. A currency read from a bare `$` (no code, no US$ in its snippet): what the document's own evidence makes of it
  // (dollarOfDocument: the peso of the one peso country it names, else a US dollar, unsure on a Spanish or Portuguese
  // page or with two such countries named). Any engine's reading, unless the engine flagged it itself.
  const whole = document.pages.map((p) => p.text).join('\n');
  const dollar = dollarOfDocument(whole);
  // (A dollar's code printed anywhere names the document's dollar: the engines read it so.)
  const dollarCode = findCurrencies(whole).some((m) => m.isCode && CURRENCY_SYMBOLS.$!.includes(m.codes[0]!));
  for (const { f, v, value } of ofConcept(result, conceptOf, 'currency')) {
    if (!v.evidence || v.evidence.source === 'xml' || dollarCode) continue;
    const marks = findCurrencies(v.evidence.snippet);
    if (marks.length === 0 || marks.some((m) => m.raw !== '$')) continue;
    if (result.flags?.some((fl) => fl.field === f && fl.item === null)) continue;
    if (value !== dollar.code)
      out.push({
        reason: `${f} "${clip(value)}" was read from a "$", which on this document is ${dollar.code === 'USD' ? 'a US dollar unless it says otherwise' : `the peso (${dollar.code}): it names its country`}`,
        fields: [f],
      });
    else if (dollar.reason) out.push({ reason: `${f} "${clip(value)}": ${dollar.reason}`, fields: [f] });
  }
  // A party's VAT id printed on the other party's name line (a legal footer "Nordlicht Software GmbH … USt-IdNr.:
  // DE811907980" read as the buyer's id): that party's, unless both names are on the line.
  for (const [id, own, other] of [
    ['buyer_tax_id', buyers[0], seller],
    ['tax_id', seller, buyers[0]],
  ] as const) {
    if (!other || !pageOf(document, other.v)) continue;
    for (const { f, v, value } of ofConcept(result, conceptOf, id)) {
      const page = pageOf(document, v);
      if (!page || v.evidence?.source === 'xml') continue;
      const onOthers = snippetStarts(page, v.evidence!).some((at) => {
        const line = lineAround(page.text, at);
        return nameContains(line.text, other.value) && !(own && nameContains(line.text, own.value));
      });
      if (onOthers)
        out.push({
          reason: `${f} "${clip(value)}" is printed on the line of ${other.f} "${clip(other.value)}": it is that party's`,
          fields: [f],
        });
    }
  }
  // Two parties do not share one VAT id: one of the two was read from the other party's block (a footer's
  // "USt-IdNr." given for the buyer too).
  const sellerVatId = ofConcept(result, conceptOf, 'tax_id')[0];
  const buyerVatId = ofConcept(result, conceptOf, 'buyer_tax_id')[0];
  if (sellerVatId && buyerVatId && compactId(sellerVatId.value) === compactId(buyerVatId.value))
    out.push({
      reason: `${sellerVatId.f} and ${buyerVatId.f} are the same VAT id "${clip(sellerVatId.value)}": one of them is the other party's`,
      fields: [sellerVatId.f, buyerVatId.f],
    });
  return out;
}

/** A VAT id without its spaces and punctuation, upper case. */
const compactId = (id: string) => id.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();

const labelsRe = (labels: readonly string[]) =>
  new RegExp(
    `(?<![\\p{L}])(?:${labelAlternation([...labels].sort((a, b) => b.length - a.length))})(?![\\p{L}])\\.?`,
    'giu',
  );
const INVOICE_NUMBER_LABEL = labelsRe(CONCEPTS.find((c) => c.id === 'invoice_number')!.labels);
const CUSTOMER_NUMBER_LABEL = labelsRe(CUSTOMER_NUMBER_LABELS);
const ORDER_NUMBER_LABEL = labelsRe(CONCEPTS.find((c) => c.id === 'po_number')!.labels);
const PHONE_LABEL = labelsRe(PHONE_LABELS);

const PARTY_LABEL = new Map(
  ['vendor_name', 'customer_name'].map((id) => {
    const alt = labelAlternation([...CONCEPTS.find((c) => c.id === id)!.labels].sort((a, b) => b.length - a.length));
    return [
      id,
      {
        after: new RegExp(`(?<![\\p{L}])(?:${alt})\\.?\\s*[:#–-]?\\s*$`, 'iu'),
        alone: new RegExp(`^(?:${alt})\\.?\\s*[:#–-]?\\s*$`, 'iu'),
      },
    ];
  }),
);

/**
 * A name after its own label ("Razón Social:") stands in a block under the party's heading alone ("DATOS DEL
 * RECEPTOR"): the heading is one of the three lines of text above it, or (a text layer read column by column) on the
 * page's rows right above it, its words up to six word heights higher.
 */
function underHeading(page: PageText, lineStart: number, at: number, heading: RegExp): boolean {
  const above = page.text
    .slice(0, Math.max(0, lineStart - 1))
    .split('\n')
    .map((t) => t.trim())
    .filter(Boolean);
  if (above.slice(-3).some((t) => heading.test(t))) return true;
  const word = page.words.find((w) => w.offset <= at && at < w.offset + w.text.length);
  const h = word ? word.box.y1 - word.box.y0 : 0;
  if (!word || h <= 0) return false;
  for (const { text: l, start: from } of textLines(page.text.slice(0, lineStart))) {
    if (!heading.test(l.trim())) continue;
    const ws = page.words.filter((w) => w.offset >= from && w.offset < from + l.length);
    const dy = ws.length ? word.box.y0 - Math.max(...ws.map((w) => w.box.y0)) : -1;
    if (dy > 0.5 * h && dy <= 6 * h) return true;
  }
  return false;
}

/** A party's name label ("Razón Social:", "Denominazione:") right before a place on its line. */
const NAME_LABEL_BEFORE = new RegExp(`${PARTY_NAME_LABEL.source}$`, 'iu');

/**
 * The name at `at` follows its own party's label ("Customer: Initech GmbH", "Lieferant:" over the name): the label
 * says whose name it is, with or without an address.
 */
function labelledBy(page: PageText, at: number, id: string): boolean {
  const re = PARTY_LABEL.get(id);
  if (!re) return false;
  const where = blockAt(page, at);
  const segStart = where ? where.block.segments[where.segment]!.start : page.text.lastIndexOf('\n', at - 1) + 1;
  // On its line: right after the label, in its own group of words or set apart from the label ("Bill to:      Initech").
  const lineStart = page.text.lastIndexOf('\n', at - 1) + 1;
  if (re.after.test(page.text.slice(segStart, at)) || re.after.test(page.text.slice(lineStart, at))) return true;
  if (NAME_LABEL_BEFORE.test(page.text.slice(lineStart, at)) && underHeading(page, lineStart, at, re.alone))
    return true;
  return (
    where !== null &&
    where.segment > 0 &&
    at === segStart &&
    re.alone.test(where.block.segments[where.segment - 1]!.text)
  );
}

/** Labels of dates that are neither the invoice date nor the due date (delivery, order, service, payment…). */
const OTHER_DATE_LABELS = OTHER_LABELS.filter((l) => /dat|period|périod|zeitraum|until/iu.test(l));
const DATE_LABELS = {
  invoice_date: {
    own: labelsRe(CONCEPTS.find((c) => c.id === 'invoice_date')!.labels),
    other: labelsRe([...CONCEPTS.find((c) => c.id === 'due_date')!.labels, ...OTHER_DATE_LABELS]),
    name: 'the invoice date',
  },
  due_date: {
    own: labelsRe(CONCEPTS.find((c) => c.id === 'due_date')!.labels),
    other: labelsRe([...CONCEPTS.find((c) => c.id === 'invoice_date')!.labels, ...OTHER_DATE_LABELS]),
    name: 'the due date',
  },
} as const;

/** The last match of `re` in `text` (the one ending last; of two ending together, the longer), or null. */
function lastMatch(re: RegExp, text: string): { start: number; end: number; text: string } | null {
  let best: { start: number; end: number; text: string } | null = null;
  for (const m of text.matchAll(re)) {
    const end = m.index + m[0].length;
    if (!best || end > best.end || (end === best.end && m.index < best.start))
      best = { start: m.index, end, text: m[0] };
  }
  return best;
}

/**
 * Why a date read for `id` is another date: the label it follows on its line, or else the header above it in its
 * column (the words of the nearest line above that overlap its box), is another date's and not its own (of two labels
 * ending together, "Due date" over "date", the longer). Null when its own label is the last, or no label is found.
 */
function anotherDatesLabel(document: PositionedText, v: ExtractedValue, id: keyof typeof DATE_LABELS): string | null {
  const page = pageOf(document, v);
  if (!page) return null;
  const at = snippetStarts(page, v.evidence!)[0];
  if (at === undefined) return null;
  const labels = DATE_LABELS[id];
  const lineStart = page.text.lastIndexOf('\n', at - 1) + 1;
  const where = blockAt(page, at);
  const segStart = where ? where.block.segments[where.segment]!.start : lineStart;
  const judge = (text: string, how: string) => {
    const own = lastMatch(labels.own, text);
    const other = lastMatch(labels.other, text);
    if (!other) return own ? 'own' : null;
    if (own && (own.end > other.end || (own.end === other.end && own.start <= other.start))) return 'own';
    return `is printed ${how} "${other.text.trim()}", another date's label: not ${labels.name}`;
  };
  const before = page.text.slice(Math.max(segStart, lineStart), at);
  if (/\p{L}{2}/u.test(before)) {
    const onLine = judge(before, 'after');
    return onLine === 'own' ? null : onLine;
  }
  // Nothing before it on its line: the header above it in its column.
  const head = headerAbove(page, v.evidence!.box);
  if (head === null) return null;
  const verdict = judge(head, 'under');
  return verdict === 'own' ? null : verdict;
}

/**
 * The header cell over a value's box: the words of the nearest line above it (within three of its heights) that
 * overlap it, widened to the words of that line set apart from their neighbours by at most a space's gap ("Date
 * d'échéance" over "14/09/2026"). Null when no word with a letter is above it, or the cell holds a figure.
 */
function headerAbove(page: PageText, box: Box | null): string | null {
  if (!box) return null;
  const reach = 3 * Math.max(1, box.y1 - box.y0);
  const above = page.words.filter(
    (w) =>
      w.box.y1 <= box.y0 + 1 &&
      box.y0 - w.box.y1 <= reach &&
      w.box.x0 < box.x1 &&
      w.box.x1 > box.x0 &&
      /\p{L}/u.test(w.text),
  );
  if (above.length === 0) return null;
  const nearest = Math.max(...above.map((w) => w.box.y1));
  const header = page.words
    .filter((w) => Math.abs(w.box.y1 - nearest) < 2 && w.box.x1 > box.x0 - 60 && w.box.x0 < box.x1 + 60)
    .sort((a, b) => a.box.x0 - b.box.x0);
  // The header cell over the value: the words of that line from the last gap of more than a space before the value.
  const cell: typeof header = [];
  for (const w of header) {
    if (cell.length > 0 && w.box.x0 - cell.at(-1)!.box.x1 > 12 && w.box.x0 <= box.x1) cell.length = 0;
    if (w.box.x0 > box.x1 && cell.length > 0 && w.box.x0 - cell.at(-1)!.box.x1 > 12) break;
    cell.push(w);
  }
  // A header names; a cell holding a figure is a label with its value ("Customer No: 4711"), not a header.
  return cell.length > 0 && !cell.some((w) => /\p{N}/u.test(w.text)) ? cell.map((w) => w.text).join(' ') : null;
}

/** The last label of `re` in `text` and where it ends, or null. */
function lastLabel(re: RegExp, text: string): number | null {
  let end: number | null = null;
  for (const m of text.matchAll(re)) end = m.index + m[0].length;
  return end;
}

/** Why a value read as an invoice number is none (a date, an amount, a phone number, a postcode, another number), or null. */
function notAnInvoiceNumber(document: PositionedText, v: ExtractedValue, value: string): string | null {
  const t = value.trim();
  if (findDates(t).some((d) => d.raw === t)) return 'looks like a date, not an invoice number';
  if (/^-?\d{1,3}(?:[.,'’ ]\d{3})*[.,]\d{2}$/u.test(t)) return 'looks like an amount, not an invoice number';
  if (/^\+\d[\d\s()./-]{6,}$/u.test(t) || /^\(?0\d{1,4}\)?(?:[\s/.-]\d{2,4}){2,}$/u.test(t))
    return 'looks like a phone number, not an invoice number';
  const page = pageOf(document, v);
  if (!page) return null;
  const at = snippetStarts(page, v.evidence!)[0];
  if (at === undefined) return null;
  const { start: lineStart, end: lineEnd } = lineAround(page.text, at);
  // What labels the value: the text before it in its block's line (or the line above when nothing is before it).
  const where = blockAt(page, at);
  let before = where ? page.text.slice(where.block.segments[where.segment]!.start, at) : page.text.slice(lineStart, at);
  // A label alone on the line above (its value printed below it).
  if (
    !/[\p{L}]/u.test(before) &&
    where &&
    where.segment > 0 &&
    /:\s*$/u.test(where.block.segments[where.segment - 1]!.text)
  )
    before = where.block.segments[where.segment - 1]!.text;
  // Nothing labels it on its line or above: the header over it in its column ("Order ID" over "OD1234567").
  if (!/[\p{L}]/u.test(before)) before = headerAbove(page, v.evidence!.box) ?? before;
  const invoiceLabel = lastLabel(INVOICE_NUMBER_LABEL, before);
  const other = (re: RegExp) => {
    const end = lastLabel(re, before);
    return end !== null && (invoiceLabel === null || end > invoiceLabel) ? end : null;
  };
  if (other(PHONE_LABEL) !== null) return 'is printed after a phone label: a phone number, not an invoice number';
  if (other(CUSTOMER_NUMBER_LABEL) !== null)
    return "is printed after a customer number's label: a customer number, not an invoice number";
  if (other(ORDER_NUMBER_LABEL) !== null)
    return "is printed after an order number's label: an order number, not an invoice number";
  // A postcode: four or five digits followed by a town on its line, with no invoice-number label before it.
  const after = page.text.slice(at + v.evidence!.snippet.length, lineEnd);
  if (
    /^\d{4,5}$/u.test(t) &&
    /^\s+\p{Lu}[\p{L}'’.-]+/u.test(after) &&
    invoiceLabel === null &&
    !before
      .trim()
      .split(/\s+/u)
      .every((w) => NUMBER_WORDS.test(w))
  ) {
    return 'is a postcode followed by its town, not an invoice number';
  }
  return null;
}

// -------------------------------------------------------------------------------------------------- where a value is

/** The words of a page line around a value: their texts and the index of the value's own word. */
interface Around {
  tokens: string[];
  at: number;
}

/**
 * The value's word and its neighbours on its line: by the evidence's box on a page with word positions, else every
 * place the snippet occurs whole in a line of the page's text (a plain-text page). The value's word is the one whose
 * number is the value (a snippet may quote the label too).
 */
function around(page: PageText, ev: Evidence, value: string): Around[] {
  const want = canonicalDecimal(value.replace(/^-/u, ''));
  const isValue = (t: string) => [...t.matchAll(/\d[\d.,'’]*\d|\d/gu)].some((m) => amountReadings(m[0]).has(want));
  /** The value's word among `candidates` (indexes of `tokens`): the last that is no percentage, else the last. */
  const pick = (tokens: string[], candidates: number[]): number => {
    const plain = candidates.filter((i) => !/%/u.test(tokens[i]!) && !/^%/u.test(tokens[i + 1] ?? ''));
    return (plain.length > 0 ? plain : candidates).at(-1) ?? -1;
  };
  const box = ev.box;
  if (box && page.words.length > 0) {
    const line = page.words.filter((w) => onRows(w.box, box)).sort((a, b) => a.box.x0 - b.box.x0);
    const tokens = line.map((w) => w.text);
    const at = pick(
      tokens,
      line.flatMap((w, i) => (centreIn(w.box, box) && isValue(w.text) ? [i] : [])),
    );
    return at < 0 ? [] : [{ tokens, at }];
  }
  const snippet = ev.snippet.replace(/\s+/gu, ' ').trim();
  if (!snippet) return [];
  const out: Around[] = [];
  for (const line of page.text.split('\n')) {
    const tokens = line.split(/\s+/u).filter(Boolean);
    const joined = tokens.join(' ');
    for (let i = joined.indexOf(snippet); i >= 0; i = joined.indexOf(snippet, i + 1)) {
      const first = joined.slice(0, i).split(' ').length - 1;
      const last = joined.slice(0, i + snippet.length).split(' ').length - 1;
      const at = pick(
        tokens,
        Array.from({ length: last - first + 1 }, (_, k) => first + k).filter((t) => isValue(tokens[t]!)),
      );
      if (at >= 0) out.push({ tokens, at });
    }
  }
  return out;
}

const PUNCTUATION = /^[\p{P}\p{S}]+$/u;
const isMonth = (t: string) => monthNumber(t.replace(/[.,]+$/u, '')) !== null;

/** Why an amount read at `ev` is no amount (the day or year of a date, a percentage), or null. */
function notAnAmount(page: PageText, ev: Evidence, value: string): string | null {
  const places = around(page, ev, value);
  if (places.length === 0) return null;
  const reasons = places.map(({ tokens, at }) => {
    const word = tokens[at]!;
    if (/%/u.test(word.replace(/^[^%]*\d/u, '')) || /^%/u.test(tokens[at + 1] ?? ''))
      return `is a percentage ("${word}${/%/u.test(word) ? '' : tokens[at + 1]}"), not an amount`;
    // The neighbours that are words, not punctuation: "August 3 , 2014".
    const step = (from: number, dir: 1 | -1) => {
      let j = from + dir;
      while (j >= 0 && j < tokens.length && PUNCTUATION.test(tokens[j]!)) j += dir;
      return j >= 0 && j < tokens.length ? j : -1;
    };
    const prev = step(at, -1);
    const next = step(at, 1);
    const digits = word.replace(/[^\d]/gu, '');
    let month = -1;
    if (prev >= 0 && isMonth(tokens[prev]!) && digits.length <= 4)
      month = prev; // August 3 · August 2014
    else if (next >= 0 && isMonth(tokens[next]!) && digits.length <= 2)
      month = next; // 3 August · 3. März
    else if (/^\d{4}$/u.test(digits) && prev >= 0 && /^\d{1,2}\.?$/u.test(tokens[prev]!)) {
      const p2 = step(prev, -1);
      if (p2 >= 0 && isMonth(tokens[p2]!)) month = p2;
    } // August 3, 2014
    if (month < 0) return null;
    const from = Math.min(month, at);
    let to = Math.max(month, at);
    const year = step(to, 1);
    if (year >= 0 && /^\d{4}\b/u.test(tokens[year]!) && to !== at) to = year;
    else if (year >= 0 && /^\d{4}\b/u.test(tokens[year]!) && !/^\d{4}$/u.test(digits)) to = year;
    return `is part of the date "${tokens.slice(from, to + 1).join(' ')}", not an amount`;
  });
  // On a plain-text page the snippet may occur several times: only when every place is such a part.
  return reasons.every((r) => r !== null) ? reasons[0]! : null;
}

/**
 * The element of an e-invoice's line (UBL, CII, FatturaPA) that a path runs through, and the elements of a line's or
 * the document's own allowances and charges: an amount, or a percentage of the line (a line's price allowance, under
 * UBL `cac:Price` or CII's gross price, is already in its net unit price and is not one of them).
 */
const XML_LINE =
  /^(.*?\/(?:[\w.-]+:)?(?:InvoiceLine|CreditNoteLine|IncludedSupplyChainTradeLineItem|DettaglioLinee)(?:\[\d+\])?)\//u;
const XML_PRICE_PART = /\/(?:[\w.-]+:)?(?:Price|GrossPriceProductTradePrice)(?:\[\d+\])?\//u;
const XML_ADJUSTMENT_AMOUNT =
  /\/(?:[\w.-]+:)?(?:AllowanceCharge|SpecifiedTradeAllowanceCharge|ScontoMaggiorazione)(?:\[\d+\])?\/(?:[\w.-]+:)?(?:Amount|ActualAmount|Importo)$/u;
const XML_ADJUSTMENT_PERCENT =
  /\/(?:[\w.-]+:)?(?:AllowanceCharge|SpecifiedTradeAllowanceCharge|ScontoMaggiorazione)(?:\[\d+\])?\/(?:[\w.-]+:)?(?:MultiplierFactorNumeric|CalculationPercent|Percentuale)$/u;
/** The document's totals of its allowances and charges (UBL, CII). */
const XML_ALLOWANCE_TOTAL = /\/(?:[\w.-]+:)?AllowanceTotalAmount$/u;
const XML_CHARGE_TOTAL = /\/(?:[\w.-]+:)?ChargeTotalAmount$/u;
/** What changes the amount due from the total with tax: rounding (added) and what was paid before (taken off). */
const XML_ROUNDING = /\/(?:[\w.-]+:)?(?:PayableRoundingAmount|RoundingAmount|Arrotondamento)$/u;
const XML_PREPAID = /\/(?:[\w.-]+:)?(?:PrepaidAmount|TotalPrepaidAmount)$/u;
/** Whether an allowance or charge element is a charge: UBL and CII `ChargeIndicator` true, FatturaPA `Tipo` MG. */
const XML_CHARGE_FLAG = /\/(?:[\w.-]+:)?(?:ChargeIndicator(?:\/(?:[\w.-]+:)?Indicator)?|Tipo)$/u;

/**
 * FatturaPA's document-level amounts between its lines, its VAT summaries and its total: the withholding
 * (DatiRitenuta), the welfare fund's contribution (DatiCassaPrevidenziale, part of the taxable amount) and the stamp
 * duty (DatiBollo). Senders fold them into ImportoTotaleDocumento or leave them out, as printed charges are.
 */
const XML_STATED_CHARGE = /\/(?:[\w.-]+:)?(?:ImportoRitenuta|ImportoContributoCassa|ImportoBollo)$/u;

const xmlNumber = (text: string) => (PLAIN_DECIMAL.test(text.trim()) ? Number(text.trim()) : null);

/**
 * What an e-invoice states between its lines and its totals: `lines`, the signed sum of its document-level charges
 * less its allowances (its totals of them when it gives them, else each one's amount by its charge flag), and `due`,
 * its rounding less what was paid before. Null for a page.
 */
function xmlDocumentAdjustment(document: PositionedText): { lines: number; due: number } | null {
  const elements = document.einvoice?.elements;
  if (!elements) return null;
  const sum = (re: RegExp) =>
    elements.filter((e) => !XML_LINE.test(e.path) && re.test(e.path)).reduce((t, e) => t + (xmlNumber(e.text) ?? 0), 0);
  const totals = elements.some((e) => XML_ALLOWANCE_TOTAL.test(e.path) || XML_CHARGE_TOTAL.test(e.path));
  let lines = sum(XML_CHARGE_TOTAL) - sum(XML_ALLOWANCE_TOTAL);
  if (!totals) {
    // Each allowance or charge: the elements under one parent, its amount signed by its flag.
    const parents = new Map<string, { amount: number | null; charge: boolean }>();
    for (const e of elements) {
      if (XML_LINE.test(e.path)) continue;
      const parent = e.path.slice(0, e.path.lastIndexOf('/'));
      if (XML_ADJUSTMENT_AMOUNT.test(e.path)) {
        const entry = parents.get(parent) ?? { amount: null, charge: false };
        parents.set(parent, { ...entry, amount: xmlNumber(e.text) });
      } else if (XML_CHARGE_FLAG.test(e.path)) {
        const owner = /\/(?:[\w.-]+:)?Indicator$/u.test(e.path) ? parent.slice(0, parent.lastIndexOf('/')) : parent;
        const entry = parents.get(owner) ?? { amount: null, charge: false };
        parents.set(owner, { ...entry, charge: /^(?:true|1|MG)$/iu.test(e.text.trim()) });
      }
    }
    lines = [...parents.values()].reduce(
      (t, p) => t + (p.amount === null ? 0 : p.charge ? p.amount : -Math.abs(p.amount)),
      0,
    );
  }
  return { lines, due: sum(XML_ROUNDING) - sum(XML_PREPAID) };
}

/** The e-invoice's stated document-level charges and deductions (XML_STATED_CHARGE), as sizes; none for a page. */
function xmlStatedCharges(document: PositionedText): number[] {
  return (document.einvoice?.elements ?? []).flatMap((e) => {
    const x = !XML_LINE.test(e.path) && XML_STATED_CHARGE.test(e.path) ? xmlNumber(e.text) : null;
    return x === null ? [] : [Math.abs(x)];
  });
}

/**
 * Whether an e-invoice line's own allowances and charges (amounts, or percentages applied one after the other, as
 * FatturaPA's ScontoMaggiorazione are) make its quantity × unit price (`product`) the line's amount.
 */
function xmlLineExplains(
  document: PositionedText,
  item: LineItem,
  product: number,
  near: (x: number) => boolean,
): boolean {
  const path = LINE_ITEM_COLUMNS.map((c) => item[c]?.evidence)
    .filter((e) => e?.source === 'xml')
    .map((e) => e?.path && XML_LINE.exec(e.path)?.[1])
    .find((p): p is string => !!p);
  if (!path || !document.einvoice) return false;
  const own = document.einvoice.elements.filter(
    (e) => e.path.startsWith(`${path}/`) && !XML_PRICE_PART.test(e.path.slice(path.length)),
  );
  const sizes = (re: RegExp) =>
    own.flatMap((e) => {
      const x = re.test(e.path) ? xmlNumber(e.text) : null;
      return x === null ? [] : [Math.abs(x)];
    });
  const amounts = sizes(XML_ADJUSTMENT_AMOUNT);
  const percents = sizes(XML_ADJUSTMENT_PERCENT);
  if (amounts.length === 0 && percents.length === 0) return false;
  const total = amounts.reduce((s, x) => s + x, 0);
  const cascaded = (sign: 1 | -1) => percents.reduce((v, r) => v * (1 + (sign * r) / 100), product);
  return [
    ...amounts.flatMap((x) => [product - x, product + x]),
    product - total,
    product + total,
    cascaded(-1),
    cascaded(1),
  ].some(near);
}

/** The percentages printed on a line item's row (its cells' line(s)), e.g. a discount or a tax rate. */
function rowPercentages(document: PositionedText, item: LineItem): number[] {
  const ev = lineEvidence(item);
  if (!ev) return [];
  const page = document.pages.find((p) => p.page === ev.page);
  if (!page) return [];
  let text: string;
  if (ev.box && page.words.length > 0) {
    const box = ev.box;
    text = page.words
      .filter((w) => onRows(w.box, box))
      .map((w) => w.text)
      .join(' ');
  } else {
    const snippets = (LINE_ITEM_COLUMNS as readonly LineItemColumn[])
      .map((c) => item[c]?.evidence?.snippet)
      .filter((s): s is string => !!s && /\d/u.test(s));
    text = page.text
      .split('\n')
      .filter((l) => snippets.some((s) => l.includes(s)))
      .join('\n');
  }
  return [...text.matchAll(PERCENT)].map((m) => Number(m[2]!.replace(',', '.'))).filter((r) => r > 0 && r < 100);
}

const normaliseLine = (s: string) => s.replace(/\s+/gu, ' ').trim();

// ------------------------------------------------------------------------------------------------- the review outcome

/** A flagged value of the review outcome: a field by name, or a line item's column by its 0-based index. */
export type ReviewFlag = { field: string; reason: string } | { item: number; column: LineItemColumn; reason: string };

export interface ReviewOutcome {
  review_required: boolean;
  /** Every reason once: the evidence check's first, then the document checks'. */
  reasons: string[];
  /** One entry per flagged value and reason. */
  flagged: ReviewFlag[];
}

/** The evidence check and the document checks as one review outcome (what a job's results show). */
export function mergeReview(evidence: ReviewedResult, checks: DocumentCheck): ReviewOutcome {
  const flagged: ReviewFlag[] = [];
  const seen = new Set<string>();
  const add = (item: number | null, field: string, reason: string) => {
    const key = JSON.stringify([item, field, reason]);
    if (seen.has(key)) return;
    seen.add(key);
    flagged.push(item === null ? { field, reason } : { item, column: field as LineItemColumn, reason });
  };
  for (const c of evidence.checks) if (!c.ok) add(c.item, c.field, c.reason ?? 'failed the evidence check');
  for (const f of checks.flags) add(f.item, f.field, f.reason);
  const reasons = [...new Set([...evidence.review_reasons, ...checks.reasons, ...flagged.map((f) => f.reason)])];
  return { review_required: flagged.length > 0 || reasons.length > 0, reasons, flagged };
}

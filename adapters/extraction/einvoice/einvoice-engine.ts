import {
  clip,
  type EInvoiceXml,
  type EngineFlag,
  type ExtractedValue,
  type ExtractionRequest,
  type ExtractionResult,
  type LineItem,
} from '../../../domain/extraction.js';
import { amountReadings, canonicalDecimal, compactId, findDates } from '../../../domain/extraction-values.js';
import type { ExtractionProvider } from '../extraction-provider.js';
import { conceptOf, nameWords, type Reader } from '../offline-labels.js';
import { readEInvoice, type EInvoiceData, type XmlValue } from './read-einvoice.js';
import { parseXml } from './xml-tree.js';

/**
 * E-invoices are read, not guessed (issue 29, item 2; docs/processing.md "E-invoices"). Wraps the configured engine:
 * a document without an e-invoice goes to it unchanged; a document with one (a PDF with its invoice XML embedded, or
 * the XML uploaded as the source) gets its values from the XML (read-einvoice.ts), each with evidence naming the XML
 * element (`source: 'xml'`, its path, its text as the snippet), checked against the XML by the evidence check.
 *
 * - A requested field maps to the XML by the concept the engines use (offline-labels.ts `conceptOf`): the invoice
 *   number, issue and due dates, seller and buyer names, VAT ids and e-mail addresses (the field name's words say which
 *   party: buyer, customer, client… else the seller), currency, subtotal (the total without VAT), tax, total (the
 *   amount due when the name says due, payable or balance), IBAN, order number, and a single tax rate (`tax_rate`).
 * - Line items are the XML's lines (description, quantity, unit price, line net amount).
 * - A PDF's fields the XML does not map are the wrapped engine's reading of the visible pages; a field the XML maps but
 *   leaves empty too, flagged for review (not another party's VAT id of the XML); an uploaded XML has no visible
 *   text: they are null.
 * - The PDF's visible text is compared with the XML: for the invoice number, the dates and the totals, a different
 *   value read under the field's label, or the XML's value printed nowhere on the pages, is a review reason (a flag of
 *   the field). The XML's own tax breakdown must add up to its tax total.
 */
export class EInvoiceExtractionProvider implements ExtractionProvider {
  readonly name: string;

  constructor(readonly inner: ExtractionProvider) {
    this.name = inner.name;
  }

  async extract(request: ExtractionRequest): Promise<ExtractionResult> {
    const xml = request.document.einvoice;
    if (!xml) return this.inner.extract(request);
    request.signal?.throwIfAborted();
    const data = readEInvoice(parseXml(xml.text));
    // A PDF: its visible pages are read too (the fields the XML does not give, and the comparison).
    const visible = xml.file !== null ? await this.inner.extract(request) : null;
    return fromEInvoice(data, xml, request.fields, visible, request.document.pages.map((p) => p.text).join('\n\n'));
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }
}

/** Wraps `provider` so e-invoices are read from their XML (once: a wrapped provider is returned as it is). */
export function withEInvoices(provider: ExtractionProvider): ExtractionProvider {
  return provider instanceof EInvoiceExtractionProvider ? provider : new EInvoiceExtractionProvider(provider);
}

const SYNTAX_NAMES: Record<EInvoiceXml['syntax'], string> = { cii: 'CII', ubl: 'UBL', fatturapa: 'FatturaPA' };

const BUYER_WORDS = new Set([
  'buyer',
  'customer',
  'client',
  'recipient',
  'bill',
  'billed',
  'purchaser',
  'debtor',
  'payer',
]);

/** The XML value a field maps to (`undefined`: the XML has no such concept; null: it has, but this XML leaves it empty). */
export function xmlValueOf(field: string, data: EInvoiceData): XmlValue | null | undefined {
  const words = nameWords(field);
  const buyer = words.some((w) => BUYER_WORDS.has(w));
  const concept = conceptOf(field).id;
  switch (concept) {
    case 'invoice_number':
      return data.number;
    case 'invoice_date':
      return data.issue_date;
    case 'due_date':
      return data.due_date;
    case 'total':
      return words.some((w) => w === 'due' || w === 'payable' || w === 'balance')
        ? (data.due_payable ?? data.grand_total)
        : data.grand_total;
    case 'subtotal':
      return data.net_total ?? data.line_total;
    case 'tax':
      return data.tax_total;
    case 'buyer_tax_id':
    case 'tax_id': {
      // A VAT id field is the VAT id; another tax id field (tax number, Steuernummer) the VAT id, else the tax number.
      const vatOnly = words.some((w) => w === 'vat' || w === 'ust' || w === 'tva' || w === 'iva' || w === 'btw');
      const [vat, number] =
        buyer || concept === 'buyer_tax_id'
          ? [data.buyer_vat_id, data.buyer_tax_number]
          : [data.seller_vat_id, data.seller_tax_number];
      return vatOnly ? vat : (vat ?? number);
    }
    case 'email':
      return buyer ? data.buyer_email : data.seller_email;
    case 'iban':
      return data.iban;
    case 'currency':
      return data.currency;
    case 'vendor_name':
    case 'seller_name':
      return data.seller_name;
    case 'customer_name':
    case 'buyer_name':
      return data.buyer_name;
    case 'po_number':
      return data.order_reference;
  }
  if (words.includes('rate') && words.some((w) => w === 'tax' || w === 'vat' || w === 'gst')) {
    const rates = [...new Set(data.taxes.map((t) => t.rate && canonicalDecimal(t.rate.value)))];
    return rates.length === 1 ? (data.taxes[0]!.rate ?? null) : null;
  }
  return undefined;
}

/**
 * The concepts whose XML value is compared with the PDF's visible text. Every invoice prints its number, date and
 * total: one the pages do not show is a disagreement. A page may leave out the others (a gross-price invoice prints no
 * net total): those disagree only when the page prints another value under their label and theirs nowhere.
 */
const SHOWN = new Map<string, 'always' | 'when_read'>([
  ['invoice_number', 'always'],
  ['invoice_date', 'always'],
  ['total', 'always'],
  ['due_date', 'when_read'],
  ['subtotal', 'when_read'],
  ['tax', 'when_read'],
]);

const none = (): ExtractedValue => ({ value: null, evidence: null, confidence: null });

function fromXml(v: XmlValue | null, file: string | null, value: string | null = v?.value ?? null): ExtractedValue {
  if (!v || value === null) return none();
  return {
    value,
    evidence: { page: null, snippet: v.node.text, box: null, source: 'xml', path: v.node.path, file },
    confidence: 1,
  };
}

/** The result of an e-invoice: values from the XML, the rest from `visible` (the wrapped engine's reading of a PDF). */
export function fromEInvoice(
  data: EInvoiceData,
  xml: EInvoiceXml,
  fields: readonly string[],
  visible: ExtractionResult | null,
  pageText: string,
): ExtractionResult {
  const where = xml.file === null ? 'the uploaded XML' : `the XML embedded in the PDF (${xml.file})`;
  const warnings = [`the values come from the e-invoice ${SYNTAX_NAMES[xml.syntax]} data of ${where}`];
  if (data.credit_note)
    warnings.push(
      `the document is a credit note (type ${data.type_code ?? 'CreditNote'}): its amounts are as the XML gives them, positive`,
    );
  const flags: EngineFlag[] = [];
  if (data.invoices > 1) {
    // A batch (FatturaPA: several FatturaElettronicaBody): one extraction is one invoice. The first is read and the
    // document needs review, so the others are not lost unnoticed (docs/processing.md "E-invoices").
    const batch = `the FatturaPA file holds ${data.invoices} invoices (FatturaElettronicaBody); only the first${data.number ? ` (${data.number.value})` : ''} was read`;
    warnings.push(batch);
    const field = fields.find((f) => conceptOf(f).id === 'invoice_number') ?? fields[0];
    if (field !== undefined)
      flags.push({ field, item: null, reason: `${field}: ${batch}: upload each invoice on its own` });
  }
  const out: Record<string, ExtractedValue> = {};
  for (const f of fields) {
    const mapped = xmlValueOf(f, data);
    if (mapped) {
      out[f] = fromXml(mapped, xml.file);
      const concept = conceptOf(f).id;
      if (visible && SHOWN.has(concept)) {
        const reason = disagreement(
          f,
          conceptOf(f).reader,
          mapped.value,
          alternatives(concept, data),
          visible.fields[f] ?? none(),
          pageText,
          xml.file!,
          SHOWN.get(concept)!,
        );
        if (reason) flags.push({ field: f, item: null, reason });
      }
    } else if (mapped === null && visible?.fields[f]?.value != null) {
      // The XML leaves it empty (a MINIMUM profile has no due date or IBAN): the page's reading, which a reviewer
      // confirms. Not another party's VAT id or tax number of the XML (a page prints the seller's beside the buyer).
      const read = visible.fields[f]!;
      const ids = [data.seller_vat_id, data.seller_tax_number, data.buyer_vat_id, data.buyer_tax_number].flatMap((v) =>
        v ? [compactId(v.value)] : [],
      );
      if (conceptOf(f).reader === 'tax_id' && ids.includes(compactId(read.value!))) out[f] = none();
      else {
        out[f] = read;
        flags.push({
          field: f,
          item: null,
          reason: `${f}: the e-invoice XML (${xml.file}) does not give it; it was read from the PDF's page`,
        });
      }
    } else out[f] = visible?.fields[f] ?? none();
  }
  // The tax breakdown adds up to the tax total.
  const taxField = fields.find((f) => conceptOf(f).id === 'tax') ?? fields.find((f) => conceptOf(f).id === 'total');
  const breakdown = taxBreakdownProblem(data);
  if (breakdown) {
    if (taxField && out[taxField]?.value != null)
      flags.push({ field: taxField, item: null, reason: `${taxField}: ${breakdown}` });
    else warnings.push(breakdown);
  }
  let items: LineItem[];
  if (data.lines.length > 0 || !visible) {
    items = data.lines.map((l, i) => {
      let unitPrice = fromXml(l.unit_price, xml.file);
      if (l.unit_price && l.price_basis) {
        unitPrice = fromXml(l.unit_price, xml.file, divide(l.unit_price.value, l.price_basis));
        flags.push({
          field: 'unit_price',
          item: i,
          reason: `line item ${i + 1} unit_price: the XML gives the price ${l.unit_price.value} for ${l.price_basis} units; the unit price is computed from it`,
        });
      }
      return {
        description: fromXml(l.description, xml.file),
        quantity: fromXml(l.quantity, xml.file),
        unit_price: unitPrice,
        amount: fromXml(l.amount, xml.file),
      };
    });
  } else items = visible.items;
  // The page reading's own flags, for the values it gave (a flag on a value the XML replaced is no longer about it).
  const kept = (visible?.flags ?? []).filter((f) =>
    f.item === null
      ? out[f.field] !== undefined && out[f.field] === visible?.fields[f.field]
      : items === visible?.items,
  );
  return { fields: out, items, warnings: [...warnings, ...(visible?.warnings ?? [])], flags: [...kept, ...flags] };
}

/** `a / b` as a plain decimal (at most 10 decimals, trailing zeros dropped). */
function divide(a: string, b: string): string {
  const q = Number(a) / Number(b);
  return canonicalDecimal(q.toFixed(10));
}

/** Why the XML's tax breakdown does not add up to its tax total, or null. */
function taxBreakdownProblem(data: EInvoiceData): string | null {
  const amounts = data.taxes.map((t) => t.amount?.value).filter((v): v is string => v != null);
  if (!data.tax_total || amounts.length === 0) return null;
  const sum = amounts.reduce((s, v) => s + Number(v), 0);
  const total = Number(data.tax_total.value);
  // Each category's tax is rounded to the cent.
  return Math.abs(sum - total) <= 0.005 * amounts.length + 1e-9
    ? null
    : `the XML's tax breakdown adds up to ${sum.toFixed(2)}, not to its tax total ${data.tax_total.value}`;
}

type ShownKind = Reader;

/** Whether two values of a kind are the same (amounts by value and regardless of sign, identifiers compact). */
function same(kind: ShownKind, a: string, b: string): boolean {
  if (kind === 'amount' || kind === 'number')
    return canonicalDecimal(a.replace(/^-/u, '')) === canonicalDecimal(b.replace(/^-/u, ''));
  if (kind === 'identifier' || kind === 'tax_id') return compactId(a) === compactId(b);
  return a === b;
}

/** Whether `value` is printed anywhere in `text`, in any of the forms the value grammars read. */
export function printed(kind: ShownKind, value: string, text: string): boolean {
  if (kind === 'amount' || kind === 'number') {
    const want = canonicalDecimal(value.replace(/^-/u, ''));
    const tokens = text.match(/\d[\d.,'’ \u00a0\u202f]*\d|\d/gu) ?? [];
    return tokens.some((t) => [t, ...t.split(/[ \u00a0\u202f]/u)].some((part) => amountReadings(part).has(want)));
  }
  if (kind === 'date') return findDates(text).some((d) => d.value === value || d.dmy === value || d.mdy === value);
  const id = compactId(value);
  return id !== '' && compactId(text).includes(id);
}

/**
 * What else a page may print for a concept without disagreeing with the XML: the amount due for the total (and the
 * reverse), the sum of the lines for the subtotal, and each rate's tax when a page prints the taxes rate by rate
 * (then all of them must be printed, and a reading of one of them is no disagreement).
 */
function alternatives(concept: string, data: EInvoiceData): { readings: string[]; all: string[] } {
  const v = (x: XmlValue | null) => (x ? [x.value] : []);
  if (concept === 'total') return { readings: [...v(data.grand_total), ...v(data.due_payable)], all: [] };
  if (concept === 'subtotal') return { readings: [...v(data.net_total), ...v(data.line_total)], all: [] };
  if (concept === 'tax' && data.taxes.length > 1) {
    const each = data.taxes.flatMap((t) => v(t.amount));
    return { readings: each, all: each };
  }
  return { readings: [], all: [] };
}

/**
 * Why the PDF's visible text disagrees with the XML's value of `field`, or null. The XML's value printed anywhere on
 * the pages (in any format the value grammars read) is agreement: the layout reading of a label may be wrong, the
 * XML is exact. Not printed: for `always` a disagreement, naming what the page shows under the label when it shows
 * something else; for `when_read` only when the page shows something else under the label.
 */
function disagreement(
  field: string,
  kind: ShownKind,
  xmlValue: string,
  also: { readings: string[]; all: string[] },
  read: ExtractedValue,
  pageText: string,
  file: string,
  rule: 'always' | 'when_read',
): string | null {
  const shown =
    printed(kind, xmlValue, pageText) || (also.all.length > 0 && also.all.every((a) => printed(kind, a, pageText)));
  if (shown) return null;
  if (read.value !== null && ![xmlValue, ...also.readings].some((x) => same(kind, read.value!, x))) {
    const at = read.evidence?.page ? ` on page ${read.evidence.page}` : '';
    return `${field}: the PDF shows "${clip(read.evidence?.snippet ?? read.value)}"${at} where its e-invoice XML (${file}) has "${clip(xmlValue)}", which the pages do not show`;
  }
  return rule === 'always'
    ? `${field}: the value "${clip(xmlValue)}" of the PDF's e-invoice XML (${file}) is not in the PDF's visible text`
    : null;
}

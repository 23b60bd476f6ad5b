/**
 * Labels of the offline extraction engine: which printed labels name a requested field (synonyms per concept, the
 * field name's own words for anything else) and where they occur on a page.
 */
import { fieldKind, type ValueKind } from '../../domain/extraction.js';

/** How a concept's value is read after its label. */
export type Reader = ValueKind | 'identifier';

export interface Concept {
  id: string;
  reader: Reader;
  /** Printed labels, most specific first (the engine tries them in this order). */
  labels: readonly string[];
  /** Words that, right before a label, mean it is another label ("Sub" total, "Due" date). */
  notAfter?: readonly string[];
  /** Words that, right after a label, mean it is another label ("Total excl." VAT, "VAT no."). */
  notBefore?: readonly string[];
  /** Whether a value found nowhere near a label may be taken when the document has exactly one candidate. */
  soleCandidate?: boolean;
  /** Whether, without a label, the letterhead (the top line of page 1) may be the value (the vendor's name). */
  letterhead?: boolean;
}

const TOTAL_NOT_BEFORE = ['excl', 'excluding', 'exkl', 'before', 'net', 'netto', 'tax', 'vat', 'ht', 'qty', 'quantity', 'items', 'hours', 'weight', 'pages', 'discount', 'paid'];

const CONCEPTS: readonly (Concept & { names: readonly string[] })[] = [
  {
    id: 'invoice_number', reader: 'identifier',
    names: ['invoice_number', 'invoice_no', 'invoice_num', 'invoice_nr', 'invoice_id', 'invoice_ref', 'invoice_reference', 'receipt_number', 'receipt_no', 'document_number', 'bill_number', 'number'],
    labels: ['invoice number', 'invoice no', 'invoice nr', 'invoice #', 'invoice id', 'invoice ref', 'inv number', 'inv no', 'inv #', 'receipt number', 'receipt no', 'receipt #', 'bill number', 'bill no', 'document number', 'document no', 'rechnungsnummer', 'rechnung nr', 'numéro de facture', 'facture n°', 'facture no', 'invoice', 'receipt'],
    notBefore: ['date', 'total', 'amount', 'to', 'address', 'period', 'due'],
  },
  {
    id: 'invoice_date', reader: 'date', soleCandidate: true,
    names: ['date', 'invoice_date', 'issue_date', 'issued_date', 'date_of_issue', 'issued', 'issued_on', 'document_date', 'receipt_date', 'bill_date', 'billing_date', 'invoice_issued'],
    labels: ['invoice date', 'date of issue', 'issue date', 'date issued', 'issued on', 'issued', 'billing date', 'bill date', 'receipt date', 'document date', 'rechnungsdatum', 'date de facture', 'date'],
    notAfter: ['due', 'delivery', 'order', 'ship', 'shipping', 'service', 'payment', 'expiry', 'expiration', 'print', 'birth', 'start', 'end', 'valid', 'supply'],
    notBefore: ['due'],
  },
  {
    id: 'due_date', reader: 'date',
    names: ['due_date', 'payment_due_date', 'date_due', 'due', 'due_on', 'payment_due', 'pay_by'],
    labels: ['payment due date', 'due date', 'date due', 'payment due', 'due on', 'due by', 'pay by', 'payable by', 'fälligkeitsdatum', 'fällig am', 'échéance', 'due'],
  },
  {
    id: 'total', reader: 'amount',
    names: ['total', 'total_amount', 'amount_due', 'grand_total', 'total_due', 'invoice_total', 'balance_due', 'amount', 'total_incl_tax', 'total_gross', 'gross_total', 'amount_total', 'total_price', 'total_payable'],
    labels: ['grand total', 'total amount due', 'total amount', 'total due', 'amount due', 'balance due', 'total to pay', 'total payable', 'amount payable', 'invoice total', 'total incl. vat', 'total incl vat', 'total gross', 'gesamtbetrag', 'rechnungsbetrag', 'montant total', 'total ttc', 'total'],
    notAfter: ['sub', 'sub-'], notBefore: TOTAL_NOT_BEFORE,
  },
  {
    id: 'subtotal', reader: 'amount',
    names: ['subtotal', 'sub_total', 'net_total', 'total_net', 'net_amount', 'total_excl_tax', 'total_before_tax', 'amount_before_tax'],
    labels: ['subtotal', 'sub-total', 'sub total', 'net total', 'total net', 'net amount', 'total excl. vat', 'total excl vat', 'total excluding vat', 'total excl. tax', 'total before tax', 'amount before tax', 'zwischensumme', 'nettobetrag', 'total ht'],
  },
  {
    id: 'tax', reader: 'amount',
    names: ['tax', 'vat', 'tax_amount', 'vat_amount', 'total_tax', 'total_vat', 'sales_tax', 'gst', 'gst_amount'],
    labels: ['total tax', 'total vat', 'vat amount', 'tax amount', 'sales tax', 'vat', 'tax', 'gst', 'mwst', 'ust', 'tva', 'iva', 'umsatzsteuer'],
    notBefore: ['id', 'no', 'number', 'nr', 'reg', 'registration', 'rate', 'identification', 'code'],
  },
  {
    id: 'tax_id', reader: 'tax_id', soleCandidate: true, names: [],
    labels: ['vat registration number', 'vat reg no', 'vat reg', 'vat number', 'vat no', 'vat id', 'tax id', 'tax number', 'tax no', 'ust-idnr', 'ust-id', 'ust id', 'tva intracommunautaire', 'n° tva', 'gst number', 'gst no', 'tin', 'ein', 'abn', 'uid', 'vat'],
  },
  { id: 'email', reader: 'email', soleCandidate: true, names: [], labels: ['e-mail', 'email', 'e mail', 'mail'] },
  { id: 'iban', reader: 'iban', soleCandidate: true, names: [], labels: ['iban'] },
  { id: 'currency', reader: 'currency', names: [], labels: ['currency', 'währung', 'devise', 'moneda', 'valuta'] },
  {
    id: 'vendor_name', reader: 'text', letterhead: true,
    names: ['vendor', 'vendor_name', 'supplier', 'supplier_name', 'seller', 'seller_name', 'merchant', 'merchant_name', 'issuer', 'issuer_name'],
    labels: ['vendor', 'supplier', 'seller', 'merchant', 'issued by', 'from'],
  },
  {
    id: 'customer_name', reader: 'text',
    names: ['customer', 'customer_name', 'buyer', 'buyer_name', 'client', 'client_name', 'bill_to', 'billed_to', 'recipient'],
    labels: ['bill to', 'billed to', 'invoice to', 'sold to', 'customer', 'buyer', 'client', 'recipient'],
  },
  {
    id: 'po_number', reader: 'identifier',
    names: ['po_number', 'po', 'purchase_order', 'purchase_order_number', 'order_number', 'order_no', 'order_id'],
    labels: ['purchase order number', 'purchase order', 'po number', 'po no', 'po #', 'p.o. number', 'p.o.', 'order number', 'order no', 'order #', 'order id'],
  },
];

/** Words of a field name: `invoiceDate` / `invoice_date` / `Invoice-Date` → ["invoice", "date"]. */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/gu, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * The concept a field name asks for: a known name, else a kind the value grammars read (tax id, e-mail, IBAN,
 * currency), else only the field name's own words as its label, read as text (or by its kind).
 */
export function conceptOf(field: string): Concept {
  const words = nameWords(field);
  const key = words.join('_');
  const own = words.join(' ');
  const known = CONCEPTS.find((c) => c.names.includes(key));
  const kind = fieldKind(field);
  const byKind = known ?? CONCEPTS.find((c) => c.names.length === 0 && c.reader === kind);
  if (byKind) return { ...byKind, labels: byKind.labels.includes(own) ? byKind.labels : [own, ...byKind.labels] };
  return { id: key, reader: kind, labels: [own] };
}

export interface LabelHit {
  /** Index in the concept's labels (lower is more specific). */
  rank: number;
  start: number;
  /** End of the label including a following `:`, `#`, `-` separator and spaces. */
  end: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

function labelPattern(label: string): RegExp {
  const parts = label.split(/\s+/u).map((tok) => escape(tok) + (/[\p{L}\p{N}]$/u.test(tok) ? '\\.?' : ''));
  return new RegExp(`(?<![\\p{L}\\p{N}])${parts.join('\\s*')}(?![\\p{L}\\p{N}])(?:\\s*[:#\\-–]+)?\\s*`, 'giu');
}

const patternCache = new Map<string, RegExp>();

/** Occurrences of the concept's labels in one line, most specific label first, then left to right. */
export function findLabels(concept: Concept, line: string): LabelHit[] {
  const hits: LabelHit[] = [];
  concept.labels.forEach((label, rank) => {
    let re = patternCache.get(label);
    if (!re) patternCache.set(label, (re = labelPattern(label)));
    for (const m of line.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (hits.some((h) => start < h.end && end > h.start)) continue; // inside a more specific label
      const before = line.slice(0, start).trim().toLowerCase().split(/\s+/u).pop() ?? '';
      const after = (line.slice(end).trim().toLowerCase().match(/^[\p{L}%]+/u) ?? [''])[0];
      if (concept.notAfter?.includes(before)) continue;
      if (!/[:#]\s*$/u.test(m[0]) && concept.notBefore?.includes(after)) continue;
      if (/^sub-?$/u.test(before) && label.startsWith('total')) continue;
      hits.push({ rank, start, end });
    }
  });
  return hits.sort((a, b) => a.rank - b.rank || a.start - b.start);
}

/** Any known label followed by a colon (where a text value on the same line ends). */
export const NEXT_LABEL = new RegExp(
  `\\s(?:${[...new Set(CONCEPTS.flatMap((c) => c.labels))].sort((a, b) => b.length - a.length).map((l) => l.split(/\\s+/u).map(escape).join('\\.?\\s*')).join('|')}|\\S+)\\.?\\s*:(?:\\s|$)`,
  'iu',
);

/** A line that starts with any known label ("Invoice No", "Bill to", "Total"…). */
export const STARTS_WITH_LABEL = new RegExp(
  `^(?:${[...new Set(CONCEPTS.flatMap((c) => c.labels))].sort((a, b) => b.length - a.length).map((l) => l.split(/\\s+/u).map(escape).join('\\.?\\s*')).join('|')})(?![\\p{L}\\p{N}])`,
  'iu',
);

/** A document's title ("Invoice", "TAX INVOICE", "Receipt", "Credit note", "Rechnung"…): a whole line or group of words. */
export const DOCUMENT_TITLE = /^(?:(?:tax|sales|vat|commercial|pro[\s-]?forma|final|original|cash)\s+)?(?:invoice|receipt|bill|credit\s+note|debit\s+note|statement|quotation|quote|rechnung|quittung|gutschrift|facture|reçu|avoir|factura|recibo|fattura|ricevuta)(?:\s*\/\s*[\p{L}]+)?[\s.:]*$/iu;

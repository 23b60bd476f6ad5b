import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { degrade, scannedPdf } from './ocr-corpus.js';
import { vatIdProblem } from '../domain/extraction-values.js';
import { seededRandom } from './random.js';

/**
 * A measured corpus for field extraction (issue 17, section 5): invoices and receipts generated from KNOWN field
 * values, seeded and deterministic, rendered as a text PDF (pdf-lib, Helvetica: it has a text layer), a scanned PDF
 * and PNG images (the text PDF rasterised by pdftoppm, with light skew, blur and speckles as in ocr-corpus.ts). Each
 * document carries its truth, normalised as domain/extraction.ts says (dates YYYY-MM-DD, amounts "1234.50",
 * currencies ISO 4217 codes, IBAN and VAT numbers without spaces), so an engine's answer is scored, not eyeballed
 * (measureExtraction, below).
 */

export const CORPUS_FIELDS = [
  'invoice_number',
  'invoice_date',
  'due_date',
  'vendor_name',
  'customer_name',
  'vendor_vat_number',
  'currency',
  'subtotal',
  'tax',
  'total',
  'iban',
  'vendor_email',
] as const;
export type CorpusField = (typeof CORPUS_FIELDS)[number];

export type InvoiceLayout = 'label-left' | 'label-above' | 'two-column-header' | 'receipt';
export const LAYOUTS: readonly InvoiceLayout[] = ['label-left', 'label-above', 'two-column-header', 'receipt'];
/** iso 2026-12-31 · dmy-slash 31/12/2026 · mdy-us 12/31/2026 (the document says dates are month first) · dmy-dot 31.12.2026 · d-mon-y 31 Dec 2026 · month-d-y December 31, 2026 */
export type DateFormat = 'iso' | 'dmy-slash' | 'mdy-us' | 'dmy-dot' | 'd-mon-y' | 'month-d-y';
export const DATE_FORMATS: readonly DateFormat[] = ['iso', 'dmy-slash', 'mdy-us', 'dmy-dot', 'd-mon-y', 'month-d-y'];
/** en 1,234.56 · de 1.234,56 · fr 1 234,56 · ch 1'234.56 */
export type NumberFormat = 'en' | 'de' | 'fr' | 'ch';
export const NUMBER_FORMATS: readonly NumberFormat[] = ['en', 'de', 'fr', 'ch'];
export type Currency = 'USD' | 'EUR' | 'GBP' | 'CHF';
export const CURRENCIES: readonly Currency[] = ['USD', 'EUR', 'GBP', 'CHF'];
const SYMBOL: Record<Currency, string> = { USD: '$', EUR: '€', GBP: '£', CHF: 'CHF' };

export interface TruthItem {
  description: string;
  quantity: string;
  unit_price: string;
  amount: string;
}

/** What a document really says, normalised (null: the document does not give the field). */
export interface InvoiceTruth {
  fields: Record<CorpusField, string | null>;
  items: TruthItem[];
}

export interface InvoiceSpec {
  seed: number;
  kind: 'invoice' | 'receipt';
  layout: InvoiceLayout;
  dateFormat: DateFormat;
  numberFormat: NumberFormat;
  currency: Currency;
  /** How amounts show the currency: its symbol (CHF has none: its code) or its ISO code. */
  currencyStyle: 'symbol' | 'code';
  /** Whether a "Currency: XXX" line is printed besides the amounts. */
  currencyLine: boolean;
  itemCount: number;
}

export interface InvoiceDocument {
  name: string;
  spec: InvoiceSpec;
  truth: InvoiceTruth;
  /** Each non-null field exactly as printed on the document (the value part, without its label). */
  printed: Partial<Record<CorpusField, string>>;
  /** Each item's cells as printed. */
  printedItems: TruthItem[];
  /** Instructions a client would send with this document (the US date hint), or undefined. */
  instructions?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Values

const VENDORS = [
  'Harbor Supplies Ltd',
  'Müller & Söhne GmbH',
  'Café Rivière SARL',
  'Northwind Traders Inc.',
  'Zürich Bürobedarf AG',
  'Blue Fjord Analytics AS',
  'Oak & Iron Workshop LLC',
  'Østergaard Print ApS',
];
const CUSTOMERS = [
  'Acme Corporation',
  'Globex Ltd',
  'Initech GmbH',
  'Umbrella Logistics BV',
  'Stark Components SA',
  'Wayne Foods plc',
  'Hooli Europe Sàrl',
];
const PRODUCTS = [
  'Printer paper A4',
  'Toner cartridge black',
  'Office chair',
  'Desk lamp',
  'Consulting hours',
  'Software licence (annual)',
  'USB-C cable 2 m',
  'Delivery',
  'Monitor 27"',
  'Notebook, ruled',
  'Coffee beans 1 kg',
  'Server maintenance',
  'Label tape 12 mm',
  'Ergonomic keyboard',
  'Cleaning service',
];
const VAT_PREFIX: Record<Currency, string[]> = { USD: ['US'], EUR: ['DE', 'FR', 'NL'], GBP: ['GB'], CHF: ['CHE'] };

/**
 * A VAT id of the country made from 9 random digits, valid as the document checks judge it (its country's format and
 * check digits, found by trying the last digits; a US vendor prints an EIN): real invoices carry valid ids, and an
 * invalid one is flagged for review.
 */
function validVatId(country: string, digits: string): string {
  if (country === 'US') return `${digits.slice(0, 2)}-${digits.slice(2)}`;
  const tries = (make: (k: number) => string, n: number) =>
    Array.from({ length: n }, (_, k) => make(k)).find((id) => vatIdProblem(id) === null);
  const pad = (k: number) => String(k).padStart(2, '0');
  const found =
    country === 'FR'
      ? tries((k) => `FR${pad(k)}${digits}`, 97)
      : country === 'GB'
        ? tries((k) => `GB${digits.slice(0, 7)}${pad(k)}`, 100)
        : country === 'NL'
          ? tries((k) => `NL${digits.slice(0, 7)}${pad(k)}B01`, 100)
          : country === 'DE'
            ? tries((k) => `DE${digits.slice(0, 8)}${k}`, 10)
            : `${country}${digits}`;
  return found ?? `${country}${digits}`;
}
const TAX_RATES = [0, 5, 7.7, 10, 19, 20];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
const int = (rnd: () => number, lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Cents as the normalised decimal string ("1234.50", "-5.00"). */
export const centsToDecimal = (cents: number): string =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${pad(Math.abs(cents) % 100)}`;

/** Cents printed in a number format (no currency). */
export function formatAmount(cents: number, format: NumberFormat): string {
  const [whole, frac] = centsToDecimal(Math.abs(cents)).split('.') as [string, string];
  const group = { en: ',', de: '.', fr: ' ', ch: "'" }[format];
  const decimal = format === 'en' || format === 'ch' ? '.' : ',';
  return `${cents < 0 ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, group)}${decimal}${frac}`;
}

function formatMoney(cents: number, spec: InvoiceSpec): string {
  const n = formatAmount(cents, spec.numberFormat);
  if (spec.currencyStyle === 'code' || spec.currency === 'CHF')
    return spec.numberFormat === 'en' ? `${spec.currency} ${n}` : `${n} ${spec.currency}`;
  const sym = SYMBOL[spec.currency];
  return spec.numberFormat === 'en' || spec.numberFormat === 'ch' ? `${sym}${n}` : `${n} ${sym}`;
}

export function formatDate(iso: string, format: DateFormat): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  switch (format) {
    case 'iso':
      return iso;
    case 'dmy-slash':
      return `${pad(d)}/${pad(m)}/${y}`;
    case 'mdy-us':
      return `${pad(m)}/${pad(d)}/${y}`;
    case 'dmy-dot':
      return `${pad(d)}.${pad(m)}.${y}`;
    case 'd-mon-y':
      return `${d} ${MONTHS[m - 1]!.slice(0, 3)} ${y}`;
    case 'month-d-y':
      return `${MONTHS[m - 1]} ${d}, ${y}`;
  }
}

function isoDateFrom(dayNumber: number): string {
  return new Date(Date.UTC(2024, 0, 1) + dayNumber * 86_400_000).toISOString().slice(0, 10);
}

/** An IBAN with correct ISO 13616 check digits for a country and a BBAN. */
export function makeIban(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return `${country}${pad(98 - rest)}${bban}`;
}

/**
 * The document of a seed: everything random comes from the seed, so the same seed gives the same document, truth
 * and bytes. `overrides` fixes parts of the spec (e.g. the layout or 40 items) and keeps the rest seeded.
 */
export function generateInvoice(seed: number, overrides: Partial<Omit<InvoiceSpec, 'seed'>> = {}): InvoiceDocument {
  const rnd = seededRandom(seed * 7919 + 17);
  const layout = overrides.layout ?? pick(rnd, LAYOUTS);
  const kind = overrides.kind ?? (layout === 'receipt' ? 'receipt' : 'invoice');
  const spec: InvoiceSpec = {
    seed,
    kind,
    layout,
    dateFormat: overrides.dateFormat ?? pick(rnd, DATE_FORMATS),
    numberFormat: overrides.numberFormat ?? pick(rnd, NUMBER_FORMATS),
    currency: overrides.currency ?? pick(rnd, CURRENCIES),
    currencyStyle: overrides.currencyStyle ?? (rnd() < 0.6 ? 'symbol' : 'code'),
    currencyLine: overrides.currencyLine ?? rnd() < 0.5,
    itemCount: overrides.itemCount ?? (kind === 'receipt' ? int(rnd, 1, 8) : int(rnd, 1, rnd() < 0.2 ? 40 : 12)),
  };
  const receipt = spec.kind === 'receipt';

  const items: TruthItem[] = [];
  const printedItems: TruthItem[] = [];
  let subtotal = 0;
  for (let i = 0; i < spec.itemCount; i++) {
    const qty = rnd() < 0.15 ? int(rnd, 1, 9) * 10 + 5 : int(rnd, 1, 12) * 10; // tenths: 1.5 or 3
    const unit = int(rnd, 50, rnd() < 0.2 ? 250_000 : 20_000); // cents
    const amount = Math.round((qty * unit) / 10);
    subtotal += amount;
    const qtyText = qty % 10 === 0 ? String(qty / 10) : `${Math.floor(qty / 10)}.${qty % 10}`;
    const description = `${pick(rnd, PRODUCTS)}${spec.itemCount > 15 ? ` #${i + 1}` : ''}`;
    items.push({ description, quantity: qtyText, unit_price: centsToDecimal(unit), amount: centsToDecimal(amount) });
    printedItems.push({
      description,
      quantity: spec.numberFormat === 'de' || spec.numberFormat === 'fr' ? qtyText.replace('.', ',') : qtyText,
      unit_price: formatAmount(unit, spec.numberFormat),
      amount: formatAmount(amount, spec.numberFormat),
    });
  }
  const rate = pick(rnd, TAX_RATES);
  const tax = Math.round((subtotal * rate) / 100);
  const total = subtotal + tax;

  const day = int(rnd, 0, 1000);
  const invoiceDate = isoDateFrom(day);
  const dueDate = receipt ? null : isoDateFrom(day + pick(rnd, [14, 30, 45, 60]));
  const vendor = pick(rnd, VENDORS);
  const country = pick(rnd, VAT_PREFIX[spec.currency]);
  const vat = receipt && rnd() < 0.5 ? null : validVatId(country, String(int(rnd, 100_000_000, 999_999_999)));
  const ibanCountry = { USD: 'DE', EUR: pick(rnd, ['DE', 'FR', 'NL']), GBP: 'GB', CHF: 'CH' }[spec.currency];
  const bban = {
    DE: () => String(int(rnd, 1e7, 1e8 - 1)) + String(int(rnd, 1e9, 1e10 - 1)),
    FR: () =>
      `${int(rnd, 10000, 99999)}${int(rnd, 10000, 99999)}${String(int(rnd, 1e9, 1e10 - 1))}A${int(rnd, 10, 99)}`,
    NL: () => `ABNA${String(int(rnd, 1e9, 1e10 - 1))}`,
    GB: () => `NWBK${int(rnd, 100000, 999999)}${int(rnd, 10000000, 99999999)}`,
    CH: () => `${int(rnd, 10000, 99999)}${String(int(rnd, 1e9, 1e10 - 1))}00`,
  }[ibanCountry as 'DE']();
  const iban = receipt ? null : makeIban(ibanCountry, bban);
  const slug = vendor
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z]+/g, '')
    .slice(0, 14);
  const email = receipt && rnd() < 0.5 ? null : `${pick(rnd, ['billing', 'accounts', 'invoices'])}@${slug}.example`;
  const number = receipt
    ? `R-${int(rnd, 10000, 99999)}`
    : `${pick(rnd, ['INV', 'F', 'RE'])}-${2024 + Math.floor(day / 365)}-${pad(int(rnd, 1, 9999), 4)}`;
  const customer = receipt ? null : pick(rnd, CUSTOMERS);

  const fields: Record<CorpusField, string | null> = {
    invoice_number: number,
    invoice_date: invoiceDate,
    due_date: dueDate,
    vendor_name: vendor,
    customer_name: customer,
    vendor_vat_number: vat,
    currency: spec.currency,
    subtotal: centsToDecimal(subtotal),
    tax: centsToDecimal(tax),
    total: centsToDecimal(total),
    iban,
    vendor_email: email,
  };
  const printed: Partial<Record<CorpusField, string>> = {
    invoice_number: number,
    invoice_date: formatDate(invoiceDate, spec.dateFormat),
    ...(dueDate ? { due_date: formatDate(dueDate, spec.dateFormat) } : {}),
    vendor_name: vendor,
    ...(customer ? { customer_name: customer } : {}),
    ...(vat
      ? { vendor_vat_number: country === 'GB' ? `GB ${vat.slice(2, 5)} ${vat.slice(5, 9)} ${vat.slice(9)}` : vat }
      : {}),
    // Where the document says the currency: its own line, else the symbol or code on the amounts.
    currency:
      spec.currencyLine || spec.currencyStyle === 'code' || spec.currency === 'CHF'
        ? spec.currency
        : SYMBOL[spec.currency],
    subtotal: formatMoney(subtotal, spec),
    tax: formatMoney(tax, spec),
    total: formatMoney(total, spec),
    ...(iban ? { iban: iban.replace(/(.{4})(?=.)/g, '$1 ') } : {}),
    ...(email ? { vendor_email: email } : {}),
  };
  return {
    name: `${spec.kind}-${pad(seed, 3)}-${spec.layout}-${spec.dateFormat}-${spec.numberFormat}-${spec.currency}-${spec.itemCount}items`,
    spec,
    truth: { fields, items },
    printed,
    printedItems,
    ...(spec.dateFormat === 'mdy-us'
      ? { instructions: 'US invoice: dates are written month first (MM/DD/YYYY).' }
      : {}),
  };
}

/** `count` documents from consecutive seeds starting at `seed`, cycling through the layouts so all are present. */
export function invoiceCorpus(count: number, seed = 1): InvoiceDocument[] {
  return Array.from({ length: count }, (_, i) => generateInvoice(seed + i, { layout: LAYOUTS[i % LAYOUTS.length]! }));
}

// ---------------------------------------------------------------------------------------------------------------
// Text PDF

const LABELS: Record<Exclude<CorpusField, 'vendor_name'>, string[]> = {
  invoice_number: ['Invoice No.', 'Invoice #', 'Invoice number'],
  invoice_date: ['Invoice date', 'Date', 'Issue date'],
  due_date: ['Due date', 'Payment due'],
  customer_name: ['Bill to', 'Customer'],
  vendor_vat_number: ['VAT No.', 'VAT ID', 'Tax ID'],
  currency: ['Currency'],
  subtotal: ['Subtotal', 'Net amount'],
  tax: ['Tax', 'VAT', 'Sales tax'],
  total: ['Total', 'Total due', 'Amount due'],
  iban: ['IBAN'],
  vendor_email: ['E-mail', 'Email'],
};

interface Pen {
  doc: PDFDocument;
  page: PDFPage;
  font: PDFFont;
  bold: PDFFont;
  y: number;
}

const A4: [number, number] = [595.28, 841.89];
const RECEIPT: [number, number] = [226.77, 841.89]; // 80 mm roll

function text(pen: Pen, s: string, x: number, opts: { size?: number; bold?: boolean; right?: boolean } = {}): void {
  const size = opts.size ?? 10;
  const font = opts.bold ? pen.bold : pen.font;
  const at = opts.right ? x - font.widthOfTextAtSize(s, size) : x;
  pen.page.drawText(s, { x: at, y: pen.y, size, font });
}

/**
 * The document as a text PDF: Helvetica (WinAnsi, so €, £ and accents are limited to what it encodes: the
 * corpus uses only such names), one or more pages; the line items continue on following pages with the table header
 * repeated, and the totals follow the last item.
 */
export async function renderTextPdf(inv: InvoiceDocument): Promise<Uint8Array> {
  const rnd = seededRandom(inv.spec.seed * 31 + 5);
  const label = (f: keyof typeof LABELS) =>
    pick(rnd, f === 'invoice_number' && inv.spec.kind === 'receipt' ? ['Receipt No.', 'Receipt #'] : LABELS[f]);
  const doc = await PDFDocument.create();
  doc.setCreationDate(new Date(Date.UTC(2026, 0, 1)));
  doc.setModificationDate(new Date(Date.UTC(2026, 0, 1)));
  doc.setProducer('paycore invoice corpus');
  doc.setCreator('paycore invoice corpus');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const receipt = inv.spec.layout === 'receipt';
  const size = receipt ? RECEIPT : A4;
  const pen: Pen = { doc, page: doc.addPage(size), font, bold, y: size[1] - 50 };
  const p = inv.printed;
  const left = receipt ? 14 : 50;
  const right = size[0] - left;
  const line = (dy = 14) => {
    pen.y -= dy;
  };
  const newPage = () => {
    pen.page = doc.addPage(size);
    pen.y = size[1] - 50;
  };

  const labelled: Array<[keyof typeof LABELS, string]> = [];
  for (const f of [
    'invoice_number',
    'invoice_date',
    'due_date',
    'vendor_vat_number',
    'vendor_email',
    'iban',
    'currency',
    'customer_name',
  ] as const) {
    const v = p[f];
    if (v !== undefined && (f !== 'currency' || inv.spec.currencyLine)) labelled.push([f, v]);
  }

  switch (inv.spec.layout) {
    case 'label-left':
      text(pen, p.vendor_name!, left, { size: 16, bold: true });
      line(18);
      text(pen, 'INVOICE', left, { size: 12, bold: true });
      line(22);
      for (const [f, v] of labelled) {
        text(pen, `${label(f)}:`, left);
        text(pen, v, left + 120);
        line();
      }
      break;
    case 'label-above':
      text(pen, 'Invoice', left, { size: 18, bold: true });
      line(22);
      text(pen, p.vendor_name!, left, { size: 12, bold: true });
      line(24);
      for (const [f, v] of labelled) {
        text(pen, label(f), left, { size: 8, bold: true });
        line(11);
        text(pen, v, left);
        line(18);
      }
      break;
    case 'two-column-header': {
      const col2 = left + 290;
      const top = pen.y;
      text(pen, p.vendor_name!, left, { size: 14, bold: true });
      line(16);
      const leftCol = labelled.filter(([f]) => ['vendor_vat_number', 'vendor_email', 'iban'].includes(f));
      const rightCol = labelled.filter(([f]) => !['vendor_vat_number', 'vendor_email', 'iban'].includes(f));
      for (const [f, v] of leftCol) {
        text(pen, `${label(f)}: ${v}`, left, { size: 9 });
        line(12);
      }
      const after = pen.y;
      pen.y = top;
      text(pen, 'INVOICE', col2, { size: 14, bold: true });
      line(16);
      for (const [f, v] of rightCol) {
        text(pen, `${label(f)}:`, col2, { size: 9 });
        text(pen, v, col2 + 85, { size: 9 });
        line(12);
      }
      pen.y = Math.min(pen.y, after);
      break;
    }
    case 'receipt':
      text(pen, p.vendor_name!, left, { size: 11, bold: true });
      line(14);
      text(pen, 'RECEIPT', left, { size: 9 });
      line(16);
      for (const [f, v] of labelled) {
        text(pen, `${label(f)}: ${v}`, left, { size: 8 });
        line(11);
      }
      break;
  }
  line(16);

  // Line items.
  const cols = receipt ? null : { qty: left + 300, unit: left + 390, amount: right };
  const header = () => {
    if (cols) {
      text(pen, 'Description', left, { bold: true });
      text(pen, 'Qty', cols.qty, { bold: true, right: true });
      text(pen, 'Unit price', cols.unit, { bold: true, right: true });
      text(pen, 'Amount', cols.amount, { bold: true, right: true });
    } else {
      text(pen, 'Item', left, { size: 8, bold: true });
      text(pen, 'Amount', right, { size: 8, bold: true, right: true });
    }
    line(receipt ? 12 : 16);
  };
  header();
  for (const item of inv.printedItems) {
    if (pen.y < (receipt ? 60 : 80)) {
      newPage();
      header();
    }
    if (cols) {
      text(pen, item.description, left);
      text(pen, item.quantity, cols.qty, { right: true });
      text(pen, item.unit_price, cols.unit, { right: true });
      text(pen, item.amount, cols.amount, { right: true });
      line(15);
    } else {
      text(pen, item.description, left, { size: 8 });
      line(10);
      text(pen, `${item.quantity} x ${item.unit_price}`, left + 8, { size: 8 });
      text(pen, item.amount, right, { size: 8, right: true });
      line(12);
    }
  }
  if (pen.y < 110) newPage();
  line(10);
  const sz = receipt ? 8 : 10;
  const x = receipt ? right : cols!.amount;
  for (const f of ['subtotal', 'tax', 'total'] as const) {
    text(pen, `${label(f)}`, receipt ? left : cols!.qty - 40, { size: sz, bold: f === 'total' });
    text(pen, p[f]!, x, { size: sz, bold: f === 'total', right: true });
    line(receipt ? 12 : 15);
  }
  if (inv.instructions) {
    line(10);
    text(pen, 'All dates are MM/DD/YYYY (United States).', left, { size: 7 });
  }
  return doc.save({ useObjectStreams: false });
}

// ---------------------------------------------------------------------------------------------------------------
// Rasterised forms

const run = promisify(execFile);

/** The pages of a PDF as greyscale PNGs at `dpi` (pdftoppm), in page order. */
export async function rasterisePdf(pdf: Uint8Array, dpi = 200): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'invoice-corpus-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    await run('pdftoppm', ['-r', String(dpi), '-gray', '-png', join(dir, 'in.pdf'), join(dir, 'page')], {
      timeout: 60_000,
    });
    const files = (await readdir(dir)).filter((f) => f.startsWith('page') && f.endsWith('.png')).sort();
    return Promise.all(files.map((f) => readFile(join(dir, f))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ScanOptions {
  dpi?: number;
  /** Light damage as ocr-corpus.ts `degrade` does (skew in degrees, blur sigma, speckle density); false: a clean raster. */
  noise?: false | { degrees: number; blur: number; speckles: number };
}

const DEFAULT_NOISE = { degrees: 0.4, blur: 0.5, speckles: 0.0001 };

/** The document's pages as PNG images (the text PDF rasterised, lightly damaged unless `noise: false`). */
export async function renderPngs(inv: InvoiceDocument, options: ScanOptions = {}): Promise<Buffer[]> {
  const dpi = options.dpi ?? 200;
  const pages = await rasterisePdf(await renderTextPdf(inv), dpi);
  const noise = options.noise === undefined ? DEFAULT_NOISE : options.noise;
  if (!noise) return pages;
  return Promise.all(pages.map((png, i) => degrade(png, { ...noise, seed: inv.spec.seed * 100 + i })));
}

/** A scanned PDF: the rasterised pages only as images, no text layer. */
export async function renderScannedPdf(inv: InvoiceDocument, options: ScanOptions = {}): Promise<Uint8Array> {
  const dpi = options.dpi ?? 200;
  return scannedPdf((await renderPngs(inv, options)).map((png) => ({ png, dpi })));
}

export type RenderForm = 'text_pdf' | 'scanned_pdf' | 'png';

/** One source file of the document in a form: an image source is the first page only (use one-page documents). */
export async function renderInvoice(
  inv: InvoiceDocument,
  form: RenderForm,
  options: ScanOptions = {},
): Promise<{ bytes: Uint8Array; mime: string; filename: string }> {
  switch (form) {
    case 'text_pdf':
      return { bytes: await renderTextPdf(inv), mime: 'application/pdf', filename: `${inv.name}.pdf` };
    case 'scanned_pdf':
      return { bytes: await renderScannedPdf(inv, options), mime: 'application/pdf', filename: `${inv.name}-scan.pdf` };
    case 'png':
      return { bytes: (await renderPngs(inv, options))[0]!, mime: 'image/png', filename: `${inv.name}.png` };
  }
}

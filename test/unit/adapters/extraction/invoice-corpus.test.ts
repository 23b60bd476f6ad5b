import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ExtractedValue, ExtractionResult, LineItem } from '../../../../domain/extraction.js';
import { isValidIban } from '../../../../domain/extraction-values.js';
import { measureExtraction, sameCorpusValue, sameDescription } from '../../../helpers/extraction-measure.js';
import {
  CORPUS_FIELDS,
  CURRENCIES,
  DATE_FORMATS,
  LAYOUTS,
  NUMBER_FORMATS,
  generateInvoice,
  invoiceCorpus,
  makeIban,
  renderPngs,
  renderScannedPdf,
  renderTextPdf,
  type DateFormat,
  type InvoiceDocument,
  type NumberFormat,
} from '../../../../support/invoice-corpus.js';

const run = promisify(execFile);

async function pdftotext(pdf: Uint8Array): Promise<string> {
  const child = run('pdftotext', ['-enc', 'UTF-8', '-', '-'], { encoding: 'utf8', timeout: 30_000 });
  child.child.stdin!.end(Buffer.from(pdf));
  return (await child).stdout;
}

const squash = (s: string) => s.replace(/\s+/g, ' ');
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** An independent reading of a printed date in its known format (not the generator's code). */
function readDate(text: string, format: DateFormat): string {
  const two = (n: string | number) => String(n).padStart(2, '0');
  let m: RegExpExecArray | null;
  switch (format) {
    case 'iso':
      return text;
    case 'dmy-slash':
      m = /^(\d\d)\/(\d\d)\/(\d{4})$/.exec(text);
      return `${m![3]}-${m![2]}-${m![1]}`;
    case 'mdy-us':
      m = /^(\d\d)\/(\d\d)\/(\d{4})$/.exec(text);
      return `${m![3]}-${m![1]}-${m![2]}`;
    case 'dmy-dot':
      m = /^(\d\d)\.(\d\d)\.(\d{4})$/.exec(text);
      return `${m![3]}-${m![2]}-${m![1]}`;
    case 'd-mon-y':
      m = /^(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})$/.exec(text);
      return `${m![3]}-${two(MONTHS.indexOf(m![2]!.toLowerCase()) + 1)}-${two(m![1]!)}`;
    case 'month-d-y':
      m = /^([A-Z][a-z]+) (\d{1,2}), (\d{4})$/.exec(text);
      return `${m![3]}-${two(MONTHS.indexOf(m![1]!.slice(0, 3).toLowerCase()) + 1)}-${two(m![2]!)}`;
  }
}

/** An independent reading of a printed amount in its known number format. */
function readAmount(text: string, format: NumberFormat): string {
  const n = text.replace(/^[$€£]|[A-Z]{3}|\s[€£$]$/g, '').trim();
  const pattern = {
    en: /^-?\d{1,3}(,\d{3})*\.\d\d$/,
    de: /^-?\d{1,3}(\.\d{3})*,\d\d$/,
    fr: /^-?\d{1,3}( \d{3})*,\d\d$/,
    ch: /^-?\d{1,3}('\d{3})*\.\d\d$/,
  }[format];
  expect(n, `${text} in ${format}`).toMatch(pattern);
  return format === 'en' || format === 'ch' ? n.replace(/[,']/g, '') : n.replace(/[. ]/g, '').replace(',', '.');
}

const pageCount = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPageCount();

/** Documents covering every layout, date format, number format and currency. */
function coverage(): InvoiceDocument[] {
  const docs: InvoiceDocument[] = [];
  for (let i = 0; i < 6; i++) {
    docs.push(
      generateInvoice(100 + i, {
        layout: LAYOUTS[i % LAYOUTS.length]!,
        dateFormat: DATE_FORMATS[i]!,
        numberFormat: NUMBER_FORMATS[i % 4]!,
        currency: CURRENCIES[i % 4]!,
        currencyStyle: i % 2 ? 'code' : 'symbol',
      }),
    );
  }
  return docs;
}

const asValue = (value: string | null): ExtractedValue => ({
  value,
  evidence: value === null ? null : { page: 1, snippet: value, box: null },
  confidence: null,
});
function perfectResult(doc: InvoiceDocument): ExtractionResult {
  return {
    fields: Object.fromEntries(Object.entries(doc.truth.fields).map(([k, v]) => [k, asValue(v)])),
    items: doc.truth.items.map((it) => ({
      description: asValue(it.description),
      quantity: asValue(it.quantity),
      unit_price: asValue(it.unit_price),
      amount: asValue(it.amount),
    })),
    warnings: [],
  };
}

describe('invoice corpus generator', () => {
  it('is deterministic by seed: the same seed gives the same truth and the same PDF bytes; another seed differs', async () => {
    expect(generateInvoice(7)).toEqual(generateInvoice(7));
    expect(generateInvoice(8).truth).not.toEqual(generateInvoice(7).truth);
    const [a, b] = await Promise.all([renderTextPdf(generateInvoice(7)), renderTextPdf(generateInvoice(7))]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('varies layouts, date and number formats, currencies and 1–40 items across a corpus, with consistent arithmetic', () => {
    const corpus = invoiceCorpus(60);
    expect(new Set(corpus.map((d) => d.spec.layout))).toEqual(new Set(LAYOUTS));
    expect(new Set(corpus.map((d) => d.spec.dateFormat))).toEqual(new Set(DATE_FORMATS));
    expect(new Set(corpus.map((d) => d.spec.numberFormat))).toEqual(new Set(NUMBER_FORMATS));
    expect(new Set(corpus.map((d) => d.spec.currency))).toEqual(new Set(CURRENCIES));
    expect(new Set(corpus.map((d) => d.spec.currencyStyle))).toEqual(new Set(['symbol', 'code']));
    expect(corpus.some((d) => d.truth.fields.due_date === null)).toBe(true); // receipts leave fields out: null truth
    for (const d of corpus) {
      expect(Object.keys(d.truth.fields)).toEqual([...CORPUS_FIELDS]);
      expect(d.truth.items.length).toBeGreaterThanOrEqual(1);
      expect(d.truth.items.length).toBeLessThanOrEqual(40);
      const cents = (s: string) => Math.round(Number(s) * 100);
      for (const it of d.truth.items) {
        expect(it.amount).toMatch(/^\d+\.\d\d$/);
        expect(Math.abs(cents(it.amount) - Number(it.quantity) * cents(it.unit_price))).toBeLessThanOrEqual(1);
      }
      const f = d.truth.fields;
      expect(cents(f.subtotal!)).toBe(d.truth.items.reduce((s, it) => s + cents(it.amount), 0));
      expect(cents(f.total!)).toBe(cents(f.subtotal!) + cents(f.tax!));
      expect(f.invoice_date).toMatch(/^\d{4}-\d\d-\d\d$/);
      if (f.iban) expect(makeIban(f.iban.slice(0, 2), f.iban.slice(4))).toBe(f.iban); // valid check digits
      if (f.iban) expect(isValidIban(f.iban), f.iban).toBe(true); // and the country's length (DE: 22)
      expect(d.instructions !== undefined).toBe(d.spec.dateFormat === 'mdy-us');
    }
  });

  it('writes the truth into the text PDF as text: every printed value is in pdftotext output and reads back to the truth', async () => {
    for (const doc of [
      ...coverage(),
      generateInvoice(3, { layout: 'receipt', numberFormat: 'fr', currency: 'EUR', currencyStyle: 'symbol' }),
    ]) {
      const pdf = await renderTextPdf(doc);
      const text = squash(await pdftotext(pdf));
      for (const [field, printed] of Object.entries(doc.printed)) {
        expect(text, `${doc.name} ${field}`).toContain(squash(printed));
      }
      const f = doc.truth.fields;
      for (const field of ['invoice_number', 'vendor_name', 'customer_name', 'vendor_email'] as const)
        if (f[field]) expect(text).toContain(f[field]);
      expect(readDate(doc.printed.invoice_date!, doc.spec.dateFormat)).toBe(f.invoice_date);
      if (f.due_date) expect(readDate(doc.printed.due_date!, doc.spec.dateFormat)).toBe(f.due_date);
      for (const k of ['subtotal', 'tax', 'total'] as const)
        expect(readAmount(doc.printed[k]!, doc.spec.numberFormat), `${doc.name} ${k}`).toBe(f[k]);
      if (f.iban) expect(doc.printed.iban!.replace(/ /g, '')).toBe(f.iban);
      if (f.vendor_vat_number) expect(doc.printed.vendor_vat_number!.replace(/ /g, '')).toBe(f.vendor_vat_number);
      doc.printedItems.forEach((it, i) => {
        expect(text).toContain(it.description);
        expect(text).toContain(it.amount);
        expect(readAmount(it.amount, doc.spec.numberFormat)).toBe(doc.truth.items[i]!.amount);
        expect(readAmount(it.unit_price, doc.spec.numberFormat)).toBe(doc.truth.items[i]!.unit_price);
        expect(it.quantity.replace(',', '.')).toBe(doc.truth.items[i]!.quantity);
      });
      if (doc.spec.dateFormat === 'mdy-us') expect(text).toContain('MM/DD/YYYY');
    }
  });

  it('puts 40 line items on several pages with every item and the total in the text layer', async () => {
    const doc = generateInvoice(11, { layout: 'label-left', itemCount: 40 });
    const pdf = await renderTextPdf(doc);
    expect(await pageCount(pdf)).toBeGreaterThanOrEqual(2);
    const text = squash(await pdftotext(pdf));
    for (const it of doc.printedItems) expect(text).toContain(it.description);
    expect(text).toContain(squash(doc.printed.total!));
    const receipt = generateInvoice(12, { layout: 'receipt', itemCount: 40 });
    expect(await pageCount(await renderTextPdf(receipt))).toBeGreaterThanOrEqual(2);
  });

  it('rasterises: PNG pages at the dpi, deterministic damage, and a scanned PDF with the same pages and no text layer', async () => {
    const doc = generateInvoice(21, { layout: 'two-column-header', itemCount: 30 });
    const pages = await pageCount(await renderTextPdf(doc));
    const pngs = await renderPngs(doc, { dpi: 100 });
    expect(pngs).toHaveLength(pages);
    const meta = await sharp(pngs[0]!).metadata();
    expect(meta.format).toBe('png');
    expect(Math.abs(meta.width! - Math.round((595.28 / 72) * 100))).toBeLessThanOrEqual(12); // skew widens it a little
    const again = await renderPngs(doc, { dpi: 100 });
    expect(again.map((b) => b.toString('base64'))).toEqual(pngs.map((b) => b.toString('base64')));
    const clean = await renderPngs(doc, { dpi: 100, noise: false });
    expect(clean[0]!.equals(pngs[0]!)).toBe(false);
    const scan = await renderScannedPdf(doc, { dpi: 100 });
    expect(await pageCount(scan)).toBe(pages);
    expect((await pdftotext(scan)).trim()).toBe('');
  });
});

describe('measureExtraction', () => {
  const doc = generateInvoice(5, { layout: 'receipt', itemCount: 3 });

  it('scores a perfect answer 1 and counts wrong, missed and spurious values where they belong', () => {
    const perfect = measureExtraction(doc.truth, perfectResult(doc));
    expect(perfect).toMatchObject({
      precision: 1,
      recall: 1,
      items: { truth: 3, extracted: 3, right: 3, accuracy: 1 },
    });

    const r = perfectResult(doc);
    const nullField = CORPUS_FIELDS.find((f) => doc.truth.fields[f] === null)!;
    r.fields.total = asValue('1.00'); // wrong
    r.fields.invoice_date = asValue(null); // missed
    r.fields[nullField] = asValue('something'); // spurious
    r.fields.subtotal = asValue(`${doc.truth.fields.subtotal}0`); // "12.340" is the same amount
    const s = measureExtraction(doc.truth, r);
    expect(s.perField).toMatchObject({
      total: 'wrong',
      invoice_date: 'missed',
      [nullField]: 'spurious',
      subtotal: 'correct',
      currency: 'correct',
    });
    const truthValues = CORPUS_FIELDS.filter((f) => doc.truth.fields[f] !== null).length;
    expect(s.counts.correct).toBe(truthValues - 2);
    expect(s.precision).toBeCloseTo((truthValues - 2) / truthValues, 10); // given = correct + wrong + spurious = truthValues
    expect(s.recall).toBeCloseTo((truthValues - 2) / truthValues, 10);
  });

  it('matches line items in order on all four columns; missing and extra items count', () => {
    const r = perfectResult(doc);
    const [first, second, third] = r.items as [LineItem, LineItem, LineItem];
    expect(measureExtraction(doc.truth, { ...r, items: [first, second] }).items.accuracy).toBeCloseTo(2 / 3);
    expect(measureExtraction(doc.truth, { ...r, items: [second, first, third] }).items.right).toBe(1);
    expect(measureExtraction(doc.truth, { ...r, items: [first, second, third, third] }).items.accuracy).toBe(3 / 4);
    expect(
      measureExtraction(doc.truth, { ...r, items: [first, second, { ...third, quantity: asValue(null) }] }).items.right,
    ).toBe(2);
    expect(measureExtraction({ fields: {}, items: [] }, { fields: {}, items: [] })).toMatchObject({
      precision: 1,
      recall: 1,
      items: { accuracy: 1 },
    });
  });
});

describe('the real corpus scoring: typography is not content', () => {
  it('a typographic apostrophe or quote equals the typewriter one OCR reads (nl-ubl-enexis-pdf: "kWh’s")', () => {
    expect(sameDescription('Getransporteerde kWh’s', "Getransporteerde kWh's")).toBe(true);
    expect(sameCorpusValue('text', 'L’Atelier “Nord”', 'L\'Atelier "Nord"')).toBe(true);
    expect(sameDescription('Getransporteerde kWh’s', 'Getransporteerde kWh')).toBe(true);
    expect(sameDescription('Getransporteerde kWh’s', 'Gereserveerde kWh')).toBe(false);
  });
});

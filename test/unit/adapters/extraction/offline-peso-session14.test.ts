import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExtractionResult, PositionedText } from '../../../../domain/extraction.js';
import { checkTextFields } from '../../../../domain/extraction-checks.js';
import { findTaxIds, vatIdProblem } from '../../../../domain/extraction-values.js';
import { conceptOf } from '../../../../adapters/extraction/offline-labels.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { readSourceText } from '../../../../adapters/extraction/source-text.js';
import { createOcrEngine } from '../../../../adapters/media/ocr/ocr-engine.js';
import { generateInvoice, renderInvoice } from '../../../../support/invoice-corpus.js';
import { documentOf, plainPage } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 14 (s14-peso): a `$` is the peso on a document from a peso country (Argentina, Mexico, Chile,
 * Colombia), and such a document writes its dates day first; a `$` on a Spanish document that names no country, or
 * names several, keeps its reading but is flagged; a European invoice in US dollars ("1.234,56 $") stays USD.
 */
const plain = (...lines: string[]) => documentOf(plainPage(lines.join('\n')));
const FIELDS = ['currency', 'invoice_date'];
/** The fields' values, and which of them the engine flagged. */
const read = (doc: PositionedText) => {
  const r = extractOffline(doc, FIELDS);
  return {
    currency: r.fields.currency!.value,
    invoice_date: r.fields.invoice_date!.value,
    flagged: [...new Set((r.flags ?? []).map((f) => f.field))].sort(),
  };
};

/** An Argentine print's header and totals (the ARCA/AFIP layout), with values of its own. */
const ARGENTINE = [
  'ORIGINAL',
  'FACTURA',
  'Condición frente al IVA: IVA Responsable Inscripto',
  'Punto de Venta: 0002 Comp. Nro: 00000045',
  'Fecha de Emisión: 03/02/2026',
  'CUIT: 20-11111111-2',
  'Importe Neto Gravado: $2.000,00',
  'IVA 21%: $420,00',
  'Importe Total: $2.420,00',
];

describe('offline engine: a peso `$` is told from a dollar by the document (session 14)', () => {
  it('an Argentine print (CUIT, "Responsable Inscripto"): ARS, its date day first, neither flagged', () => {
    expect(read(plain(...ARGENTINE))).toEqual({ currency: 'ARS', invoice_date: '2026-02-03', flagged: [] });
  });

  it('one country marker is enough: AFIP, ARCA, CUIT, "Responsable Inscripto", a printed ARS or "pesos argentinos"', () => {
    for (const marker of [
      'Comprobante autorizado por AFIP',
      'Comprobante Autorizado ARCA',
      'CUIT 30-22222222-9',
      'IVA Responsable Inscripto',
      'Moneda de la operación: ARS',
      'Son pesos argentinos dos mil',
    ])
      expect(read(plain('Fecha: 03/02/2026', marker, 'Total: $2.420,00'))).toEqual({
        currency: 'ARS',
        invoice_date: '2026-02-03',
        flagged: [],
      });
  });

  it('Mexico (RFC, CFDI), Chile (SII, RUT), Colombia (NIT with DIAN): their pesos, dates day first', () => {
    expect(read(plain('Factura CFDI 4.0', 'RFC: AAA010101AAA', 'Fecha: 03/02/2026', 'Total: $1,234.56'))).toEqual({
      currency: 'MXN',
      invoice_date: '2026-02-03',
      flagged: [],
    });
    expect(
      read(
        plain(
          'Factura Electrónica',
          'R.U.T.: 76.123.456-0',
          'S.I.I. - Santiago',
          'Fecha: 03/02/2026',
          'Total: $12.345',
        ),
      ),
    ).toEqual({ currency: 'CLP', invoice_date: '2026-02-03', flagged: [] });
    expect(
      read(
        plain(
          'Factura electrónica de venta',
          'NIT: 900.123.456-7',
          'Resolución DIAN 18760000001',
          'Fecha: 03/02/2026',
          'Total: $1.234.567,00',
        ),
      ),
    ).toEqual({ currency: 'COP', invoice_date: '2026-02-03', flagged: [] });
  });

  it('a Spanish document that names no country: its `$` stays USD and is flagged, its ambiguous date is flagged', () => {
    const r = read(plain('Factura', 'Fecha de Emisión: 03/02/2026', 'Cantidad 2', 'Importe Total: $2.420,00'));
    expect(r.currency).toBe('USD');
    expect(r.flagged).toEqual(['currency', 'invoice_date']);
    // (Spanish is written day first wherever it is spoken: the date is read so, but flagged.)
    expect(r.invoice_date).toBe('2026-02-03');
  });

  it('two countries named: no peso is chosen, the `$` is flagged', () => {
    const r = read(
      plain('Factura', 'CUIT: 20-11111111-2', 'RFC: AAA010101AAA', 'Fecha: 13/02/2026', 'Total: $2.420,00'),
    );
    expect(r.currency).toBe('USD');
    expect(r.flagged).toEqual(['currency']);
    expect(r.invoice_date).toBe('2026-02-13');
  });

  it('an unambiguous date on an Argentine print is not flagged for its order', () => {
    expect(read(plain(...ARGENTINE.map((l) => l.replace('03/02/2026', '23/02/2026'))))).toEqual({
      currency: 'ARS',
      invoice_date: '2026-02-23',
      flagged: [],
    });
  });

  it('a European or English invoice in US dollars keeps USD, unflagged ("1.234,56 $", "$1,234.56")', () => {
    expect(read(plain('Invoice', 'Invoice date: 2024-03-04', 'Total: 1.234,56 $'))).toEqual({
      currency: 'USD',
      invoice_date: '2024-03-04',
      flagged: [],
    });
    expect(read(plain('Rechnung', 'Rechnungsdatum: 2024-03-04', 'Gesamtbetrag: 1.234,56 $'))).toEqual({
      currency: 'USD',
      invoice_date: '2024-03-04',
      flagged: [],
    });
    expect(read(plain('Invoice', 'Invoice date: 03/04/2024', 'Total: $1,234.56'))).toEqual({
      currency: 'USD',
      invoice_date: '2024-03-04',
      flagged: [],
    });
  });

  it('a generated invoice in US dollars with German number formats ("1.234,56 $") reads USD, unflagged', async () => {
    const doc = generateInvoice(7, {
      numberFormat: 'de',
      currency: 'USD',
      currencyStyle: 'symbol',
      currencyLine: false,
      dateFormat: 'iso',
    });
    expect(Object.values(doc.printed).some((p) => / \$$/u.test(p ?? ''))).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), 'offline-peso-'));
    try {
      const path = join(dir, 'invoice.pdf');
      await writeFile(path, (await renderInvoice(doc, 'text_pdf')).bytes);
      const text = await readSourceText(path, { engine: createOcrEngine(), workDir: dir });
      expect(read(text)).toEqual({ currency: 'USD', invoice_date: doc.truth.fields.invoice_date, flagged: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('offline engine: the Argentine invoice number and CUITs (session 14)', () => {
  const fields = (doc: PositionedText, names: string[]) => {
    const r = extractOffline(doc, names);
    return {
      ...Object.fromEntries(names.map((n) => [n, r.fields[n]!.value])),
      flagged: [...new Set((r.flags ?? []).map((f) => f.field))].sort(),
    };
  };

  it('"Punto de Venta: 0002 Comp. Nro: 00000045": the number is the voucher number printed after "Comp. Nro"', () => {
    expect(fields(plain(...ARGENTINE), ['invoice_number'])).toEqual({ invoice_number: '00000045', flagged: [] });
    expect(fields(plain('FACTURA', 'Comprobante Nro: 0004-00001234', 'Fecha: 03/02/2026'), ['invoice_number'])).toEqual(
      { invoice_number: '0004-00001234', flagged: [] },
    );
  });

  it('"CUIT: 20-11111111-2": the seller\'s tax id, 11 digits, its check digit holding', () => {
    expect(fields(plain(...ARGENTINE), ['seller_vat_id'])).toEqual({ seller_vat_id: '20111111112', flagged: [] });
  });

  it('a CUIT is found without its label when it is the only tax id, and only in its printed shape with a valid check digit', () => {
    expect(findTaxIds('Emisor 20-11111111-2 Buenos Aires').map((t) => t.value)).toEqual(['20111111112']);
    expect(findTaxIds('Ref 20-11111111-3, pedido 2011111111')).toEqual([]);
    expect(vatIdProblem('20111111112')).toBeNull();
    expect(vatIdProblem('30-22222222-9')).toBeNull();
    expect(vatIdProblem('30-22222222-6')).toMatch(/check digit/u);
  });

  it('a labelled CUIT whose check digit fails is read, and flagged', () => {
    const r = fields(plain('FACTURA', 'CUIT: 30-22222222-6', 'Total: $10,00'), ['seller_vat_id']);
    expect(r).toEqual({ seller_vat_id: '30222222226', flagged: [] });
    const doc = plain('FACTURA', 'CUIT: 30-22222222-6');
    const checked = checkTextFields(extractOffline(doc, ['seller_vat_id']), doc, (f) => conceptOf(f).id);
    expect(checked.flatMap((c) => c.fields)).toEqual(['seller_vat_id']);
    expect(checked[0]!.reason).toMatch(/check digit/u);
  });
});

describe('the checks: a currency any engine read from a bare `$` agrees with the document (session 14)', () => {
  /** A language model's answer: only the currency, with the snippet it quoted. */
  const answer = (value: string, snippet: string): ExtractionResult => ({
    fields: { currency: { value, evidence: { page: 1, snippet, box: null }, confidence: null } },
    items: [],
    warnings: [],
  });
  const flagged = (doc: PositionedText, r: ExtractionResult) =>
    checkTextFields(r, doc, (f) => conceptOf(f).id).flatMap((t) => t.fields);

  it('USD from "$2.420,00" on an Argentine print is flagged; ARS is not', () => {
    const doc = plain(...ARGENTINE);
    expect(flagged(doc, answer('USD', 'Importe Total: $2.420,00'))).toEqual(['currency']);
    expect(flagged(doc, answer('ARS', 'Importe Total: $2.420,00'))).toEqual([]);
  });

  it('USD from "$" on a Spanish page naming no country is flagged; on an English or European page it is not', () => {
    expect(flagged(plain('Factura', 'Importe Total: $2.420,00'), answer('USD', '$2.420,00'))).toEqual(['currency']);
    expect(flagged(plain('Invoice', 'Total: 1.234,56 $'), answer('USD', '1.234,56 $'))).toEqual([]);
    expect(flagged(plain('Invoice', 'Total: 1.234,56 $'), answer('ARS', '1.234,56 $'))).toEqual(['currency']);
  });
});

describe("offline engine: an Argentine print's totals (session 14)", () => {
  it('"Importe Neto Gravado" labels the subtotal, not the VAT row under it', () => {
    const r = extractOffline(plain(...ARGENTINE), ['subtotal', 'tax', 'total']);
    expect(Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, v.value]))).toEqual({
      subtotal: '2000.00',
      tax: '420.00',
      total: '2420.00',
    });
  });
});

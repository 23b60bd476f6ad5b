import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { reviewExtraction } from '../../../../adapters/extraction/extraction-runner.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 17 (s17-head): header fields of a web shop's Spanish invoice and of an ERP's English quotation.
 * Small pages of positioned words in the shape of those pages, with names and values of their own.
 */
const text = (...rows: Row[]) => documentOf(layoutPage(rows));
const FIELDS = ['invoice_number', 'seller_name', 'buyer_name', 'seller_vat_id', 'buyer_vat_id', 'subtotal', 'total'];
const field = (doc: PositionedText, name: string) => extractOffline(doc, FIELDS).fields[name]?.value ?? null;
const flagged = (doc: PositionedText, name: string) =>
  reviewExtraction(extractOffline(doc, FIELDS), doc).flagged.some((f) => 'field' in f && f.field === name);

/** A web shop's invoice: its header on the left, the seller's letterhead on the right, a legal footer under the sums. */
const shopInvoice = (footer: Row[]) =>
  text(
    [[40, 'FACTURA']],
    [
      [40, 'Numero de Orden'],
      [120, 'ES4417720014'],
      [430, 'MONTES RIBERA SL'],
    ],
    [
      [40, 'Fecha de emisión'],
      [140, '14.05.24'],
      [430, 'C/ MAYOR 12'],
    ],
    [
      [40, 'Factura'],
      [120, '3 18 0042 0007705512'],
      [430, '46001 VALENCIA'],
    ],
    [[430, 'ESB46123451']],
    null,
    [[40, 'DIRECCIÓN DE FACTURACIÓN']],
    [[40, 'Lucía PERALTA']],
    [[40, 'C/ Olivos Nº4']],
    [[40, '28004 Madrid, España']],
    [[40, 'DNI / CIF de la Empresa : 48123456K']],
    null,
    [
      [330, 'Base Imponible'],
      [480, '100.00 €'],
    ],
    [
      [330, 'Total IVA 21 %'],
      [480, '21.00 €'],
    ],
    [
      [330, 'Total'],
      [480, '121.00 €'],
    ],
    null,
    ...footer,
  );

const LEGAL_FOOTER: Row[] = [
  [[40, 'Gracias por su compra en Montes']],
  [[40, 'MONTES RIBERA S.L. es una sociedad con domicilio social en Valencia, Calle Mayor 12, titular del']],
  [[40, 'Código de Identificación Fiscal B-46123451. Registro Mercantil de Valencia, Tomo 1234, Hoja V-5678.']],
];

describe('s17-head: a Spanish web shop invoice', () => {
  it('reads an invoice number printed as groups of digits after its label as one number', () => {
    expect(field(shopInvoice([]), 'invoice_number')).toBe('3 18 0042 0007705512');
  });

  it('does not join a number with another figure a column away', () => {
    const doc = text(
      [[40, 'INVOICE']],
      [
        [40, 'Invoice'],
        [120, '4711'],
        [300, '2024'],
      ],
      [
        [330, 'Total'],
        [480, '121.00'],
      ],
    );
    expect(field(doc, 'invoice_number')).toBe('4711');
  });

  it('reads the buyer\'s id after "DNI / CIF de la Empresa :" in the billing address block', () => {
    expect(field(shopInvoice(LEGAL_FOOTER), 'buyer_vat_id')).toBe('48123456K');
  });

  it("reads the letterhead's VAT id as the seller's when the footer prints the same id without its country prefix", () => {
    expect(field(shopInvoice(LEGAL_FOOTER), 'seller_vat_id')).toBe('ESB46123451');
  });

  it("does not take the buyer's id for the seller's where a later page's buyer block has no heading", () => {
    const first = shopInvoice(LEGAL_FOOTER);
    const second = layoutPage([
      [[40, 'FACTURA']],
      null,
      [[40, 'Lucía PERALTA']],
      [[40, 'C/ Olivos Nº4']],
      [[40, 'DNI / CIF de la Empresa : 48123456K']],
    ]);
    const doc = documentOf(first.pages[0]!, second);
    expect([field(doc, 'seller_vat_id'), field(doc, 'buyer_vat_id')]).toEqual(['ESB46123451', '48123456K']);
  });

  it("takes the letterhead's name when the legal footer's text names that company under a greeting", () => {
    const doc = shopInvoice(LEGAL_FOOTER);
    expect([field(doc, 'seller_name'), flagged(doc, 'seller_name')]).toEqual(['MONTES RIBERA SL', false]);
  });
});

/** An ERP's quotation: the customer's address at the top, the invoicing address under its label, the sums. */
const quotation = () =>
  text(
    [[30, 'Northwind Traders']],
    [[30, '12 Harbour Road']],
    [[30, 'Portland OR 97201']],
    null,
    [
      [30, 'Invoicing and shipping address:'],
      [350, 'Northwind Traders, Jane Roe'],
    ],
    [
      [30, 'Northwind Traders, Jane Roe'],
      [350, '12 Harbour Road'],
    ],
    [
      [30, '12 Harbour Road'],
      [350, 'Portland OR 97201'],
    ],
    [[30, 'Portland OR 97201']],
    null,
    [[30, 'Quotation # SO417']],
    null,
    [
      [30, 'Quotation Date:'],
      [170, 'Salesperson:'],
    ],
    [
      [30, '03/14/2019 10:12:00'],
      [170, 'Administrator'],
    ],
    null,
    [
      [400, 'Total Without Taxes'],
      [515, '2,310.00 €'],
    ],
    [
      [400, 'Total'],
      [515, '2,310.00 €'],
    ],
  );

describe('s17-head: an English quotation', () => {
  it('reads the number after "Quotation #"', () => {
    expect(field(quotation(), 'invoice_number')).toBe('SO417');
  });

  it('reads "Total Without Taxes" as the subtotal', () => {
    expect(field(quotation(), 'subtotal')).toBe('2310.00');
  });

  it('reads the buyer under "Invoicing and shipping address:"', () => {
    expect(field(quotation(), 'buyer_name')).toBe('Northwind Traders, Jane Roe');
  });
});

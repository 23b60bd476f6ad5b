import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, item 3, session 11: classes of missed fields and wrong line items on the tune part's scans, each as a small
 * page of positioned words (cells at x positions, 6 pt a character, rows 14 pt apart).
 */
const ocr = (...rows: Row[]) => documentOf(layoutPage(rows, { source: 'ocr' }));
const items = (doc: PositionedText) =>
  extractOffline(doc, []).items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]);
const values = (doc: PositionedText, fields: string[]) =>
  Object.fromEntries(Object.entries(extractOffline(doc, fields).fields).map(([k, v]) => [k, v.value]));

describe('session 11: two party blocks side by side read as one line', () => {
  it("each party's name is the one under its own heading (it-fatturapa-alpha-fpr09 scanned)", () => {
    const doc = ocr(
      [
        [40, 'Cedente/prestatore (fornitore)'],
        [310, 'Cessionario/committente (cliente)'],
      ],
      [
        [40, 'Identificativo fiscale ai fini IVA: IT02780790107'],
        [310, 'Codice fiscale: 03533590174'],
      ],
      [
        [40, "Denominazione: SOCIETA' ALPHA SRL"],
        [310, 'Denominazione: BETA GAMMA'],
      ],
      [
        [40, 'Regime fiscale: RF01 ordinario'],
        [310, 'Indirizzo: VIA TORINO 38-B'],
      ],
    );
    expect(values(doc, ['seller_name', 'buyer_name'])).toEqual({
      seller_name: "SOCIETA' ALPHA SRL",
      buyer_name: 'BETA GAMMA',
    });
  });
});

describe('session 11: a unit price under a header OCR could not read, the quantity column empty', () => {
  it('the number right of the quantity header, under the unreadable word, is the unit price (it-fatturapa-mario-bianchi scanned)', () => {
    // "Prezzo unitario", stacked over two lines, read by OCR as "UezO,"; the rows print no quantity.
    const header: Row = [
      [40, 'Cod. articolo'],
      [160, 'Descrizione'],
      [284, 'Quantità'],
      [349, 'UezO,'],
      [407, 'UM'],
      [480, '%IVA'],
      [520, 'Prezzo totale'],
    ];
    const doc = ocr(
      header,
      [
        [130, 'Competenze'],
        [354, '100,00'],
        [481, '22,00'],
        [546, '100,00'],
      ],
      [
        [130, 'Spese generali ( 15% )'],
        [360, '15,00'],
        [481, '22,00'],
        [552, '15,00'],
      ],
    );
    expect(items(doc)).toEqual([
      ['Competenze', null, '100.00', '100.00'],
      ['Spese generali ( 15% )', null, '15.00', '15.00'],
    ]);
    const flags = extractOffline(doc, []).flags ?? [];
    expect(flags.filter((f) => f.field === 'unit_price').map((f) => f.item)).toEqual([0, 1]);
    // A quantity printed under its own header stays the quantity.
    const withQty = ocr(header, [
      [130, 'Competenze'],
      [300, '2,00'],
      [360, '50,00'],
      [481, '22,00'],
      [546, '100,00'],
    ]);
    expect(items(withQty)).toEqual([['Competenze', '2.00', '50.00', '100.00']]);
  });
});

describe("session 11: the pre-tax total's names printed by common invoicing software", () => {
  const odoo = (net: string): Row[] => [
    'YourCompany',
    null,
    'Invoice INV/2023/00003',
    null,
    [
      [50, 'Description'],
      [300, 'Quantity'],
      [380, 'Unit Price'],
      [450, 'Taxes'],
      [510, 'Amount'],
    ],
    [
      [50, '[FURN_8888] Office Lamp'],
      [300, '3.00 Units'],
      [380, '40.00'],
      [450, '15%'],
      [510, '$ 120.00'],
    ],
    [
      [50, '[FURN_7777] Office Chair'],
      [300, '2.00 Units'],
      [380, '70.00'],
      [450, '15%'],
      [510, '$ 140.00'],
    ],
    null,
    [
      [380, net],
      [510, '$ 260.00'],
    ],
    [
      [380, 'Tax 15%'],
      [510, '$ 39.00'],
    ],
    [
      [380, 'Total'],
      [510, '$ 299.00'],
    ],
  ];
  const text = (...rows: Row[]) => documentOf(layoutPage(rows));
  it.each(['Untaxed Amount', 'Taxable amount', 'Importe sin impuestos', 'Base imposable', 'Onbelast bedrag'])(
    '"%s" under the lines is the subtotal, and ends the table',
    (net) => {
      const doc = text(...odoo(net));
      expect(values(doc, ['subtotal', 'tax', 'total'])).toEqual({ subtotal: '260.00', tax: '39.00', total: '299.00' });
      expect(items(doc)).toEqual([
        ['[FURN_8888] Office Lamp', '3.00', '40.00', '120.00'],
        ['[FURN_7777] Office Chair', '2.00', '70.00', '140.00'],
      ]);
    },
  );
});

describe("session 11: the sender's line over the address window (a business letter's return address)", () => {
  const letter = (sender: string): Row[] => [
    sender,
    null,
    [
      [50, 'Beispiel AG'],
      [350, 'Rechnungsnr.: R-2023-77'],
    ],
    [
      [50, 'Kundenweg 5'],
      [350, 'Datum: 01.02.2023'],
    ],
    [[50, '80331 München']],
    null,
    'Rechnung',
    null,
    [
      [50, 'Bezeichnung'],
      [300, 'Menge'],
      [350, 'Einzelpreis'],
      [430, 'Gesamtpreis'],
    ],
    [
      [50, 'Lizenz Pro'],
      [300, '3'],
      [350, '99,00 €'],
      [430, '297,00 €'],
    ],
  ];
  const text = (...rows: Row[]) => documentOf(layoutPage(rows));
  it.each([
    'Muster Software GmbH · Hauptstr. 1 · 10115 Berlin',
    'Muster Software GmbH | Hauptstr. 1 | 10115 Berlin',
    'Muster Software GmbH - Hauptstr. 1 - 10115 Berlin',
  ])('"%s": its first part is the seller, the block under it the buyer', (sender) => {
    const doc = text(...letter(sender));
    expect(values(doc, ['seller_name', 'buyer_name'])).toEqual({
      seller_name: 'Muster Software GmbH',
      buyer_name: 'Beispiel AG',
    });
  });
  it('a line of parts without an address is no sender line', () => {
    const doc = text(...letter('Rechnung · Seite 1 · Kopie'));
    expect(values(doc, ['seller_name']).seller_name).not.toBe('Rechnung');
  });
});

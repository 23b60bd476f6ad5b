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

describe('session 11: a row of labels over a row of values, each label a cell of its own', () => {
  const doc = (...header: string[]) =>
    documentOf(
      layoutPage([
        'Northwind Traders Ltd',
        null,
        [
          [50, header[0]!],
          [200, header[1]!],
          [330, header[2]!],
          [450, header[3]!],
        ],
        [
          [50, 'NW-2291'],
          [200, '14 February 2023'],
          [330, '16 March 2023'],
          [450, '£1,234.56'],
        ],
      ]),
    );
  it.each([
    ['INVOICE NO.', 'DATE', 'DUE DATE', 'TOTAL DUE'],
    ['Invoice No.', 'Date', 'Due Date', 'Total Due'],
  ])(
    '%s | %s | %s | %s: the words of neighbouring cells are no label of one ("DATE  DUE DATE" is no "date due")',
    (...header) => {
      expect(values(doc(...header), ['invoice_number', 'invoice_date', 'due_date', 'total'])).toEqual({
        invoice_number: 'NW-2291',
        invoice_date: '2023-02-14',
        due_date: '2023-03-16',
        total: '1234.56',
      });
    },
  );
});

describe('session 11: an Italian VAT number is no tax amount', () => {
  it.each(['P.IVA 01234567890', 'P. IVA: 01234567890', 'Partita IVA 01234567890'])('"%s"', (line) => {
    const doc = documentOf(
      layoutPage([
        'Rossi S.r.l.',
        line,
        [[350, 'Fattura n. 15/2023']],
        null,
        [
          [350, 'Imponibile'],
          [460, '1.000,00'],
        ],
        [
          [350, 'Totale documento'],
          [460, '1.000,00'],
        ],
      ]),
    );
    expect(values(doc, ['tax', 'seller_vat_id'])).toEqual({ tax: null, seller_vat_id: '01234567890' });
  });
});

describe('session 11: a table without a header row that prints a tax rate on each line', () => {
  it('quantity, unit price, rate and amount: the rate is set aside, the rows are read (flagged)', () => {
    const doc = documentOf(
      layoutPage([
        'Talleres López S.L.',
        [[350, 'Factura: A-77']],
        null,
        [
          [50, 'Cambio de aceite'],
          [300, '1'],
          [360, '45,00'],
          [420, '21%'],
          [480, '45,00'],
        ],
        [
          [50, 'Filtro'],
          [300, '2'],
          [360, '12,00'],
          [420, '21%'],
          [480, '24,00'],
        ],
        null,
        [
          [360, 'Base imponible'],
          [480, '69,00'],
        ],
      ]),
    );
    expect(items(doc)).toEqual([
      ['Cambio de aceite', '1', '45.00', '45.00'],
      ['Filtro', '2', '12.00', '24.00'],
    ]);
    expect((extractOffline(doc, []).flags ?? []).filter((f) => f.field === 'amount').length).toBe(2);
  });
});

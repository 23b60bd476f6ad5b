import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { checkEvidence } from '../../../../domain/extraction-evidence.js';
import { extractOffline, OfflineExtractionEngine } from '../../../../adapters/extraction/offline-engine.js';
import { readSourceText } from '../../../../adapters/extraction/source-text.js';
import { createOcrEngine } from '../../../../adapters/media/ocr/ocr-engine.js';
import { generateInvoice, renderInvoice, type InvoiceDocument } from '../../../../support/invoice-corpus.js';
import { CHAR_WIDTH, documentOf, layoutPage, plainPage, type Row } from '../../../helpers/positioned-text.js';

const plain = (...lines: string[]) => documentOf(plainPage(lines.join('\n')));
const values = (doc: PositionedText, fields: string[]) =>
  Object.fromEntries(Object.entries(extractOffline(doc, fields).fields).map(([k, v]) => [k, v.value]));
const one = (doc: PositionedText, field: string) => values(doc, [field])[field];

const INVOICE: Row[] = [
  [
    [50, 'ACME Supplies Ltd'],
    [400, 'INVOICE'],
  ],
  [
    [50, 'VAT No: DE 123 456 789'],
    [400, 'Invoice No.: INV-2024-0042'],
  ],
  [
    [50, 'billing@acme.example'],
    [400, 'Invoice date: 15/03/2024'],
  ],
  [[400, 'Due date: 14/04/2024']],
  [
    [50, 'Bill to:'],
    [400, 'PO number: PO-778'],
  ],
  [[50, 'Globex GmbH']],
  null,
  [
    [50, 'Description'],
    [300, 'Qty'],
    [360, 'Unit price'],
    [460, 'Amount'],
  ],
  [
    [50, 'Widget, blue'],
    [312, '2'],
    [384, '10.00'],
    [466, '20.00'],
  ],
  [
    [50, 'Consulting hours'],
    [300, '1.5'],
    [384, '80.00'],
    [460, '120.00'],
  ],
  [[50, 'on site, March']],
  [
    [50, 'Gadget'],
    [312, '3'],
    [366, '1,000.00'],
    [448, '3,000.00'],
  ],
  null,
  [
    [300, 'Subtotal'],
    [448, '3,140.00'],
  ],
  [
    [300, 'VAT 19%'],
    [466, '596.60'],
  ],
  [
    [300, 'Total'],
    [436, '€ 3,736.60'],
  ],
  [[50, 'IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX']],
];

describe('offline engine: a laid-out invoice', () => {
  const doc = documentOf(layoutPage(INVOICE));
  const fields = [
    'invoice_number',
    'invoice_date',
    'due_date',
    'po_number',
    'subtotal',
    'vat',
    'total',
    'currency',
    'vat_number',
    'email',
    'iban',
    'customer_name',
    'vendor_name',
    'favourite_colour',
  ];

  it('reads every field it can find, leaves the rest null, and its evidence passes the check', () => {
    const r = extractOffline(doc, fields);
    expect(Object.keys(r.fields)).toEqual(fields);
    expect(Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, v.value]))).toEqual({
      invoice_number: 'INV-2024-0042',
      invoice_date: '2024-03-15',
      due_date: '2024-04-14',
      po_number: 'PO-778',
      subtotal: '3140.00',
      vat: '596.60',
      total: '3736.60',
      currency: 'EUR',
      vat_number: 'DE123456789',
      email: 'billing@acme.example',
      iban: 'DE89370400440532013000',
      customer_name: 'Globex GmbH',
      vendor_name: 'ACME Supplies Ltd',
      favourite_colour: null,
    });
    for (const v of Object.values(r.fields)) expect(v.value === null).toBe(v.evidence === null);
    expect(checkEvidence(r, doc).review_reasons).toEqual([]);
  });

  it("quotes the exact page text and the words' box", () => {
    const r = extractOffline(doc, ['total', 'vat_number']);
    expect(r.fields.total!.evidence).toEqual({
      page: 1,
      snippet: '3,736.60',
      box: { x0: 448, y0: 40 + 15 * 14, x1: 448 + 8 * CHAR_WIDTH, y1: 40 + 15 * 14 + 10 },
    });
    expect(r.fields.vat_number!.evidence?.snippet).toBe('DE 123 456 789');
    expect(r.fields.vat_number!.evidence?.box).toEqual({
      x0: 50 + 8 * CHAR_WIDTH,
      y0: 54,
      x1: 50 + 22 * CHAR_WIDTH,
      y1: 64,
    });
  });

  it('reads the line items by column, joins a multi-line description, and checks quantity × unit price', () => {
    const r = extractOffline(doc, []);
    expect(r.items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value])).toEqual([
      ['Widget, blue', '2', '10.00', '20.00'],
      ['Consulting hours on site, March', '1.5', '80.00', '120.00'],
      ['Gadget', '3', '1000.00', '3000.00'],
    ]);
    expect(r.items.every((i) => i.amount.confidence === 0.95)).toBe(true);
    expect(r.warnings).toEqual([]);
  });

  it('the provider interface gives the same result, and stops on an aborted signal', async () => {
    const engine = new OfflineExtractionEngine();
    expect(engine.name).toBe('offline');
    await expect(engine.extract({ document: doc, fields })).resolves.toEqual(extractOffline(doc, fields));
    const ac = new AbortController();
    ac.abort();
    await expect(engine.extract({ document: doc, fields, signal: ac.signal })).rejects.toThrow();
  });
});

describe('offline engine: labels', () => {
  it.each([
    'Invoice No. 4711',
    'Invoice #4711',
    'Invoice # 4711',
    'Inv. Number: 4711',
    'Invoice number: 4711',
    'INVOICE NO: 4711',
    'Invoice 4711',
    'Rechnungsnummer 4711',
  ])('invoice_number from "%s"', (line) => expect(one(plain('ACME', line), 'invoice_number')).toBe('4711'));

  it('an invoice number needs a digit and is neither a date nor an amount', () => {
    expect(one(plain('INVOICE', 'Invoice date: 2024-01-02'), 'invoice_number')).toBeNull();
    expect(one(plain('Invoice 2024-01-02'), 'invoice_number')).toBeNull();
    expect(one(plain('Receipt 12.50'), 'receipt_number')).toBeNull();
    expect(one(plain('Invoice 2024-0102'), 'invoice_number')).toBe('2024-0102');
  });

  it.each([
    'Total 99.00',
    'Amount due: 99.00',
    'Grand total 99.00',
    'TOTAL DUE $99.00',
    'Balance due 99,00',
    'Total (incl. VAT) 99.00',
    'Total incl. VAT: 99.00',
  ])('total from "%s"', (line) =>
    expect(one(plain('Subtotal 80.00', 'VAT 19.00', line), 'total')).toBe(line.includes('99,00') ? '99.00' : '99.00'),
  );

  it.each([
    'Subtotal 80.00',
    'Sub-total 80.00',
    'Sub total 80.00',
    'Total excl. VAT 80.00',
    'Total net 80.00',
    'Total tax 19.00',
    'Total VAT 19.00',
  ])('no total from "%s" alone', (line) => expect(one(plain('Invoice 12', line), 'total')).toBeNull());

  it('the subtotal and the tax have their own labels, and "VAT 19%" is not an amount of 19', () => {
    expect(
      values(plain('Sub-total: 80.00', 'VAT 19% 19.00', 'VAT No: GB123456789', 'Total: 99.00'), [
        'subtotal',
        'tax',
        'total',
        'vat_id',
      ]),
    ).toEqual({
      subtotal: '80.00',
      tax: '19.00',
      total: '99.00',
      vat_id: 'GB123456789',
    });
  });

  it.each([
    ['Date: 2024-02-01'],
    ['Invoice date 01 Feb 2024'],
    ['Issued: February 1, 2024'],
    ['Issued on 2024-02-01'],
    ['Date of issue: 01.02.2024'],
  ])('invoice_date from "%s"', (line) =>
    expect(values(plain(line, 'Due date: 2024-03-01'), ['date', 'invoice_date'])).toEqual({
      date: '2024-02-01',
      invoice_date: '2024-02-01',
    }),
  );

  it('a due date is not the invoice date', () => {
    expect(
      values(plain('Invoice 12', 'Due date: 2024-03-01', 'Delivery date 2024-02-20'), ['invoice_date', 'due_date']),
    ).toEqual({ invoice_date: null, due_date: '2024-03-01' });
  });

  it("an unlabelled date is the document's date only when it is the only one", () => {
    expect(one(plain('CAFE ROMA', '2024-02-01 12:31', 'Total 4.50'), 'date')).toBe('2024-02-01');
    expect(one(plain('CAFE ROMA', '2024-02-01 12:31', 'Valid until 2024-03-01'), 'date')).toBe('2024-02-01');
    expect(one(plain('CAFE ROMA', '2024-02-01', '2024-02-02'), 'date')).toBeNull();
  });

  it('a field name it does not know stays null unless a label with its words is there', () => {
    expect(one(plain('Invoice 12', 'Total 5.00'), 'favourite_colour')).toBeNull();
    expect(one(plain('Invoice 12', 'Favourite colour: teal blue', 'Total 5.00'), 'favourite_colour')).toBe('teal blue');
    expect(one(plain('Payment terms: 30 days net   Ref: X'), 'paymentTerms')).toBe('30 days net');
  });

  it('reads the value below a label when nothing is to its right', () => {
    const doc = documentOf(
      layoutPage([
        [
          [50, 'Invoice number'],
          [250, 'Invoice date'],
          [450, 'Amount due'],
        ],
        [
          [50, 'A-2024-7'],
          [250, '2024-05-06'],
          [450, 'USD 1,200.00'],
        ],
      ]),
    );
    expect(values(doc, ['invoice_number', 'invoice_date', 'total', 'currency'])).toEqual({
      invoice_number: 'A-2024-7',
      invoice_date: '2024-05-06',
      total: '1200.00',
      currency: 'USD',
    });
    expect(extractOffline(doc, ['invoice_number']).fields.invoice_number!.confidence).toBe(0.8);
  });

  it('a text value far to the right of its label belongs to another column: it reads below instead', () => {
    const doc = documentOf(
      layoutPage([
        [
          [50, 'Customer:'],
          [400, 'Order no: 55'],
        ],
        [[50, 'Initech Inc.']],
      ]),
    );
    expect(values(doc, ['customer_name', 'order_number'])).toEqual({
      customer_name: 'Initech Inc.',
      order_number: '55',
    });
  });

  it('plain text: a text value stops at the next label on the line', () => {
    expect(values(plain('Customer: Initech Inc. Order no: 55'), ['customer', 'order_no'])).toEqual({
      customer: 'Initech Inc.',
      order_no: '55',
    });
  });
});

describe('offline engine: currencies and dates need no guess', () => {
  it.each([
    [['Total: €12.00'], 'EUR'],
    [['Total 12.00 GBP'], 'GBP'],
    [['Total $12.00'], 'USD'],
    [['Total CAD 12.00', 'Tip $2.00'], 'CAD'],
    [['Currency: CHF', 'Total 12.00'], 'CHF'],
    [['Total 12.00 EUR', 'Paid $12.00'], null],
    [['Total ¥1200'], null],
    [['Total 12.00'], null],
    [['ALL PRICES IN THE TABLE', 'Total 12.00'], null],
  ])('%j → %s', (lines, code) => expect(one(plain(...lines), 'currency')).toBe(code));

  it.each([
    [['Date: 03/04/2024'], null],
    [['Date: 03/04/2024', 'Due: 28/04/2024'], '2024-04-03'],
    [['Date: 03/04/2024', 'Due: 04/28/2024'], '2024-03-04'],
    [['Date: 03.04.2024'], '2024-04-03'],
    [['Date: 03/04/2024', 'Total $5.00'], '2024-03-04'],
    [['Date: 03/04/2024', 'Total 5,00 €'], '2024-04-03'],
    [['Date: 03/04/2024', 'Due: 28/04/2024', 'Shipped: 04/28/2024'], null],
  ])('ambiguous day/month %j → %s', (lines, date) => expect(one(plain(...lines), 'date')).toBe(date));

  it('an IBAN with a wrong checksum is not read', () => {
    expect(one(plain('IBAN: DE89 3704 0044 0532 0130 01'), 'iban')).toBeNull();
    expect(one(plain('IBAN: GB82 WEST 1234 5698 7654 32'), 'iban')).toBe('GB82WEST12345698765432');
  });

  it('unlabelled e-mail, IBAN, tax id: taken only when the document has exactly one', () => {
    expect(
      values(plain('Write to sales@acme.example', 'DE89370400440532013000', 'ATU12345678'), [
        'email',
        'iban',
        'vat_number',
      ]),
    ).toEqual({
      email: 'sales@acme.example',
      iban: 'DE89370400440532013000',
      vat_number: 'ATU12345678',
    });
    expect(
      values(plain('sales@acme.example', 'help@acme.example', 'ATU12345678 DE123456789'), ['email', 'vat_number']),
    ).toEqual({ email: null, vat_number: null });
    expect(one(plain('Support: help@acme.example', 'sales@acme.example'), 'support_email')).toBeNull();
    expect(one(plain('E-mail: help@acme.example', 'sales@acme.example'), 'email')).toBe('help@acme.example');
  });

  it('an empty document gives nulls and no items', () => {
    const r = extractOffline({ pages: [], truncated: false, warnings: [] }, ['total', 'date']);
    expect(r).toEqual({
      fields: {
        total: { value: null, evidence: null, confidence: null },
        date: { value: null, evidence: null, confidence: null },
      },
      items: [],
      warnings: [],
    });
  });

  it('a label with no readable value gives null, not the next number', () => {
    expect(values(plain('Total: see attached', 'Invoice date: soon'), ['total', 'invoice_date'])).toEqual({
      total: null,
      invoice_date: null,
    });
  });
});

describe('offline engine: tables', () => {
  it('a plain-text table: trailing numbers fill the numeric columns from the right', () => {
    const doc = plain(
      'Receipt #: R-77',
      'Item Qty Price Amount',
      'Coffee, large 2 2.50 5.00',
      'Cake 1 7.50 7.50',
      'extra cream',
      'Total 12.50',
    );
    const r = extractOffline(doc, ['total']);
    expect(r.items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value])).toEqual([
      ['Coffee, large', '2', '2.50', '5.00'],
      ['Cake extra cream', '1', '7.50', '7.50'],
    ]);
    expect(r.fields.total!.value).toBe('12.50');
    expect(r.items[0]!.amount.evidence).toEqual({ page: 1, snippet: '5.00', box: null });
    expect(checkEvidence(r, doc).review_required).toBe(false);
  });

  it('OCR marks at the ends of a description are dropped; marks inside it and real punctuation stay', () => {
    const doc = documentOf(
      layoutPage([
        [
          [50, 'Description'],
          [300, 'Qty'],
          [360, 'Unit price'],
          [460, 'Amount'],
        ],
        [
          [50, '| Desk lamp |'],
          [312, '7'],
          [384, '148.34'],
          [460, '1038.38'],
        ],
        [
          [50, "~ A | B, ruled . '"],
          [312, '1'],
          [384, '2.00'],
          [466, '2.00'],
        ],
        [
          [50, 'Cable 2m.'],
          [312, '1'],
          [384, '1.00'],
          [466, '1.00'],
        ],
      ]),
    );
    const r = extractOffline(doc, []);
    expect(r.items.map((i) => i.description.value)).toEqual(['Desk lamp', 'A | B, ruled', 'Cable 2m.']);
    expect(checkEvidence(r, doc).review_required).toBe(false);
  });

  it('a row whose quantity × unit price is not its amount is kept, with a warning and a lower confidence', () => {
    const r = extractOffline(plain('Description Qty Unit price Amount', 'Bolts 4 2.50 12.00', 'Nuts 10 0.10 1.00'), []);
    expect(r.items.map((i) => i.amount.value)).toEqual(['12.00', '1.00']);
    expect(r.items[0]!.amount.confidence).toBe(0.6);
    expect(r.items[1]!.amount.confidence).toBe(0.95);
    expect(r.warnings).toEqual(['Line item 1: quantity × unit price (4 × 2.5) differs from the amount 12.']);
  });

  it('columns that are missing stay null; no header, no items', () => {
    const r = extractOffline(plain('Service Amount', 'Hosting 20.00', 'Support 5.00', 'Total 25.00'), ['total']);
    expect(r.items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value])).toEqual([
      ['Hosting', null, null, '20.00'],
      ['Support', null, null, '5.00'],
    ]);
    expect(r.fields.total!.value).toBe('25.00');
    expect(extractOffline(plain('Hosting 20.00', 'Support 5.00'), []).items).toEqual([]);
    expect(extractOffline(plain('Please pay the total amount by the due date.', 'Thanks 1.00'), []).items).toEqual([]);
  });

  it('tables on several pages, the header repeated', () => {
    const p1 = layoutPage([
      [
        [50, 'Item'],
        [300, 'Qty'],
        [460, 'Total'],
      ],
      [
        [50, 'A'],
        [306, '1'],
        [466, '1.00'],
      ],
    ]);
    const p2 = layoutPage(
      [
        [
          [50, 'Item'],
          [300, 'Qty'],
          [460, 'Total'],
        ],
        [
          [50, 'B'],
          [306, '2'],
          [466, '4.00'],
        ],
        null,
        null,
        null,
        null,
        [
          [300, 'Total'],
          [466, '5.00'],
        ],
      ],
      { page: 2 },
    );
    const doc = documentOf(p1, p2);
    const r = extractOffline(doc, ['total']);
    expect(r.items.map((i) => [i.description.value, i.amount.value, i.amount.evidence?.page])).toEqual([
      ['A', '1.00', 1],
      ['B', '4.00', 2],
    ]);
    expect(r.fields.total!.value).toBe('5.00');
    expect(checkEvidence(r, doc).review_required).toBe(false);
  });
});

// Defects measured on the generated corpus (test/integration/extraction-accuracy.test.ts), laid out as its text PDFs.
describe('offline engine: the corpus layouts', () => {
  it('label-left: a value in a column of its own right of "Label:" is read, and an IBAN is never a tax id', () => {
    const doc = documentOf(
      layoutPage([
        'Northwind Traders Inc.',
        'INVOICE',
        null,
        [
          [50, 'Invoice No.:'],
          [170, 'INV-2026-9460'],
        ],
        [
          [50, 'Issue date:'],
          [170, '2026-05-11'],
        ],
        [
          [50, 'Tax ID:'],
          [170, 'US746339911'],
        ],
        [
          [50, 'Email:'],
          [170, 'invoices@northwindtrade.example'],
        ],
        [
          [50, 'IBAN:'],
          [170, 'DE89 3704 0044 0532 0130 00'],
        ],
        [
          [50, 'Bill to:'],
          [170, 'Initech GmbH'],
        ],
      ]),
    );
    const r = extractOffline(doc, ['invoice_number', 'customer_name', 'vendor_vat_number', 'iban', 'vendor_email']);
    expect(Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, v.value]))).toEqual({
      invoice_number: 'INV-2026-9460',
      customer_name: 'Initech GmbH',
      vendor_vat_number: 'US746339911',
      iban: 'DE89370400440532013000',
      vendor_email: 'invoices@northwindtrade.example',
    });
    expect(checkEvidence(r, doc).review_reasons).toEqual([]);
  });

  it('an IBAN is not a tax id, not even as the only candidate', () => {
    expect(one(plain('IBAN: DE89 3704 0044 0532 0130 00'), 'vat_number')).toBeNull();
    expect(one(plain('Pay to DE89 3704 0044 0532 0130 00', 'VAT: DE123456789'), 'vat_number')).toBe('DE123456789');
  });

  it('two-column header: "Label:" and its value in the right-hand column', () => {
    const doc = documentOf(
      layoutPage([
        'Østergaard Print ApS',
        'VAT ID: CHE497347399',
        [[340, 'INVOICE']],
        [
          [340, 'Invoice #:'],
          [425, 'F-2025-0208'],
        ],
        [
          [340, 'Customer:'],
          [425, 'Acme Corporation'],
        ],
      ]),
    );
    expect(values(doc, ['invoice_number', 'customer_name', 'vendor_vat_number'])).toEqual({
      invoice_number: 'F-2025-0208',
      customer_name: 'Acme Corporation',
      vendor_vat_number: 'CHE497347399',
    });
  });

  it('a far value is still not read when it is another label, nor when it is a column away', () => {
    const doc = documentOf(
      layoutPage([
        [
          [50, 'Bill to:'],
          [170, 'Ship to:'],
        ],
        [
          [50, 'Initech Inc.'],
          [170, 'Globex'],
        ],
      ]),
    );
    expect(one(doc, 'customer_name')).toBe('Initech Inc.');
  });

  const RECEIPT: Row[] = [
    [[14, 'Oak & Iron Workshop LLC']],
    [[14, 'RECEIPT']],
    [[14, 'Receipt #: R-42312']],
    [
      [14, 'Item'],
      [180, 'Amount'],
    ],
    [[14, 'Desk lamp']],
    [
      [22, '4 x 164.56'],
      [180, '658.24'],
    ],
    [[14, 'Server maintenance']],
    [
      [22, '8 x 119.87'],
      [180, '958.96'],
    ],
    [[14, 'USB-C cable 2 m']],
    [
      [22, '12 x 1.45'],
      [186, '17.40'],
    ],
    [
      [14, 'Net amount'],
      [162, "€2'633.96"],
    ],
    [
      [14, 'Tax'],
      [174, '€526.79'],
    ],
    [
      [14, 'Amount due'],
      [162, "€3'160.75"],
    ],
  ];

  it('receipt: "quantity x unit price" under each description, the summary rows are not items, "€2\'633.96" is the subtotal', () => {
    const doc = documentOf(layoutPage(RECEIPT));
    const r = extractOffline(doc, ['subtotal', 'tax', 'total', 'currency']);
    expect(r.items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value])).toEqual([
      ['Desk lamp', '4', '164.56', '658.24'],
      ['Server maintenance', '8', '119.87', '958.96'],
      ['USB-C cable 2 m', '12', '1.45', '17.40'],
    ]);
    expect(Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, v.value]))).toEqual({
      subtotal: '2633.96',
      tax: '526.79',
      total: '3160.75',
      currency: 'EUR',
    });
    expect(r.warnings).toEqual([]);
    expect(checkEvidence(r, doc).review_reasons).toEqual([]);
  });

  it('receipt: a unit price grouped by spaces ("10 x 1 493,80") is still the quantity and unit price', () => {
    const doc = documentOf(
      layoutPage([
        [
          [14, 'Item'],
          [180, 'Amount'],
        ],
        [[14, 'Coffee beans 1 kg']],
        [
          [22, '10 x 1 493,80'],
          [168, '14938,00'],
        ],
        [[14, 'Desk lamp']],
        [
          [22, '2 x 1 000 000,00'],
          [156, '2000000,00'],
        ],
        [
          [14, 'Net amount'],
          [162, '2 014 938,00'],
        ],
      ]),
    );
    const r = extractOffline(doc, []);
    expect(r.items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value])).toEqual([
      ['Coffee beans 1 kg', '10', '1493.80', '14938.00'],
      ['Desk lamp', '2', '1000000.00', '2000000.00'],
    ]);
    expect(r.items[0]!.unit_price.evidence?.snippet).toBe('1 493,80');
    expect(r.warnings).toEqual([]);
    expect(checkEvidence(r, doc).review_reasons).toEqual([]);
  });

  it('receipt as plain text: the same items', () => {
    const doc = plain(
      'Item Amount',
      'Desk lamp',
      '4 x 164.56 658.24',
      'Server maintenance',
      '8 × 119.87 958.96',
      'Net amount 1,617.20',
    );
    const r = extractOffline(doc, ['subtotal']);
    expect(r.items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value])).toEqual([
      ['Desk lamp', '4', '164.56', '658.24'],
      ['Server maintenance', '8', '119.87', '958.96'],
    ]);
    expect(r.fields.subtotal!.value).toBe('1617.20');
    expect(checkEvidence(r, doc).review_reasons).toEqual([]);
  });
});

describe('offline engine: line items of generated invoices read from their text PDF', () => {
  const itemsOf = async (doc: InvoiceDocument) => {
    const dir = await mkdtemp(join(tmpdir(), 'offline-engine-'));
    try {
      const path = join(dir, 'invoice.pdf');
      await writeFile(path, (await renderInvoice(doc, 'text_pdf')).bytes);
      const text = await readSourceText(path, { engine: createOcrEngine(), workDir: dir });
      return extractOffline(text, []).items.map((i) => ({
        description: i.description.value,
        quantity: i.quantity.value,
        unit_price: i.unit_price.value,
        amount: i.amount.value,
      }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it('two last rows with descriptions of several words keep each description on its own item', async () => {
    // The reading order once cut the last two rows into a column of descriptions and a column of numbers:
    // "Ergonomic keyboard Label tape 12 mm" on item 3, null on item 4.
    const doc = generateInvoice(21, { layout: 'label-left', itemCount: 4, dateFormat: 'd-mon-y' });
    expect(await itemsOf(doc)).toEqual(doc.truth.items);
  });

  it('two-column header: the table under it keeps its descriptions', async () => {
    // The gutter between the header's two columns runs on down the table, between descriptions and numbers: the
    // reading order once cut the page there, putting "Description" and the descriptions in the left-hand column.
    for (const seed of [10, 13, 34]) {
      const doc = generateInvoice(seed, { layout: 'two-column-header' });
      expect(await itemsOf(doc)).toEqual(doc.truth.items);
    }
  });

  it('receipt with space-grouped numbers: "10 x 1 493,80" under the description gives its quantity and unit price', async () => {
    const doc = generateInvoice(16, { layout: 'receipt' });
    expect(doc.printedItems.some((i) => i.unit_price.includes(' '))).toBe(true);
    expect(await itemsOf(doc)).toEqual(doc.truth.items);
  });
});

describe('offline engine: the vendor name from the letterhead', () => {
  it('the first line of page 1, when the document names itself (a title) or has a labelled customer', () => {
    expect(one(documentOf(layoutPage(RECEIPT_TOP)), 'vendor_name')).toBe('Oak & Iron Workshop LLC');
    expect(
      one(
        plain('Invoice', 'Café Rivière SARL', 'Invoice #', 'F-2025-2983', 'Customer', 'Acme Corporation'),
        'vendor_name',
      ),
    ).toBe('Café Rivière SARL');
    expect(one(plain('Northwind Traders Inc.', 'Bill to: Initech GmbH', 'Total 5.00'), 'vendor_name')).toBe(
      'Northwind Traders Inc.',
    );
    const r = extractOffline(plain('Tax invoice', 'Harbor Supplies Ltd', 'Total 5.00'), ['vendor_name']);
    expect(r.fields.vendor_name).toEqual({
      value: 'Harbor Supplies Ltd',
      evidence: { page: 1, snippet: 'Harbor Supplies Ltd', box: null },
      confidence: 0.6,
    });
    // Side by side with the title: its own group of words.
    expect(
      one(
        documentOf(
          layoutPage([
            [
              [50, 'ACME Supplies Ltd'],
              [400, 'INVOICE'],
            ],
            'Total 5.00',
          ]),
        ),
        'vendor_name',
      ),
    ).toBe('ACME Supplies Ltd');
  });

  it('a labelled vendor wins; otherwise null rather than a guess', () => {
    expect(one(plain('Invoice', 'ACME Ltd', 'Supplier: Globex plc'), 'vendor_name')).toBe('Globex plc');
    // Neither a title nor a labelled customer: an unlabelled top line may be anything.
    expect(one(plain('ACME Ltd', 'Total 5.00'), 'vendor_name')).toBeNull();
    // The top line is a label, a value of another kind, or the customer's own name.
    expect(one(plain('Invoice No: 12', 'ACME Ltd', 'Bill to: X'), 'vendor_name')).toBeNull();
    expect(one(plain('Invoice', '2024-01-05', 'Bill to: X'), 'vendor_name')).toBeNull();
    expect(one(plain('Invoice', 'billing@acme.example', 'Bill to: X'), 'vendor_name')).toBeNull();
    expect(one(plain('Invoice', 'Initech GmbH', 'Bill to: Initech GmbH'), 'vendor_name')).toBeNull();
    expect(one(plain('Invoice', 'Invoice'), 'vendor_name')).toBeNull();
  });
});

const RECEIPT_TOP: Row[] = [[[14, 'Oak & Iron Workshop LLC']], [[14, 'RECEIPT']], [[14, 'Receipt #: R-42312']]];

// What OCR makes of the corpus's scanned pages and images (test/integration/extraction-accuracy.test.ts).
describe('offline engine: OCR noise it reads through, and noise it leaves null', () => {
  it('an identifier after leader marks or a stray quote OCR put between label and value', () => {
    expect(one(plain('Invoice #: ~—-—-F-2025-0208'), 'invoice_number')).toBe('F-2025-0208');
    expect(one(plain('Invoice No.: ‘INV-2026-9460'), 'invoice_number')).toBe('INV-2026-9460');
    expect(one(plain('Invoice No. ........ 4711'), 'invoice_number')).toBe('4711');
  });

  it('a group of marks alone (OCR noise) between a label and its value is skipped', () => {
    const doc = documentOf(
      layoutPage([
        [
          [340, 'Invoice #:'],
          [410, '_'],
          [430, '—-—-F-2025-0208'],
        ],
        [
          [340, 'Customer:'],
          [410, '|'],
          [430, 'Acme Corporation'],
        ],
      ]),
    );
    expect(values(doc, ['invoice_number', 'customer_name'])).toEqual({
      invoice_number: 'F-2025-0208',
      customer_name: 'Acme Corporation',
    });
  });

  it('a letterhead without the stray mark OCR put before it', () => {
    expect(one(plain('‘Northwind Traders Inc.', 'INVOICE', 'Bill to: Initech GmbH ,'), 'vendor_name')).toBe(
      'Northwind Traders Inc.',
    );
  });

  it('"4x 164.56": the quantity quotes "4x", so its evidence passes the check', () => {
    const doc = plain('Item Amount', 'Desk lamp', '4x 164.56 658.24', 'Tax €526:79', 'Subtotal 7.891 ,21:GBP');
    const r = extractOffline(doc, ['tax', 'subtotal']);
    expect(r.items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value])).toEqual([
      ['Desk lamp', '4', '164.56', '658.24'],
    ]);
    expect(r.items[0]!.quantity.evidence?.snippet).toBe('4x');
    expect(checkEvidence(r, doc).review_reasons).toEqual([]);
    // "526:79" and "7.891 ,21" are not amounts of 526 and 7891: null, not a wrong value.
    expect(values(doc, ['tax', 'subtotal'])).toEqual({ tax: null, subtotal: null });
  });
});

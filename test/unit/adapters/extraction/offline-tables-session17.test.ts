import { describe, expect, it } from 'vitest';
import type { PageText, PositionedText, PositionedWord } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, type Cell, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, item 3, session 17 (s17-items): line-item tables of shapes the tune part lacked, from a web shop's Spanish
 * invoice and an ERP's English quotation (bench/extraction-corpus, `s17-items-*`). Pages of positioned words written
 * from the geometry of such pages (lines at their own y, 6 pt a character, 9.8 pt high), with values of their own.
 */
const HEIGHT = 9.8;

/** A page of lines, each at its own y (top of its words), in the reading order given. */
function pageOf(lines: readonly [y: number, cells: Cell[]][]): PageText {
  const words: PositionedWord[] = [];
  const texts: string[] = [];
  let offset = 0;
  for (const [y, cells] of lines) {
    const parts: string[] = [];
    for (const [x, text] of [...cells].sort((a, b) => a[0] - b[0]))
      for (const m of text.matchAll(/\S+/gu)) {
        const x0 = x + m.index * 6;
        words.push({ text: m[0], offset, box: { x0, y0: y, x1: x0 + 6 * m[0].length, y1: y + HEIGHT } });
        parts.push(m[0]);
        offset += m[0].length + 1;
      }
    texts.push(parts.join(' '));
  }
  return { page: 1, text: texts.join('\n'), words, source: 'text_layer', width: 612, height: 792 };
}
const items = (doc: PositionedText) =>
  extractOffline(doc, []).items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]);

/** A number right-aligned at x = `right` (6 pt a character). */
const at = (right: number, s: string): Cell => [right - 6 * s.length, s];

/**
 * The web shop's header: names stacked over three lines in narrow cells ("Precio / Unitario / sin IVA"), one of them
 * broken inside a word with no hyphen ("Descuen" / "to total"), and the line's total named "Precio Total".
 */
const SHOP_HEADER: [number, Cell[]][] = [
  [366.2, [[356, 'Precio']]],
  [
    375.9,
    [
      [37, 'Artículo'],
      [230, 'Referencia'],
      [296, 'Cantidad'],
      [352, 'Unitario'],
      [410, 'Descuen'],
      [462, '% IVA'],
      [502, 'Cuota'],
      [548, 'Precio Total'],
    ],
  ],
  [
    385.7,
    [
      [356, 'sin IVA'],
      [406, 'to total'],
      [500, 'de IVA'],
    ],
  ],
];
/** A row of the shop's numbers at y. */
const shopRow = (y: number, ref: string, unit: string, vat: string, total: string): [number, Cell[]] => [
  y,
  [[230, ref], at(344, '1'), at(398, unit), at(452, '0.00'), [462, '21 %'], at(532, vat), at(620, total)],
];

/** The row with its one-line description on it. */
const withDescription = (text: string, [y, cells]: [number, Cell[]]): [number, Cell[]] => [y, [[37, text], ...cells]];

describe('session 17: a web shop table with a stacked header broken inside a word', () => {
  it('reads the rows under "Precio / Unitario / sin IVA" and "Precio Total", not under "Descuen / to total"', () => {
    const doc = documentOf(
      pageOf([
        ...SHOP_HEADER,
        withDescription('Saco de dormir ligero 5°C', shopRow(412.0, '3301457', '24.79', '5.20', '29.99')),
        withDescription('Linterna frontal recargable', shopRow(434.0, '8820016', '16.52', '3.47', '19.99')),
        [470, [[440, 'Base Imponible'], at(620, '41.31 €')]],
      ]),
    );
    expect(items(doc)).toEqual([
      ['Saco de dormir ligero 5°C', '1', '24.79', '29.99'],
      ['Linterna frontal recargable', '1', '16.52', '19.99'],
    ]);
  });
});

/** A row of numbers with a description line 7.3 pt above it and one 7.3 pt below it (a cell centred on its row). */
const sandwiched = (above: string, row: [number, Cell[]], below: string): [number, Cell[]][] => [
  [row[0] - 7.3, [[37, above]]],
  row,
  [row[0] + 7.3, [[37, below]]],
];

describe('session 17: descriptions on two lines around their row of numbers', () => {
  it("keeps each description's second line, printed under its numbers, with its own item", () => {
    const doc = documentOf(
      pageOf([
        ...SHOP_HEADER,
        ...sandwiched('Saco de dormir ligero 5°C', shopRow(412.0, '3301457', '24.79', '5.20', '29.99'), 'Con funda'),
        ...sandwiched(
          'Linterna frontal recargable',
          shopRow(449.5, '8820016', '16.52', '3.47', '19.99'),
          '300 lúmenes - USB',
        ),
        [500, [[440, 'Base Imponible'], at(620, '41.31 €')]],
      ]),
    );
    expect(items(doc)).toEqual([
      ['Saco de dormir ligero 5°C Con funda', '1', '24.79', '29.99'],
      ['Linterna frontal recargable 300 lúmenes - USB', '1', '16.52', '19.99'],
    ]);
  });
});

describe('session 17: rows at a regular pitch wider than three row heights', () => {
  it('reads on while the rows keep the pitch of the rows above, and stops at the totals', () => {
    // Rows of numbers 37.5 pt apart (3.8 row heights): the two-line descriptions fill the space between the first
    // rows, a one-line item leaves 30 pt of white above the next one.
    const doc = documentOf(
      pageOf([
        ...SHOP_HEADER,
        ...sandwiched('Saco de dormir ligero 5°C', shopRow(412.0, '3301457', '24.79', '5.20', '29.99'), 'Con funda'),
        ...sandwiched('Linterna frontal', shopRow(449.5, '8820016', '16.52', '3.47', '19.99'), '300 lúmenes'),
        withDescription('Cantimplora 1 L', shopRow(487.0, '4410023', '8.26', '1.73', '9.99')),
        ...sandwiched('Bastones de marcha', shopRow(524.5, '5102288', '20.65', '4.34', '24.99'), 'Aluminio, par'),
        [592.0, [[440, 'Base Imponible'], at(620, '70.22 €')]],
        [622.0, [[37, 'Gracias por su compra']]],
      ]),
    );
    expect(items(doc)).toEqual([
      ['Saco de dormir ligero 5°C Con funda', '1', '24.79', '29.99'],
      ['Linterna frontal 300 lúmenes', '1', '16.52', '19.99'],
      ['Cantimplora 1 L', '1', '8.26', '9.99'],
      ['Bastones de marcha Aluminio, par', '1', '20.65', '24.99'],
    ]);
  });
});

describe("session 17: an ERP's quotation with 'Unit(s)' after each quantity", () => {
  /** A row: the quantity right-aligned so that it overhangs its header's left edge, 'Unit(s)' after it. */
  const row = (name: string, qty: string, unit: string, amount: string): Row => [
    [33, name],
    at(302, qty),
    [304, 'Unit(s)'],
    at(435, unit),
    at(565, amount),
    [567, '€'],
  ];
  it('reads the quantity printed before its unit under "Quantity" and the amount under the second "Price"', () => {
    const doc = documentOf(
      layoutPage([
        [
          [33, 'Description'],
          [294, 'Quantity'],
          [375, 'Unit Price'],
          [449, 'Taxes'],
          [541, 'Price'],
        ],
        row('[CBL-04] Patch cable', '4.000', '12.50', '50.00'),
        row('[SW-16] Switch 16 ports', '2.000', '1,240.00', '2,480.00'),
        null,
        [[404, 'Total Without Taxes'], at(565, '2,530.00'), [567, '€']],
      ]),
    );
    expect(items(doc)).toEqual([
      ['[CBL-04] Patch cable', '4.000', '12.50', '50.00'],
      ['[SW-16] Switch 16 ports', '2.000', '1240.00', '2480.00'],
    ]);
  });
});

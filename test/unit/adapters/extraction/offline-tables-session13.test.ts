import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, item 3, session 13: line-item tables of the new tune prints (an Argentine invoicing library's eight-column
 * table, a German DIN 5008 layout) and the two defects session 12 left (a total under the table read as a note of the
 * last item, a discount line that is an item), each as a small page of positioned words (6 pt a character, rows 14 pt
 * apart). Written from the layouts, not from any document's values.
 */
const text = (...rows: Row[]) => documentOf(layoutPage(rows));
const items = (doc: PositionedText) =>
  extractOffline(doc, []).items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]);

describe('session 13: a price header of two words whose second is an abbreviated "unit"', () => {
  it.each([
    ['Cantidad', 'Precio Unit.', 'Subtotal'],
    ['Qté', 'Prix unit.', 'Montant'],
    ['Quantità', 'Prezzo unit.', 'Importo'],
  ])('"%s … %s": a price right-aligned under the abbreviation is the unit price', (qty, price, amount) => {
    // The prices end under "Unit." (right-aligned in a cell as wide as the header): their middle is past the middle
    // between the two header words, where an unnamed "unit" column would take them.
    const doc = text(
      [
        [65, 'Producto'],
        [232, qty],
        [344, price],
        [430, '% Bonif.'],
        [490, amount],
      ],
      [
        [65, 'Resma A4 75g'],
        [238, '10,00'],
        [416 - 6 * 9, '$1.000,00'],
        [436, '0,00'],
        [490, '$10.000,00'],
      ],
      [
        [65, 'Cinta de embalaje'],
        [244, '5,00'],
        [416 - 6 * 7, '$200,00'],
        [436, '0,00'],
        [496, '$1.000,00'],
      ],
    );
    expect(items(doc)).toEqual([
      ['Resma A4 75g', '10.00', '1000.00', '10000.00'],
      ['Cinta de embalaje', '5.00', '200.00', '1000.00'],
    ]);
  });
});

describe('session 13: a total under the table is its end, not a note of the last item', () => {
  const table: Row[] = [
    [
      [60, 'Description'],
      [264, 'Units'],
      [306, 'Price per one'],
      [400, 'Total price'],
    ],
    [
      [60, 'Item 1'],
      [287, '32'],
      [340, '$600.00'],
      [396, '$19,200.00'],
    ],
    [
      [60, 'Item 2'],
      [287, '60'],
      [344, '$50.00'],
      [401, '$3,000.00'],
    ],
  ];
  it.each([
    ['Total with tax: $22,200.00', '22200.00'],
    ['Total amount due: 22.200,00 €', '22200.00'],
  ])('"%s" right under the last row is the total (its label is read, the table ends)', (line, total) => {
    const doc = text(...table, [[340, line]]);
    expect(items(doc)).toEqual([
      ['Item 1', '32', '600.00', '19200.00'],
      ['Item 2', '60', '50.00', '3000.00'],
    ]);
    expect(extractOffline(doc, ['total']).fields.total?.value).toBe(total);
  });

  it('a note with a rate under an item ("Tax: 0.2%") is still a note: the rows after it are read', () => {
    const doc = text(...table.slice(0, 2), [[60, 'Tax: 0.2%']], table[2]!, null, [
      [340, 'Total'],
      [401, '$22,200.00'],
    ]);
    expect(items(doc)).toEqual([
      ['Item 1', '32', '600.00', '19200.00'],
      ['Item 2', '60', '50.00', '3000.00'],
    ]);
  });
});

describe('session 13: a quantity printed with its unit word in its cell', () => {
  it.each([
    ['Quantity', '5.00 Units', 'Unit Price', '20.00', 'Amount', '100.00', '5.00'],
    ['Cantidad', '10 unidades', 'Precio', '3,50', 'Importe', '35,00', '10'],
    ['Menge', '2,5 Stunden', 'Einzelpreis', '80,00', 'Gesamtpreis', '200,00', '2.5'],
    ['Quantité', '3 pièces', 'Prix unitaire', '12,00', 'Montant', '36,00', '3'],
    ['Aantal', '4 stuks', 'Prijs', '2,25', 'Bedrag', '9,00', '4'],
  ])('"%s" over "%s": the number is the quantity, the row is read', (qh, q, ph, p, ah, a, want) => {
    const doc = text(
      [
        [40, 'Description'],
        [250, qh],
        [350, ph],
        [470, ah],
      ],
      [
        [40, 'Office desk'],
        [250, q],
        [350, p],
        [470, a],
      ],
    );
    const [row] = items(doc);
    expect(row).toEqual([
      'Office desk',
      want,
      String(Number(p.replace(',', '.')).toFixed(2)),
      String(Number(a.replace(',', '.')).toFixed(2)),
    ]);
  });
});

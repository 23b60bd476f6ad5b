import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, type Cell, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 16 (s16-tex): statements typeset by a LaTeX invoice package (a fee table and an expense table per
 * project, the package's column names in English, German and French, totals below). Small pages of positioned words (6
 * pt a character, rows 14 pt apart) written from the shape of such a page, with values of their own.
 */
const text = (...rows: Row[]) => documentOf(layoutPage(rows));
const items = (doc: PositionedText) =>
  extractOffline(doc, []).items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]);

/** A number right-aligned at x = `right` (6 pt a character). */
const at = (right: number, s: string): Cell => [right - 6 * s.length, s];

describe('session 16: a LaTeX statement of fees and expenses', () => {
  it('reads a fee table whose header names a column in a word it does not know and its currency in brackets', () => {
    const doc = text(
      [[150, 'Projekt Nordlicht']],
      [
        [20, 'Aktivität'],
        [230, 'Rate/Einheit'],
        [320, 'Anzahl'],
        [380, 'Betrag (Euro)'],
      ],
      [[20, 'Beratung'], at(300, '950.00'), at(350, '4'), at(460, '3800,00')],
      [[20, 'MWSt. (19%)'], at(460, '722,00')],
      null,
      [[20, 'Gesamtsumme'], at(460, '4522,00')],
    );
    expect(items(doc)).toEqual([['Beratung', '4', '950.00', '3800.00']]);
  });

  it("takes an expense table's amount from the column named by the statement's currency, not the foreign amount", () => {
    const doc = text(
      [
        [20, 'Expense'],
        [180, 'Currency'],
        [260, 'Amount'],
        [330, 'Factor'],
        [440, 'Euro'],
      ],
      [[20, 'Train ticket'], [180, 'CHF'], at(310, '120.00'), at(370, '0.9500'), at(464, '114.00')],
      [[20, 'Taxi, 2 rides'], [180, 'Euro'], at(464, '35.00')],
      [[20, 'Subtotal Expenses'], at(464, '149.00')],
      null,
      [[20, 'Total'], at(464, '149.00')],
    );
    expect(items(doc)).toEqual([
      ['Train ticket', null, null, '114.00'],
      ['Taxi, 2 rides', null, null, '35.00'],
    ]);
  });

  it('keeps the amount under "Amount EUR": a currency written after the amount column\'s own name is its unit', () => {
    const doc = text(
      [
        [20, 'No.'],
        [60, 'Description'],
        [250, 'Quantity'],
        [320, 'Unit Price EUR'],
        [420, 'Tax'],
        [460, 'Amount EUR'],
      ],
      [[20, '1'], [60, 'Support plan'], at(300, '2'), at(400, '950.00'), [420, '0 %'], at(520, '1,900.00')],
      [[380, 'Subtotal:'], at(520, '1,900.00')],
    );
    expect(items(doc)).toEqual([['Support plan', '2', '950.00', '1900.00']]);
  });
});

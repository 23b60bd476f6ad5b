import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, type Cell, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 16 (s16-tex): the header fields of pages typeset by LaTeX invoice packages (a consultant's
 * statement of fees and expenses; a Dutch letter-invoice). Small pages of positioned words written from the shape of
 * such pages, with values of their own.
 */
const text = (...rows: Row[]) => documentOf(layoutPage(rows));
const FIELDS = ['seller_vat_id', 'buyer_vat_id', 'currency', 'tax', 'total', 'iban'];
const field = (doc: PositionedText, name: string) => extractOffline(doc, FIELDS).fields[name]?.value ?? null;

/** A number right-aligned at x = `right` (6 pt a character). */
const at = (right: number, s: string): Cell => [right - 6 * s.length, s];

/** A statement in the invoice package's shape: a fee table in euros, an expense paid in another currency. */
const statement = (sums: Row[]) =>
  text(
    [[150, 'Project Harbour']],
    [
      [20, 'Activity'],
      [230, 'Rate/Unit'],
      [320, 'Count'],
      [380, 'Amount (Euro)'],
    ],
    [[20, 'Design review'], at(300, '2000.00'), at(350, '5'), at(460, '10000.00')],
    [[20, 'VAT (19%)'], at(460, '1900.00')],
    null,
    [
      [20, 'Expense'],
      [180, 'Currency'],
      [260, 'Amount'],
      [330, 'Factor'],
      [440, 'Euro'],
    ],
    [[20, 'Ferry'], [180, 'NOK'], at(310, '1100.00'), at(370, '0.0900'), at(464, '99.00')],
    null,
    [[150, 'Project Lighthouse']],
    [
      [20, 'Activity'],
      [230, 'Rate/Unit'],
      [320, 'Count'],
      [380, 'Amount (Euro)'],
    ],
    [[20, 'Site visit'], at(300, '500.00'), at(350, '2'), at(460, '1000.00')],
    [[20, 'VAT (19%)'], at(460, '190.00')],
    null,
    ...sums,
  );

describe('session 16: a statement of fees and expenses', () => {
  it("takes the currency its amount column's header names, not an expense row's foreign currency", () => {
    const doc = statement([
      [[20, 'Sum Fees'], at(464, '11000.00')],
      [[20, 'Total'], at(464, '13189.00')],
    ]);
    expect(field(doc, 'currency')).toBe('EUR');
  });

  it('reads "Sum VAT" as the tax, and its amount is no VAT id', () => {
    const doc = statement([
      [[20, 'Sum Fees'], at(464, '11000.00')],
      [[20, 'Sum VAT'], at(464, '2090.00')],
      [[20, 'Sum Expenses'], at(464, '99.00')],
      [[20, 'Total'], at(464, '13189.00')],
    ]);
    expect([field(doc, 'tax'), field(doc, 'seller_vat_id'), field(doc, 'buyer_vat_id')]).toEqual([
      '2090.00',
      null,
      null,
    ]);
  });

  it('does not take a sum of the fees ("Total Honoraires") for the total', () => {
    const doc = statement([
      [[20, 'Total Honoraires'], at(464, '11000.00')],
      [[20, 'Total TVA'], at(464, '2090.00')],
      [[20, 'Total Dépenses'], at(464, '99.00')],
      [[20, 'Total'], at(464, '13189.00')],
    ]);
    expect(field(doc, 'total')).toBe('13189.00');
  });
});

describe('session 16: a Dutch letter-invoice', () => {
  it('reads an IBAN printed in small capitals (lower case in the text) after its label', () => {
    const doc = text(
      [[20, 'rekening']],
      [
        [20, 'Omschrijving'],
        [400, 'Bedrag'],
      ],
      [[20, 'drukwerk'], at(460, '12,50')],
      [[20, 'Subtotaal'], at(460, '12,50')],
      null,
      [[20, 'Betaalgegevens:']],
      [
        [30, 'betalingstermijn:'],
        [140, '14 dagen'],
      ],
      [
        [90, 'iban:'],
        [140, 'nl91abna0417164300'],
      ],
    );
    expect(field(doc, 'iban')).toBe('NL91ABNA0417164300');
  });
});

import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 16 (s16-flags): the till-receipt fallback (`receiptRows`) on an invoice's rows. Edge-case
 * fixtures: small pages of positioned words (6 pt a character, rows 14 pt apart) written from the shape of a
 * document, not from any document's values.
 */
const text = (...rows: Row[]) => documentOf(layoutPage(rows));
const items = (doc: PositionedText) =>
  extractOffline(doc, []).items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]);

/** A price right-aligned at x = 200 (6 pt a character). */
const price = (p: string): [number, string] => [200 - 6 * p.length, p];

describe('s16-flags: the till-receipt fallback on an invoice page', () => {
  it('reads no receipt item from invoice rows whose quantity, unit price and rate columns stand apart from the name', () => {
    // No header row; the amounts are gross (the rate's tax added), so quantity × unit price = amount holds on no row
    // and the headerless table reader reads none. The amounts add up to the printed total.
    const doc = text(
      'Factuur 2026-0417',
      'Factuurdatum: 12-03-2026',
      null,
      [
        [50, 'Digitale snelweg'],
        [250, '1'],
        [300, '50,00'],
        [370, '6%'],
        [450, '53,00'],
      ],
      [
        [50, 'Papieren handboek'],
        [250, '2'],
        [300, '12,50'],
        [370, '6%'],
        [450, '26,50'],
      ],
      [
        [50, 'Verzending'],
        [250, '1'],
        [300, '7,50'],
        [370, '21%'],
        [450, '9,08'],
      ],
      null,
      [
        [50, 'Totaal'],
        [450, '88,58'],
      ],
    );
    expect(items(doc)).toEqual([]);
  });

  it('still reads a receipt whose item names are one phrase, a code and a tax letter apart from it', () => {
    const doc = text(
      'CORNER MARKET #112',
      '05/24/2022 1:10 PM',
      [[20, 'SODA LEMON 12OZ'], price('2.38'), [206, 'F']],
      [[20, 'PAPER TOWELS'], [110, '012345678905'], price('4.99'), [206, 'T']],
      [[20, 'BREAD WHEAT'], price('2.99'), [206, 'F']],
      [[20, 'SUBTOTAL'], price('10.36')],
      [[20, 'TOTAL'], price('10.36')],
      [[20, 'CASH'], price('20.00')],
    );
    expect(items(doc)).toEqual([
      ['SODA LEMON 12OZ', null, null, '2.38'],
      ['PAPER TOWELS', null, null, '4.99'],
      ['BREAD WHEAT', null, null, '2.99'],
    ]);
  });
});

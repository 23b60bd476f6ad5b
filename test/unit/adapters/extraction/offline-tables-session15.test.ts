import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 15 (s15-items): the line-item reader. Edge-case fixtures: small pages of positioned words (6 pt a
 * character, rows 14 pt apart) written from the shape of a document, not from any document's values.
 */
const text = (...rows: Row[]) => documentOf(layoutPage(rows, { source: 'ocr' }));
const items = (doc: PositionedText) =>
  extractOffline(doc, []).items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]);

/** A price right-aligned at x = 200 (6 pt a character). */
const price = (p: string): [number, string] => [200 - 6 * p.length, p];

describe('session 15: a till receipt', () => {
  it('reads a quantity line that starts with an OCR mark ("| 2 @ 1.19 or 2/4.00") as the item above it', () => {
    const doc = text(
      'CORNER MARKET #112',
      '05/24/2022 1:10 PM',
      [[20, 'SODA LEMON 12OZ'], price('2.38'), [206, 'F']],
      [[20, '| 2 @ 1.19 or 2/4.00']],
      [[20, 'BREAD WHEAT'], price('2.99'), [206, 'F']],
      [[20, 'SUBTOTAL'], price('5.37')],
      [[20, 'TOTAL'], price('5.37')],
      [[20, 'CASH'], price('10.00')],
      [[20, 'CHANGE'], price('4.63')],
    );
    expect(items(doc)).toEqual([
      ['SODA LEMON 12OZ', '2', '1.19', '2.38'],
      ['BREAD WHEAT', null, null, '2.99'],
    ]);
    const soda = extractOffline(doc, []).items[0]!;
    expect([soda.quantity.evidence?.snippet, soda.unit_price.evidence?.snippet]).toEqual(['2', '1.19']);
  });
});

import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 14 (s14-receipt): a till receipt's items, printed as "NAME   PRICE" rows with no header row (a
 * tax letter after the price, a product code before it, the name on a line of its own above a code-and-price row, a
 * "2 @ 1.25" quantity line, notes such as "REGULAR PRICE" and "YOU SAVED" under an item), and the summary rows under
 * them (SUBTOTAL, TAX, TOTAL, VISA, CHANGE) that are never items. Edge-case fixtures: small pages of positioned
 * words (6 pt a character, rows 14 pt apart) written from the shape of a till receipt, not from any document's values.
 */
const text = (...rows: Row[]) => documentOf(layoutPage(rows, { source: 'ocr' }));
const items = (doc: PositionedText) =>
  extractOffline(doc, []).items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]);
const flaggedItems = (doc: PositionedText) =>
  new Set((extractOffline(doc, []).flags ?? []).filter((f) => f.item !== null).map((f) => f.item));

/** A price right-aligned at x = 200 (6 pt a character). */
const price = (p: string): [number, string] => [200 - 6 * p.length, p];

const HEAD: Row[] = ['CORNER MARKET #112', '12 MAIN ST SPRINGFIELD', '05/24/2022 1:10 PM'];

describe('session 14: a till receipt without a header row', () => {
  it('reads its "NAME PRICE" rows, a name over a code-and-price row and a quantity line, not its notes or summary rows', () => {
    const doc = text(
      ...HEAD,
      [[20, 'MILK 2% 1GAL'], price('3.49'), [206, 'F']],
      [[20, 'BREAD WHEAT'], price('2.99'), [206, 'F']],
      [[20, 'REGULAR PRICE'], price('3.49')],
      [[20, 'YOU SAVED'], price('0.50')],
      [[20, 'APPLES GALA']],
      [[20, '2 @ 1.25'], price('2.50'), [206, 'F']],
      [[20, 'PAPER TOWELS 6RL']],
      [[20, '004123456789 A'], price('5.99')],
      [[20, 'SUBTOTAL'], price('14.97')],
      [[20, 'TAX'], price('0.54')],
      [[20, 'TOTAL'], price('15.51')],
      [[20, 'VISA'], price('15.51')],
      [[20, 'CHANGE'], price('0.00')],
      'THANK YOU FOR SHOPPING',
    );
    expect(items(doc)).toEqual([
      ['MILK 2% 1GAL', null, null, '3.49'],
      ['BREAD WHEAT', null, null, '2.99'],
      ['APPLES GALA', '2', '1.25', '2.50'],
      ['PAPER TOWELS 6RL', null, null, '5.99'],
    ]);
  });

  it('a name whose price was not read is an item with no amount, and every line is flagged when they miss the subtotal', () => {
    const doc = text(
      ...HEAD,
      [[20, 'MILK 2% 1GAL'], price('3.49'), [206, 'F']],
      [[20, 'OREO COOKIES 14OZ ae a']],
      [[20, 'YOU SAVED'], price('0.50')],
      [[20, 'BREAD WHEAT'], price('2.99'), [206, 'F']],
      [[20, 'SUBTOTAL'], price('9.47')],
      [[20, 'TOTAL'], price('9.47')],
      [[20, 'CASH'], price('10.00')],
      [[20, 'CHANGE'], price('0.53')],
    );
    expect(items(doc)).toEqual([
      ['MILK 2% 1GAL', null, null, '3.49'],
      ['OREO COOKIES 14OZ ae a', null, null, null],
      ['BREAD WHEAT', null, null, '2.99'],
    ]);
    expect(flaggedItems(doc)).toEqual(new Set([0, 1, 2]));
  });

  it('gives no item from the summary and payment rows alone', () => {
    const doc = text(
      ...HEAD,
      [[20, 'SUBTOTAL'], price('14.97')],
      [[20, 'SALES TAX A=9.625%'], price('1.44')],
      [[20, 'TOTAL'], price('16.41')],
      [[20, 'CASH'], price('20.00')],
      [[20, 'CHANGE'], price('3.59')],
      [[20, 'VISA ACCT 1850'], price('16.41')],
    );
    expect(items(doc)).toEqual([]);
  });

  it('reads no receipt rows where nothing shows a receipt: no payment row, and the rows do not add up to the total', () => {
    const doc = text(
      'Invoice 2022-114',
      [[20, 'Consulting March'], price('400.00')],
      [[20, 'Travel costs'], price('120.00')],
      [[20, 'Total'], price('600.00')],
    );
    expect(items(doc)).toEqual([]);
  });
});

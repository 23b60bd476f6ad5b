import { describe, expect, it } from 'vitest';
import { layoutText, orderLines } from '../../../../adapters/extraction/reading-order.js';
import type { LineSegment } from '../../../../adapters/extraction/tsv-words.js';

/**
 * Issue 29, item 3, session 17 (s17-items): the reading order of a table whose items' descriptions stand on two
 * lines, one a little above and one a little below the row of the item's numbers (a web shop's invoice: text layer,
 * each cell its own segment). Written from the geometry of such a page (its boxes), with words and values of its own.
 */
const H = 9.8;
/** A segment of words at their own x ranges, on a line starting at y. */
const seg = (y: number, ...words: [text: string, x0: number, x1: number][]): LineSegment => ({
  words: words.map(([text, x0, x1]) => ({ text, box: { x0, y0: y, x1, y1: y + H } })),
  box: { x0: words[0]![1], y0: y, x1: words[words.length - 1]![2], y1: y + H },
});
const read = (segs: LineSegment[]) =>
  layoutText(orderLines(segs))
    .text.split('\n')
    .filter((l) => l.trim());

/** An item: a description line 7.3 pt above its numbers and one 7.3 pt below them; the numbers cell by cell. */
const item = (y: number, first: string, second: string, n: [string, string, string, string, string, string]) => [
  seg(y - 7.3, [first, 37, 37 + 4.6 * first.length]),
  seg(y, [n[0], 248, 281]),
  seg(y, ['1', 318, 323]),
  seg(y, [n[1], 343, 365]),
  seg(y, [n[2], 390, 407]),
  seg(y, [n[3], 430, 440], ['%', 442, 448]),
  seg(y, [n[4], 468, 490]),
  seg(y, [n[5], 535, 557]),
  seg(y + 7.3, [second, 37, 37 + 4.6 * second.length]),
];

describe('session 17: a table whose descriptions stand above and below their row of numbers', () => {
  it('keeps each row of numbers whole and between its description lines', () => {
    const segs = [
      seg(375.9, ['Article', 37, 67]),
      seg(366.2, ['Prix', 338, 363]),
      seg(371.1, ['Code', 240, 262], ['Nombre', 289, 320], ['unitaire', 333, 363], ['Rabais', 374, 407]),
      seg(380.8, ['hors', 338, 349], ['TVA', 351, 365], ['accordé', 379, 407]),
      seg(375.9, ['%', 426, 433], ['TVA', 435, 448]),
      seg(371.1, ['Montant', 465, 498]),
      seg(380.8, ['de', 465, 474], ['TVA', 477, 490]),
      seg(375.9, ['Prix', 510, 528], ['TTC', 531, 557]),
      ...item(412.0, 'Tente dôme trois places Cimes', 'Arceaux en aluminium', [
        '7731042',
        '54.90',
        '0.00',
        '20',
        '10.98',
        '65.88',
      ]),
      ...item(449.5, 'Réchaud à gaz compact - R200', 'Avec étui de transport', [
        '6620915',
        '24.15',
        '0.00',
        '20',
        '4.83',
        '28.98',
      ]),
    ];
    const lines = read(segs);
    const first = lines.indexOf('Tente dôme trois places Cimes');
    expect(lines.slice(first, first + 6)).toEqual([
      'Tente dôme trois places Cimes',
      '7731042 1 54.90 0.00 20 % 10.98 65.88',
      'Arceaux en aluminium',
      'Réchaud à gaz compact - R200',
      '6620915 1 24.15 0.00 20 % 4.83 28.98',
      'Avec étui de transport',
    ]);
  });
});

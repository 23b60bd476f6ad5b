import { describe, expect, it } from 'vitest';
import { layoutText, orderLines } from '../../../../adapters/extraction/reading-order.js';
import type { LineSegment } from '../../../../adapters/extraction/tsv-words.js';
import { lineSegment } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, item 3, session 12: the reading order of table rows whose numbers carry a unit ("2.0 j 250.00€"), written
 * from the layout of a French invoicing library's print (text layer: each cell its own segment), not from its values.
 */
const seg = lineSegment;
const read = (segs: LineSegment[]) => layoutText(orderLines(segs)).text;

describe('session 12: a gutter through a table whose rows print a unit beside their numbers', () => {
  it('a row with a description on the left and a unit among numbers on the right is a table row (text PDF)', () => {
    // The gutter between "Quantité" and "Unité" runs down the table; the right side's rows are "j 250.00€ 20.0%
    // 500.00€": a one-letter unit is no running text.
    const cells = [
      ['Description', 'Quantité', 'Unité', 'Prix unitaire', 'TVA', 'Montant HT'],
      ['Prestation de conseil', '2.0', 'j', '250.00€', '20.0%', '500.00€'],
      ['Frais de déplacement', '1.0', 'U', '100.00€', '20.0%', '100.00€'],
    ];
    const xs = [40, 266, 330, 370, 440, 500];
    const segs = [
      seg('Facture 113504092026', 40, 80),
      ...cells.flatMap((r, i) =>
        // The left part (description and quantity) is one segment per row, the right part another.
        [seg(`${r[0]} ${r[1]}`.trim(), xs[0]!, 120 + i * 12), seg(r.slice(2).join(' '), xs[2]!, 120 + i * 12)],
      ),
    ];
    expect(read(segs)).toBe(
      [
        'Facture 113504092026',
        '',
        'Description Quantité Unité Prix unitaire TVA Montant HT',
        'Prestation de conseil 2.0 j 250.00€ 20.0% 500.00€',
        'Frais de déplacement 1.0 U 100.00€ 20.0% 100.00€',
      ].join('\n'),
    );
  });

  it('two columns of text are still two columns when a row on the right is a phone number', () => {
    const left = ['the seller is a small firm', 'in a street of the old town', 'with a shop on the corner'];
    const right = ['call us on any weekday', 'Tel. 030 1234567', 'or write to the office'];
    const segs = [...left.map((l, i) => seg(l, 20, 100 + i * 12)), ...right.map((l, i) => seg(l, 260, 100 + i * 12))];
    expect(read(segs)).toBe(`${left.join('\n')}\n\n${right.join('\n')}`);
  });
});

import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { reviewExtraction } from '../../../../adapters/extraction/extraction-runner.js';
import type { PositionedText } from '../../../../domain/extraction.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29: confidence that means something. A pairing the engine has reason to doubt (another label of the same
 * concept with a different value on the page, a name far right of its label with nothing under it) and a table it
 * had to guess (no header row, one amount column) come with a confidence under 0.5 or a flag, and a reason a reviewer
 * understands.
 */
const page = (...rows: Row[]) => documentOf(layoutPage(rows));
const flagsOf = (doc: PositionedText, fields: string[]) => {
  const r = extractOffline(doc, fields);
  return { r, review: reviewExtraction(r, doc) };
};

describe('weak pairings', () => {
  it('two totals with different values: the one read is given unsure, with the other named', () => {
    const doc = page(
      [
        [300, 'Subtotal'],
        [480, '100.00'],
      ],
      [
        [300, 'Total'],
        [480, '120.00'],
      ],
      null,
      null,
      [
        [300, 'Total'],
        [480, '95.00'],
      ],
    );
    const { r, review } = flagsOf(doc, ['total']);
    expect(r.fields['total']!.value).toBe('120.00');
    expect(r.fields['total']!.confidence).toBeLessThan(0.5);
    expect(
      review.flagged
        .filter((f) => 'field' in f && f.field === 'total')
        .map((f) => f.reason)
        .join(' '),
    ).toMatch(/95\.00/u);
  });

  it('the same total printed twice is no competitor', () => {
    const doc = page(
      [
        [300, 'Total'],
        [480, '120.00'],
      ],
      null,
      [
        [300, 'Total'],
        [480, '120.00'],
      ],
    );
    const { r, review } = flagsOf(doc, ['total']);
    expect(r.fields['total']!.confidence).toBeGreaterThanOrEqual(0.5);
    expect(review.flagged).toEqual([]);
  });

  it('a name far right of its label with nothing under the label says why it is unsure', () => {
    const doc = page(
      [
        [50, 'Customer:'],
        [400, 'Globex Corporation'],
      ],
      null,
      [
        [300, 'Total'],
        [480, '120.00'],
      ],
    );
    const { r, review } = flagsOf(doc, ['buyer_name']);
    expect(r.fields['buyer_name']!.value).toBe('Globex Corporation');
    expect(
      review.flagged
        .filter((f) => 'field' in f && f.field === 'buyer_name')
        .map((f) => f.reason)
        .join(' '),
    ).toMatch(/pt right of its label/u);
  });
});

describe('tables the engine had to guess', () => {
  it('a table without a header row: its lines are flagged, saying so', () => {
    const doc = page(
      [
        [50, 'Widget blue'],
        [300, '2'],
        [380, '5.00'],
        [480, '10.00'],
      ],
      [
        [50, 'Widget red'],
        [300, '3'],
        [380, '4.00'],
        [480, '12.00'],
      ],
      null,
      [
        [300, 'Total'],
        [480, '22.00'],
      ],
    );
    const { r, review } = flagsOf(doc, ['total']);
    expect(r.items).toHaveLength(2);
    const lines = review.flagged.filter((f) => 'item' in f);
    expect(lines.map((f) => ('item' in f ? f.item : -1))).toEqual([0, 1]);
    expect(lines[0]!.reason).toMatch(/no header row/u);
  });

  it('one amount column, each service over its sub-rows: the services are the lines, flagged, adding up to the total', () => {
    const doc = page(
      [[40, 'Detail']],
      [
        [50, 'AWS Data Transfer'],
        [540, '$0.01'],
      ],
      [
        [60, 'Charges'],
        [540, '$0.01'],
      ],
      [
        [60, 'VAT **'],
        [540, '$0.00'],
      ],
      [
        [50, 'Amazon Elastic Compute Cloud'],
        [540, '$1.87'],
      ],
      [
        [60, 'Charges'],
        [540, '$1.87'],
      ],
      [
        [60, 'VAT **'],
        [540, '$0.00'],
      ],
      [
        [50, 'Amazon Glacier'],
        [540, '$2.22'],
      ],
      [
        [60, 'Charges'],
        [540, '$2.22'],
      ],
      [
        [60, 'VAT **'],
        [540, '$0.00'],
      ],
      null,
      [
        [40, 'Total for this invoice'],
        [540, '$4.10'],
      ],
    );
    const { r, review } = flagsOf(doc, ['total']);
    expect(r.items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value])).toEqual([
      ['AWS Data Transfer', null, null, '0.01'],
      ['Amazon Elastic Compute Cloud', null, null, '1.87'],
      ['Amazon Glacier', null, null, '2.22'],
    ]);
    expect(review.flagged.filter((f) => 'item' in f).map((f) => f.reason)[0]).toMatch(/one amount column/u);
  });

  it('lines of one amount that do not add up to a printed total are no table', () => {
    const doc = page(
      [
        [50, 'Opening hours'],
        [540, '9.00'],
      ],
      [
        [50, 'Closing time'],
        [540, '17.30'],
      ],
      [
        [50, 'Lunch'],
        [540, '12.00'],
      ],
      null,
      [
        [40, 'Total'],
        [540, '99.00'],
      ],
    );
    expect(extractOffline(doc, ['total']).items).toEqual([]);
  });

  it('a header set well above its first row, quantities right-aligned under a header printed further right', () => {
    // A French notice invoice: "Nombre" starts at x = 317, its "1" ends at x = 306; the header stands 31 pt above.
    const doc = page(
      [
        [140, 'Désignation'],
        [317, 'Nombre'],
        [393, 'P.U. HT'],
        [469, 'Montant HT'],
      ],
      null,
      null,
      [
        [54, 'Justificatif PDF'],
        [300, '1'],
        [415, '0,75 €'],
        [480, '0,75 €'],
      ],
      [
        [54, 'Justificatif Papier'],
        [300, '2'],
        [415, '3,50 €'],
        [480, '7,00 €'],
      ],
      null,
      [
        [393, 'Total HT :'],
        [480, '7,75 €'],
      ],
    );
    expect(
      extractOffline(doc, []).items.map((i) => [
        i.description.value,
        i.quantity.value,
        i.unit_price.value,
        i.amount.value,
      ]),
    ).toEqual([
      ['Justificatif PDF', '1', '0.75', '0.75'],
      ['Justificatif Papier', '2', '3.50', '7.00'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { layoutText, orderLines } from '../../../../adapters/extraction/reading-order.js';
import { parseTsvPage, type LineSegment } from '../../../../adapters/extraction/tsv-words.js';
import { lineSegment } from '../../../helpers/positioned-text.js';

const seg = lineSegment;
const read = (segs: LineSegment[]) => layoutText(orderLines(segs)).text;

describe('reading order', () => {
  it('two columns whose lines do not line up are read one after the other', () => {
    const left = ['the left column starts here', 'and it goes on for a while', 'before it ends on this line'];
    const right = ['the right column is offset', 'by half a line from the left', 'so no row lines up with it'];
    const segs = [...left.map((l, i) => seg(l, 20, 100 + i * 12)), ...right.map((l, i) => seg(l, 200, 106 + i * 12))];
    expect(read(segs.reverse())).toBe(`${left.join('\n')}\n\n${right.join('\n')}`);
  });

  it('a table whose cells the engine gave as separate segments is read row by row, under its heading', () => {
    const rows = [
      ['Item', 'Qty', 'Amount'],
      ['Long description of the first thing', '2', '10.00'],
      ['Second thing', '1', '5.50'],
    ];
    const segs = [
      seg('Invoice 42 from Acme', 20, 20),
      ...rows.flatMap((r, i) => r.map((c, j) => seg(c, [20, 250, 300][j]!, 60 + i * 12))),
    ];
    expect(read(segs)).toBe(
      'Invoice 42 from Acme\n\nItem Qty Amount\nLong description of the first thing 2 10.00\nSecond thing 1 5.50',
    );
  });

  it('two table rows of several-word descriptions beside their numbers are rows, not two columns of text', () => {
    // Cut down to these two rows, the descriptions (three words a row) and the numbers (three a row) both pass the
    // words-per-row test of running text; numbers are not running text, so the rows stay whole.
    const rows = [
      ['Ergonomic keyboard', '3', '41.22', '123.66'],
      ['Label tape 12 mm', '8', '95.28', '762.24'],
    ];
    const segs = rows.flatMap((r, i) => r.map((c, j) => seg(c, [50, 340, 410, 510][j]!, 100 + i * 15)));
    expect(read(segs)).toBe('Ergonomic keyboard 3 41.22 123.66\nLabel tape 12 mm 8 95.28 762.24');
  });

  it('a two-column header above a table: the header is read column by column, the table row by row', () => {
    // The gutter between the header's columns runs on down between the table's descriptions and its numbers, and
    // both sides read as text; a row with a description on one side and only numbers on the other is a table row.
    const segs = [
      seg('Blue Fjord Analytics AS', 50, 40),
      seg('INVOICE', 340, 40),
      seg('Tax ID: NL220164825', 50, 56),
      seg('Invoice No.: RE-2026-9576', 340, 56),
      seg('Email: billing@bluefjord.example', 50, 68),
      seg('Issue date: April 9, 2026', 340, 68),
      seg('IBAN: FR30 1639 7272 3912 6721 8482 A78', 50, 80),
      seg('Payment due: May 24, 2026', 340, 80),
      seg('Customer: Initech GmbH', 340, 92),
      ...[
        ['Description', 50],
        ['Qty', 335],
        ['Unit price', 400],
        ['Amount', 510],
      ].map(([t, x]) => seg(t as string, x as number, 120)),
      ...[
        ['Consulting hours', 50],
        ['7', 345],
        ['7.37', 420],
        ['51.59', 520],
      ].map(([t, x]) => seg(t as string, x as number, 135)),
      seg('Subtotal', 310, 160),
      seg('€51.59', 515, 160),
      seg('Tax', 310, 175),
      seg('€3.97', 520, 175),
    ];
    const text = read(segs);
    expect(text).toContain('Tax ID: NL220164825\nEmail: billing@bluefjord.example');
    expect(text).toContain('Description Qty Unit price Amount\nConsulting hours 7 7.37 51.59');
  });

  it('a label and its value far to its right are one line; a wide gap starts a block', () => {
    const segs = [seg('Total', 20, 20), seg('645.70', 300, 21), seg('Thank you', 20, 60)];
    const { text, words } = layoutText(orderLines(segs));
    expect(text).toBe('Total 645.70\n\nThank you');
    expect(words.map((w) => [w.text, w.offset])).toEqual([
      ['Total', 0],
      ['645.70', 6],
      ['Thank', 14],
      ['you', 20],
    ]);
  });

  it('no segments, no text', () => {
    expect(layoutText(orderLines([]))).toEqual({ text: '', words: [] });
  });
  it("text set up the margin (a copyright line printed sideways) is read last and does not tie a table's rows together", () => {
    // A ZUGFeRD sample: each sideways word is 6 pt wide and 24-39 pt high, and together they span the table's rows.
    const sideways: LineSegment = {
      words: [
        { text: 'Copyright', box: { x0: 5, y0: 160, x1: 11, y1: 200 } },
        { text: 'AWV', box: { x0: 5, y0: 100, x1: 11, y1: 124 } },
      ],
      box: { x0: 5, y0: 100, x1: 11, y1: 200 },
    };
    const rows = [
      ['Trennblätter A4', '20', '198,00'],
      ['Joghurt Banane', '50', '275,00'],
    ];
    const segs = [sideways, ...rows.flatMap((r, i) => r.map((c, j) => seg(c, [60, 300, 400][j]!, 110 + i * 40)))];
    expect(read(segs)).toBe('Trennblätter A4 20 198,00\n\nJoghurt Banane 50 275,00\n\nCopyright AWV');
  });
});

describe("the OCR's word confidence", () => {
  it("is kept on a word Tesseract read with less than full confidence, and on the page's positioned words; a text layer's 100 is no doubt", () => {
    const header = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';
    const tsv = [
      header,
      '1\t1\t0\t0\t0\t0\t0\t0\t600\t800\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t10\t50\t12\t96.5\tTotal',
      '5\t1\t1\t1\t1\t2\t70\t10\t40\t12\t41.237\t118.00',
      '5\t1\t1\t1\t1\t3\t120\t10\t20\t12\t100\tEUR',
    ].join('\n');
    const page = parseTsvPage(tsv, 1);
    expect(page.segments[0]!.words.map((w) => w.confidence)).toEqual([96.5, 41.24, undefined]);
    const { words } = layoutText(orderLines(page.segments));
    expect(words.map((w) => [w.text, w.confidence])).toEqual([
      ['Total', 96.5],
      ['118.00', 41.24],
      ['EUR', undefined],
    ]);
    expect('confidence' in words[2]!).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { layoutText, orderLines } from '../../../../adapters/extraction/reading-order.js';
import type { LineSegment } from '../../../../adapters/extraction/tsv-words.js';
import { lineSegment } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, item 3, session 13: the reading order of table rows whose unit is a word ("unidades", "Stück", "hours")
 * among their numbers, written from the layout of an Argentine invoicing library's print (its own sample; text layer,
 * each cell its own segment), not from its values.
 */
const seg = lineSegment;
const read = (segs: LineSegment[]) => layoutText(orderLines(segs)).text;

describe('session 13: a gutter through a table whose rows print a unit word among their numbers', () => {
  it.each([
    ['unidades', 'Cantidad', 'U. medida'],
    ['Stück', 'Menge', 'Einheit'],
    ['hours', 'Qty', 'Unit'],
  ])('a description on the left and "%s" among numbers on the right is one table row', (unit, qty, unitHeader) => {
    // Each cell is its own segment. The receiver's block stands in two columns above the table, the right one over
    // the table's numbers: the gutter left of the quantities runs from it down through the header and the rows, and
    // the right side reads as text (the block's words, the header's words, a unit word on each row) unless a row
    // whose right side is its numbers and a unit vetoes it.
    const cells = (y: number, texts: [number, string][]) => texts.map(([x, t]) => seg(t, x, y));
    const segs = [
      seg('FACTURA Nro 00000871', 300, 60),
      seg('DATOS DEL RECEPTOR', 30, 84),
      seg('CUIT: 30-71234567-6', 30, 98),
      seg('Condición IVA: Responsable Inscripto', 30, 112),
      seg('Razón Social: Distribuidora El Faro S.R.L.', 300, 98),
      seg('Domicilio Comercial: Calle Falsa', 300, 112),
      ...cells(134, [
        [30, 'Código'],
        [65, 'Producto / Servicio'],
        [232, qty],
        [275, unitHeader],
        [344, 'Precio Unit.'],
        [400, 'Subtotal'],
      ]),
      ...cells(152, [
        [65, 'Resma A4 75g - Caja x10 resmas'],
        [237, '10,00'],
        [277, unit],
        [349, '$1.000,00'],
        [400, '$10.000,00'],
      ]),
      ...cells(170, [
        [65, 'Cinta de embalaje'],
        [239, '5,00'],
        [277, unit],
        [356, '$200,00'],
        [400, '$1.000,00'],
      ]),
    ];
    const lines = read(segs).split('\n');
    expect(lines).toContain(`Código Producto / Servicio ${qty} ${unitHeader} Precio Unit. Subtotal`);
    expect(lines).toContain(`Resma A4 75g - Caja x10 resmas 10,00 ${unit} $1.000,00 $10.000,00`);
    expect(lines).toContain(`Cinta de embalaje 5,00 ${unit} $200,00 $1.000,00`);
  });

  it('two columns of running text stay two columns when a right-hand row is a number and a word', () => {
    const left = ['the seller is a small firm', 'in a street of the old town', 'with a shop on the corner'];
    const right = ['open on weekdays', 'from 9 hours', 'or write to the office'];
    const segs = [...left.map((l, i) => seg(l, 20, 100 + i * 12)), ...right.map((l, i) => seg(l, 260, 100 + i * 12))];
    expect(read(segs)).toBe(`${left.join('\n')}\n\n${right.join('\n')}`);
  });
});

import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, item 3, session 11: classes of missed fields and wrong line items on the tune part's scans, each as a small
 * page of positioned words (cells at x positions, 6 pt a character, rows 14 pt apart).
 */
const ocr = (...rows: Row[]) => documentOf(layoutPage(rows, { source: 'ocr' }));
const items = (doc: PositionedText) =>
  extractOffline(doc, []).items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]);
const values = (doc: PositionedText, fields: string[]) =>
  Object.fromEntries(Object.entries(extractOffline(doc, fields).fields).map(([k, v]) => [k, v.value]));

describe('session 11: two party blocks side by side read as one line', () => {
  it("each party's name is the one under its own heading (it-fatturapa-alpha-fpr09 scanned)", () => {
    const doc = ocr(
      [
        [40, 'Cedente/prestatore (fornitore)'],
        [310, 'Cessionario/committente (cliente)'],
      ],
      [
        [40, 'Identificativo fiscale ai fini IVA: IT02780790107'],
        [310, 'Codice fiscale: 03533590174'],
      ],
      [
        [40, "Denominazione: SOCIETA' ALPHA SRL"],
        [310, 'Denominazione: BETA GAMMA'],
      ],
      [
        [40, 'Regime fiscale: RF01 ordinario'],
        [310, 'Indirizzo: VIA TORINO 38-B'],
      ],
    );
    expect(values(doc, ['seller_name', 'buyer_name'])).toEqual({
      seller_name: "SOCIETA' ALPHA SRL",
      buyer_name: 'BETA GAMMA',
    });
  });
});

describe('session 11: a unit price under a header OCR could not read, the quantity column empty', () => {
  it('the number right of the quantity header, under the unreadable word, is the unit price (it-fatturapa-mario-bianchi scanned)', () => {
    // "Prezzo unitario", stacked over two lines, read by OCR as "UezO,"; the rows print no quantity.
    const header: Row = [
      [40, 'Cod. articolo'],
      [160, 'Descrizione'],
      [284, 'Quantità'],
      [349, 'UezO,'],
      [407, 'UM'],
      [480, '%IVA'],
      [520, 'Prezzo totale'],
    ];
    const doc = ocr(
      header,
      [
        [130, 'Competenze'],
        [354, '100,00'],
        [481, '22,00'],
        [546, '100,00'],
      ],
      [
        [130, 'Spese generali ( 15% )'],
        [360, '15,00'],
        [481, '22,00'],
        [552, '15,00'],
      ],
    );
    expect(items(doc)).toEqual([
      ['Competenze', null, '100.00', '100.00'],
      ['Spese generali ( 15% )', null, '15.00', '15.00'],
    ]);
    const flags = extractOffline(doc, []).flags ?? [];
    expect(flags.filter((f) => f.field === 'unit_price').map((f) => f.item)).toEqual([0, 1]);
    // A quantity printed under its own header stays the quantity.
    const withQty = ocr(header, [
      [130, 'Competenze'],
      [300, '2,00'],
      [360, '50,00'],
      [481, '22,00'],
      [546, '100,00'],
    ]);
    expect(items(withQty)).toEqual([['Competenze', '2.00', '50.00', '100.00']]);
  });
});

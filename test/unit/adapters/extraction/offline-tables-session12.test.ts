import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, plainPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, item 3, session 12: line-item tables the layout reader missed on the tune part's scans and images, and
 * edge cases of common layouts (no header row, descriptions over several lines, units beside quantities, a discount
 * column, 1.234,56 and 1 234,56), each as a small page of positioned words (6 pt a character, rows 14 pt apart).
 * Written from the layouts, not from any document's values.
 */
const ocr = (...rows: Row[]) => documentOf(layoutPage(rows, { source: 'ocr' }));
const text = (...rows: Row[]) => documentOf(layoutPage(rows));
const items = (doc: PositionedText) =>
  extractOffline(doc, []).items.map((i) => [i.description.value, i.quantity.value, i.unit_price.value, i.amount.value]);
const itemFlags = (doc: PositionedText) =>
  (extractOffline(doc, []).flags ?? []).filter((f) => f.item !== null).map((f) => [f.item, f.field]);

describe('session 12: header words OCR glued or misread', () => {
  it('"Prezzototale" (OCR read "Prezzo totale" as one word) still names the amount column', () => {
    const doc = ocr(
      [
        [40, 'Cod. articolo'],
        [160, 'Descrizione'],
        [284, 'Quantità'],
        [349, 'Lio]'],
        [407, 'UM'],
        [480, '%IVA'],
        [520, 'Prezzototale'],
      ],
      [
        [126, 'Compensi per procurata'],
        [313, '1,00'],
        [363, '655,74'],
        [481, '22,00'],
        [552, '655,74'],
      ],
      [[126, 'vendita']],
    );
    // The unit price under the word OCR could not read ("Lio]" for the stacked "Prezzo / unitario"), flagged.
    expect(items(doc)).toEqual([['Compensi per procurata vendita', '1.00', '655.74', '655.74']]);
    expect(itemFlags(doc)).toEqual([[0, 'unit_price']]);
  });

  it('a first column whose header OCR misread ("ltem") is the description, flagged', () => {
    const doc = ocr(
      [
        [46, 'ltem'],
        [368, 'Quantity'],
        [470, 'Rate'],
        [533, 'Amount'],
      ],
      [
        [45, 'Service A'],
        [368, '12'],
        [460, '$10.00'],
        [532, '$120.00'],
      ],
      [
        [45, 'Service B'],
        [368, '5'],
        [466, '$1.50'],
        [543, '$7.50'],
      ],
    );
    expect(items(doc)).toEqual([
      ['Service A', '12', '10.00', '120.00'],
      ['Service B', '5', '1.50', '7.50'],
    ]);
    expect(itemFlags(doc)).toEqual([
      [0, 'description'],
      [1, 'description'],
    ]);
  });

  it('no word left of the first named column: no description is made up', () => {
    const doc = ocr(
      [
        [368, 'Quantity'],
        [470, 'Rate'],
        [533, 'Amount'],
      ],
      [
        [368, '12'],
        [460, '10.00'],
        [532, '120.00'],
      ],
    );
    expect(items(doc)).toEqual([[null, '12', '10.00', '120.00']]);
  });
});

describe('session 12: lines above an item, apart from it', () => {
  it('note lines above an item, a blank row (a rule OCR did not read) between them, are not its description', () => {
    const doc = ocr(
      [
        [40, 'Cod. articolo'],
        [160, 'Descrizione'],
        [284, 'Quantità'],
        [349, 'Prezzo unitario'],
        [520, 'Prezzo totale'],
      ],
      [[126, 'Fatt.Coll. BEP/2022/0009 del 21-07-2022']],
      [[126, 'Fatt.Coll. BEP/2022/0009 del 30-06-2022']],
      null,
      [
        [126, 'Cose per UK'],
        [312, '1,00'],
        [363, '542,00'],
        [552, '542,00'],
      ],
    );
    expect(items(doc)).toEqual([['Cose per UK', '1.00', '542.00', '542.00']]);
  });

  it('a rule of dashes OCR read with a speck before it ("a-----------") still separates the notes from the item', () => {
    const doc = ocr(
      [
        [40, 'Cod. articolo'],
        [160, 'Descrizione'],
        [284, 'Quantità'],
        [349, 'Prezzo unitario'],
        [520, 'Prezzo totale'],
      ],
      [[126, 'Fatt.Coll. BEP/2022/0009 del 21-07-2022']],
      [[126, 'a-----------------------']],
      [
        [126, 'Cose per UK'],
        [312, '1,00'],
        [363, '542,00'],
        [552, '542,00'],
      ],
    );
    expect(items(doc)).toEqual([['Cose per UK', '1.00', '542.00', '542.00']]);
  });

  it('a description printed over two lines right above its numbers stays whole', () => {
    const doc = ocr(
      [
        [40, 'Description'],
        [300, 'Qty'],
        [360, 'Price'],
        [440, 'Amount'],
      ],
      [[40, 'Annual maintenance of the']],
      [
        [40, 'ventilation system'],
        [300, '1'],
        [360, '480.00'],
        [440, '480.00'],
      ],
    );
    expect(items(doc)).toEqual([['Annual maintenance of the ventilation system', '1', '480.00', '480.00']]);
  });
});

describe('session 12: one amount column, a currency sign after each amount', () => {
  it('items that add up to the sum printed right under them (an insurance bill), flagged', () => {
    const doc = ocr(
      [[72, 'Folgende Risiken sind versichert:']],
      [
        [72, 'Privathaftpflicht'],
        [295, '50,00'],
        [322, '€'],
      ],
      [
        [72, 'Lebensgefährte/in zur Privathaftpflicht'],
        [300, '0,00'],
        [322, '€'],
      ],
      [
        [72, 'Gesamtbeitrag'],
        [295, '50,00'],
        [322, '€'],
      ],
      [
        [72, 'Versicherungsteuer 19 %'],
        [300, '9,50'],
        [322, '€'],
      ],
      [
        [72, 'Rechnungsbetrag'],
        [295, '59,50'],
        [322, '€'],
      ],
    );
    expect(items(doc)).toEqual([
      ['Privathaftpflicht', null, null, '50.00'],
      ['Lebensgefährte/in zur Privathaftpflicht', null, null, '0.00'],
    ]);
    expect(itemFlags(doc)).toEqual([
      [0, 'amount'],
      [1, 'amount'],
    ]);
  });

  it('the sign glued to one amount ("0,00€", as OCR reads a 96-dpi image) is the same column', () => {
    const doc = ocr(
      [
        [72, 'Privathaftpflicht'],
        [295, '50,00'],
        [322, '€'],
      ],
      [
        [72, 'Lebensgefährte/in zur Privathaftpflicht'],
        [298, '0,00€'],
      ],
      [
        [72, 'Gesamtbeitrag'],
        [295, '50,00'],
        [322, '€'],
      ],
    );
    expect(items(doc)).toEqual([
      ['Privathaftpflicht', null, null, '50.00'],
      ['Lebensgefährte/in zur Privathaftpflicht', null, null, '0.00'],
    ]);
  });

  it('two amounts that do not add up to the sum under them are no items', () => {
    const doc = ocr(
      [
        [72, 'Privathaftpflicht'],
        [295, '50,00'],
        [322, '€'],
      ],
      [
        [72, 'Hausratversicherung'],
        [295, '20,00'],
        [322, '€'],
      ],
      [
        [72, 'Gesamtbeitrag'],
        [295, '60,00'],
        [322, '€'],
      ],
    );
    expect(items(doc)).toEqual([]);
  });
});

describe('session 12: edge cases of common layouts', () => {
  it('a headerless table whose descriptions run over two lines', () => {
    const doc = text(
      [[50, 'Invoice 2024-88']],
      null,
      [
        [50, 'Website design'],
        [300, '1'],
        [360, '900.00'],
        [440, '900.00'],
      ],
      [[50, 'incl. two rounds of changes']],
      [
        [50, 'Hosting, 12 months'],
        [300, '12'],
        [366, '15.00'],
        [440, '180.00'],
      ],
      null,
      [
        [360, 'Total'],
        [434, '1,080.00'],
      ],
    );
    const got = items(doc);
    expect(got.map((r) => r.slice(1))).toEqual([
      ['1', '900.00', '900.00'],
      ['12', '15.00', '180.00'],
    ]);
    expect(got[0]![0]).toBe('Website design incl. two rounds of changes');
    expect(itemFlags(doc).map(([, f]) => f)).toEqual(['amount', 'amount']);
  });

  it('quantities with a unit in their own column and in the quantity cell ("3 Stk", "2,5 h")', () => {
    const doc = text(
      [
        [40, 'Pos.'],
        [80, 'Bezeichnung'],
        [280, 'Menge'],
        [340, 'Einheit'],
        [400, 'Einzelpreis'],
        [480, 'Gesamtpreis'],
      ],
      [
        [40, '1'],
        [80, 'Montagematerial'],
        [280, '3'],
        [340, 'Stk'],
        [400, '12,50'],
        [480, '37,50'],
      ],
      [
        [40, '2'],
        [80, 'Arbeitszeit'],
        [280, '2,5 h'],
        [400, '68,00'],
        [480, '170,00'],
      ],
    );
    expect(items(doc)).toEqual([
      ['Montagematerial', '3', '12.50', '37.50'],
      ['Arbeitszeit', '2.5', '68.00', '170.00'],
    ]);
  });

  it('a discount column between the unit price and the amount is no value of the item', () => {
    const doc = text(
      [
        [40, 'Descripción'],
        [250, 'Cantidad'],
        [320, 'Precio'],
        [390, 'Descuento'],
        [470, 'Importe'],
      ],
      [
        [40, 'Silla de oficina'],
        [250, '4'],
        [320, '120,00'],
        [400, '10%'],
        [470, '432,00'],
      ],
      [
        [40, 'Mesa'],
        [250, '1'],
        [320, '300,00'],
        [470, '300,00'],
      ],
    );
    expect(items(doc)).toEqual([
      ['Silla de oficina', '4', '120.00', '432.00'],
      ['Mesa', '1', '300.00', '300.00'],
    ]);
  });

  it('amounts printed 1.234,56 and 1 234,56 (a thousands space splits the amount into two words)', () => {
    const doc = text(
      [
        [40, 'Désignation'],
        [250, 'Qté'],
        [300, 'Prix unitaire'],
        [460, 'Montant HT'],
      ],
      [
        [40, 'Serveur'],
        [250, '2'],
        [300, '1 234,56'],
        [460, '2 469,12'],
      ],
      [
        [40, 'Licence'],
        [250, '1'],
        [300, '1.500,00'],
        [460, '1.500,00'],
      ],
    );
    expect(items(doc)).toEqual([
      ['Serveur', '2', '1234.56', '2469.12'],
      ['Licence', '1', '1500.00', '1500.00'],
    ]);
  });

  it('a Dutch and an Italian table read the same way', () => {
    const nl = text(
      [
        [40, 'Omschrijving'],
        [260, 'Aantal'],
        [330, 'Prijs'],
        [420, 'Bedrag'],
      ],
      [
        [40, 'Adviesuren'],
        [260, '8'],
        [330, '95,00'],
        [420, '760,00'],
      ],
    );
    const it_ = text(
      [
        [40, 'Descrizione'],
        [260, 'Quantità'],
        [330, 'Prezzo'],
        [420, 'Importo'],
      ],
      [
        [40, 'Consulenza'],
        [260, '3'],
        [330, '1.200,00'],
        [420, '3.600,00'],
      ],
    );
    expect(items(nl)).toEqual([['Adviesuren', '8', '95.00', '760.00']]);
    expect(items(it_)).toEqual([['Consulenza', '3', '1200.00', '3600.00']]);
  });

  it('a plain-text table (no boxes) with 1.234,56 amounts', () => {
    const doc = documentOf(
      plainPage(
        ['Beschreibung Menge Einzelpreis Betrag', 'Beratung 10 1.250,00 12.500,00', 'Reise 1 310,40 310,40'].join('\n'),
      ),
    );
    expect(items(doc)).toEqual([
      ['Beratung', '10', '1250.00', '12500.00'],
      ['Reise', '1', '310.40', '310.40'],
    ]);
  });
});

describe('session 12: a line that does not multiply out is never returned without a flag', () => {
  it('quantity × unit price ≠ amount on a table row: the engine warns, the line is unsure', () => {
    const doc = ocr(
      [
        [40, 'Description'],
        [300, 'Qty'],
        [360, 'Price'],
        [440, 'Amount'],
      ],
      [
        [40, 'Paper A4'],
        [300, '3'],
        [360, '4.50'],
        [440, '18.50'],
      ],
    );
    const r = extractOffline(doc, []);
    expect(r.items).toHaveLength(1);
    expect(r.warnings.join(' ')).toMatch(/differs from the amount/u);
    expect(r.items[0]!.amount.confidence).toBeLessThan(0.8);
  });
});

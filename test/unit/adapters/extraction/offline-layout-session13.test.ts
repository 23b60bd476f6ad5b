import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { conceptOf } from '../../../../adapters/extraction/offline-labels.js';
import { checkDocument } from '../../../../domain/extraction-checks.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 13 (s13-flags): header fields of the tune part's erechnung prints (DIN 5008 German and English
 * layouts), each class of miss or unflagged value as a small page of positioned words.
 */
const page = (...rows: Row[]) => documentOf(layoutPage(rows));
const values = (doc: PositionedText, fields: string[]) =>
  Object.fromEntries(Object.entries(extractOffline(doc, fields).fields).map(([k, v]) => [k, v.value]));

describe('session 13: German net totals spelt with the net in brackets', () => {
  // de-erechnung-b2b-lieferadresse: the lines' sum, a discount and a surcharge, then the net total tax is charged on.
  const totals: Row[] = [
    [
      [330, 'Zwischensumme (Netto):'],
      [490, '4.399,00 EUR'],
    ],
    [
      [360, 'Gesamtrabatt:'],
      [490, '-131,97 EUR'],
    ],
    [
      [350, 'Gesamtzuschlag:'],
      [490, '45,00 EUR'],
    ],
    [
      [330, 'Gesamtbetrag (Netto):'],
      [490, '4.312,03 EUR'],
    ],
    [
      [340, 'Umsatzsteuer 19 %:'],
      [490, '819,29 EUR'],
    ],
    [
      [330, 'Gesamtbetrag (Brutto):'],
      [490, '5.131,32 EUR'],
    ],
    null,
    [
      [370, 'Zahlbetrag:'],
      [490, '5.131,32 EUR'],
    ],
  ];

  it('"Gesamtbetrag (Netto)" is the subtotal (the net after the discount), "Gesamtbetrag (Brutto)" the total', () => {
    expect(values(page(...totals), ['subtotal', 'tax', 'total'])).toEqual({
      subtotal: '4312.03',
      tax: '819.29',
      total: '5131.32',
    });
  });

  it('with no net total printed, "Zwischensumme (Netto)" is the subtotal', () => {
    const doc = page(
      [
        [330, 'Zwischensumme (Netto):'],
        [490, '33,98 EUR'],
      ],
      [
        [340, 'Umsatzsteuer 7 %:'],
        [490, '0,98 EUR'],
      ],
      [
        [340, 'Umsatzsteuer 19 %:'],
        [490, '3,80 EUR'],
      ],
      [
        [330, 'Umsatzsteuer gesamt:'],
        [490, '4,78 EUR'],
      ],
      [
        [330, 'Gesamtbetrag (Brutto):'],
        [490, '38,76 EUR'],
      ],
    );
    const got = extractOffline(doc, ['subtotal', 'tax', 'total']);
    expect(Object.fromEntries(Object.entries(got.fields).map(([k, v]) => [k, v.value]))).toEqual({
      subtotal: '33.98',
      tax: '4.78',
      total: '38.76',
    });
    expect(checkDocument(got, doc, (f) => conceptOf(f).id).flags).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { reviewExtraction } from '../../../../adapters/extraction/extraction-runner.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 14 (s14-receipt): the addressee of a DIN 5008 business letter. The sender's one-line return
 * address ("Firma GmbH – Straße 1 – 12345 Ort") stands over the address window; the first line of the address block
 * under it, in the same column, is the buyer's name (after a "Herrn" / "Firma" line of its own). The header fields
 * stand in a right-hand block beside it, on the same rows. Pages written from the layout of the tune part's erechnung
 * prints, not from their values.
 */
const page = (...rows: Row[]) => documentOf(layoutPage(rows));
const read = (doc: PositionedText) => {
  const r = extractOffline(doc, ['seller_name', 'buyer_name', 'invoice_number']);
  return { seller: r.fields.seller_name!.value, buyer: r.fields.buyer_name!.value, flags: r.flags ?? [] };
};
const tail: Row[] = [
  null,
  'Rechnung Nr. RE-2026-0042',
  null,
  [
    [71, 'Pos. Bezeichnung'],
    [300, 'Anzahl'],
    [400, 'Gesamtpreis EUR'],
  ],
  [
    [71, '1 Regal Buche'],
    [300, '2'],
    [400, '480,00'],
  ],
];

describe('session 14: the buyer under a DIN 5008 sender line', () => {
  it('is the first line of the address block under the sender line, beside the right-hand header block', () => {
    const doc = page(
      [
        [71, 'Schreinerei Lange GmbH – Am Hang 4 – 79100 Freiburg'],
        [370, 'Telefon: 0761 12345'],
      ],
      [
        [71, 'Café Sonnenblick OHG'],
        [370, 'Datum: 12.03.2026'],
      ],
      [
        [71, 'z. Hd. Jana Winter'],
        [340, 'Rechnungsnr.: RE-2026-0042'],
      ],
      [[71, 'Lindenallee 23']],
      [[71, '79098 Freiburg']],
      ...tail,
    );
    const r = read(doc);
    expect(r.seller).toBe('Schreinerei Lange GmbH');
    expect(r.buyer).toBe('Café Sonnenblick OHG');
    expect(r.flags.filter((f) => f.field === 'buyer_name')).toEqual([]);
  });

  it("the document checks take both names as read from a party's block (the sender line, the address block under it)", () => {
    const doc = page(
      [
        [71, 'Schreinerei Lange GmbH – Am Hang 4 – 79100 Freiburg'],
        [370, 'Telefon: 0761 12345'],
      ],
      [
        [71, 'Café Sonnenblick OHG'],
        [370, 'Datum: 12.03.2026'],
      ],
      [[71, 'Lindenallee 23']],
      [[71, '79098 Freiburg']],
      ...tail,
    );
    const result = extractOffline(doc, ['seller_name', 'buyer_name']);
    expect(result.fields.buyer_name!.value).toBe('Café Sonnenblick OHG');
    const reasons = reviewExtraction(result, doc).reasons.join('\n');
    expect(reasons).not.toMatch(/seller_name .* was not read from a party's block/u);
    expect(reasons).not.toMatch(/buyer_name .* was not read from a party's block/u);
  });

  it('skips a "Herrn" line of its own at the head of the block', () => {
    const doc = page(
      [
        [71, 'Weinhandel Kessler e.K. · Rheinstraße 118 · 55116 Mainz'],
        [370, 'Datum: 09.06.2026'],
      ],
      [[71, 'Herrn']],
      [
        [71, 'Max Mustermann'],
        [340, 'Rechnungsnr.: RE-2026-0042'],
      ],
      [[71, 'Marktplatz 3']],
      [[71, '65183 Wiesbaden']],
      ...tail,
    );
    expect(read(doc).buyer).toBe('Max Mustermann');
  });

  it('reads no buyer there when no address follows the line under the sender line', () => {
    const doc = page(
      [[71, 'Schreinerei Lange GmbH – Am Hang 4 – 79100 Freiburg']],
      null,
      [[71, 'Vielen Dank für Ihren Auftrag']],
      [[71, 'Wir berechnen wie folgt']],
      ...tail,
    );
    expect(read(doc).buyer).toBeNull();
  });
});

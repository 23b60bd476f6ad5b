import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { reviewExtraction } from '../../../../adapters/extraction/extraction-runner.js';
import type { PageText, PositionedText } from '../../../../domain/extraction.js';
import { documentOf, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29: parties' names without a label. The seller's letterhead (its name at the top of page 1 over its address),
 * the seller's legal footer (its name over its registered office, registration and VAT id) and the addressee's block
 * (a window envelope's address) are read as candidates; a reading the layout alone suggests, or that another reading
 * contradicts, is given with a confidence under 0.5 and a reason a reviewer understands.
 */
const page = (...rows: Row[]) => documentOf(layoutPage(rows));
const read = (doc: PositionedText) => extractOffline(doc, ['seller_name', 'buyer_name', 'invoice_number', 'total']);
const reasonsFor = (doc: PositionedText, field: string) =>
  reviewExtraction(read(doc), doc)
    .flagged.filter((f) => 'field' in f && f.field === field)
    .map((f) => f.reason);

describe('parties without a label', () => {
  // The seller's letterhead over its address, the customer's address block on the right, no title at the top.
  const letterhead = page(
    'Akretion France',
    '27 rue Henri Rolland',
    '69100 Villeurbanne',
    null,
    [[350, 'Cabinet CACtus']],
    [[350, "42 rue de l'audit"]],
    [[350, '69100 Villeurbanne']],
    null,
    'Invoice VT/2022/0001',
    [
      [300, 'Total'],
      [480, '1,810.80 €'],
    ],
  );

  it('the letterhead over its address is the seller', () => {
    const r = read(letterhead);
    expect(r.fields['seller_name']!.value).toBe('Akretion France');
    expect(r.fields['seller_name']!.confidence).toBeGreaterThanOrEqual(0.5);
    expect(reasonsFor(letterhead, 'seller_name')).toEqual([]);
  });

  it('the other address block at the top is the buyer, flagged: no label names it', () => {
    const r = read(letterhead);
    expect(r.fields['buyer_name']!.value).toBe('Cabinet CACtus');
    expect(r.fields['buyer_name']!.confidence).toBeLessThan(0.5);
    expect(reasonsFor(letterhead, 'buyer_name').join(' ')).toMatch(/no label names the buyer/u);
  });

  it('the legal footer names the seller; the addressee at the top is the buyer, and both are flagged when they contradict the letterhead reading', () => {
    const doc = page(
      [[380, 'ALEXINUX']],
      [[380, 'de Lattre Alexis']],
      [[380, '27 rue Henri Rolland']],
      [[380, '69100 Villeurbanne']],
      null,
      [[240, 'Facture n° 2022089083']],
      [
        [300, 'Total TTC :'],
        [480, '56,02 €'],
      ],
      ...Array<null>(37).fill(null), // the body of the page
      'NETPRESSE',
      'Siège social : 16 rue Mollien - 92100 BOULOGNE',
      'Sarl au capital de 10 000€ - Siret 53084813400017 - TVA FR63530848134',
    );
    const r = read(doc);
    expect(r.fields['seller_name']!.value).toBe('NETPRESSE');
    expect(r.fields['buyer_name']!.value).toBe('ALEXINUX');
    expect(reasonsFor(doc, 'seller_name').join(' ')).toMatch(/ALEXINUX/u);
    expect(reasonsFor(doc, 'buyer_name').join(' ')).toMatch(/no label names the buyer/u);
  });

  it('a letterhead name with an e-mail address set under it on the same text line', () => {
    // The text layer reads "Sammy Maystone smaystone4@fake.com INVOICE" as one line; the address is 12 pt lower.
    const text = 'Sammy Maystone smaystone4@fake.com INVOICE\nBill To:\nTaylor Riddel\nTotal: $127.50';
    const w = (t: string, x0: number, y0: number) => ({
      text: t,
      offset: text.indexOf(t),
      box: { x0, y0, x1: x0 + 6 * t.length, y1: y0 + 10 },
    });
    const p: PageText = {
      page: 1,
      text,
      source: 'text_layer',
      width: 612,
      height: 792,
      words: [
        w('Sammy', 49, 27),
        w('Maystone', 87, 27),
        w('smaystone4@fake.com', 49, 39),
        w('INVOICE', 458, 28),
        w('Bill', 49, 127),
        w('To:', 80, 127),
        w('Taylor', 49, 143),
        w('Riddel', 90, 143),
        w('Total:', 400, 300),
        w('$127.50', 480, 300),
      ],
    };
    const doc = documentOf(p);
    expect(read(doc).fields['seller_name']!.value).toBe('Sammy Maystone');
  });

  it('"Service Provider:" with a note in brackets under it: the name under the note', () => {
    const doc = page(
      'Bill to Address:',
      'ATTN: iViveLabs Limited',
      '93B Sai Yu Chung',
      null,
      [
        [300, 'Total'],
        [480, '$4.11'],
      ],
      null,
      'Service Provider:',
      '(Not to be used for payment remittance)',
      'Amazon Web Services, Inc.',
      '410 Terry Ave North',
      'Seattle, WA 98109-5210, US',
    );
    const r = read(doc);
    expect(r.fields['seller_name']!.value).toBe('Amazon Web Services, Inc.');
    expect(r.fields['buyer_name']!.value).toBe('iViveLabs Limited');
  });
});

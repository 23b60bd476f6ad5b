import { describe, expect, it } from 'vitest';
import { reviewExtraction } from '../../../adapters/extraction/extraction-runner.js';
import type {
  ExtractedValue,
  ExtractionResult,
  LineItem,
  PageText,
  PositionedText,
} from '../../../domain/extraction.js';
import { layoutPage, valueAt, type Row } from '../../helpers/positioned-text.js';

/**
 * Issue 29, session 16 (s16-flags): "no wrong value without a review flag", through each value's own flag. Each class
 * below was a wrong value of the tune part that went out flagged for its document only (another value put the
 * document under review), so on a page where nothing else is flagged it would go out unflagged. Pages written from
 * the layouts, with values of their own; the answers are built by hand, as any engine (the offline one or the language
 * model) may give them: the review is the same for both.
 */
const docOf = (page: PageText): PositionedText => ({ pages: [page], truncated: false, warnings: [] });
/** An OCR page whose words were all read at `confidence`, except those of `doubts` (text → confidence). */
function ocrPage(rows: Row[], confidence = 95, doubts: Record<string, number> = {}): PageText {
  const page = layoutPage(rows, { source: 'ocr' });
  return { ...page, words: page.words.map((w) => ({ ...w, confidence: doubts[w.text] ?? confidence })) };
}

const at = valueAt;
const none: ExtractedValue = { value: null, evidence: null, confidence: null };
const answer = (fields: Record<string, ExtractedValue>, items: LineItem[] = []): ExtractionResult => ({
  fields,
  items,
  warnings: [],
});
const fieldReasons = (r: ExtractionResult, doc: PositionedText, field: string) =>
  reviewExtraction(r, doc)
    .flagged.filter((f) => 'field' in f && f.field === field)
    .map((f) => f.reason);
const itemReasons = (r: ExtractionResult, doc: PositionedText, item: number) =>
  reviewExtraction(r, doc)
    .flagged.filter((f) => 'item' in f && f.item === item)
    .map((f) => f.reason);

describe("s16-flags: a buyer's VAT id printed on the line of the sender line's name is the seller's", () => {
  // A DIN 5008 letter: the sender line over the address window, the addressee under it, and a legal footer that
  // names the seller with its VAT id. The seller's name was given wrong (the addressee's), so the check that compares
  // a VAT id's line with the given seller's name has nothing to go by.
  const page = ocrPage([
    [
      [50, 'Hansa Datentechnik GmbH — Kaistraße 4 — 24103 Kiel'],
      [400, 'Date: 2026-05-04'],
    ],
    [[400, 'Invoice No.: HD-2026-311']],
    [[50, 'Green Fjord Supplies AS']],
    [[50, 'Strandgata 9']],
    [[50, '5013 Bergen']],
    null,
    [
      [50, 'No. Description'],
      [300, 'Amount EUR'],
    ],
    [
      [50, '1 Support contract'],
      [300, '1,200.00'],
    ],
    [[50, 'Total: 1,200.00 EUR']],
    null,
    [
      [50, 'Hansa Datentechnik GmbH'],
      [250, 'USt-IdNr.: DE276452187'],
    ],
    [
      [50, 'Kaistraße 4'],
      [250, 'IBAN: DE02120300000000202051'],
    ],
  ]);
  const doc = docOf(page);

  it("flags the buyer's VAT id read from the seller's footer line", () => {
    const r = answer({
      seller_name: at(page, 'Green Fjord Supplies AS'),
      buyer_name: none,
      buyer_vat_id: at(page, 'DE276452187'),
    });
    expect(fieldReasons(r, doc, 'buyer_vat_id').join('\n')).toMatch(
      /buyer_vat_id "DE276452187" is printed on the line of "Hansa Datentechnik GmbH", the sender line's name: it is the seller's/u,
    );
  });

  it("leaves the seller's VAT id on that line unflagged by it", () => {
    const r = answer({ seller_name: at(page, 'Hansa Datentechnik GmbH'), tax_id: at(page, 'DE276452187') });
    expect(fieldReasons(r, doc, 'tax_id').join('\n')).not.toMatch(/sender line/u);
  });
});

describe('s16-flags: a party name that stops before the end of its phrase', () => {
  // A letterhead line OCR read slanted: its words stand at different heights, and a reader may take its first words
  // only.
  const rows: Row[] = [
    [[20, 'BRIGHTLINE DATA SERVICES']],
    [[20, '4 rue des Lilas — 69002 LYON']],
    [[20, 'N° TVA: FR40123456824']],
    null,
    [[20, 'Facture F-2025-044']],
  ];
  const page = ocrPage(rows);
  const doc = docOf(page);

  it('flags "BRIGHTLINE DATA" when the line goes on with "SERVICES" a word space after it', () => {
    const r = answer({ seller_name: at(page, 'BRIGHTLINE DATA') });
    expect(fieldReasons(r, doc, 'seller_name').join('\n')).toMatch(
      /seller_name "BRIGHTLINE DATA" stops before "SERVICES", which goes on in the same words on its line: the name may be cut short/u,
    );
  });

  it('leaves the whole line unflagged, and a name followed by another kind of text on its line', () => {
    expect(fieldReasons(answer({ seller_name: at(page, 'BRIGHTLINE DATA SERVICES') }), doc, 'seller_name')).toEqual([]);
    const other = ocrPage([[[20, 'Harbour Tools Ltd INVOICE']], [[20, '12 Quay Street, Cork T12 X8Y2']]]);
    const r = answer({ seller_name: at(other, 'Harbour Tools Ltd') });
    expect(fieldReasons(r, docOf(other), 'seller_name').join('\n')).not.toMatch(/cut short/u);
  });

  it('leaves a name set apart from the next column unflagged', () => {
    const apart = ocrPage([
      [
        [20, 'BRIGHTLINE DATA'],
        [200, 'SERVICES FACTURES'],
      ],
      [[20, '4 rue des Lilas — 69002 LYON']],
    ]);
    const r = answer({ seller_name: at(apart, 'BRIGHTLINE DATA') });
    expect(fieldReasons(r, docOf(apart), 'seller_name').join('\n')).not.toMatch(/cut short/u);
  });
});

describe("s16-flags: OCR's doubts inside a line item's description", () => {
  const item = (page: PageText, desc: string): LineItem => ({
    description: at(page, desc),
    quantity: at(page, '6', { after: desc }),
    unit_price: at(page, '8,40', { after: desc, value: '8.40' }),
    amount: at(page, '50,40', { after: desc, value: '50.40' }),
  });
  /** The reasons that name the line's description. */
  const descriptionReasons = (r: ExtractionResult, doc: PositionedText) =>
    itemReasons(r, doc, 0).filter((x) => x.includes('description'));
  const table = (desc: string): Row[] => [
    [
      [50, 'Beschreibung'],
      [300, 'Menge'],
      [360, 'Preis'],
      [430, 'Betrag'],
    ],
    [
      [50, desc],
      [300, '6'],
      [360, '8,40'],
      [430, '50,40'],
    ],
    null,
    [[300, 'Summe netto: 50,40']],
  ];

  it('flags a bar "|" OCR read among its words (a letter l or I, or a table rule)', () => {
    const page = ocrPage(table('Weißwein 2023, 0,75 | Flasche'));
    const r = answer({}, [item(page, 'Weißwein 2023, 0,75 | Flasche')]);
    expect(descriptionReasons(r, docOf(page)).join('\n')).toMatch(
      /line item 1 description "Weißwein 2023, 0,75 \| Flasche": the OCR read a bar "\|" in it/u,
    );
  });

  it("flags a word with digits OCR read with doubt (no sum confirms a description's figures)", () => {
    const page = ocrPage(table('Karton A4 809 weiß'), 95, { '809': 71 });
    const r = answer({}, [item(page, 'Karton A4 809 weiß')]);
    expect(itemReasons(r, docOf(page), 0).join('\n')).toMatch(
      /line item 1 description "Karton A4 809 weiß": the OCR read "809" with a word confidence of 71 of 100/u,
    );
  });

  it('leaves a description read with confidence unflagged', () => {
    const page = ocrPage(table('Karton A4 80g weiß'), 95);
    const r = answer({}, [item(page, 'Karton A4 80g weiß')]);
    expect(descriptionReasons(r, docOf(page))).toEqual([]);
  });
});

describe("s16-flags: a line item with no quantity under its table's quantity column", () => {
  const rows = (qty: string | null): Row[] => [
    [
      [50, 'Description'],
      [250, 'Quantity'],
      [400, 'Subtotal'],
    ],
    qty === null
      ? [
          [50, 'Trail Runner Pro'],
          [400, '64 EUR'],
        ]
      : [
          [50, 'Trail Runner Pro'],
          [250, qty],
          [400, '64 EUR'],
        ],
    null,
    [[50, 'Total: 64 EUR']],
  ];
  const line = (page: PageText, qty: string | null): LineItem => ({
    description: at(page, 'Trail Runner Pro'),
    quantity: qty === null ? none : at(page, qty, { after: 'Pro' }),
    unit_price: none,
    amount: at(page, '64', { after: 'Pro' }),
  });

  it('flags the line: its quantity was not read (OCR lost a digit, or the row is misread)', () => {
    const page = ocrPage(rows(null));
    const r = answer({}, [line(page, null)]);
    expect(itemReasons(r, docOf(page), 0).join('\n')).toMatch(
      /line item 1: no quantity was read for it, though its table's header names a quantity column \("Quantity"\)/u,
    );
  });

  it('leaves a line with its quantity unflagged by it, and a table whose header names no quantity', () => {
    const page = ocrPage(rows('1'));
    expect(itemReasons(answer({}, [line(page, '1')]), docOf(page), 0).join('\n')).not.toMatch(/no quantity/u);
    const noQty = ocrPage([
      [
        [50, 'Description'],
        [400, 'Subtotal'],
      ],
      [
        [50, 'Trail Runner Pro'],
        [400, '64 EUR'],
      ],
      null,
      [[50, 'Total: 64 EUR']],
    ]);
    expect(itemReasons(answer({}, [line(noQty, null)]), docOf(noQty), 0).join('\n')).not.toMatch(/no quantity/u);
  });

  it('leaves a flat charge under a table with a unit price column, and a text layer (no digit lost), unflagged', () => {
    const withPrice = ocrPage([
      [
        [50, 'Désignation'],
        [250, 'Nombre'],
        [320, 'P.U. HT'],
        [400, 'Montant HT'],
      ],
      [
        [50, 'Trail Runner Pro'],
        [400, '64 EUR'],
      ],
    ]);
    expect(itemReasons(answer({}, [line(withPrice, null)]), docOf(withPrice), 0).join('\n')).not.toMatch(
      /no quantity/u,
    );
    const text = layoutPage(rows(null));
    expect(itemReasons(answer({}, [line(text, null)]), docOf(text), 0).join('\n')).not.toMatch(/no quantity/u);
  });
});

/**
 * The same answers as an engine that flags nothing and is sure of every value (a confident language model): the tune
 * part's wrong values whose only flag was the offline engine's own doubt.
 */
describe('s16-flags: wrong values only the offline engine doubted, flagged for any engine', () => {
  it("flags a seller's name that is not the sender line's name (the addressee under it given as the seller)", () => {
    const page = layoutPage([
      [[50, 'Weinkontor Alber e.K. · Rebenweg 7 · 79100 Freiburg']],
      null,
      [
        [50, 'Hotel Seeblick GmbH'],
        [380, 'Rechnungsnr.: G-2026-07'],
      ],
      [
        [50, 'Uferstraße 2'],
        [380, 'Datum: 04.05.2026'],
      ],
      [[50, '78462 Konstanz']],
    ]);
    const r = answer({ seller_name: at(page, 'Hotel Seeblick GmbH') });
    expect(fieldReasons(r, docOf(page), 'seller_name').join('\n')).toMatch(
      /seller_name "Hotel Seeblick GmbH" is not "Weinkontor Alber e\.K\.", the name on the sender line above the address window/u,
    );
    const right = answer({ seller_name: at(page, 'Weinkontor Alber e.K.') });
    expect(fieldReasons(right, docOf(page), 'seller_name').join('\n')).not.toMatch(/sender line/u);
  });

  it('flags a party\'s name that is a document\'s title ("KOSTENRECHNUNG", "Invoice")', () => {
    const page = layoutPage([
      [
        [50, 'Kunde:'],
        [180, 'KOSTENRECHNUNG'],
      ],
      [[50, 'Bergmann Logistik GmbH']],
      [[50, 'Hafenweg 3, 28195 Bremen']],
    ]);
    const r = answer({ buyer_name: at(page, 'KOSTENRECHNUNG') });
    expect(fieldReasons(r, docOf(page), 'buyer_name').join('\n')).toMatch(
      /buyer_name "KOSTENRECHNUNG" is a document's title \(an invoice, a credit note\), not a name/u,
    );
    const right = answer({ buyer_name: at(page, 'Bergmann Logistik GmbH') });
    expect(fieldReasons(right, docOf(page), 'buyer_name').join('\n')).not.toMatch(/title/u);
  });

  it('flags a tax of 0.00 read from the 0 % row of a VAT breakdown whose other rates carry tax', () => {
    const page = layoutPage([
      [
        [50, 'VAT rate'],
        [150, 'Tax'],
        [250, 'Without VAT'],
        [370, 'With VAT'],
      ],
      [
        [50, '0.00%'],
        [150, '$0.00'],
        [250, '$1,000.00'],
        [370, '$1,000.00'],
      ],
      [
        [50, '20.00%'],
        [150, '$200.00'],
        [250, '$1,000.00'],
        [370, '$1,200.00'],
      ],
      [[250, 'Total with tax: $2,200.00']],
    ]);
    const r = answer({
      tax: at(page, '$0.00', { value: '0.00' }),
      total: at(page, '$2,200.00', { value: '2200.00' }),
    });
    expect(fieldReasons(r, docOf(page), 'tax').join('\n')).toMatch(
      /tax 0\.00 is not the document's tax: the page prints a tax per rate \(20%: 200\.00\), 200\.00 together/u,
    );
  });
});

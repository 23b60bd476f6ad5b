import { describe, expect, it } from 'vitest';
import { conceptOf } from '../../../adapters/extraction/offline-labels.js';
import { checkDocument, type DocumentCheck } from '../../../domain/extraction-checks.js';
import type { ExtractedValue, ExtractionResult, PageText, PositionedText } from '../../../domain/extraction.js';
import { blockName, pageBlocks } from '../../../domain/extraction-parties.js';
import { vatIdProblem } from '../../../domain/extraction-values.js';
import { layoutPage, plainPage, type Row } from '../../helpers/positioned-text.js';

/**
 * Issue 29: text fields have no arithmetic, so they get checks of their own. A party's name must be read where a
 * party's name is printed (the first line of a block that carries the party's address, VAT id or IBAN, or the
 * letterhead at the top of page 1, or the e-invoice XML) and agree with the document's other readings of it; an
 * invoice number must not be a date, an amount, a phone number, a postcode or a customer/order number; a VAT id must
 * have its country's format and checksum. Each answer below has evidence on its page (the evidence check passes), so
 * only these checks can flag it.
 */
const concept = (f: string) => conceptOf(f).id;
const docOf = (...rows: Row[]): PositionedText => ({ pages: [layoutPage(rows)], truncated: false, warnings: [] });

/** The value read from the first occurrence of `snippet` on the page (after `after`), with its words' box. */
function at(page: PageText, snippet: string, options: { after?: string; value?: string } = {}): ExtractedValue {
  const from = options.after ? page.text.indexOf(options.after) + options.after.length : 0;
  const i = page.text.indexOf(snippet, from);
  if (i < 0) throw new Error(`"${snippet}" is not on the page`);
  const words = page.words.filter((w) => w.offset < i + snippet.length && w.offset + w.text.length > i);
  const box = words.length
    ? {
        x0: Math.min(...words.map((w) => w.box.x0)),
        y0: Math.min(...words.map((w) => w.box.y0)),
        x1: Math.max(...words.map((w) => w.box.x1)),
        y1: Math.max(...words.map((w) => w.box.y1)),
      }
    : null;
  return { value: options.value ?? snippet, evidence: { page: page.page, snippet, box }, confidence: 0.9 };
}
const answer = (fields: Record<string, ExtractedValue>): ExtractionResult => ({ fields, items: [], warnings: [] });
const flagged = (c: DocumentCheck) => [...new Set(c.flags.map((f) => f.field))].sort();
const reasonsOf = (c: DocumentCheck, field: string) => c.flags.filter((f) => f.field === field).map((f) => f.reason);

// An invoice whose seller prints its letterhead with its address, the customer's block under "Bill to:", and a
// legal footer with the seller's VAT id.
const invoice = docOf(
  [
    [50, 'Northwind Traders Ltd'],
    [420, 'INVOICE'],
  ],
  '12 Harbour Road',
  'Bristol BS1 4DJ',
  null,
  [
    [50, 'Bill to:'],
    [320, 'Invoice No: 2024-117'],
  ],
  [
    [50, 'Contoso GmbH'],
    [320, 'Date: 03/04/2024'],
  ],
  'Hauptstraße 5',
  '10115 Berlin',
  null,
  [
    [50, 'Consulting, March'],
    [450, '1,000.00'],
  ],
  [
    [50, 'Thank you for your business with Fabrikam Inc'],
    [450, ''],
  ],
  [
    [300, 'Total'],
    [450, '1,000.00'],
  ],
  null,
  'Northwind Traders Ltd · VAT GB123456782 · Registered in England, company no. 01234567',
);
const ip = invoice.pages[0]!;

describe('names: read from a party block, the letterhead, or the XML', () => {
  it('the letterhead and a labelled customer block with its address are not flagged', () => {
    const c = checkDocument(
      answer({ seller_name: at(ip, 'Northwind Traders Ltd'), buyer_name: at(ip, 'Contoso GmbH') }),
      invoice,
      concept,
    );
    expect(c.flags).toEqual([]);
  });

  it('a name read from running text (no address, VAT id or IBAN with it, not the letterhead) is flagged with the reason', () => {
    const c = checkDocument(
      answer({ seller_name: at(ip, 'Fabrikam Inc'), buyer_name: at(ip, 'Contoso GmbH') }),
      invoice,
      concept,
    );
    expect(flagged(c)).toEqual(['seller_name']);
    expect(reasonsOf(c, 'seller_name')[0]).toMatch(/seller_name "Fabrikam Inc" was not read from a party's block/u);
  });

  it('a description line of the table is no party name', () => {
    const c = checkDocument(answer({ buyer_name: at(ip, 'Consulting, March') }), invoice, concept);
    expect(flagged(c)).toEqual(['buyer_name']);
  });

  it('the same name given for the seller and the buyer flags both', () => {
    const c = checkDocument(
      answer({
        seller_name: at(ip, 'Northwind Traders Ltd'),
        buyer_name: at(ip, 'Northwind Traders Ltd', { after: 'INVOICE' }),
      }),
      invoice,
      concept,
    );
    expect(flagged(c)).toEqual(['buyer_name', 'seller_name']);
    expect(reasonsOf(c, 'buyer_name').join(' ')).toMatch(/the same name/u);
  });

  it("a top block that is not the seller's: the block with the seller's VAT id and registered office names another seller", () => {
    // A legal notice's firm at the foot, the addressee's window at the top (a French notice invoice).
    const doc = docOf(
      'ALEXINUX',
      'de Lattre Alexis',
      '27 rue Henri Rolland',
      '69100 Villeurbanne',
      null,
      [[50, 'Facture n° 2022089083']],
      [
        [50, 'Total TTC :'],
        [450, '56,02 €'],
      ],
      null,
      'NETPRESSE',
      'Siège social : 16 rue Mollien - 92100 BOULOGNE',
      'Sarl au capital de 10 000€ - Siret 53084813400017 - TVA FR63530848134',
    );
    const p = doc.pages[0]!;
    const c = checkDocument(
      answer({ seller_name: at(p, 'ALEXINUX'), seller_vat_id: at(p, 'FR63530848134') }),
      doc,
      concept,
    );
    expect(flagged(c)).toEqual(['seller_name']);
    expect(reasonsOf(c, 'seller_name')[0]).toMatch(/"NETPRESSE"/u);
    // The footer's firm as the seller agrees with it: no flag.
    expect(
      checkDocument(answer({ seller_name: at(p, 'NETPRESSE'), seller_vat_id: at(p, 'FR63530848134') }), doc, concept)
        .flags,
    ).toEqual([]);
  });

  it("a name right after its own party's label passes without an address; after the other party's label it does not", () => {
    const doc = docOf(
      [
        [50, 'Bill to:'],
        [200, 'Initech GmbH'],
      ],
      null,
      'Customer',
      'Acme Corporation',
      null,
      [
        [50, 'Total'],
        [450, '10.00'],
      ],
      null,
      null,
      null,
      null,
      [[50, 'Supplier: Globex Ltd']],
    );
    const p = doc.pages[0]!;
    expect(checkDocument(answer({ buyer_name: at(p, 'Initech GmbH') }), doc, concept).flags).toEqual([]);
    expect(checkDocument(answer({ buyer_name: at(p, 'Acme Corporation') }), doc, concept).flags).toEqual([]);
    expect(flagged(checkDocument(answer({ buyer_name: at(p, 'Globex Ltd') }), doc, concept))).toEqual(['buyer_name']);
  });

  it('a name from the e-invoice XML is not checked against the page', () => {
    const v: ExtractedValue = {
      value: 'Lieferant GmbH',
      evidence: { page: null, snippet: 'Lieferant GmbH', box: null, source: 'xml', path: '/a/b', file: 'x.xml' },
      confidence: null,
    };
    expect(checkDocument(answer({ seller_name: v }), invoice, concept).flags).toEqual([]);
  });

  it('plain text: a labelled name with its address below passes, a name in a sentence does not', () => {
    const doc: PositionedText = {
      pages: [
        plainPage(
          'ACME SARL\n3 rue de la Paix\n75002 Paris\n\nClient : Dupont SA\n12 avenue Foch\n69006 Lyon\n\nMerci à Durand SARL pour sa confiance',
        ),
      ],
      truncated: false,
      warnings: [],
    };
    const p = doc.pages[0]!;
    expect(
      checkDocument(answer({ seller_name: at(p, 'ACME SARL'), buyer_name: at(p, 'Dupont SA') }), doc, concept).flags,
    ).toEqual([]);
    expect(flagged(checkDocument(answer({ buyer_name: at(p, 'Durand SARL') }), doc, concept))).toEqual(['buyer_name']);
  });
});

describe('invoice numbers: not a date, an amount, a phone, a postcode or a customer/order number', () => {
  const doc = docOf(
    [
      [50, 'Invoice date: 28/11/2022'],
      [320, 'Tel: +44 117 496 0123'],
    ],
    [
      [50, 'Customer No: 4711'],
      [320, 'Order number: PO-88812'],
    ],
    [[50, '10115 Berlin']],
    [
      [50, 'Invoice No: INV-2022-089'],
      [320, 'Amount due: 1,234.56'],
    ],
  );
  const p = doc.pages[0]!;
  it.each([
    ['a date', at(p, '28/11/2022'), /looks like a date/u],
    ['an amount', at(p, '1,234.56'), /looks like an amount/u],
    ['a phone number', at(p, '+44 117 496 0123'), /phone/u],
    ['a postcode', at(p, '10115'), /postcode/u],
    ['a customer number', at(p, '4711'), /customer number/u],
    ['an order number', at(p, 'PO-88812'), /order number/u],
  ])('%s is flagged', (_what, v, why) => {
    const c = checkDocument(answer({ invoice_number: v }), doc, concept);
    expect(flagged(c)).toEqual(['invoice_number']);
    expect(reasonsOf(c, 'invoice_number')[0]).toMatch(why);
  });
  it('the number under its own label is not flagged', () => {
    expect(checkDocument(answer({ invoice_number: at(p, 'INV-2022-089') }), doc, concept).flags).toEqual([]);
  });
});

describe('VAT ids: the country prefix, the format and the checksum', () => {
  it.each([
    ['DE136695976', null], // a valid German id (ISO 7064 mod 11,10)
    ['DE136695977', /checksum/u],
    ['FR86792377731', null], // a valid French key
    ['FR63530848134', null],
    ['FR00530848134', /checksum/u],
    ['F63530848134', /country prefix/u],
    ['IT00743110157', null], // Luhn
    ['IT00743110158', /checksum/u],
    ['BE0428759497', null], // mod 97
    ['BE0428759498', /checksum/u],
    ['NL004495445B01', null],
    ['ATU13585627', null],
    ['ATU13585626', /checksum/u],
    ['ESB87530432', null],
    ['B87530432', null], // a Spanish CIF printed without its prefix: its own checksum holds
    ['B87530433', /checksum|country prefix/u],
    ['DE12345', /format/u],
    ['GB123456782', null],
    ['12-3456789', null], // a US EIN: no EU format to check
  ])('%s', (id, want) => {
    const p = vatIdProblem(id);
    if (want === null) expect(p).toBeNull();
    else expect(p).toMatch(want);
  });

  it('a wrong-format VAT id is flagged with the reason', () => {
    const doc = docOf([[50, 'VAT: F63530848134']]);
    const c = checkDocument(answer({ seller_vat_id: at(doc.pages[0]!, 'F63530848134') }), doc, concept);
    expect(flagged(c)).toEqual(['seller_vat_id']);
    expect(reasonsOf(c, 'seller_vat_id')[0]).toMatch(/seller_vat_id "F63530848134"/u);
  });

  it("the same VAT id given for the seller and the buyer flags both (a buyer's id read from the seller's footer)", () => {
    // erechnung's English layout prints no buyer VAT id; the engine gave the footer's "USt-IdNr." for both parties.
    const doc = docOf(
      [
        [50, 'Nordlicht Software GmbH'],
        [420, 'Invoice No.: NL-2026-1045'],
      ],
      'Blue Harbor Trading Ltd',
      'Quay Road 14',
      null,
      [
        [50, 'Nordlicht Software GmbH'],
        [400, 'USt-IdNr.: DE811907980'],
      ],
    );
    const p = doc.pages[0]!;
    const c = checkDocument(
      answer({ seller_vat_id: at(p, 'DE811907980'), buyer_vat_id: at(p, 'DE811907980') }),
      doc,
      concept,
    );
    expect(flagged(c)).toEqual(['buyer_vat_id', 'seller_vat_id']);
    expect(reasonsOf(c, 'buyer_vat_id').join(' ')).toMatch(/the same VAT id "DE811907980"/u);
  });

  it("a buyer's VAT id printed on the seller's name line (a legal footer) is flagged; the seller's own is not", () => {
    // en-erechnung-reverse-charge: the seller's id taken from the invoice number, the footer's id given for the buyer.
    const doc = docOf(
      [
        [50, 'Nordlicht Software GmbH'],
        [420, 'Invoice No.: NL-2026-1045'],
      ],
      'Blue Harbor Trading Ltd',
      'Quay Road 14',
      '1010 Wien',
      null,
      [
        [50, 'Nordlicht Software GmbH'],
        [400, 'USt-IdNr.: DE811907980'],
      ],
    );
    const p = doc.pages[0]!;
    const names = { seller_name: at(p, 'Nordlicht Software GmbH'), buyer_name: at(p, 'Blue Harbor Trading Ltd') };
    const c = checkDocument(answer({ ...names, buyer_vat_id: at(p, 'DE811907980') }), doc, concept);
    expect(flagged(c)).toContain('buyer_vat_id');
    expect(reasonsOf(c, 'buyer_vat_id')[0]).toMatch(
      /buyer_vat_id "DE811907980" is printed on the line of seller_name "Nordlicht Software GmbH"/u,
    );
    const own = checkDocument(answer({ ...names, seller_vat_id: at(p, 'DE811907980') }), doc, concept);
    expect(reasonsOf(own, 'seller_vat_id')).toEqual([]);
  });
});

describe('line items that look misread', () => {
  // Rows as OCR read a table it could not make out (a scanned Factur-X invoice): marks and digits for words.
  const doc = docOf(
    [
      [50, '>OO? 0400000080 0?'],
      [300, '0'],
      [380, '2'],
    ],
    [
      [50, 'Nougat 250g'],
      [300, '20'],
      [380, '4.095'],
      [480, '81.90'],
    ],
  );
  const p = doc.pages[0]!;
  const none = (): ExtractedValue => ({ value: null, evidence: null, confidence: null });
  const result = (): ExtractionResult => ({
    fields: {},
    items: [
      { description: at(p, '>OO? 0400000080 0?'), quantity: at(p, '0'), unit_price: at(p, '2'), amount: none() },
      { description: at(p, 'Nougat 250g'), quantity: at(p, '20'), unit_price: at(p, '4.095'), amount: at(p, '81.90') },
    ],
    warnings: [],
  });

  it('a line with a quantity or price but no amount, and a description with no word, are flagged with the reasons', () => {
    const c = checkDocument(result(), doc, concept);
    const line1 = c.flags.filter((f) => f.item === 0);
    expect([...new Set(line1.map((f) => f.field))].sort()).toEqual(['description', 'quantity', 'unit_price']);
    expect(c.reasons.join(' ')).toMatch(/line item 1: no amount was read/u);
    expect(c.reasons.join(' ')).toMatch(/line item 1 description ">OO\? 0400000080 0\?" has no word/u);
    expect(c.flags.filter((f) => f.item === 1)).toEqual([]);
  });
});

describe('the name heading a party block, as OCR reads it', () => {
  const names = (...rows: Row[]) => pageBlocks(layoutPage(rows)).map((b) => blockName(b)?.text ?? null);
  it('a label that lost its umlaut, and a salutation, are not the name', () => {
    expect(names('Rechnungsempfanger', 'Herrn', 'Max Mustermann', 'Bahnhofstrasse 99', '12345 Musterstadt')).toEqual([
      'Max Mustermann',
    ]);
    expect(names('Kaufer:', 'Frau', 'Erika Muster', '12345 Musterstadt')).toEqual(['Erika Muster']);
  });
  it('a street or a postcode and town is no name (the name line was lost)', () => {
    expect(names('BAHNHOFSTRASSE 99', '12345 MUSTERSTADT')).toEqual([null]);
  });
});

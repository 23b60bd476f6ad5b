import { deflateSync } from 'node:zlib';
import { AFRelationship, PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { withEInvoices } from '../../../../adapters/extraction/einvoice/einvoice-engine.js';
import { parseXml, XmlRefused } from '../../../../adapters/extraction/einvoice/xml-tree.js';
import type { ExtractionProvider } from '../../../../adapters/extraction/extraction-provider.js';
import { OfflineExtractionEngine } from '../../../../adapters/extraction/offline-engine.js';
import { InvalidSourceError } from '../../../../adapters/providers/provider-errors.js';
import { checkEvidence } from '../../../../domain/extraction-evidence.js';
import type { ExtractionResult, PositionedText } from '../../../../domain/extraction.js';
import { ciiXml, pdfWithXml, SAMPLE, ublXml, type SampleInvoice } from '../../../helpers/einvoice-samples.js';
import { sourceReader } from '../../../helpers/source-reader.js';

/**
 * E-invoices are read, not guessed (issue 29, item 2): a PDF's embedded CII or UBL XML, or the XML uploaded as the
 * source, gives every value with evidence naming its XML element, which the evidence check verifies against the XML;
 * a PDF whose visible text does not show the XML's values needs review; hostile XML is refused.
 */
const read = sourceReader('einvoice');
const einvoices = withEInvoices(new OfflineExtractionEngine());
const FIELDS = [
  'invoice_number',
  'invoice_date',
  'due_date',
  'seller_name',
  'buyer_name',
  'seller_vat_id',
  'buyer_vat_id',
  'currency',
  'subtotal',
  'tax',
  'total',
  'iban',
  'po_number',
  'vendor_email',
  'notes',
];

async function extract(text: PositionedText, fields = FIELDS) {
  const result = await einvoices.extract({ document: text, fields });
  return { result, reviewed: checkEvidence(result, text) };
}

const values = (r: ExtractionResult) => Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, v.value]));
const items = (r: ExtractionResult) =>
  r.items.map((it) => [it.description.value, it.quantity.value, it.unit_price.value, it.amount.value]);

/** What every syntax must give for SAMPLE (amounts as the XML writes them). */
function expectSample(result: ExtractionResult, inv: SampleInvoice = SAMPLE) {
  expect(values(result)).toEqual({
    invoice_number: inv.number,
    invoice_date: inv.issue_date,
    due_date: inv.due_date,
    seller_name: inv.seller.name,
    buyer_name: inv.buyer.name,
    seller_vat_id: inv.seller.vat_id,
    buyer_vat_id: inv.buyer.vat_id,
    currency: inv.currency,
    subtotal: inv.net_total,
    tax: inv.tax_total,
    total: inv.grand_total,
    iban: inv.iban,
    po_number: 'PO-4711',
    vendor_email: inv.seller.email ?? null,
    notes: null,
  });
  expect(items(result)).toEqual(inv.lines.map((l) => [l.description, l.quantity, l.unit_price, l.amount]));
}

describe('e-invoice XML uploaded as the source', () => {
  it('reads a Factur-X CII invoice with two tax rates: every value from the XML, evidence naming the element, all confirmed', async () => {
    const text = await read(ciiXml(SAMPLE), 'xml');
    expect(text.einvoice).toMatchObject({ file: null, syntax: 'cii' });
    // Priced and read as the text pages it is (one per started 4,000 bytes).
    expect(text.pages.length).toBe(Math.ceil(Buffer.byteLength(ciiXml(SAMPLE)) / 4000));
    const { result, reviewed } = await extract(text);
    expectSample(result);
    expect(result.fields['invoice_number']!.evidence).toEqual({
      page: null,
      box: null,
      source: 'xml',
      file: null,
      snippet: 'RE-2026-0815',
      path: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID',
    });
    expect(result.fields['invoice_date']!.evidence).toMatchObject({
      snippet: '20260315',
      path: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString',
    });
    // The seller's VAT id is its registration of scheme VA (the second), not its tax number (FC).
    expect(result.fields['seller_vat_id']!.evidence!.path).toBe(
      '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedTaxRegistration[2]/ram:ID',
    );
    expect(result.items[2]!.amount.evidence!.path).toBe(
      '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem[3]/ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount',
    );
    expect(result.items[1]!.description.evidence!.snippet).toBe('Druckerpapier A4 <80 g>');
    expect(reviewed.review_reasons).toEqual([]);
    expect(reviewed.checks.every((c) => c.ok)).toBe(true);
    expect(result.warnings).toContain('the values come from the e-invoice CII data of the uploaded XML');
  });

  it('reads ZUGFeRD 1.0 (urn:ferd:CrossIndustryDocument:invoice:1p0) the same way', async () => {
    const text = await read(ciiXml(SAMPLE, { zugferd1: true }), 'xml');
    expect(text.einvoice?.syntax).toBe('cii');
    const { result, reviewed } = await extract(text);
    expectSample(result);
    expect(result.fields['total']!.evidence!.path).toBe(
      '/rsm:CrossIndustryDocument/rsm:SpecifiedSupplyChainTradeTransaction/ram:ApplicableSupplyChainTradeSettlement/ram:SpecifiedTradeSettlementMonetarySummation/ram:GrandTotalAmount',
    );
    expect(reviewed.review_reasons).toEqual([]);
  });

  it('reads a UBL invoice (XRechnung / Peppol BIS) and a UBL credit note', async () => {
    const invoice = await extract(await read(ublXml(SAMPLE), 'xml'));
    expectSample(invoice.result);
    expect(invoice.result.fields['total']!.evidence).toMatchObject({
      source: 'xml',
      snippet: '1296.79',
      path: '/Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount',
    });
    expect(invoice.reviewed.review_reasons).toEqual([]);

    const credit = await extract(await read(ublXml(SAMPLE, { creditNote: true }), 'xml'));
    expectSample(credit.result);
    expect(credit.result.fields['due_date']!.evidence!.path).toBe('/CreditNote/cac:PaymentMeans/cbc:PaymentDueDate');
    expect(credit.result.items[0]!.quantity.evidence!.path).toBe('/CreditNote/cac:CreditNoteLine/cbc:CreditedQuantity');
    expect(credit.result.warnings.some((w) => w.startsWith('the document is a credit note'))).toBe(true);
    expect(credit.reviewed.review_reasons).toEqual([]);
  });

  it('maps the amount due, a single tax rate and a buyer-side name; a CII credit note (381) says so', async () => {
    const oneRate: SampleInvoice = {
      ...SAMPLE,
      lines: SAMPLE.lines.slice(0, 2),
      taxes: [SAMPLE.taxes[0]!],
      net_total: '1000.00',
      tax_total: '190.00',
      grand_total: '1190.00',
      due_payable: '1000.00',
    };
    const { result, reviewed } = await extract(await read(ciiXml(oneRate, { typeCode: '381' }), 'xml'), [
      'amount_due',
      'total',
      'vat_rate',
      'customer_vat_number',
      'client',
    ]);
    expect(values(result)).toEqual({
      amount_due: '1000.00',
      total: '1190.00',
      vat_rate: '19.00',
      customer_vat_number: 'DE987654328',
      client: 'Käufer & Söhne AG',
    });
    expect(result.warnings.some((w) => w.includes('credit note (type 381)'))).toBe(true);
    expect(reviewed.review_reasons).toEqual([]);
  });

  it('flags a tax breakdown that does not add up to the tax total', async () => {
    const broken: SampleInvoice = { ...SAMPLE, taxes: [SAMPLE.taxes[0]!, { ...SAMPLE.taxes[1]!, amount: '9.99' }] };
    const { reviewed } = await extract(await read(ciiXml(broken), 'xml'), ['tax']);
    expect(reviewed.review_reasons).toEqual([
      "tax: the XML's tax breakdown adds up to 199.99, not to its tax total 196.99",
    ]);
  });

  it('a text that only looks like XML, or XML of another vocabulary, stays plain text', async () => {
    expect((await read('<p>Invoice No: A-1</p>\n', 'txt')).einvoice).toBeUndefined();
    expect(
      (await read('<?xml version="1.0"?><Invoice xmlns="urn:example:other"><ID>1</ID></Invoice>', 'xml')).einvoice,
    ).toBeUndefined();
  });

  it('refuses an e-invoice with a DOCTYPE (external entity, billion laughs), too large, or not well-formed, with a clear error', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n${ciiXml(SAMPLE)
      .replace(/^<\?xml[^>]*>\s*/u, '')
      .replace('RE-2026-0815', '&x;')}`;
    await expect(read(xxe, 'xml')).rejects.toThrow(
      new InvalidSourceError(
        'the e-invoice XML cannot be read: the XML declares a DOCTYPE; document type declarations and entities are not accepted in an e-invoice',
      ),
    );
    const laughs = `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&lol2;</ID></Invoice>`;
    await expect(read(laughs, 'xml')).rejects.toBeInstanceOf(InvalidSourceError);
    await expect(read(ciiXml(SAMPLE).replace('</rsm:ExchangedDocument>', ''), 'xml')).rejects.toThrow(
      /the e-invoice XML cannot be read: the XML is not well-formed/u,
    );
    expect(() => parseXml(`<a>${'x'.repeat(5_000_001)}</a>`)).toThrow(XmlRefused);
    expect(() => parseXml(`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`)).toThrow(
      'the XML nests elements deeper than 64 levels',
    );
  });
});

describe('PDF with an embedded e-invoice', () => {
  it('reads the values of the attached factur-x.xml; the visible text agrees, so nothing needs review', async () => {
    const text = await read(await pdfWithXml(SAMPLE, ciiXml(SAMPLE), 'factur-x.xml'), 'pdf');
    expect(text.einvoice).toMatchObject({ file: 'factur-x.xml', syntax: 'cii' });
    expect(text.pages).toHaveLength(1);
    const { result, reviewed } = await extract(text);
    expectSample(result);
    expect(result.fields['total']!.evidence).toMatchObject({
      source: 'xml',
      file: 'factur-x.xml',
      snippet: '1296.79',
      page: null,
    });
    // A field the XML does not have is the layout engine's reading of the page (here: nothing printed).
    expect(result.fields['notes']!.value).toBeNull();
    expect(reviewed.review_reasons).toEqual([]);
  });

  it('a field the XML does not map comes from the page text, with page evidence', async () => {
    const text = await read(await pdfWithXml(SAMPLE, ciiXml(SAMPLE), 'factur-x.xml'), 'pdf');
    const { result, reviewed } = await extract(text, ['invoice_number', 'rechnungsdatum']);
    expect(result.fields['invoice_number']!.evidence!.source).toBe('xml');
    expect(result.fields['rechnungsdatum']).toMatchObject({
      value: '15.03.2026',
      evidence: { page: 1, snippet: '15.03.2026' },
    });
    expect(reviewed.review_reasons).toEqual([]);
  });

  it('reads ZUGFeRD 1.0 (ZUGFeRD-invoice.xml), XRechnung UBL (xrechnung.xml) and a UBL credit note attached under another name', async () => {
    for (const [xml, name] of [
      [ciiXml(SAMPLE, { zugferd1: true }), 'ZUGFeRD-invoice.xml'],
      [ublXml(SAMPLE), 'xrechnung.xml'],
      [ublXml(SAMPLE, { creditNote: true }), 'credit-note.xml'],
    ] as const) {
      const text = await read(await pdfWithXml(SAMPLE, xml, name), 'pdf');
      expect(text.einvoice?.file).toBe(name);
      const { result, reviewed } = await extract(text);
      expectSample(result);
      expect(reviewed.review_reasons).toEqual([]);
    }
  });

  it('flags a total the page prints differently from its XML, and an invoice number the page does not show', async () => {
    const text = await read(
      await pdfWithXml(SAMPLE, ciiXml(SAMPLE), 'factur-x.xml', {
        printedTotal: '1396.79',
        printedNumber: 'RE-2026-0816',
      }),
      'pdf',
    );
    const { result, reviewed } = await extract(text, ['invoice_number', 'total', 'tax']);
    // The values stay the XML's: exact, but a reviewer looks at the PDF.
    expect(values(result)).toEqual({ invoice_number: 'RE-2026-0815', total: '1296.79', tax: '196.99' });
    expect(reviewed.review_required).toBe(true);
    expect(reviewed.review_reasons).toEqual([
      'invoice_number: the PDF shows "RE-2026-0816" on page 1 where its e-invoice XML (factur-x.xml) has "RE-2026-0815", which the pages do not show',
      'total: the PDF shows "1.396,79" on page 1 where its e-invoice XML (factur-x.xml) has "1296.79", which the pages do not show',
    ]);
    // The values themselves passed the evidence check against the XML: the flags are the engine's.
    expect(reviewed.checks.filter((c) => !c.ok).map((c) => c.field)).toEqual(['invoice_number', 'total']);
  });

  it("a PDF whose pages show nothing readable (a broken font, a blank render) gives the XML's values, its number, date and total flagged", async () => {
    const doc = await PDFDocument.create();
    doc.addPage([595, 842]);
    await doc.attach(Buffer.from(ciiXml(SAMPLE)), 'factur-x.xml', {
      mimeType: 'text/xml',
      afRelationship: AFRelationship.Alternative,
    });
    const text = await read(await doc.save(), 'pdf');
    const { result, reviewed } = await extract(text, ['invoice_number', 'invoice_date', 'total', 'subtotal']);
    expect(values(result)).toEqual({
      invoice_number: 'RE-2026-0815',
      invoice_date: '2026-03-15',
      total: '1296.79',
      subtotal: '1099.80',
    });
    expect(reviewed.review_reasons).toEqual([
      'invoice_number: the value "RE-2026-0815" of the PDF\'s e-invoice XML (factur-x.xml) is not in the PDF\'s visible text',
      'invoice_date: the value "2026-03-15" of the PDF\'s e-invoice XML (factur-x.xml) is not in the PDF\'s visible text',
      'total: the value "1296.79" of the PDF\'s e-invoice XML (factur-x.xml) is not in the PDF\'s visible text',
    ]);
  });

  it('a PDF without an attachment, or with an attachment that is no invoice, is read from its pages as before', async () => {
    const plain = await read(await pdfWithXml(SAMPLE, null, ''), 'pdf');
    expect(plain.einvoice).toBeUndefined();
    const other = await read(await pdfWithXml(SAMPLE, '<?xml version="1.0"?><note>hi</note>', 'note.xml'), 'pdf');
    expect(other.einvoice).toBeUndefined();
    const { result } = await extract(other, ['invoice_number']);
    expect(result.fields['invoice_number']).toMatchObject({ value: 'RE-2026-0815', evidence: { page: 1 } });
  });

  it('an attached XML with a DOCTYPE, or a compressed bomb, is not read: a warning says why, the pages are read', async () => {
    const xxe = ciiXml(SAMPLE).replace('?>', '?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>');
    const text = await read(await pdfWithXml(SAMPLE, xxe, 'factur-x.xml'), 'pdf');
    expect(text.einvoice).toBeUndefined();
    expect(text.warnings).toContain(
      "the PDF's attached factur-x.xml was not read: the XML declares a DOCTYPE; document type declarations and entities are not accepted in an e-invoice",
    );

    // 50 MB of spaces deflate to some 50 kB: refused at the cap without being unpacked whole.
    const doc = await PDFDocument.load(await pdfWithXml(SAMPLE, null, ''));
    const bomb = doc.context.stream(deflateSync(Buffer.alloc(50_000_000, 0x20)), {
      Type: 'EmbeddedFile',
      Filter: 'FlateDecode',
    });
    const bombRef = doc.context.register(bomb);
    const spec = doc.context.register(
      doc.context.obj({
        Type: 'Filespec',
        F: PDFString.of('factur-x.xml'),
        UF: PDFString.of('factur-x.xml'),
        EF: { F: bombRef },
        AFRelationship: AFRelationship.Data,
      }),
    );
    doc.catalog.set(PDFName.of('AF'), doc.context.obj([spec]));
    const bombed = await read(await doc.save(), 'pdf');
    expect(bombed.einvoice).toBeUndefined();
    expect(bombed.warnings).toContain(
      "the PDF's attached factur-x.xml was not read: it unpacks to more than 5000000 bytes",
    );
  });
});

describe('evidence check of XML evidence', () => {
  it("flags a value that is not its element's, an element the XML does not have, another file, and XML evidence without XML", async () => {
    const text = await read(ciiXml(SAMPLE), 'xml');
    const { result } = await extract(text, ['invoice_number', 'total', 'invoice_date', 'seller_name']);
    const tampered: ExtractionResult = structuredClone(result);
    tampered.fields['total']!.value = '1296.78';
    tampered.fields['invoice_number']!.evidence!.path = '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID[2]';
    tampered.fields['invoice_date']!.evidence!.file = 'factur-x.xml';
    tampered.fields['seller_name']!.evidence!.snippet = 'Other GmbH';
    const reasons = checkEvidence(tampered, text).review_reasons;
    expect(reasons).toEqual([
      'invoice_number: the evidence names the XML element /rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID[2], which the e-invoice XML does not have',
      'total: the value "1296.78" has other digits or another decimal value than the snippet "1296.79" (XML element /rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount)'.replace(
        /\(XML element (.{77}).*\)$/u,
        '(XML element $1…)',
      ),
      "invoice_date: the evidence names the XML file factur-x.xml, which is not the document's e-invoice XML",
      'seller_name: the snippet "Other GmbH" is not the text of the XML element /rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:Name'.replace(
        /element (.{77}).*$/u,
        'element $1…',
      ),
    ]);
    const { einvoice: _dropped, ...withoutXml } = text;
    expect(checkEvidence(result, withoutXml).review_reasons[0]).toBe(
      'invoice_number: the evidence names an XML element, but the document has no e-invoice XML',
    );
  });

  it('a date must be the one the CII element writes', async () => {
    const text = await read(ciiXml(SAMPLE), 'xml');
    const { result } = await extract(text, ['invoice_date']);
    const wrong = structuredClone(result);
    wrong.fields['invoice_date']!.value = '2026-03-16';
    expect(checkEvidence(wrong, text).review_reasons).toHaveLength(1);
  });
});

// A provider that must not be asked for an uploaded XML (it has no visible text).
describe('the wrapped engine', () => {
  it('is not asked for an uploaded XML, and is asked unchanged for a document without e-invoice', async () => {
    const asked: string[] = [];
    const inner: ExtractionProvider = {
      name: 'spy',
      extract: (r) => (
        asked.push(r.document.pages[0]?.text.slice(0, 10) ?? ''),
        new OfflineExtractionEngine().extract(r)
      ),
    };
    const wrapped = withEInvoices(inner);
    expect(withEInvoices(wrapped)).toBe(wrapped);
    expect(wrapped.name).toBe('spy');
    await wrapped.extract({ document: await read(ublXml(SAMPLE), 'xml'), fields: ['total'] });
    expect(asked).toEqual([]);
    await wrapped.extract({ document: await read('Invoice No: A-1\nTotal: 10.00\n', 'txt'), fields: ['total'] });
    expect(asked).toEqual(['Invoice No']);
  });
});

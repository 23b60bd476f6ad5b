import AdmZip from 'adm-zip';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionJson } from '../../adapters/documents/extraction-exports.js';
import { ciiXml, pdfWithXml, SAMPLE, ublXml } from '../helpers/einvoice-samples.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';

/**
 * E-invoices through `/v1` (issue 29, item 2): a Factur-X PDF and an uploaded UBL XML, run as a client runs them, give
 * the XML's values with evidence naming the XML element in the JSON result and the evidence CSV; a PDF whose visible
 * total is not its XML's needs review; an uploaded XML with a DOCTYPE fails as the source's fault, saying why; an
 * XML upload is priced as the text it is (25 credits per started 4,000 bytes).
 */
const h = new ProcessingHarness();
let acme: TestCompany;
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
];
const WANT = {
  invoice_number: 'RE-2026-0815',
  invoice_date: '2026-03-15',
  due_date: '2026-04-14',
  seller_name: 'Muster Lieferant GmbH',
  buyer_name: 'Käufer & Söhne AG',
  seller_vat_id: 'DE123456788',
  buyer_vat_id: 'DE987654328',
  currency: 'EUR',
  subtotal: '1099.80',
  tax: '196.99',
  total: '1296.79',
  iban: 'DE89370400440532013000',
};
const ITEMS = SAMPLE.lines.map((l) => ({
  description: l.description,
  quantity: l.quantity,
  unit_price: l.unit_price,
  amount: l.amount,
}));

beforeAll(async () => {
  await h.start();
  acme = await h.company('EInvoice');
}, 120_000);
afterAll(() => h.stop());

async function run(uploadIds: string[]) {
  const job = await h.waitForJob(
    acme.key,
    (await h.submitOk(acme.key, { operation: 'flow-extract', upload_ids: uploadIds, fields: FIELDS })).id,
    240_000,
  );
  return job;
}

async function results(job: Awaited<ReturnType<typeof run>>) {
  const download = async (i: number) =>
    Buffer.from(await (await h.download(acme.key, job.result!.files[i]!.download_path)).arrayBuffer());
  const json = ExtractionJson.parse(JSON.parse((await download(2)).toString('utf8')));
  const evidence = parse(new AdmZip(await download(1)).getEntry('evidence.csv')!.getData(), {
    bom: true,
    columns: true,
  }) as Array<Record<string, string>>;
  return { json, evidence };
}

describe('flow-extract of e-invoices through /v1', () => {
  it("a Factur-X PDF and an uploaded UBL invoice: the XML's values, every line, evidence naming the XML element", async () => {
    const pdf = await h.upload(
      acme.key,
      'facturx.pdf',
      Buffer.from(await pdfWithXml(SAMPLE, ciiXml(SAMPLE), 'factur-x.xml')),
    );
    const xmlBytes = Buffer.from(ublXml(SAMPLE));
    const xml = await h.upload(acme.key, 'xrechnung.xml', xmlBytes);
    // The XML is a text source: one page per started 4,000 bytes, 25 credits a page.
    const pages = Math.ceil(xmlBytes.length / 4000);
    const upload = (await (await fetch(`${h.app.url}/v1/uploads/${xml}`, { headers: h.auth(acme.key) })).json()) as {
      pages: number;
    };
    expect(upload.pages).toBe(pages);
    const job = await run([pdf, xml]);
    expect(job).toMatchObject({ status: 'completed', charged_credits: 25 * (1 + pages) });
    const { json, evidence } = await results(job);
    const [fromPdf, fromXml] = json.documents as [
      ExtractionJson['documents'][number],
      ExtractionJson['documents'][number],
    ];
    for (const d of [fromPdf, fromXml]) {
      expect(d.fields).toEqual(WANT);
      expect(d.items).toEqual(ITEMS);
      expect(d.review_required).toBe(false);
      for (const f of FIELDS)
        expect(d.evidence.fields[f], f).toMatchObject({ source: 'xml', page: null, box: null, flagged: false });
    }
    expect(fromPdf.evidence.fields['invoice_number']).toEqual({
      page: null,
      snippet: 'RE-2026-0815',
      box: null,
      source: 'xml',
      path: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID',
      file: 'factur-x.xml',
      flagged: false,
      reason: null,
    });
    expect(fromPdf.evidence.fields['invoice_date']).toMatchObject({
      snippet: '20260315',
      path: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString',
    });
    expect(fromXml.evidence.fields['total']).toMatchObject({
      snippet: '1296.79',
      path: '/Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount',
      file: null,
    });
    expect(fromXml.evidence.items[1]!.unit_price).toMatchObject({
      source: 'xml',
      snippet: '12.50',
      path: '/Invoice/cac:InvoiceLine[2]/cac:Price/cbc:PriceAmount',
    });
    expect(fromPdf.warnings).toContain(
      'the values come from the e-invoice CII data of the XML embedded in the PDF (factur-x.xml)',
    );
    // The Evidence CSV names the element too (the XML's file name before the path when it is attached to a PDF).
    expect(evidence.find((r) => r['document'] === 'facturx.pdf' && r['field'] === 'total')).toMatchObject({
      value: '1296.79',
      page: '',
      snippet: '1296.79',
      flagged: 'false',
      source: 'xml',
      path: 'factur-x.xml:/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount',
    });
    expect(
      evidence.find((r) => r['document'] === 'xrechnung.xml' && r['field'] === 'amount' && r['line'] === '3'),
    ).toMatchObject({ value: '99.80', source: 'xml', path: '/Invoice/cac:InvoiceLine[3]/cbc:LineExtensionAmount' });
  });

  it("a PDF that prints another total than its XML: the XML's value, flagged for review with the reason", async () => {
    const pdf = await h.upload(
      acme.key,
      'mismatch.pdf',
      Buffer.from(await pdfWithXml(SAMPLE, ciiXml(SAMPLE), 'factur-x.xml', { printedTotal: '1396.79' })),
    );
    const job = await run([pdf]);
    expect(job).toMatchObject({ status: 'completed', charged_credits: 25 });
    const { json } = await results(job);
    const d = json.documents[0]!;
    expect(d.fields['total']).toBe('1296.79');
    expect(d.review_required).toBe(true);
    expect(d.review_reasons).toContain(
      'total: the PDF shows "1.396,79" on page 1 where its e-invoice XML (factur-x.xml) has "1296.79", which the pages do not show',
    );
    expect(d.evidence.fields['total']).toMatchObject({ source: 'xml', flagged: true });
    expect(d.evidence.fields['invoice_number']).toMatchObject({ source: 'xml', flagged: false });
  });

  it("an uploaded e-invoice with a DOCTYPE fails as the source's fault, saying why; its reservation is released", async () => {
    const hostile = ciiXml(SAMPLE)
      .replace('?>', '?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>')
      .replace('RE-2026-0815', '&e;');
    const id = await h.upload(acme.key, 'hostile.xml', Buffer.from(hostile));
    const before = await h.wallet(acme.id);
    const job = await run([id]);
    expect(job).toMatchObject({ status: 'failed', error_code: 'invalid_source', charged_credits: 0 });
    expect(job.error).toContain('the e-invoice XML cannot be read: the XML declares a DOCTYPE');
    expect(await h.wallet(acme.id)).toEqual(before);
  });
});

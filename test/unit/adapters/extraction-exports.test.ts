import AdmZip from 'adm-zip';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  EXTRACTION_CSV_FILES,
  defuseFormula,
  extractionJsonSchema,
  extractionResultFiles,
  extractionToCsvFiles,
  extractionToCsvZip,
  extractionToJson,
  extractionToXlsx,
  type ExtractionDocumentResult,
  type ExtractionExportInput,
} from '../../../adapters/documents/extraction-exports.js';
import type { ExtractedValue, LineItem } from '../../../domain/extraction.js';
import {
  CORPUS_FIELDS,
  generateInvoice,
  invoiceCorpus,
  type InvoiceDocument,
} from '../../../support/invoice-corpus.js';

const FIELDS = [...CORPUS_FIELDS];
const value = (v: string | null, page = 1): ExtractedValue => ({
  value: v,
  evidence: v === null ? null : { page, snippet: `snippet of ${v}`, box: { x0: 1, y0: 2, x1: 3, y1: 4 } },
  confidence: 0.9,
});
const item = (d: string | null, q: string | null, u: string | null, a: string | null): LineItem => ({
  description: value(d),
  quantity: value(q),
  unit_price: value(u),
  amount: value(a),
});

/** A corpus document's truth as an engine's perfect answer; every third document has its total and first amount flagged. */
function fromInvoice(inv: InvoiceDocument, i: number): ExtractionDocumentResult {
  const flag = i % 3 === 0;
  return {
    document: `${inv.name}.pdf`,
    upload_id: `upl_${i}`,
    pages: 1 + Math.floor(inv.truth.items.length / 20),
    result: {
      fields: Object.fromEntries(FIELDS.map((f) => [f, value(inv.truth.fields[f])])),
      items: inv.truth.items.map((it) => item(it.description, it.quantity, it.unit_price, it.amount)),
      warnings: i === 1 ? ['text capped at 200000 characters'] : [],
    },
    check: flag
      ? {
          review_required: true,
          reasons: ['total: the value is not in its snippet', 'item 1 amount: the snippet is not in the source'],
          flagged: [
            { field: 'total', reason: 'the value is not in its snippet' },
            { item: 0, column: 'amount', reason: 'the snippet is not in the source' },
          ],
        }
      : { review_required: false, reasons: [], flagged: [] },
  };
}

const twenty = (): ExtractionExportInput => ({ fields: FIELDS, documents: invoiceCorpus(20).map(fromInvoice) });

const NASTY = ['=HYPERLINK("http://evil.example","x")', '+SUM(1,2)', '-2+3', '@cmd', '\tTAB', '\rCR'];
/** A document whose text values try formula injection, with unicode and CSV-special characters. */
function nasty(): ExtractionExportInput {
  return {
    fields: ['vendor_name', 'customer_name', 'invoice_number', 'notes', 'total', 'invoice_date', 'vendor_email'],
    documents: [
      {
        document: "=cmd|' /C calc'!A0.pdf",
        upload_id: null,
        pages: 2,
        result: {
          fields: {
            vendor_name: value('Müller & Söhne, "Zürich"'),
            customer_name: value('東京株式会社 Ωmega 😀'),
            invoice_number: value(NASTY[1]!),
            notes: value('line one\nline two; "quoted", comma'),
            total: value('-12.50'),
            invoice_date: value('2026-12-31'),
            vendor_email: value(null),
          },
          items: NASTY.map((n, i) => item(n, String(i + 1), '1.00', `${i + 1}.00`)),
          warnings: [],
        },
        check: {
          review_required: true,
          reasons: ['@reason'],
          flagged: [{ field: 'invoice_number', reason: '=not found' }],
        },
      },
    ],
  };
}

async function readXlsx(buf: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}
const rowsOf = (sheet: ExcelJS.Worksheet): ExcelJS.CellValue[][] => {
  const rows: ExcelJS.CellValue[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
  return rows;
};
const csvRows = (buf: Buffer): string[][] => parse(buf, { bom: true, relax_column_count: false }) as string[][];

describe('extraction exports: XLSX', () => {
  it('20 documents: a row each with a column per field in request order; numbers as numbers, dates as dates, missing values empty', async () => {
    const input = twenty();
    const wb = await readXlsx(await extractionToXlsx(input));
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Documents', 'Line items', 'Evidence', 'Corrections']);
    expect(rowsOf(wb.getWorksheet('Corrections')!)).toHaveLength(1); // the header: no correction yet
    const docs = wb.getWorksheet('Documents')!;
    expect(docs.getRow(1).values).toEqual([
      undefined,
      'document',
      'pages',
      'review_required',
      'review_reasons',
      ...FIELDS,
    ]);
    expect(docs.rowCount).toBe(21);
    input.documents.forEach((d, i) => {
      const row = docs.getRow(i + 2);
      expect(row.getCell(1).value).toBe(d.document);
      expect(row.getCell(2).value).toBe(d.pages);
      expect(row.getCell(3).value).toBe(d.check.review_required);
      FIELDS.forEach((f, c) => {
        const cell = row.getCell(5 + c);
        const truth = d.result.fields[f]!.value;
        if (truth === null) expect(cell.value, f).toBeNull();
        else if (['subtotal', 'tax', 'total'].includes(f)) expect(cell.value).toBe(Number(truth));
        else if (f.endsWith('_date')) expect((cell.value as Date).toISOString()).toBe(`${truth}T00:00:00.000Z`);
        else expect(cell.value).toBe(truth);
      });
    });
    const items = rowsOf(wb.getWorksheet('Line items')!);
    expect(items[0]).toEqual(['document', 'line', 'description', 'quantity', 'unit_price', 'amount']);
    expect(items.length - 1).toBe(input.documents.reduce((n, d) => n + d.result.items.length, 0));
    const first = input.documents[0]!;
    const it0 = first.result.items[0]!;
    expect(items[1]).toEqual([
      first.document,
      1,
      it0.description.value,
      Number(it0.quantity.value),
      Number(it0.unit_price.value),
      Number(it0.amount.value),
    ]);

    const evidence = rowsOf(wb.getWorksheet('Evidence')!);
    expect(evidence[0]).toEqual([
      'document',
      'field',
      'line',
      'value',
      'page',
      'snippet',
      'flagged',
      'reason',
      'box_x0',
      'box_y0',
      'box_x1',
      'box_y1',
      'source',
      'path',
    ]);
    // A row per non-null value, and one per line item (the whole line: `line_item`, before its cells).
    const nonNull = input.documents.reduce(
      (n, d) => n + FIELDS.filter((f) => d.result.fields[f]!.value !== null).length + d.result.items.length * 5,
      0,
    );
    expect(evidence.length - 1).toBe(nonNull);
    const total = evidence.find((r) => r[0] === first.document && r[1] === 'total')!;
    expect(total.slice(3)).toEqual([
      first.result.fields.total!.value,
      1,
      `snippet of ${first.result.fields.total!.value}`,
      true,
      'the value is not in its snippet',
      1,
      2,
      3,
      4,
      'page',
    ]);
    const amount1 = evidence.find((r) => r[0] === first.document && r[1] === 'amount' && r[2] === 1)!;
    expect(amount1[6]).toBe(true);
    const line1 = evidence.findIndex((r) => r[0] === first.document && r[1] === 'line_item' && r[2] === 1);
    const cells = [it0.description, it0.quantity, it0.unit_price, it0.amount].map((v) => v.value!);
    expect(evidence[line1]!.slice(3)).toEqual([
      cells.join(' | '),
      1,
      cells.map((c) => `snippet of ${c}`).join(' '),
      true,
      'the snippet is not in the source',
      1,
      2,
      3,
      4,
      'page',
    ]);
    expect(evidence.slice(line1 + 1, line1 + 5).map((r) => [r[1], r[2]])).toEqual([
      ['description', 1],
      ['quantity', 1],
      ['unit_price', 1],
      ['amount', 1],
    ]);
    const fine = evidence.find((r) => r[0] === first.document && r[1] === 'invoice_number')!;
    expect(fine.slice(6)).toEqual([false, undefined, 1, 2, 3, 4, 'page']); // flagged false, no reason, the box, page evidence without an XML path
  });

  it('keeps text as text cells: formula-like values are strings, never formulas; unicode survives', async () => {
    const wb = await readXlsx(await extractionToXlsx(nasty()));
    const docs = wb.getWorksheet('Documents')!;
    const row = docs.getRow(2);
    expect(row.getCell(1).value).toBe(nasty().documents[0]!.document);
    expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(4).value).toBe('@reason');
    expect(row.getCell(5).value).toBe('Müller & Söhne, "Zürich"');
    expect(row.getCell(6).value).toBe('東京株式会社 Ωmega 😀');
    expect(row.getCell(7).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(7).value).toBe('+SUM(1,2)');
    expect(row.getCell(9).value).toBe(-12.5);
    const items = wb.getWorksheet('Line items')!;
    NASTY.forEach((n, i) => {
      const cell = items.getRow(i + 2).getCell(3);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.value).toBe(n.replace(/\r/g, '\n')); // a cell's line break is LF
    });
  });

  it('0 line items gives a header-only sheet; 40 line items give 40 rows; characters XML cannot hold are removed', async () => {
    const zero = generateInvoice(1, { itemCount: 1 });
    const forty = generateInvoice(2, { itemCount: 40 });
    const input: ExtractionExportInput = {
      fields: FIELDS,
      documents: [
        { ...fromInvoice(zero, 1), result: { ...fromInvoice(zero, 1).result, items: [] } },
        fromInvoice(forty, 2),
      ],
    };
    input.documents[1]!.result.fields.vendor_name = value('bad\u0001char\u000Bs');
    const wb = await readXlsx(await extractionToXlsx(input));
    const items = rowsOf(wb.getWorksheet('Line items')!);
    expect(items).toHaveLength(41);
    expect(items.every((r, i) => i === 0 || r[0] === input.documents[1]!.document)).toBe(true);
    expect(items[40]![1]).toBe(40);
    expect(wb.getWorksheet('Documents')!.getRow(3).getCell(8).value).toBe('badchars');
  });
});

describe('extraction exports: CSV', () => {
  it('one ZIP with a CSV per sheet: UTF-8 with BOM, CRLF, RFC 4180 quoting; reads back to the same values', async () => {
    const input = twenty();
    const date = new Date('2026-03-01T10:00:00Z');
    const zipBuf = await extractionToCsvZip(input, { date });
    expect((await extractionToCsvZip(input, { date })).equals(zipBuf)).toBe(true); // deterministic
    const zip = new AdmZip(zipBuf);
    expect(zip.getEntries().map((e) => e.entryName)).toEqual([
      EXTRACTION_CSV_FILES.documents,
      EXTRACTION_CSV_FILES.items,
      EXTRACTION_CSV_FILES.evidence,
      EXTRACTION_CSV_FILES.corrections,
    ]);
    const docsCsv = zip.readFile(EXTRACTION_CSV_FILES.documents)!;
    expect([...docsCsv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(docsCsv.toString('utf8')).toContain('\r\n');
    const docs = csvRows(docsCsv);
    expect(docs[0]).toEqual(['document', 'pages', 'review_required', 'review_reasons', ...FIELDS]);
    expect(docs).toHaveLength(21);
    input.documents.forEach((d, i) => {
      expect(docs[i + 1]!.slice(0, 3)).toEqual([d.document, String(d.pages), String(d.check.review_required)]);
      expect(docs[i + 1]!.slice(4)).toEqual(FIELDS.map((f) => d.result.fields[f]!.value ?? ''));
    });
    expect(docs[1]![3]).toBe('total: the value is not in its snippet; item 1 amount: the snippet is not in the source');
    const items = csvRows(zip.readFile(EXTRACTION_CSV_FILES.items)!);
    expect(items.length - 1).toBe(input.documents.reduce((n, d) => n + d.result.items.length, 0));
    const evidence = csvRows(zip.readFile(EXTRACTION_CSV_FILES.evidence)!);
    expect(evidence[0]).toEqual([
      'document',
      'field',
      'line',
      'value',
      'page',
      'snippet',
      'flagged',
      'reason',
      'box_x0',
      'box_y0',
      'box_x1',
      'box_y1',
      'source',
      'path',
    ]);
    expect(evidence.find((r) => r[0] === input.documents[0]!.document && r[1] === 'total')!.slice(6)).toEqual([
      'true',
      'the value is not in its snippet',
      '1',
      '2',
      '3',
      '4',
      'page',
      '',
    ]);
    expect(
      evidence.find((r) => r[0] === input.documents[1]!.document && r[1] === 'line_item' && r[2] === '1')!.slice(4),
    ).toEqual(['1', expect.stringMatching(/^snippet of /u), 'false', '', '1', '2', '3', '4', 'page', '']);
  });

  it('defuses formula injection with a leading apostrophe (= + - @ tab CR), keeps negative numbers, unicode and quoting', () => {
    const [docs, items, evidence] = extractionToCsvFiles(nasty()).map((f) => csvRows(f.content)) as [
      string[][],
      string[][],
      string[][],
    ];
    expect(docs[1]![0]).toBe(`'${nasty().documents[0]!.document}`);
    expect(docs[1]![3]).toBe("'@reason");
    expect(docs[1]!.slice(4)).toEqual([
      'Müller & Söhne, "Zürich"',
      '東京株式会社 Ωmega 😀',
      "'+SUM(1,2)",
      'line one\nline two; "quoted", comma',
      '-12.50',
      '2026-12-31',
      '',
    ]);
    expect(items.slice(1).map((r) => r[2])).toEqual(NASTY.map((n) => `'${n}`));
    expect(evidence.find((r) => r[1] === 'invoice_number')!.slice(6)).toEqual([
      'true',
      "'=not found",
      '1',
      '2',
      '3',
      '4',
      'page',
      '',
    ]);
    expect(defuseFormula('-5')).toBe('-5');
    expect(defuseFormula('-5-5')).toBe("'-5-5");
    expect(defuseFormula('a=b')).toBe('a=b');
  });

  it('0 line items: line-items.csv is its header alone; 40: forty rows', () => {
    const zero = {
      fields: FIELDS,
      documents: [{ ...fromInvoice(generateInvoice(1), 1), result: { fields: {}, items: [], warnings: [] } }],
    };
    const [docs, items] = extractionToCsvFiles(zero).map((f) => csvRows(f.content)) as [string[][], string[][]];
    expect(items).toEqual([['document', 'line', 'description', 'quantity', 'unit_price', 'amount']]);
    expect(docs[1]!.slice(4)).toEqual(FIELDS.map(() => '')); // fields the engine did not return: empty
    const forty = extractionToCsvFiles({
      fields: FIELDS,
      documents: [fromInvoice(generateInvoice(2, { itemCount: 40 }), 2)],
    });
    expect(csvRows(forty[1]!.content)).toHaveLength(41);
  });
});

describe('extraction exports: JSON', () => {
  const ajv = new Ajv2020.default({ allErrors: true, strict: false });
  const validate = ajv.compile(extractionJsonSchema);

  it('validates against its JSON Schema; missing values are null; fields in request order; evidence and flags', () => {
    const input = twenty();
    const json = JSON.parse(extractionToJson(input)) as {
      documents: Array<
        Record<string, unknown> & {
          fields: Record<string, string | null>;
          evidence: { fields: Record<string, unknown>; items: Array<Record<string, unknown>> };
        }
      >;
    };
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.documents).toHaveLength(20);
    input.documents.forEach((d, i) => {
      const j = json.documents[i]!;
      expect(Object.keys(j.fields)).toEqual(FIELDS);
      expect(j.fields).toEqual(Object.fromEntries(FIELDS.map((f) => [f, d.result.fields[f]!.value])));
      for (const f of FIELDS) if (d.result.fields[f]!.value === null) expect(j.evidence.fields[f]).toBeNull();
      expect(j.items).toHaveLength(d.result.items.length);
      expect(j).toMatchObject({
        document: d.document,
        upload_id: d.upload_id,
        pages: d.pages,
        review_required: d.check.review_required,
        review_reasons: d.check.reasons,
        warnings: d.result.warnings,
      });
    });
    expect(json.documents[0]!.evidence.fields.total).toMatchObject({
      page: 1,
      flagged: true,
      reason: 'the value is not in its snippet',
      box: { x0: 1, y0: 2, x1: 3, y1: 4 },
    });
    expect(json.documents[0]!.evidence.items[0]!.amount).toMatchObject({ flagged: true });
    // The whole line: its page, the union of its cells' boxes, their snippets; flagged when a cell is.
    const it0 = input.documents[0]!.result.items[0]!;
    expect(json.documents[0]!.evidence.items[0]!.line).toEqual({
      page: 1,
      snippet: [it0.description, it0.quantity, it0.unit_price, it0.amount]
        .map((v) => `snippet of ${v.value}`)
        .join(' '),
      box: { x0: 1, y0: 2, x1: 3, y1: 4 },
      flagged: true,
      reason: 'the snippet is not in the source',
    });
    expect(json.documents[1]!.evidence.items[0]!.line).toMatchObject({ flagged: false, reason: null });
    expect(json.documents[0]!.evidence.fields.invoice_number).toMatchObject({ flagged: false, reason: null });
    expect(validate({ documents: [{ ...json.documents[0], review_required: 'yes' }] })).toBe(false);
  });

  it('keeps unicode and formula-like text verbatim (JSON needs no defusing); 0 and 40 items', () => {
    const json = JSON.parse(extractionToJson(nasty())) as {
      documents: Array<{ fields: Record<string, string | null>; items: Array<{ description: string }> }>;
    };
    expect(validate(json)).toBe(true);
    expect(json.documents[0]!.fields).toMatchObject({
      customer_name: '東京株式会社 Ωmega 😀',
      invoice_number: '+SUM(1,2)',
      vendor_email: null,
      total: '-12.50',
    });
    expect(json.documents[0]!.items.map((i) => i.description)).toEqual(NASTY);
    const zero = JSON.parse(
      extractionToJson({
        fields: ['total'],
        documents: [
          {
            document: 'a.txt',
            upload_id: null,
            pages: 0,
            result: { fields: {}, items: [], warnings: [] },
            check: { review_required: false, reasons: [], flagged: [] },
          },
        ],
      }),
    );
    expect(validate(zero)).toBe(true);
    expect(zero.documents[0]).toMatchObject({
      fields: { total: null },
      items: [],
      evidence: { fields: { total: null }, items: [] },
    });
    const forty = JSON.parse(
      extractionToJson({ fields: FIELDS, documents: [fromInvoice(generateInvoice(2, { itemCount: 40 }), 2)] }),
    );
    expect(validate(forty)).toBe(true);
    expect(forty.documents[0].items).toHaveLength(40);
  });

  it('a value read from an e-invoice XML: evidence with source xml, the element path and the file, page and box null; in CSV and XLSX too', async () => {
    const xmlValue = (v: string, path: string): ExtractedValue => ({
      value: v,
      evidence: { page: null, snippet: v, box: null, source: 'xml', path, file: 'factur-x.xml' },
      confidence: 1,
    });
    const input: ExtractionExportInput = {
      fields: ['invoice_number', 'total'],
      documents: [
        {
          document: 'facturx.pdf',
          upload_id: 'upl_1',
          pages: 1,
          result: {
            fields: {
              invoice_number: xmlValue('F-1', '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID'),
              total: value('10.00'),
            },
            items: [],
            warnings: [],
          },
          check: { review_required: false, reasons: [], flagged: [] },
        },
      ],
    };
    const json = JSON.parse(extractionToJson(input));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.documents[0].evidence.fields).toEqual({
      invoice_number: {
        page: null,
        snippet: 'F-1',
        box: null,
        source: 'xml',
        path: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID',
        file: 'factur-x.xml',
        flagged: false,
        reason: null,
      },
      total: {
        page: 1,
        snippet: 'snippet of 10.00',
        box: { x0: 1, y0: 2, x1: 3, y1: 4 },
        source: 'page',
        path: null,
        file: null,
        flagged: false,
        reason: null,
      },
    });
    const evidence = csvRows(extractionToCsvFiles(input)[2]!.content);
    expect(evidence.slice(1)).toEqual([
      [
        'facturx.pdf',
        'invoice_number',
        '',
        'F-1',
        '',
        'F-1',
        'false',
        '',
        '',
        '',
        '',
        '',
        'xml',
        'factur-x.xml:/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID',
      ],
      ['facturx.pdf', 'total', '', '10.00', '1', 'snippet of 10.00', 'false', '', '1', '2', '3', '4', 'page', ''],
    ]);
    const wb = await readXlsx(await extractionToXlsx(input));
    expect(rowsOf(wb.getWorksheet('Evidence')!)[1]!.slice(12)).toEqual([
      'xml',
      'factur-x.xml:/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID',
    ]);
  });

  it('extractionResultFiles names the three result files', async () => {
    const files = await extractionResultFiles(twenty(), 'extraction', { date: new Date('2026-01-01T00:00:00Z') });
    expect(files.map((f) => [f.name, f.mime])).toEqual([
      ['extraction.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['extraction-csv.zip', 'application/zip'],
      ['extraction.json', 'application/json'],
    ]);
  });
});

import AdmZip from 'adm-zip';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionJson } from '../../adapters/documents/extraction-exports.js';
import { hashPassword } from '../../adapters/crypto/password.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { ProcessingHarness, type JobJson, type TestCompany } from '../helpers/processing.js';

/**
 * The document's own arithmetic and dates through the API (issue 29, items 4 and 5): an invoice whose printed values
 * do not agree with each other (a line amount that is not quantity × unit price, totals that do not add up, a due
 * date before the invoice date) is read as printed, every value with evidence on its page, and the result flags
 * those values with reasons naming them; a reviewer gets the page, box and snippet of every value and of every line
 * in the JSON, the XLSX Evidence sheet, evidence.csv and the dashboard's review.
 */
const h = new ProcessingHarness();
let acme: TestCompany;
let job: JobJson;
const FIELDS = ['invoice_number', 'invoice_date', 'due_date', 'subtotal', 'tax', 'total'];

/** Two pages: the header on page 1, the table and the totals on page 2 (y from the top, in points). */
async function inconsistentInvoice(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const write = (page: ReturnType<PDFDocument['addPage']>, rows: Array<[x: number, top: number, text: string]>) => {
    for (const [x, top, text] of rows) page.drawText(text, { x, y: 792 - top - 10, size: 10, font });
  };
  write(pdf.addPage([612, 792]), [
    [72, 72, 'ACME Supplies Ltd'],
    [72, 100, 'INVOICE'],
    [72, 140, 'Invoice No: INV-2044'],
    [72, 156, 'Invoice date: 2024-03-15'],
    [72, 172, 'Due date: 2024-02-14'],
  ]);
  write(pdf.addPage([612, 792]), [
    [72, 100, 'Description'],
    [300, 100, 'Qty'],
    [360, 100, 'Unit price'],
    [470, 100, 'Amount'],
    [72, 120, 'Widget'],
    [300, 120, '3'],
    [360, 120, '4.50'],
    [470, 120, '12.00'],
    [72, 136, 'Gadget'],
    [300, 136, '1'],
    [360, 136, '5.00'],
    [470, 136, '5.00'],
    [360, 200, 'Subtotal:'],
    [470, 200, '17.00'],
    [360, 216, 'VAT 19%:'],
    [470, 216, '3.23'],
    [360, 232, 'Total:'],
    [470, 232, '21.00'],
  ]);
  return Buffer.from(await pdf.save());
}

beforeAll(async () => {
  await h.start();
  acme = await h.company('Checks');
  const upload = await h.upload(acme.key, 'inconsistent.pdf', await inconsistentInvoice());
  job = await h.waitForJob(
    acme.key,
    (await h.submitOk(acme.key, { operation: 'flow-extract', upload_ids: [upload], fields: FIELDS })).id,
    240_000,
  );
  expect(job.status, JSON.stringify(job)).toBe('completed');
}, 300_000);
afterAll(() => h.stop());

const download = async (i: number) =>
  Buffer.from(await (await h.download(acme.key, job.result!.files[i]!.download_path)).arrayBuffer());

describe('flow-extract: the document checks in the results', () => {
  it('values read as printed, each with evidence, are flagged where the document does not add up, with reasons naming them', async () => {
    const json = ExtractionJson.parse(JSON.parse((await download(2)).toString('utf8')));
    const d = json.documents[0]!;
    // The engine read what is printed, and every value's snippet is on its page (the evidence check passes)…
    expect(d.fields).toEqual({
      invoice_number: 'INV-2044',
      invoice_date: '2024-03-15',
      due_date: '2024-02-14',
      subtotal: '17.00',
      tax: '3.23',
      total: '21.00',
    });
    expect(d.items).toEqual([
      { description: 'Widget', quantity: '3', unit_price: '4.50', amount: '12.00' },
      { description: 'Gadget', quantity: '1', unit_price: '5.00', amount: '5.00' },
    ]);
    expect(d.review_reasons.filter((r) => /does not occur|no evidence|not derivable/u.test(r))).toEqual([]);
    // …and the document still needs review, for its own arithmetic and dates.
    expect(d.review_required).toBe(true);
    expect(d.review_reasons).toEqual([
      'line item 1: quantity 3 × unit price 4.50 = 13.50, but its amount is 12.00',
      'the totals do not add up: subtotal 17.00 + tax 3.23 = 20.23, but total is 21.00',
      'due_date 2024-02-14 is before invoice_date 2024-03-15',
    ]);
    for (const f of ['subtotal', 'tax', 'total'])
      expect(d.evidence.fields[f], f).toMatchObject({
        page: 2,
        flagged: true,
        reason: 'the totals do not add up: subtotal 17.00 + tax 3.23 = 20.23, but total is 21.00',
      });
    for (const f of ['invoice_date', 'due_date'])
      expect(d.evidence.fields[f], f).toMatchObject({ page: 1, flagged: true });
    expect(d.evidence.fields['invoice_number']).toMatchObject({ page: 1, flagged: false, reason: null });
    expect(d.evidence.items[0]!.amount).toMatchObject({
      flagged: true,
      reason: 'line item 1: quantity 3 × unit price 4.50 = 13.50, but its amount is 12.00',
    });
    expect(d.evidence.items[1]!.amount).toMatchObject({ flagged: false });
  });

  it('each value and each line has its page, box and snippet in the JSON, the Evidence sheet and evidence.csv', async () => {
    const d = ExtractionJson.parse(JSON.parse((await download(2)).toString('utf8'))).documents[0]!;
    // 21.00 is drawn at x = 470 on page 2, its top 232 pt from the page's top (10-point Helvetica).
    const total = d.evidence.fields['total']!;
    expect(total).toMatchObject({ page: 2, snippet: '21.00' });
    expect(total.box!.x0).toBeCloseTo(470, 0);
    expect(total.box!.y0).toBeGreaterThan(228);
    expect(total.box!.y1).toBeLessThan(246);
    // The first line: from "Widget" (x 72) to "12.00" (x 470 + its width), on the row at 120 pt.
    const line = d.evidence.items[0]!.line!;
    expect(line).toMatchObject({ page: 2, snippet: 'Widget 3 4.50 12.00', flagged: true });
    expect(line.box!.x0).toBeCloseTo(72, 0);
    expect(line.box!.x1).toBeGreaterThan(490);
    expect(line.box!.y0).toBeGreaterThan(116);
    expect(line.box!.y1).toBeLessThan(134);
    expect(d.evidence.items[1]!.line).toMatchObject({
      page: 2,
      snippet: 'Gadget 1 5.00 5.00',
      flagged: false,
      reason: null,
    });

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download(0)) as unknown as ArrayBuffer);
    const rows: ExcelJS.CellValue[][] = [];
    book.getWorksheet('Evidence')!.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
    expect(rows[0]).toEqual([
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
    const sheetLine = rows.find((r) => r[1] === 'line_item' && r[2] === 1)!;
    expect(sheetLine.slice(3, 8)).toEqual(['Widget | 3 | 4.50 | 12.00', 2, 'Widget 3 4.50 12.00', true, line.reason]);
    expect(sheetLine.slice(8)).toEqual([line.box!.x0, line.box!.y0, line.box!.x1, line.box!.y1, 'page']);
    expect(rows.find((r) => r[1] === 'total')!.slice(8)).toEqual([
      total.box!.x0,
      total.box!.y0,
      total.box!.x1,
      total.box!.y1,
      'page',
    ]);

    const csv = parse(new AdmZip(await download(1)).getEntry('evidence.csv')!.getData(), { bom: true }) as string[][];
    expect(csv[0]).toEqual(rows[0]);
    const csvLine = csv.find((r) => r[1] === 'line_item' && r[2] === '1')!;
    expect(csvLine.slice(4, 7)).toEqual(['2', 'Widget 3 4.50 12.00', 'true']);
    expect(csvLine.slice(8, 12).map(Number)).toEqual([line.box!.x0, line.box!.y0, line.box!.x1, line.box!.y1]);
    expect(csvLine.slice(12)).toEqual(['page', '']);
  });

  it("the dashboard's review shows each value's and each line's page, box and snippet, and the document checks' flags", async () => {
    const owner = await h.tdb
      .db('members as m')
      .join('accounts as a', 'a.id', 'm.account_id')
      .where('m.id', acme.ownerId)
      .first('a.id as account_id', 'a.email');
    await setAccountPassword(h.tdb.db, owner.account_id, await hashPassword('checks owner password'), new Date());
    const session = new DashboardClient(h.app.url, '/api/company');
    expect((await session.signIn(owner.email, 'checks owner password', { idem: null })).status).toBe(201);
    const res = await session.request('GET', `/jobs/${job.id}/extraction`);
    expect(res.status).toBe(200);
    const review = (await res.json()) as {
      documents: Array<{
        review_reasons: string[];
        fields: Record<
          string,
          { flagged: boolean; reason: string | null; evidence: { page: number; snippet: string; box: unknown } | null }
        >;
        lines: Array<{ page: number; snippet: string; box: { x0: number } | null } | null>;
      }>;
    };
    const d = review.documents[0]!;
    expect(d.fields['total']).toMatchObject({
      flagged: true,
      reason: 'the totals do not add up: subtotal 17.00 + tax 3.23 = 20.23, but total is 21.00',
      evidence: { page: 2, snippet: '21.00' },
    });
    expect(d.fields['total']!.evidence!.box).toMatchObject({
      x0: expect.any(Number),
      y0: expect.any(Number),
      x1: expect.any(Number),
      y1: expect.any(Number),
    });
    expect(d.lines).toHaveLength(2);
    expect(d.lines[0]).toMatchObject({ page: 2, snippet: 'Widget 3 4.50 12.00' });
    expect(d.lines[0]!.box!.x0).toBeCloseTo(72, 0);
  });
});

import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineExtractionEngine } from '../../adapters/extraction/offline-engine.js';
import { readSourceText } from '../../adapters/extraction/source-text.js';
import { createOcrEngine } from '../../adapters/media/ocr/ocr-engine.js';
import ExcelJS from 'exceljs';
import AdmZip from 'adm-zip';
import { ExtractionJson } from '../../adapters/documents/extraction-exports.js';
import { hashPassword } from '../../adapters/crypto/password.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { batchClient } from '../helpers/batches.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { CORPUS_FIELDS, generateInvoice, renderInvoice, type InvoiceDocument } from '../../support/invoice-corpus.js';
import { measureExtraction } from '../helpers/extraction-measure.js';

/**
 * `flow-extract` through the real app, PostgreSQL, Temporal and a worker with the offline engine: 25 credits per page,
 * the request rules (fields, instructions, workflow_id), one row per document in XLSX, the CSV ZIP and JSON, values
 * equal to the generated documents' truth, a saved workflow whose settings take precedence (and whose revision the
 * job keeps), and a batch of one child per document.
 */
const h = new ProcessingHarness();
let acme: TestCompany;
let textInvoice: InvoiceDocument;
let imageInvoice: InvoiceDocument;
let textPdf: string;
let png: string;
let note: string;

beforeAll(async () => {
  await h.start();
  acme = await h.company('Extract');
  // A day-first date on a USD invoice without a hint is ambiguous by design (the engine reads it month first, as its
  // documented rule says); this document prints its dates unambiguously.
  textInvoice = generateInvoice(21, { layout: 'label-left', itemCount: 4, dateFormat: 'd-mon-y' });
  imageInvoice = generateInvoice(22, { layout: 'label-above', itemCount: 2 });
  textPdf = await h.upload(
    acme.key,
    'invoice-21.pdf',
    Buffer.from((await renderInvoice(textInvoice, 'text_pdf')).bytes),
  );
  png = await h.upload(acme.key, 'invoice-22.png', Buffer.from((await renderInvoice(imageInvoice, 'png')).bytes));
  note = await h.upload(acme.key, 'note.txt', Buffer.from('Order number: PO-77812\nTotal: 12.50 EUR\n'));
}, 120_000);
afterAll(() => h.stop());

const post = (path: string, body: unknown) =>
  fetch(`${h.app.url}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acme.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function signedInOwner(): Promise<DashboardClient> {
  const owner = await h.tdb
    .db('members as m')
    .join('accounts as a', 'a.id', 'm.account_id')
    .where('m.id', acme.ownerId)
    .first('a.id as account_id', 'a.email');
  await setAccountPassword(h.tdb.db, owner.account_id, await hashPassword('extract owner password'), new Date());
  const session = new DashboardClient(h.app.url, '/api/company');
  expect((await session.signIn(owner.email, 'extract owner password', { idem: null })).status).toBe(201);
  return session;
}

describe('flow-extract requests', () => {
  it('25 credits per page of every document', async () => {
    const res = await post('/estimate', {
      operation: 'flow-extract',
      upload_ids: [textPdf, png, note],
      fields: ['total'],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      estimated_credits: 75,
      sources: [
        { upload_id: textPdf, credits: 25 },
        { upload_id: png, credits: 25 },
        { upload_id: note, credits: 25 },
      ],
    });
  });

  it('refuses what it cannot run, naming the field, before anything is reserved', async () => {
    const before = await h.wallet(acme.id);
    const cases: Array<[unknown, number, string]> = [
      [{ operation: 'flow-extract', upload_ids: [textPdf] }, 422, 'fields'],
      [{ operation: 'flow-extract', upload_ids: [textPdf], fields: [] }, 422, 'fields'],
      [{ operation: 'flow-extract', upload_ids: [textPdf], fields: ['total', 'Total'] }, 422, 'fields'],
      [{ operation: 'flow-extract', upload_ids: [textPdf], fields: ['warnings'] }, 422, 'fields.0'],
      [
        { operation: 'flow-extract', upload_ids: [textPdf], fields: ['total'], instructions: 'x'.repeat(4001) },
        422,
        'instructions',
      ],
      [
        { operation: 'flow-extract', upload_ids: [textPdf], fields: ['total'], options: { format: 'csv' } },
        422,
        'options',
      ],
      [{ operation: 'flow-extract', upload_ids: [textPdf], workflow_id: 'workflow-1' }, 422, 'workflow_id'],
      [{ operation: 'pdf-rotate', upload_ids: [textPdf], options: { angle: 90 }, fields: ['total'] }, 422, 'fields'],
      [{ operation: 'flow-extract', upload_ids: [textPdf], workflow_id: `wfl_${'A'.repeat(20)}` }, 404, 'workflow_id'],
    ];
    for (const [body, status, path] of cases) {
      const res = await h.submit(acme.key, body);
      const json = (await res.json()) as { issues?: Array<{ path: string }>; field?: string; detail: string };
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (status === 422)
        expect(
          json.issues!.map((i) => i.path),
          JSON.stringify(body),
        ).toContain(path);
      else expect(json.detail).toContain(path);
    }
    expect(await h.wallet(acme.id)).toEqual(before);
  });
});

describe('flow-extract jobs', () => {
  it("one row per document in XLSX, the CSV ZIP and JSON; the values are the documents' own; charged once", async () => {
    const before = await h.wallet(acme.id);
    const job = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'flow-extract',
          upload_ids: [textPdf, png],
          fields: [...CORPUS_FIELDS],
          instructions: 'Amounts include tax.',
        })
      ).id,
      240_000,
    );
    expect(job).toMatchObject({
      status: 'completed',
      charged_credits: 50,
      extraction: {
        fields: [...CORPUS_FIELDS],
        instructions: 'Amounts include tax.',
        workflow_id: null,
        workflow_revision: null,
      },
    });
    expect(job.result!.files.map((f) => [f.name, f.content_type])).toEqual([
      ['invoice-21-extracted.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['invoice-21-extracted-csv.zip', 'application/zip'],
      ['invoice-21-extracted.json', 'application/json'],
    ]);
    const download = async (i: number) =>
      Buffer.from(await (await h.download(acme.key, job.result!.files[i]!.download_path)).arrayBuffer());

    const json = ExtractionJson.parse(JSON.parse((await download(2)).toString('utf8')));
    expect(json.documents.map((d) => [d.document, d.upload_id, d.pages])).toEqual([
      ['invoice-21.pdf', textPdf, 1],
      ['invoice-22.png', png, 1],
    ]);
    // The text PDF is read exactly (its text layer); the image through OCR, as measured in extraction-accuracy.test.ts.
    const asResult = (d: (typeof json.documents)[number]) =>
      ({
        fields: Object.fromEntries(
          Object.entries(d.fields).map(([k, v]) => [k, { value: v, evidence: null, confidence: null }]),
        ),
        items: d.items.map((it) =>
          Object.fromEntries(
            Object.entries(it).map(([k, v]) => [k, { value: v as string | null, evidence: null, confidence: null }]),
          ),
        ),
      }) as never;
    const text = measureExtraction(textInvoice.truth, asResult(json.documents[0]!));
    expect(text.precision).toBe(1);
    expect(text.recall).toBe(1);
    // The line items are what the engine reads from this document when called directly (its accuracy on the corpus is
    // measured in extraction-accuracy.test.ts; here the pipeline must neither lose nor change what it reads).
    const direct = await new OfflineExtractionEngine().extract({
      document: await readSourceText(h.store.pathOf(textPdf), {
        engine: createOcrEngine(),
        workDir: await mkdtemp(join(tmpdir(), 'extract-direct-')),
      }),
      fields: [...CORPUS_FIELDS],
    });
    expect(json.documents[0]!.items).toEqual(
      direct.items.map((it) => Object.fromEntries(Object.entries(it).map(([k, v]) => [k, v.value]))),
    );
    expect(text.items.truth).toBe(textInvoice.truth.items.length);
    const image = measureExtraction(imageInvoice.truth, asResult(json.documents[1]!));
    expect(image.precision).toBeGreaterThanOrEqual(0.85);
    expect(image.recall).toBeGreaterThanOrEqual(0.8);
    // Every value carries evidence the platform checked.
    for (const d of json.documents) {
      for (const [name, value] of Object.entries(d.fields))
        if (value !== null) expect(d.evidence.fields[name], name).toMatchObject({ page: 1, flagged: false });
    }

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download(0)) as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Documents', 'Line items', 'Evidence', 'Corrections']);
    expect(book.getWorksheet('Documents')!.rowCount).toBe(3); // header + one row per document
    expect(book.getWorksheet('Line items')!.rowCount).toBe(
      1 + textInvoice.truth.items.length + json.documents[1]!.items.length,
    );
    const zip = new AdmZip(await download(1));
    expect(
      zip
        .getEntries()
        .map((e) => e.entryName)
        .sort(),
    ).toEqual(['corrections.csv', 'documents.csv', 'evidence.csv', 'line-items.csv']);

    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 50, reserved: before.reserved });
  });

  it('a text source is the pages it is billed for (one per started 4,000 bytes) in the quote, the charge and every export', async () => {
    // 8,001 bytes: three started 4,000-byte pages (spec section 8), the total on the last of them.
    const filler = Array.from(
      { length: 300 },
      (_, i) => `Delivery note line ${String(i).padStart(3, '0')} checked.`,
    ).join('\n');
    const tail = '\nTotal: 12.50 EUR\n';
    const text = Buffer.from(filler.slice(0, 8_001 - tail.length) + tail);
    expect(text.length).toBe(8_001);
    const id = await h.upload(acme.key, 'long-note.txt', text);
    expect(
      (await (await fetch(`${h.app.url}/v1/uploads/${id}`, { headers: h.auth(acme.key) })).json()) as { pages: number },
    ).toMatchObject({ pages: 3 });
    const quote = await post('/estimate', { operation: 'flow-extract', upload_ids: [id], fields: ['total'] });
    expect(await quote.json()).toMatchObject({
      estimated_credits: 75,
      sources: [{ upload_id: id, pages: 3, credits: 75 }],
    });
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'flow-extract', upload_ids: [id], fields: ['total'] })).id,
    );
    expect(job).toMatchObject({ status: 'completed', charged_credits: 75 });
    const download = async (i: number) =>
      Buffer.from(await (await h.download(acme.key, job.result!.files[i]!.download_path)).arrayBuffer());
    const json = ExtractionJson.parse(JSON.parse((await download(2)).toString('utf8')));
    expect(json.documents.map((d) => [d.document, d.pages])).toEqual([['long-note.txt', 3]]);
    // The evidence names the page the value is on: the last of the three.
    expect(json.documents[0]!.fields['total']).toBe('12.50');
    expect(json.documents[0]!.evidence.fields['total']).toMatchObject({ page: 3, flagged: false });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download(0)) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Documents')!;
    expect([sheet.getRow(1).getCell(2).value, sheet.getRow(2).getCell(2).value]).toEqual(['pages', 3]);
    const csv = new AdmZip(await download(1)).getEntry('documents.csv')!.getData().toString('utf8');
    expect(csv.split('\r\n')[1]!.split(',')[1]).toBe('3');
  });

  it("a saved workflow's fields and instructions take precedence; the job keeps the revision it used", async () => {
    const session = await signedInOwner();
    const created = (await (
      await session.request('POST', '/workflows', {
        name: 'Totals',
        fields: ['invoice_number', 'total'],
        instructions: 'Totals include tax.',
      })
    ).json()) as { id: string };
    const job = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'flow-extract',
          upload_ids: [textPdf],
          workflow_id: created.id,
          fields: ['vendor_email'],
        })
      ).id,
      240_000,
    );
    expect(job).toMatchObject({
      status: 'completed',
      charged_credits: 25,
      extraction: {
        fields: ['invoice_number', 'total'],
        instructions: 'Totals include tax.',
        workflow_id: created.id,
        workflow_revision: 1,
      },
    });
    const json = ExtractionJson.parse(await (await h.download(acme.key, job.result!.files[2]!.download_path)).json());
    expect(Object.keys(json.documents[0]!.fields)).toEqual(['invoice_number', 'total']);
    expect(json.documents[0]!.fields).toEqual({
      invoice_number: textInvoice.truth.fields.invoice_number,
      total: textInvoice.truth.fields.total,
    });

    // An edit makes revision 2 for later jobs; the finished job still shows what it ran with.
    expect((await session.request('PATCH', `/workflows/${created.id}`, { fields: ['total'] })).status).toBe(200);
    const later = await h.submitOk(acme.key, {
      operation: 'flow-extract',
      upload_ids: [textPdf],
      workflow_id: created.id,
    });
    expect(later.extraction).toMatchObject({ fields: ['total'], workflow_revision: 2 });
    expect((await h.getJob(acme.key, job.id)).extraction).toMatchObject({
      fields: ['invoice_number', 'total'],
      workflow_revision: 1,
    });
    await h.waitForJob(acme.key, later.id, 240_000);
    // A deleted workflow cannot be used.
    expect((await session.request('POST', `/workflows/${created.id}/delete`)).status).toBe(200);
    expect(
      (await h.submit(acme.key, { operation: 'flow-extract', upload_ids: [textPdf], workflow_id: created.id })).status,
    ).toBe(404);
  });

  it('a batch names its saved workflow once: every child reads the same revision, looked up once', async () => {
    const session = await signedInOwner();
    const created = (await (
      await session.request('POST', '/workflows', { name: 'Batch workflow', fields: ['total'] })
    ).json()) as { id: string };
    const lookups: string[] = [];
    const count = (q: { sql: string }) => {
      if (/from "saved_workflows"/.test(q.sql)) lookups.push(q.sql);
    };
    h.tdb.db.on('query', count);
    const batches = batchClient(h);
    let batchId: string;
    try {
      const batch = await batches.submitOk(acme.key, {
        operation: 'flow-extract',
        upload_ids: [note, note, note, note],
        workflow_id: created.id,
      });
      batchId = batch.id;
    } finally {
      h.tdb.db.removeListener('query', count);
    }
    expect(lookups).toHaveLength(1);
    const done = await batches.waitForBatch(acme.key, batchId);
    const children = await Promise.all(done.jobs.map((j) => h.getJob(acme.key, j.id)));
    for (const c of children)
      expect(c.extraction).toEqual({
        fields: ['total'],
        instructions: null,
        workflow_id: created.id,
        workflow_revision: 1,
      });
  });

  it("a batch: one child per document, each with the batch's fields", async () => {
    const batches = batchClient(h);
    const batch = await batches.submitOk(acme.key, {
      operation: 'flow-extract',
      upload_ids: [textPdf, note],
      fields: ['total', 'invoice_number'],
    });
    const done = await batches.waitForBatch(acme.key, batch.id);
    expect(done).toMatchObject({ status: 'completed', credits: { charged: 50 } });
    const children = await Promise.all(done.jobs.map((j) => h.getJob(acme.key, j.id)));
    for (const c of children) expect(c.extraction).toMatchObject({ fields: ['total', 'invoice_number'] });
    const noteJson = ExtractionJson.parse(
      await (await h.download(acme.key, children[1]!.result!.files[2]!.download_path)).json(),
    );
    expect(noteJson.documents[0]!.fields['total']).toBe('12.50');
  });
});

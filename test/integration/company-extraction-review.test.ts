import { existsSync } from 'node:fs';
import AdmZip from 'adm-zip';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionJson } from '../../adapters/documents/extraction-exports.js';
import { hashPassword } from '../../adapters/crypto/password.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { ProcessingHarness, type JobJson, type TestCompany } from '../helpers/processing.js';
import { DashboardClient, inviteAndAccept } from '../helpers/dashboard.js';
import { generateInvoice, renderInvoice, type InvoiceDocument } from '../../support/invoice-corpus.js';

/**
 * Review corrections of a `flow-extract` job in the company session (spec section 2, Records): the review shows every
 * value beside its evidence; a member's corrections are recorded (who, when, old, new), regenerate the exports as
 * new result files beside the untouched originals, and cost nothing; stale revisions, unknown fields, malformed
 * values and other companies' jobs are refused without changing anything.
 */
const h = new ProcessingHarness();
let acme: TestCompany;
let other: TestCompany;
let invoice: InvoiceDocument;
let job: JobJson;
let owner: DashboardClient;
let member: DashboardClient;
const FIELDS = ['invoice_number', 'invoice_date', 'total', 'currency', 'vendor_email'];

async function signIn(email: string, password: string): Promise<DashboardClient> {
  const c = new DashboardClient(h.app.url, '/api/company');
  const res = await c.signIn(email, password, { idem: null });
  expect(res.status, await res.clone().text()).toBe(201);
  return c;
}

beforeAll(async () => {
  await h.start();
  acme = await h.company('Review');
  other = await h.company('Other');
  invoice = generateInvoice(31, { layout: 'label-left', itemCount: 3, dateFormat: 'iso' });
  const upload = await h.upload(
    acme.key,
    'invoice-31.pdf',
    Buffer.from((await renderInvoice(invoice, 'text_pdf')).bytes),
  );
  job = await h.waitForJob(
    acme.key,
    (await h.submitOk(acme.key, { operation: 'flow-extract', upload_ids: [upload], fields: FIELDS })).id,
    240_000,
  );
  expect(job.status).toBe('completed');

  const ownerRow = await h.tdb
    .db('members as m')
    .join('accounts as a', 'a.id', 'm.account_id')
    .where('m.id', acme.ownerId)
    .first('a.id as account_id', 'a.email');
  await setAccountPassword(h.tdb.db, ownerRow.account_id, await hashPassword('review owner password'), new Date());
  owner = await signIn(ownerRow.email, 'review owner password');
  const accepted = await inviteAndAccept(owner, h.smtp, 'reviewer@review.example', 'reviewer password 1');
  expect(accepted.status, await accepted.clone().text()).toBe(201);
  member = await signIn('reviewer@review.example', 'reviewer password 1');
}, 300_000);
afterAll(() => h.stop());

interface ReviewValue {
  value: string | null;
  extracted_value: string | null;
  evidence: { page: number; snippet: string } | null;
  flagged: boolean;
  corrected: boolean;
}
interface Review {
  revision: number;
  fields: string[];
  documents: Array<{
    index: number;
    document: string;
    review_required: boolean;
    fields: Record<string, ReviewValue>;
    items: Array<Record<string, { value: string | null }>>;
  }>;
  corrections: Array<{
    revision: number;
    document: number;
    field: string;
    previous_value: string | null;
    value: string | null;
    corrected_by: string;
    corrected_at: string;
  }>;
  files: {
    original: Array<{ index: number; name: string; download_path: string }>;
    reviewed: Array<{ index: number; name: string; download_path: string }>;
  };
}

const review = async (c: DashboardClient = member): Promise<Review> => {
  const res = await c.request('GET', `/jobs/${job.id}/extraction`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Review;
};
const correct = (body: unknown, c: DashboardClient = member) =>
  c.request('POST', `/jobs/${job.id}/extraction/corrections`, body);
const bytesOf = async (c: DashboardClient, path: string) => {
  const res = await c.requestAt('GET', path);
  expect(res.status, path).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

describe('extraction review in the company session', () => {
  it('shows each value beside the evidence it was read from', async () => {
    const r = await review();
    expect(r).toMatchObject({ revision: 0, fields: FIELDS, corrections: [], files: { reviewed: [] } });
    expect(r.files.original.map((f) => f.name)).toEqual([
      'invoice-31-extracted.xlsx',
      'invoice-31-extracted-csv.zip',
      'invoice-31-extracted.json',
    ]);
    const total = r.documents[0]!.fields['total']!;
    expect(total).toMatchObject({
      value: invoice.truth.fields.total,
      extracted_value: invoice.truth.fields.total,
      flagged: false,
      corrected: false,
    });
    expect(total.evidence!.snippet.replace(/\D/g, '')).toContain(
      invoice.truth.fields.total!.replace(/\D/g, '').replace(/0+$/, ''),
    );
    expect(r.documents[0]!.items).toHaveLength(3);
  });

  it('records a correction, regenerates the exports as new files beside the originals, and charges nothing', async () => {
    const before = await h.wallet(acme.id);
    const originals = await Promise.all((await review()).files.original.map((f) => bytesOf(member, f.download_path)));
    const res = await correct({
      revision: 0,
      corrections: [
        { document: 0, field: 'total', value: '9999.5' },
        { document: 0, field: 'vendor_email', value: null },
      ],
    });
    const r = (await res.json()) as Review;
    expect(res.status, JSON.stringify(r)).toBe(201);
    expect(r.revision).toBe(1);
    expect(r.documents[0]!.fields['total']).toMatchObject({
      value: '9999.5',
      extracted_value: invoice.truth.fields.total,
      corrected: true,
    });
    expect(r.corrections).toEqual([
      {
        id: expect.stringMatching(/^exc_/),
        revision: 1,
        document: 0,
        field: 'total',
        previous_value: invoice.truth.fields.total,
        value: '9999.5',
        corrected_by: 'reviewer@review.example',
        corrected_at: expect.any(String),
      },
      {
        id: expect.stringMatching(/^exc_/),
        revision: 1,
        document: 0,
        field: 'vendor_email',
        previous_value: invoice.truth.fields.vendor_email,
        value: null,
        corrected_by: 'reviewer@review.example',
        corrected_at: expect.any(String),
      },
    ]);
    expect(r.files.reviewed.map((f) => [f.index, f.name])).toEqual([
      [3, 'invoice-31-reviewed.xlsx'],
      [4, 'invoice-31-reviewed-csv.zip'],
      [5, 'invoice-31-reviewed.json'],
    ]);

    // The originals are the same bytes; the /v1 job lists six files.
    expect(await Promise.all(r.files.original.map((f) => bytesOf(member, f.download_path)))).toEqual(originals);
    const v1 = await h.getJob(acme.key, job.id);
    expect(v1.result!.files.map((f) => f.name)).toEqual([...r.files.original, ...r.files.reviewed].map((f) => f.name));

    // The regenerated JSON, workbook and CSV files hold the corrected values and the log of corrections.
    const json = ExtractionJson.parse(
      JSON.parse((await bytesOf(member, r.files.reviewed[2]!.download_path)).toString('utf8')),
    );
    expect(json.documents[0]!.fields).toMatchObject({
      total: '9999.5',
      vendor_email: null,
      invoice_number: invoice.truth.fields.invoice_number,
    });
    expect(json.documents[0]!.evidence.fields['total']).toMatchObject({ snippet: null, flagged: false });
    expect(json.documents[0]!.corrections.map((c) => [c.field, c.previous_value, c.value])).toEqual([
      ['total', invoice.truth.fields.total, '9999.5'],
      ['vendor_email', invoice.truth.fields.vendor_email, null],
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await bytesOf(owner, r.files.reviewed[0]!.download_path)) as unknown as ArrayBuffer);
    const docs = wb.getWorksheet('Documents')!;
    const header = (docs.getRow(1).values as unknown[]).slice(1);
    expect(docs.getRow(2).getCell(header.indexOf('total') + 1).value).toBe(9999.5);
    expect(wb.getWorksheet('Corrections')!.rowCount).toBe(3);
    const csv = new AdmZip(await bytesOf(member, r.files.reviewed[1]!.download_path));
    expect(
      csv
        .getEntries()
        .map((e) => e.entryName)
        .sort(),
    ).toEqual(['corrections.csv', 'documents.csv', 'evidence.csv', 'line-items.csv']);
    expect(csv.readAsText('corrections.csv')).toContain('reviewer@review.example');

    expect(await h.wallet(acme.id)).toEqual(before);
  });

  it('a later revision replaces the reviewed files and keeps the whole log', async () => {
    const first = await review();
    const storedBefore = (await h.tdb.db('jobs').where({ id: job.id }).first('result_files')).result_files as Array<{
      storage_id: string;
    }>;
    const res = await correct(
      { revision: 1, corrections: [{ document: 0, field: 'total', value: ' 0012.50 ' }] },
      owner,
    );
    const r = (await res.json()) as Review;
    expect(res.status, JSON.stringify(r)).toBe(201);
    expect(r.revision).toBe(2);
    expect(r.corrections.map((c) => [c.revision, c.field, c.previous_value, c.value])).toEqual([
      [1, 'total', invoice.truth.fields.total, '9999.5'],
      [1, 'vendor_email', invoice.truth.fields.vendor_email, null],
      [2, 'total', '9999.5', '12.5'],
    ]);
    expect(r.files.reviewed.map((f) => f.index)).toEqual([3, 4, 5]);
    const json = ExtractionJson.parse(
      JSON.parse((await bytesOf(member, r.files.reviewed[2]!.download_path)).toString('utf8')),
    );
    expect(json.documents[0]!.fields).toMatchObject({ total: '12.5', vendor_email: null });
    expect((await h.getJob(acme.key, job.id)).result!.files).toHaveLength(6);
    // The previous revision's files are gone from storage; the originals and the new ones are there.
    const storedAfter = (await h.tdb.db('jobs').where({ id: job.id }).first('result_files')).result_files as Array<{
      storage_id: string;
    }>;
    expect(first.files.reviewed).toHaveLength(3);
    expect(storedAfter.slice(0, 3)).toEqual(storedBefore.slice(0, 3));
    for (const f of storedBefore.slice(3)) expect(existsSync(h.store.pathOf(f.storage_id)), f.storage_id).toBe(false);
    for (const f of storedAfter) expect(existsSync(h.store.pathOf(f.storage_id)), f.storage_id).toBe(true);
  });

  it('refuses a stale revision, unknown documents and fields, malformed values and line items, changing nothing', async () => {
    const before = await review();
    const cases: Array<[unknown, number, string]> = [
      [{ revision: 0, corrections: [{ document: 0, field: 'total', value: '1' }] }, 409, 'revision 2'],
      [{ revision: 2, corrections: [{ document: 1, field: 'total', value: '1' }] }, 422, 'corrections.0.document'],
      [{ revision: 2, corrections: [{ document: 0, field: 'description', value: 'x' }] }, 422, 'corrections.0.field'],
      [
        { revision: 2, corrections: [{ document: 0, field: 'invoice_date', value: '31/03/2026' }] },
        422,
        'corrections.0.value',
      ],
      [
        { revision: 2, corrections: [{ document: 0, field: 'invoice_date', value: '2026-02-30' }] },
        422,
        'corrections.0.value',
      ],
      [{ revision: 2, corrections: [{ document: 0, field: 'total', value: '1,234.50' }] }, 422, 'corrections.0.value'],
      [{ revision: 2, corrections: [{ document: 0, field: 'currency', value: 'EURO' }] }, 422, 'corrections.0.value'],
      [
        { revision: 2, corrections: [{ document: 0, field: 'vendor_email', value: 'not an address' }] },
        422,
        'corrections.0.value',
      ],
      [
        {
          revision: 2,
          corrections: [
            { document: 0, field: 'total', value: '1' },
            { document: 0, field: 'total', value: '2' },
          ],
        },
        422,
        'corrections.1',
      ],
      [{ revision: 2, corrections: [] }, 422, 'corrections'],
      [{ revision: 2, corrections: [{ document: 0, field: 'total', value: 5 }] }, 422, 'corrections.0.value'],
      [{ revision: 2, corrections: [{ document: 0, field: 'total', value: '1', note: 'x' }] }, 422, 'corrections.0'],
    ];
    for (const [body, status, where] of cases) {
      const res = await correct(body);
      const text = await res.text();
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(text, JSON.stringify(body)).toContain(where);
    }
    expect(await review()).toEqual(before);
  });

  it("is the company's own: another company's session gets 404, a job that is not an extraction 409, and no session 401", async () => {
    const foreignJob = await h.submitOk(other.key, {
      operation: 'flow-extract',
      upload_ids: [await h.upload(other.key, 'n.txt', Buffer.from('Total: 1.00 EUR\n'))],
      fields: ['total'],
    });
    expect((await member.request('GET', `/jobs/${foreignJob.id}/extraction`)).status).toBe(404);
    expect(
      (
        await member.request('POST', `/jobs/${foreignJob.id}/extraction/corrections`, {
          revision: 0,
          corrections: [{ document: 0, field: 'total', value: '1' }],
        })
      ).status,
    ).toBe(404);
    const rotate = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'pdf-rotate',
          upload_ids: [job.upload_ids[0]!],
          options: { angle: 90 },
        })
      ).id,
    );
    expect((await member.request('GET', `/jobs/${rotate.id}/extraction`)).status).toBe(409);
    const anonymous = new DashboardClient(h.app.url, '/api/company');
    expect((await anonymous.request('GET', `/jobs/${job.id}/extraction`)).status).toBe(401);
    expect(
      (
        await member.request(
          'POST',
          `/jobs/${job.id}/extraction/corrections`,
          { revision: 2, corrections: [{ document: 0, field: 'total', value: '1' }] },
          { csrf: null },
        )
      ).status,
    ).toBe(403);
    await h.waitForJob(other.key, foreignJob.id, 240_000);
  });

  it('the session reads the job, its results, the batch and the credits as /v1 does', async () => {
    const res = await member.request('GET', `/jobs/${job.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: job.id, status: 'completed', operation: 'flow-extract' });
    expect((await member.request('GET', `/jobs/${job.id}/results/9`)).status).toBe(404);
    const credits = await member.request('GET', '/credits');
    expect(credits.status).toBe(200);
    expect(await credits.json()).toMatchObject({ ...(await h.wallet(acme.id)), ledger: { data: expect.any(Array) } });
    expect((await member.request('GET', `/batches/bat_${'A'.repeat(20)}`)).status).toBe(404);
  });
});

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { encryptedPdfPageCount, WrongPdfPassword } from '../../adapters/media/pdf/qpdf.js';
import { reserveJobCredits } from '../../services/processing/credits.js';
import { newId } from '../../adapters/crypto/tokens.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { pageContents, pdfHexText, pdfPageText } from '../helpers/pdf-inspect.js';
import { sampleEncryptedPdf, samplePdf, samplePng } from '../../support/sample-files.js';

const h = new ProcessingHarness();
let acme: TestCompany;
let other: TestCompany;
const up: Record<string, string> = {};

beforeAll(async () => {
  await h.start();
  acme = await h.company('Acme');
  other = await h.company('Other');
  up['pdf12'] = await h.upload(acme.key, 'report.pdf', await samplePdf(12));
  up['pdf3'] = await h.upload(acme.key, 'short.pdf', await samplePdf(3));
  up['locked'] = await h.upload(acme.key, 'locked.pdf', await sampleEncryptedPdf(4, 'open sesame'));
  up['png'] = await h.upload(acme.key, 'photo.png', await samplePng(400, 300));
  up['foreign'] = await h.upload(other.key, 'theirs.pdf', await samplePdf(2));
});
afterAll(() => h.stop());

async function bytesOf(path: string, key = acme.key): Promise<Buffer> {
  const res = await h.download(key, path);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('POST /v1/jobs → job:<id> → completed', () => {
  it('rotates the selected pages, charges the quote once and serves the result as an authenticated download', async () => {
    const before = await h.wallet(acme.id);
    const job = await h.submitOk(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [up['pdf12']],
      options: { angle: 90, pages: '1-2,12' },
    });
    expect(job).toMatchObject({
      id: expect.stringMatching(/^job_[A-Za-z0-9]{20}$/),
      status: 'queued',
      estimated_credits: 4,
      charged_credits: null,
      result: null,
      error: null,
    });

    const done = await h.waitForJob(acme.key, job.id);
    expect(done).toMatchObject({ status: 'completed', charged_credits: 4, error: null });
    expect(done.result!.files).toEqual([
      {
        name: 'report-rotated.pdf',
        download_path: `/v1/jobs/${job.id}/results/0`,
        bytes: expect.any(Number),
        content_type: 'application/pdf',
      },
    ]);
    const res = await h.download(acme.key, done.result!.files[0]!.download_path);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('filename="report-rotated.pdf"');
    const pdf = await PDFDocument.load(Buffer.from(await res.arrayBuffer()));
    expect(pdf.getPages().map((p) => p.getRotation().angle)).toEqual([90, 90, 0, 0, 0, 0, 0, 0, 0, 0, 0, 90]);

    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 4, reserved: 0 });
    const ledger = await h.tdb
      .db('credit_ledger')
      .where({ company_id: acme.id })
      .whereNotNull('reservation_id')
      .orderBy('id');
    expect(ledger.map((r) => [r.kind, Number(r.amount)])).toEqual([
      ['reserve', 4],
      ['charge', 4],
    ]);

    // The workflow is findable by its business id and carries only the job id.
    const handle = h.gateway.client.workflow.getHandle(`job:${job.id}`);
    expect(await handle.result()).toMatchObject({ status: 'completed', outages: 0 });
    expect((await handle.describe()).type).toBe('processingJobWorkflow');
  });

  it('watermarks, numbers, extracts, deletes and merges with the content to show for it', async () => {
    const wm = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'pdf-watermark',
          upload_ids: [up['pdf3']],
          options: { text: 'DRAFT ONLY', pages: '2' },
        })
      ).id,
    );
    // Drawn in an embedded font (glyph ids in the content stream): read back as a reader extracts it.
    const marked = await bytesOf(wm.result!.files[0]!.download_path);
    expect([1, 2, 3].map((p) => pdfPageText(marked, p).replace(/\s+/g, '').includes('DRAFTONLY'))).toEqual([
      false,
      true,
      false,
    ]);

    const num = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'pdf-number', upload_ids: [up['pdf3']], options: { start: 7 } })).id,
    );
    const numbered = await PDFDocument.load(await bytesOf(num.result!.files[0]!.download_path));
    expect(
      numbered.getPages().map((p) => pageContents(p).includes(pdfHexText(String(7 + numbered.getPages().indexOf(p))))),
    ).toEqual([true, true, true]);

    const ex = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'pdf-extract', upload_ids: [up['pdf12']], options: { pages: '2-4,9' } }))
        .id,
    );
    const extracted = await PDFDocument.load(await bytesOf(ex.result!.files[0]!.download_path));
    expect(extracted.getPages().map((p) => pageContents(p).includes(pdfHexText('Page ')))).toHaveLength(4);
    expect(
      extracted.getPages().map((p) => [2, 3, 4, 9].some((n) => pageContents(p).includes(pdfHexText(`Page ${n}`)))),
    ).toEqual([true, true, true, true]);

    const del = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'pdf-delete', upload_ids: [up['pdf3']], options: { pages: '1,3' } })).id,
    );
    const kept = await PDFDocument.load(await bytesOf(del.result!.files[0]!.download_path));
    expect(kept.getPageCount()).toBe(1);
    expect(pageContents(kept.getPage(0))).toContain(pdfHexText('Page 2'));

    const merge = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'pdf-merge', upload_ids: [up['pdf3'], up['pdf12']] })).id,
    );
    expect(merge.result!.files[0]!.name).toBe('merged.pdf');
    expect((await PDFDocument.load(await bytesOf(merge.result!.files[0]!.download_path))).getPageCount()).toBe(15);
  });

  it('protects with a password that then opens the result, and never keeps the password', async () => {
    const password = 'Pr0tect-Me-7fq2';
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'pdf-protect', upload_ids: [up['pdf3']], options: { password } })).id,
    );
    expect(job.status).toBe('completed');
    expect(job.options).toEqual({});
    const dir = mkdtempSync(join(tmpdir(), 'protected-'));
    const file = join(dir, 'out.pdf');
    writeFileSync(file, await bytesOf(job.result!.files[0]!.download_path));
    expect(await encryptedPdfPageCount(file, password)).toBe(3);
    await expect(encryptedPdfPageCount(file, 'wrong password')).rejects.toBeInstanceOf(WrongPdfPassword);
    await expect(PDFDocument.load(await bytesOf(job.result!.files[0]!.download_path))).rejects.toThrow(/encrypted/i);

    // Not in any table, not in the logs, not in the workflow history.
    for (const table of ['jobs', 'idempotency_keys', 'credit_ledger', 'credit_reservations']) {
      const rows = await h.tdb.db(table).select('*');
      expect(JSON.stringify(rows), table).not.toContain(password);
    }
    const row = await h.tdb.db('jobs').where({ id: job.id }).first();
    expect(row.secret_sealed).toBeNull();
    expect(h.logs.text()).not.toContain(password);
    const history = await h.gateway.client.workflow.getHandle(`job:${job.id}`).fetchHistory();
    expect(JSON.stringify(history)).not.toContain(Buffer.from(password).toString('base64'));
    expect(JSON.stringify(history)).not.toContain(password);
  });

  it('unlocks an encrypted PDF with its password; other operations refuse the encrypted source', async () => {
    const refused = await h.submit(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [up['locked']],
      options: { angle: 180 },
    });
    expect(refused.status).toBe(422);
    const wrong = await h.submit(acme.key, {
      operation: 'pdf-unlock',
      upload_ids: [up['locked']],
      options: { password: 'nope' },
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({ issues: [{ path: 'options.password' }] });

    const job = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'pdf-unlock',
          upload_ids: [up['locked']],
          options: { password: 'open sesame' },
        })
      ).id,
    );
    expect(job).toMatchObject({ status: 'completed', estimated_credits: 2 });
    expect((await PDFDocument.load(await bytesOf(job.result!.files[0]!.download_path))).getPageCount()).toBe(4);
  });

  it('edits, compresses and converts images: dimensions and formats of the outputs', async () => {
    const edit = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'image-edit',
          upload_ids: [up['png']],
          options: { width: 100, height: 100, format: 'jpg', flip: 'horizontal' },
        })
      ).id,
    );
    expect(edit.result!.files[0]).toMatchObject({ name: 'photo-edited.jpg', content_type: 'image/jpeg' });
    expect(await sharp(await bytesOf(edit.result!.files[0]!.download_path)).metadata()).toMatchObject({
      format: 'jpeg',
      width: 100,
      height: 75,
    });

    const crop = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'image-edit',
          upload_ids: [up['png']],
          options: { crop: [10, 20, 50, 40], angle: 90 },
        })
      ).id,
    );
    expect(await sharp(await bytesOf(crop.result!.files[0]!.download_path)).metadata()).toMatchObject({
      format: 'png',
      width: 40,
      height: 50,
    });

    const comp = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'image-compress',
          upload_ids: [up['png']],
          options: { format: 'webp', level: 'strong' },
        })
      ).id,
    );
    expect(await sharp(await bytesOf(comp.result!.files[0]!.download_path)).metadata()).toMatchObject({
      format: 'webp',
      width: 400,
      height: 300,
    });

    const webp = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'webp', upload_ids: [up['png']] })).id,
    );
    expect(webp.result!.files[0]).toMatchObject({ name: 'photo-converted.webp', content_type: 'image/webp' });
  });
});

describe('failures', () => {
  it('a permanent failure records the error and releases the full reservation', async () => {
    // A source that cannot be processed although it was measured (a crop outside the image is refused before
    // quoting now): the stored PNG keeps its header, which the quote reads, and loses its pixel data.
    const damaged = await h.upload(acme.key, 'damaged.png', await samplePng(400, 300));
    writeFileSync(h.store.pathOf(damaged), readFileSync(h.store.pathOf(damaged)).subarray(0, 60));
    const before = await h.wallet(acme.id);
    const job = await h.submitOk(acme.key, {
      operation: 'image-edit',
      upload_ids: [damaged],
      options: { crop: [350, 0, 50, 50] },
    });
    const failed = await h.waitForJob(acme.key, job.id);
    expect(failed).toMatchObject({ status: 'failed', error_code: 'invalid_source', charged_credits: 0, result: null });
    expect(failed.error).toMatch(/^the image could not be processed/);
    expect(await h.wallet(acme.id)).toEqual(before);
    const ledger = await h.tdb
      .db('credit_ledger')
      .join('credit_reservations', 'credit_reservations.id', 'credit_ledger.reservation_id')
      .where({ 'credit_reservations.job_id': job.id });
    expect(ledger.map((r) => r.kind).sort()).toEqual(['release', 'reserve']);
    expect((await h.download(acme.key, `/v1/jobs/${job.id}/results/0`)).status).toBe(409);
  });

  it('answers every documented error of submission in {detail}', async () => {
    const body = { operation: 'pdf-rotate', upload_ids: [up['pdf3']], options: { angle: 90 } };
    const noKey = await h.submit(acme.key, body, null);
    expect(noKey.status).toBe(422);
    expect(await noKey.json()).toMatchObject({ code: 'idempotency_key_required', detail: expect.any(String) });
    expect((await h.submit(acme.key, { ...body, options: { angle: 45 } })).status).toBe(422);
    expect((await h.submit(acme.key, { ...body, operation: 'ocr-text' })).status).toBe(422);
    expect((await h.submit(acme.key, { ...body, webhook_id: 'whk_aaaaaaaaaaaaaaaaaaaa' })).status).toBe(422);
    expect((await h.submit(acme.key, '{"operation":')).status).toBe(422);
    const foreign = await h.submit(acme.key, { ...body, upload_ids: [up['foreign']] });
    expect(foreign.status).toBe(404);
    const over = await h.submit(acme.key, { ...body, upload_ids: [up['pdf12']], max_credits: 3 });
    expect(over.status).toBe(409);
    expect(await over.json()).toMatchObject({ detail: expect.stringContaining('max_credits') });
    expect((await h.submit(acme.readKey, body)).status).toBe(403);
    expect((await fetch(`${h.app.url}/v1/jobs`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect(
      await h.tdb
        .db('jobs')
        .where({ company_id: acme.id, operation: 'pdf-rotate' })
        .whereRaw("options->>'angle' = '45'"),
    ).toHaveLength(0);
  });

  it('a quote above max_credits is 409 max_credits_exceeded with the quote, at estimate and at submission; nothing is reserved', async () => {
    const body = { operation: 'pdf-rotate', upload_ids: [up['pdf12']], options: { angle: 90 }, max_credits: 3 };
    const before = await h.wallet(acme.id);
    const estimate = await fetch(`${h.app.url}/v1/estimate`, {
      method: 'POST',
      headers: { ...h.auth(acme.key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const submitted = await h.submit(acme.key, body);
    for (const res of [estimate, submitted]) {
      expect(res.status).toBe(409);
      const refusal = (await res.json()) as Record<string, unknown>;
      expect(refusal).toMatchObject({
        code: 'max_credits_exceeded',
        estimated_credits: 4,
        max_credits: 3,
        request_id: expect.any(String),
      });
      expect(refusal['detail']).toMatch(/quote of 4 credits exceeds max_credits \(3\)/);
    }
    expect(await h.wallet(acme.id)).toEqual(before);
    // The client retries with the quote it was given.
    const retried = await h.submitOk(acme.key, { ...body, max_credits: 4 });
    expect(retried.estimated_credits).toBe(4);
    await h.waitForJob(acme.key, retried.id);
  });

  it('402 when the wallet cannot cover the quote; nothing is recorded', async () => {
    const poor = await h.company('Poor');
    const pdf = await h.upload(poor.key, 'p.pdf', await samplePdf(1));
    await reserveJobCredits(h.tdb.db, poor.id, [], [{ id: newId('res'), jobId: null, amount: 999n }]);
    const res = await h.submit(poor.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'insufficient_credits' });
    expect(await h.tdb.db('jobs').where({ company_id: poor.id })).toHaveLength(0);
    expect(await h.wallet(poor.id)).toEqual({ available: 1, reserved: 999 });
  });
});

describe('idempotency', () => {
  it('the same key and body return the same job without a second reservation; another body is 409', async () => {
    const body = { operation: 'pdf-protect', upload_ids: [up['pdf3']], options: { password: 'same-secret' } };
    const key = `same-job-${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 8 }, () => h.submit(acme.key, body, key)));
    const texts = await Promise.all(results.map((r) => r.text()));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(202));
    expect(new Set(texts).size).toBe(1);
    const id = (JSON.parse(texts[0]!) as { id: string }).id;
    expect(await h.tdb.db('credit_reservations').where({ job_id: id })).toHaveLength(1);
    expect(
      await h.tdb
        .db('jobs')
        .where({ company_id: acme.id, operation: 'pdf-protect' })
        .whereRaw("created_at > now() - interval '1 minute'"),
    ).toHaveLength(2);

    const differentPassword = await h.submit(acme.key, { ...body, options: { password: 'other-secret' } }, key);
    expect(differentPassword.status).toBe(409);
    expect(await differentPassword.json()).toMatchObject({ code: 'idempotency_conflict' });
    await h.waitForJob(acme.key, id);
  });
});

describe('idempotency of deleted jobs', () => {
  it('replaying the key of a deleted job is 409 idempotency_key_target_deleted naming the job; a new key makes a new job', async () => {
    const body = { operation: 'webp', upload_ids: [up['png']] };
    const key = `deleted-job-${Date.now()}`;
    const first = await h.submit(acme.key, body, key);
    expect(first.status).toBe(202);
    const job = (await first.json()) as { id: string };
    await h.waitForJob(acme.key, job.id);
    expect((await h.submit(acme.key, body, key)).status).toBe(202); // still there: a replay
    expect(
      (await fetch(`${h.app.url}/v1/jobs/${job.id}`, { method: 'DELETE', headers: h.auth(acme.key) })).status,
    ).toBe(204);

    const replay = await h.submit(acme.key, body, key);
    expect(replay.status).toBe(409);
    expect(replay.headers.get('idempotent-replayed')).toBeNull();
    const refusal = (await replay.json()) as Record<string, unknown>;
    expect(refusal).toMatchObject({ code: 'idempotency_key_target_deleted', job_id: job.id });
    expect(refusal['detail']).toContain(job.id);
    expect(refusal['detail']).toMatch(/new Idempotency-Key/);
    // Another body under that key is still the ordinary conflict.
    expect(await (await h.submit(acme.key, { ...body, max_credits: 50 }, key)).json()).toMatchObject({
      code: 'idempotency_conflict',
    });
    // A new key submits the work again as a new job.
    const again = await h.submit(acme.key, body, `${key}-new`);
    expect(again.status).toBe(202);
    const second = (await again.json()) as { id: string };
    expect(second.id).not.toBe(job.id);
    await h.waitForJob(acme.key, second.id);
  });
});

describe('reads, downloads and deletion', () => {
  it('another company gets 404 for the job, its results and its deletion', async () => {
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'webp', upload_ids: [up['png']] })).id,
    );
    expect((await fetch(`${h.app.url}/v1/jobs/${job.id}`, { headers: h.auth(other.key) })).status).toBe(404);
    expect((await h.download(other.key, job.result!.files[0]!.download_path)).status).toBe(404);
    expect(
      (await fetch(`${h.app.url}/v1/jobs/${job.id}`, { method: 'DELETE', headers: h.auth(other.key) })).status,
    ).toBe(404);
    expect((await h.download(acme.key, `/v1/jobs/${job.id}/results/1`)).status).toBe(404);
    expect((await h.download(acme.key, `/v1/jobs/${job.id}/results/x`)).status).toBe(404);
    expect((await h.download(acme.readKey, job.result!.files[0]!.download_path)).status).toBe(200);
  });

  it('deletes a terminal job and its result files; the accounting stays', async () => {
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'webp', upload_ids: [up['png']] })).id,
    );
    const row = await h.tdb.db('jobs').where({ id: job.id }).first();
    const storageId = row.result_files[0].storage_id as string;
    expect(readdirSync(join(h.storageDir, storageId.slice(-2)))).toContain(storageId);
    expect(
      (await fetch(`${h.app.url}/v1/jobs/${job.id}`, { method: 'DELETE', headers: h.auth(acme.readKey) })).status,
    ).toBe(403);
    expect(
      (await fetch(`${h.app.url}/v1/jobs/${job.id}`, { method: 'DELETE', headers: h.auth(acme.key) })).status,
    ).toBe(204);
    expect((await fetch(`${h.app.url}/v1/jobs/${job.id}`, { headers: h.auth(acme.key) })).status).toBe(404);
    expect((await h.download(acme.key, job.result!.files[0]!.download_path)).status).toBe(404);
    expect(readdirSync(join(h.storageDir, storageId.slice(-2)))).not.toContain(storageId);
    expect(await h.tdb.db('credit_reservations').where({ job_id: job.id, status: 'charged' })).toHaveLength(1);
    expect(
      (await fetch(`${h.app.url}/v1/jobs/${job.id}`, { method: 'DELETE', headers: h.auth(acme.key) })).status,
    ).toBe(404);
  });
});

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AdmZip from 'adm-zip';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { batchClient } from '../helpers/batches.js';
import { batchesRetryFailed, batchesShow } from '../../cli/batch-commands.js';
import { samplePdf, samplePng } from '../../support/sample-files.js';

/**
 * Batches over HTTP on real PostgreSQL and Temporal: estimate, atomic submission (all children reserved and queued, or
 * nothing), the `batch:<id>` workflow with its children `job:<id>`, partial accounting, retry-failed and the ZIP.
 */
const h = new ProcessingHarness();
const b = batchClient(h);
let acme: TestCompany;
let other: TestCompany;
const up: Record<string, string> = {};

beforeAll(async () => {
  await h.start();
  acme = await h.company('Acme');
  other = await h.company('Other');
  up['pdf1'] = await h.upload(acme.key, 'one.pdf', await samplePdf(1));
  up['pdf2'] = await h.upload(acme.key, 'two.pdf', await samplePdf(2));
  up['pdf12'] = await h.upload(acme.key, 'twelve.pdf', await samplePdf(12));
  up['png'] = await h.upload(acme.key, 'photo.png', await samplePng(40, 30));
  up['foreign'] = await h.upload(other.key, 'theirs.pdf', await samplePdf(1));
});
afterAll(() => h.stop());

const counts = async (companyId: string) => ({
  jobs: Number((await h.tdb.db('jobs').where({ company_id: companyId }).count<{ c: string }[]>('* as c'))[0]!.c),
  batches: Number((await h.tdb.db('batches').where({ company_id: companyId }).count<{ c: string }[]>('* as c'))[0]!.c),
});

/** Sum of the ledger's movements of the jobs of a batch, per kind. */
async function ledgerOf(batchId: string): Promise<Record<string, number>> {
  const rows = await h.tdb
    .db('credit_ledger')
    .join('credit_reservations', 'credit_reservations.id', 'credit_ledger.reservation_id')
    .join('jobs', 'jobs.reservation_id', 'credit_reservations.id')
    .where('jobs.batch_id', batchId)
    .groupBy('credit_ledger.kind')
    .select(
      'credit_ledger.kind',
      h.tdb.db.raw('sum(credit_ledger.amount)::int AS amount'),
      h.tdb.db.raw('count(*)::int AS n'),
    );
  return Object.fromEntries(
    rows.flatMap((r: { kind: string; amount: number; n: number }) => [
      [r.kind, r.amount],
      [`${r.kind}_rows`, r.n],
    ]),
  );
}

describe('POST /v1/batches/estimate', () => {
  it('quotes the whole batch and each item on measured sources, reserving nothing', async () => {
    const before = await h.wallet(acme.id);
    const res = await b.estimate(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [up['pdf1'], up['pdf12']],
      options: { angle: 90 },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      operation: 'pdf-rotate',
      estimated_credits: 6,
      items: [
        { item_index: 0, upload_ids: [up['pdf1']], estimated_credits: 2 },
        { item_index: 1, upload_ids: [up['pdf12']], estimated_credits: 4 },
      ],
    });
    const grouped = await b.estimate(acme.key, {
      operation: 'pdf-merge',
      items: [{ upload_ids: [up['pdf1'], up['pdf2']] }, { upload_ids: [up['pdf12'], up['pdf1']] }],
    });
    // pdf-merge prices each source: 2 + 2, then 4 + 2.
    expect(await grouped.json()).toMatchObject({
      estimated_credits: 10,
      items: [{ estimated_credits: 4 }, { estimated_credits: 6 }],
    });
    expect(await h.wallet(acme.id)).toEqual(before);
  });

  it('names the item in every refusal: 422 items.N.upload_ids.M, 404 for unknown or foreign uploads, 409 max_credits on the total', async () => {
    const wrongKind = await b.estimate(acme.key, {
      operation: 'pdf-rotate',
      items: [
        { upload_ids: [up['pdf1']] },
        { upload_ids: [up['pdf2']] },
        { upload_ids: [up['pdf1']] },
        { upload_ids: [up['png']] },
      ],
      options: { angle: 90 },
    });
    expect(wrongKind.status).toBe(422);
    expect(((await wrongKind.json()) as { issues: Array<{ path: string }> }).issues.map((i) => i.path)).toEqual([
      'items.3.upload_ids.0',
    ]);

    const shorthand = await b.estimate(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [up['pdf1'], up['png']],
      options: { angle: 90 },
    });
    expect(((await shorthand.json()) as { issues: Array<{ path: string }> }).issues.map((i) => i.path)).toEqual([
      'upload_ids.1',
    ]);

    const foreign = await b.estimate(acme.key, {
      operation: 'pdf-merge',
      items: [{ upload_ids: [up['pdf1'], up['pdf2']] }, { upload_ids: [up['pdf1'], up['foreign']] }],
    });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'not_found', issues: [{ path: 'items.1.upload_ids.1' }] });

    const tooDear = await b.estimate(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [up['pdf1'], up['pdf12']],
      options: { angle: 90 },
      max_credits: 5,
    });
    expect(tooDear.status).toBe(409);
    expect(await tooDear.json()).toMatchObject({ code: 'max_credits_exceeded', estimated_credits: 6, max_credits: 5 });

    for (const [body, path] of [
      [{ operation: 'webp', upload_ids: [up['png']], items: [{ upload_ids: [up['png']] }] }, 'items'],
      [{ operation: 'webp' }, 'upload_ids'],
      [{ operation: 'webp', upload_ids: Array.from({ length: 101 }, () => up['png']) }, 'upload_ids'],
      [{ operation: 'pdf-merge', items: [{ upload_ids: [up['pdf1']] }] }, 'items.0.upload_ids'],
      [{ operation: 'webp', upload_ids: [up['png']], webhook_mode: 'sometimes' }, 'webhook_mode'],
    ] as const) {
      const res = await b.estimate(acme.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(((await res.json()) as { issues: Array<{ path: string }> }).issues.map((i) => i.path)).toContain(path);
    }
  });
});

describe('POST /v1/batches is atomic', () => {
  it('402 when the wallet cannot hold the whole batch, 409 over max_credits, 404 naming the item: nothing is created or reserved', async () => {
    const poor = await h.company('Poor');
    const pdf = await h.upload(poor.key, 'big.pdf', await samplePdf(100));
    await h.tdb.db('wallets').where({ company_id: poor.id }).update({ available: '30' });
    const before = { wallet: await h.wallet(poor.id), rows: await counts(poor.id) };
    // 20 credits per item (100 pages): the first item fits the wallet, the second does not.
    const res = await b.submit(poor.key, { operation: 'pdf-rotate', upload_ids: [pdf, pdf], options: { angle: 90 } });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({
      code: 'insufficient_credits',
      detail: 'Not enough credits: 40 needed, 30 available',
    });
    expect(
      (
        await b.submit(poor.key, {
          operation: 'pdf-rotate',
          upload_ids: [pdf],
          options: { angle: 90 },
          max_credits: 19,
        })
      ).status,
    ).toBe(409);
    expect(
      (await b.submit(poor.key, { operation: 'pdf-rotate', upload_ids: [pdf, up['pdf1']], options: { angle: 90 } }))
        .status,
    ).toBe(404);
    expect({ wallet: await h.wallet(poor.id), rows: await counts(poor.id) }).toEqual(before);
  });

  it('429 queue_full when the children would pass 100 pending jobs of the company', async () => {
    const busy = await h.company('Busy');
    const png = await h.upload(busy.key, 'p.png', await samplePng(10, 10));
    // 99 pending jobs recorded directly (no workflow): the queue has room for one more.
    await h.recordQueuedJobs(busy.id, 99, { operation: 'webp', uploadIds: [png], marker: 'Q' });
    const before = { wallet: await h.wallet(busy.id), rows: await counts(busy.id) };
    const res = await b.submit(busy.key, { operation: 'webp', upload_ids: [png, png] });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ code: 'queue_full' });
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect({ wallet: await h.wallet(busy.id), rows: await counts(busy.id) }).toEqual(before);
  });

  it('concurrent duplicate submissions with one Idempotency-Key make one batch; another body under it is 409', async () => {
    const dup = await h.company('Dup');
    const pdf = await h.upload(dup.key, 'd.pdf', await samplePdf(1));
    const body = { operation: 'pdf-rotate', upload_ids: [pdf, pdf, pdf], options: { angle: 180 } };
    const before = await h.wallet(dup.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => b.submit(dup.key, body, 'same-batch-key-1')));
    const bodies = await Promise.all(
      answers.map(async (r) => ({ status: r.status, json: (await r.json()) as { id: string } })),
    );
    expect(bodies.map((x) => x.status)).toEqual(Array(6).fill(202));
    expect(new Set(bodies.map((x) => x.json.id)).size).toBe(1);
    expect(await counts(dup.id)).toEqual({ jobs: 3, batches: 1 });
    expect((await h.wallet(dup.id)).available).toBe(before.available - 6);
    expect((await b.submit(dup.key, { ...body, options: { angle: 90 } }, 'same-batch-key-1')).status).toBe(409);
    await b.waitForBatch(dup.key, bodies[0]!.json.id);
  });
});

describe('a 100-item batch with failing children', () => {
  it('ends partial with exact ledger sums; retry-failed runs only the failed items; the ZIP manifest matches the files', async () => {
    const ops = await h.company('Ops');
    const good = await h.upload(ops.key, 'good.pdf', await samplePdf(1));
    const bad: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await h.upload(ops.key, `bad-${i}.pdf`, await samplePdf(1));
      bad.push(id);
    }
    const ids = Array.from({ length: 100 }, (_, i) => (i % 30 === 7 ? bad[Math.floor(i / 30) % 3]! : good));
    const failing = ids.flatMap((id, i) => (bad.includes(id) ? [i] : []));
    expect(failing).toEqual([7, 37, 67, 97]);

    // The workers stop first, so the batch is deterministically unfinished when its ZIP and retry are asked for.
    await h.stopWorkers();
    const savedBad = bad.map((id) => readFileSync(h.store.pathOf(id)));
    for (const id of bad) writeFileSync(h.store.pathOf(id), savedBad[0]!.subarray(0, 40)); // measured, then damaged
    const before = await h.wallet(ops.id);
    const batch = await b.submitOk(ops.key, { operation: 'pdf-rotate', upload_ids: ids, options: { angle: 90 } });
    expect(batch).toMatchObject({
      id: expect.stringMatching(/^bat_[A-Za-z0-9]{20}$/),
      status: 'queued',
      item_count: 100,
      progress: { total: 100, queued: 100 },
      credits: { estimated: 200, reserved: 200, charged: 0, released: 0 },
      retry_of: null,
      webhook_mode: 'batch',
    });
    expect(batch.jobs).toHaveLength(100);
    expect(batch.jobs[5]).toMatchObject({ item_index: 5, batch_id: batch.id, status: 'queued', upload_ids: [good] });
    expect(await h.wallet(ops.id)).toEqual({ available: before.available - 200, reserved: before.reserved + 200 });
    expect(await await h.getJob(ops.key, batch.jobs[0]!.id)).toMatchObject({ batch_id: batch.id, status: 'queued' });

    const early = await b.zip(ops.key, batch.id);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ code: 'batch_not_terminal' });
    expect(await (await b.retryFailed(ops.key, batch.id)).json()).toMatchObject({ code: 'batch_not_terminal' });
    const paged = await b.getOk(ops.key, batch.id, '?limit=30&after=90');
    expect(paged.jobs.map((j) => j.item_index)).toEqual([90, 91, 92, 93, 94, 95, 96, 97, 98, 99]);
    expect(paged.next_after).toBeNull();
    expect((await b.getOk(ops.key, batch.id, '?limit=30')).next_after).toBe(30);
    expect((await b.get(other.key, batch.id)).status).toBe(404);

    await h.startWorker();
    const done = await b.waitForBatch(ops.key, batch.id, 800_000);
    expect(done).toMatchObject({
      status: 'partial',
      progress: { total: 100, queued: 0, processing: 0, completed: 96, failed: 4 },
      credits: { estimated: 200, reserved: 0, charged: 192, released: 8 },
    });
    expect(done.jobs.filter((j) => j.status === 'failed').map((j) => j.item_index)).toEqual(failing);
    expect(done.jobs[7]).toMatchObject({ status: 'failed', error_code: 'invalid_source', charged_credits: 0 });
    expect(await ledgerOf(batch.id)).toEqual({
      reserve: 200,
      reserve_rows: 100,
      charge: 192,
      charge_rows: 96,
      release: 8,
      release_rows: 4,
    });
    expect(await h.wallet(ops.id)).toEqual({ available: before.available - 192, reserved: before.reserved });

    // The batch workflow shows its children in the Temporal UI, under their own ids, and its result names the failures.
    const handle = h.gateway.client.workflow.getHandle(`batch:${batch.id}`);
    const result = (await handle.result()) as { status: string; failures: Array<{ item: number; code: string }> };
    expect(result).toMatchObject({
      status: 'partial',
      failures: failing.map((item) => ({ item, code: 'invalid_source' })),
    });
    const child = await h.gateway.client.workflow.getHandle(`job:${batch.jobs[7]!.id}`).describe();
    expect(child.parentExecution?.workflowId).toBe(`batch:${batch.id}`);
    expect(await h.gateway.client.workflow.getHandle(`job:${batch.jobs[7]!.id}`).result()).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_source', message: expect.any(String) },
    });
    expect((await handle.describe()).searchAttributes).toMatchObject({
      PaycoreStatus: ['partial'],
      PaycoreCompany: [ops.id],
      PaycoreBatch: [batch.id],
      PaycoreOperation: ['pdf-rotate'],
    });
    expect(
      (await h.gateway.client.workflow.getHandle(`job:${batch.jobs[7]!.id}`).describe()).searchAttributes,
    ).toMatchObject({ PaycoreStatus: ['failed'], PaycoreCompany: [ops.id], PaycoreBatch: [batch.id] });

    // ZIP: one folder per successful item, and a manifest that matches the files byte for byte.
    const zipRes = await b.zip(ops.key, batch.id);
    expect(zipRes.status).toBe(200);
    expect(zipRes.headers.get('content-type')).toBe('application/zip');
    const zip = new AdmZip(Buffer.from(await zipRes.arrayBuffer()));
    const manifest = JSON.parse(zip.readAsText('manifest.json')) as {
      batch_id: string;
      status: string;
      items: Array<{
        item_index: number;
        status: string;
        files: Array<{ path: string; bytes: number; sha256: string; name: string }>;
        error: { code: string } | null;
      }>;
    };
    expect(manifest).toMatchObject({ batch_id: batch.id, status: 'partial' });
    expect(manifest.items).toHaveLength(100);
    const entries = zip
      .getEntries()
      .map((e) => e.entryName)
      .filter((n) => n !== 'manifest.json')
      .sort();
    expect(entries).toEqual(manifest.items.flatMap((i) => i.files.map((f) => f.path)).sort());
    expect(entries).toHaveLength(96);
    for (const item of manifest.items) {
      if (failing.includes(item.item_index)) {
        expect(item).toMatchObject({ status: 'failed', files: [], error: { code: 'invalid_source' } });
        continue;
      }
      expect(item.files).toHaveLength(1);
      const [f] = item.files;
      expect(f!.path).toBe(`item-${String(item.item_index).padStart(3, '0')}/good-rotated.pdf`);
      const bytes = zip.readFile(f!.path)!;
      expect(bytes.length).toBe(f!.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(f!.sha256);
      const served = Buffer.from(
        await (await h.download(ops.key, done.jobs[item.item_index]!.result!.files[0]!.download_path)).arrayBuffer(),
      );
      expect(served.equals(bytes)).toBe(true);
    }

    // Retry: the sources are repaired; a new batch of the 4 failed items only, linked to the original.
    for (const id of bad) writeFileSync(h.store.pathOf(id), savedBad[bad.indexOf(id)]!);
    const retryRes = await b.retryFailed(ops.key, batch.id, 'retry-key-0001');
    const retry = (await retryRes.json()) as Awaited<ReturnType<typeof b.getOk>>;
    expect(retryRes.status, JSON.stringify(retry)).toBe(202);
    expect(retry).toMatchObject({ retry_of: batch.id, item_count: 4, credits: { estimated: 8, reserved: 8 } });
    expect(retry.jobs.map((j) => j.upload_ids[0])).toEqual(failing.map((i) => ids[i]));
    const again = await b.retryFailed(ops.key, batch.id, 'retry-key-0001');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(retry.id);
    const retried = await b.waitForBatch(ops.key, retry.id);
    expect(retried).toMatchObject({
      status: 'completed',
      progress: { completed: 4, failed: 0 },
      credits: { charged: 8, released: 0, reserved: 0 },
    });
    expect(await h.wallet(ops.id)).toEqual({ available: before.available - 200, reserved: before.reserved });
    const none = await b.retryFailed(ops.key, retry.id);
    expect(none.status).toBe(409);
    expect(await none.json()).toMatchObject({ code: 'batch_has_no_failed_items' });

    // Past retention: 410. Over 1 GB: 413, refused before anything is streamed.
    await h.tdb
      .db('jobs')
      .where({ batch_id: retry.id })
      .update({ results_expire_at: new Date(Date.now() - 1000) });
    expect((await b.zip(ops.key, retry.id)).status).toBe(410);
    await h.tdb
      .db('jobs')
      .where({ batch_id: batch.id, item_index: 0 })
      .update({
        result_files: JSON.stringify([
          { name: 'x.pdf', storage_id: 'res_x', bytes: 1024 ** 3, content_type: 'application/pdf' },
        ]),
      });
    const huge = await b.zip(ops.key, batch.id);
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'batch_zip_too_large' });
    // 100 children run one at a time (one active job per company): minutes on a loaded machine.
  }, 900_000);
});

describe('the batch state table', () => {
  it('all completed → completed, one of each → partial, all failed → failed; failed children release, successes stay charged', async () => {
    const st = await h.company('States');
    const pdf = await h.upload(st.key, 'ok.pdf', await samplePdf(1));
    const broken = await h.upload(st.key, 'broken.pdf', await samplePdf(1));
    writeFileSync(h.store.pathOf(broken), readFileSync(h.store.pathOf(broken)).subarray(0, 40));
    const before = await h.wallet(st.id);
    const [all, mixed, none] = [
      await b.submitOk(st.key, { operation: 'pdf-rotate', upload_ids: [pdf, pdf], options: { angle: 90 } }),
      await b.submitOk(st.key, { operation: 'pdf-rotate', upload_ids: [pdf, broken], options: { angle: 90 } }),
      await b.submitOk(st.key, { operation: 'pdf-rotate', upload_ids: [broken], options: { angle: 90 } }),
    ];
    expect(await b.waitForBatch(st.key, all.id)).toMatchObject({
      status: 'completed',
      credits: { charged: 4, released: 0, reserved: 0 },
    });
    expect(await b.waitForBatch(st.key, mixed.id)).toMatchObject({
      status: 'partial',
      credits: { charged: 2, released: 2, reserved: 0 },
    });
    const failed = await b.waitForBatch(st.key, none.id);
    expect(failed).toMatchObject({
      status: 'failed',
      progress: { failed: 1 },
      credits: { charged: 0, released: 2, reserved: 0 },
    });
    expect(failed.started_at).not.toBeNull();
    expect(failed.finished_at).not.toBeNull();
    expect(await h.wallet(st.id)).toEqual({ available: before.available - 6, reserved: before.reserved });
    const zip = new AdmZip(Buffer.from(await (await b.zip(st.key, none.id)).arrayBuffer()));
    expect(zip.getEntries().map((e) => e.entryName)).toEqual(['manifest.json']);

    // The operator commands: batches:show, then batches:retry-failed (once; again only with --again).
    expect(await batchesShow(h.tdb.db, { batch: mixed.id })).toMatchObject({
      id: mixed.id,
      company_id: st.id,
      workflow_id: `batch:${mixed.id}`,
      status: 'partial',
      progress: { failed: 1 },
      retried_by: [],
    });
    const cliDeps = {
      db: h.tdb.db,
      store: h.store,
      qpdf: { qpdfPath: 'qpdf', timeoutMs: 30_000 },
      secretBox: h.secretBox,
      workflows: h.gateway,
    };
    // Two commands at once: one retry is made, the other is refused as a repeat (not charged twice).
    const both = await Promise.allSettled([
      batchesRetryFailed(cliDeps, { batch: mixed.id }),
      batchesRetryFailed(cliDeps, { batch: mixed.id }),
    ]);
    const made = both.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = both.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    expect(refused).toEqual([expect.stringMatching(/already retried as bat_/)]);
    const retry = made[0]!;
    expect(retry).toMatchObject({
      retry_of: mixed.id,
      item_count: 1,
      workflow_id: `batch:${retry.id}`,
      jobs: [{ item_index: 0, upload_ids: [broken] }],
    });
    await expect(batchesRetryFailed(cliDeps, { batch: mixed.id })).rejects.toThrow(/already retried as bat_/);
    expect(await b.waitForBatch(st.key, retry.id)).toMatchObject({ status: 'failed', credits: { released: 2 } });
    expect(await batchesShow(h.tdb.db, { batch: mixed.id })).toMatchObject({
      retried_by: [{ id: retry.id, status: 'failed' }],
    });
    // --again runs the failed items once more; batches:show lists both retries, oldest first.
    const again = await batchesRetryFailed(cliDeps, { batch: mixed.id, again: 'true' });
    expect(again).toMatchObject({ retry_of: mixed.id, item_count: 1, jobs: [{ item_index: 0, upload_ids: [broken] }] });
    expect(await b.waitForBatch(st.key, again.id)).toMatchObject({ status: 'failed', credits: { released: 2 } });
    expect(await batchesShow(h.tdb.db, { batch: mixed.id })).toMatchObject({
      retried_by: [
        { id: retry.id, status: 'failed' },
        { id: again.id, status: 'failed' },
      ],
    });
    await expect(batchesShow(h.tdb.db, { batch: 'bat_AAAAAAAAAAAAAAAAAAAA' })).rejects.toThrow(/no such batch/);
  });
});

describe('a deleted child of a batch', () => {
  it('is shown deleted (no download path) in the batch, left out of the ZIP and listed in its manifest as deleted', async () => {
    const del = await h.company('Deleting');
    const pdf = await h.upload(del.key, 'keep.pdf', await samplePdf(1));
    const batch = await b.submitOk(del.key, {
      operation: 'pdf-rotate',
      upload_ids: [pdf, pdf, pdf],
      options: { angle: 90 },
    });
    const done = await b.waitForBatch(del.key, batch.id);
    expect(done).toMatchObject({ status: 'completed', progress: { completed: 3 } });
    const gone = done.jobs[1]!;
    expect(
      (await fetch(`${h.app.url}/v1/jobs/${gone.id}`, { method: 'DELETE', headers: h.auth(del.key) })).status,
    ).toBe(204);

    // The batch says the child was deleted, keeps its accounting, and offers no dead download path.
    const after = await b.getOk(del.key, batch.id);
    expect(after).toMatchObject({
      status: 'completed',
      progress: { total: 3, completed: 3, deleted: 1 },
      credits: { charged: 6 },
    });
    expect(after.jobs[1]).toMatchObject({
      item_index: 1,
      id: gone.id,
      status: 'completed',
      deleted_at: expect.any(String),
      result: null,
    });
    expect(after.jobs[0]).toMatchObject({
      deleted_at: null,
      result: { files: [expect.objectContaining({ download_path: `/v1/jobs/${after.jobs[0]!.id}/results/0` })] },
    });
    expect((await h.download(del.key, gone.result!.files[0]!.download_path)).status).toBe(404);

    // The ZIP of a 1-minute-old batch is served, without the deleted child, whose manifest entry says so.
    const res = await b.zip(del.key, batch.id);
    expect(res.status, await res.clone().text()).toBe(200);
    const zip = new AdmZip(Buffer.from(await res.arrayBuffer()));
    const manifest = JSON.parse(zip.readAsText('manifest.json')) as {
      items: Array<{ item_index: number; status: string; deleted_at: string | null; files: unknown[] }>;
    };
    expect(manifest.items.map((i) => [i.item_index, i.status, i.deleted_at === null, i.files.length])).toEqual([
      [0, 'completed', true, 1],
      [1, 'completed', false, 0],
      [2, 'completed', true, 1],
    ]);
    expect(
      zip
        .getEntries()
        .map((e) => e.entryName)
        .sort(),
    ).toEqual(['item-000/keep-rotated.pdf', 'item-002/keep-rotated.pdf', 'manifest.json']);

    // A child that is not deleted but past its retention still makes the ZIP 410: it is never served incomplete.
    await h.tdb
      .db('jobs')
      .where({ id: after.jobs[2]!.id })
      .update({ results_expire_at: new Date(Date.now() - 1000) });
    expect((await b.zip(del.key, batch.id)).status).toBe(410);
  });
});

describe('items groups sources into one child', () => {
  it('pdf-merge per item; children are ordinary jobs with their own billing', async () => {
    const batch = await b.submitOk(acme.key, {
      operation: 'pdf-merge',
      items: [{ upload_ids: [up['pdf1'], up['pdf2']] }, { upload_ids: [up['pdf2'], up['pdf12'], up['pdf1']] }],
    });
    const done = await b.waitForBatch(acme.key, batch.id);
    expect(done).toMatchObject({
      status: 'completed',
      progress: { completed: 2 },
      credits: { estimated: 12, charged: 12, reserved: 0, released: 0 },
    });
    for (const [i, j] of done.jobs.entries()) {
      expect(await h.getJob(acme.key, j.id)).toMatchObject({
        status: 'completed',
        batch_id: batch.id,
        charged_credits: [4, 8][i],
        result: { files: [{ name: 'merged.pdf' }] },
      });
    }
  });
});

describe('POST /v1/batches/{id}/cancel', () => {
  it('cancels the queued items once (each reservation released), the batch then ends failed; ended, foreign or bodied requests are refused', async () => {
    const co = await h.company('Cancels');
    const pdf = await h.upload(co.key, 'c.pdf', await samplePdf(1));
    const before = await h.wallet(co.id);
    // No worker: every child stays queued until the cancellation.
    await h.stopWorkers();
    const batch = await b.submitOk(co.key, {
      operation: 'pdf-rotate',
      upload_ids: [pdf, pdf, pdf],
      options: { angle: 90 },
    });
    expect((await h.wallet(co.id)).reserved).toBe(before.reserved + 6);
    expect((await b.cancel(other.key, batch.id)).status).toBe(404);
    const withBody = await b.cancel(co.key, batch.id, { reason: 'x' });
    expect(withBody.status).toBe(422);
    expect(await withBody.json()).toMatchObject({ code: 'validation_failed', issues: [{ path: 'reason' }] });

    const [first, second] = await Promise.all([b.cancel(co.key, batch.id), b.cancel(co.key, batch.id)]);
    const answers = [first, second].sort((x, y) => x.status - y.status);
    expect(answers.map((r) => r.status)).toEqual([200, 409]);
    const ok = (await answers[0]!.json()) as {
      cancelled_job_ids: string[];
      batch: { progress: Record<string, number> };
    };
    expect(ok.cancelled_job_ids.sort()).toEqual(batch.jobs.map((j) => j.id).sort());
    expect(ok.batch.progress).toMatchObject({ total: 3, queued: 0, cancelled: 3 });
    expect(await answers[1]!.json()).toMatchObject({ code: 'batch_not_cancellable' });
    expect(await ledgerOf(batch.id)).toMatchObject({ reserve: 6, reserve_rows: 3, release: 6, release_rows: 3 });
    expect(await h.wallet(co.id)).toEqual(before);

    // With a worker back, the batch workflow finds its children ended without running them: failed, nothing charged.
    await h.startWorker();
    expect(await b.waitForBatch(co.key, batch.id)).toMatchObject({
      status: 'failed',
      progress: { cancelled: 3, completed: 0 },
      credits: { charged: 0, released: 6, reserved: 0 },
    });
    const ended = await b.cancel(co.key, batch.id);
    expect(ended.status).toBe(409);
    expect(await ended.json()).toMatchObject({ code: 'batch_not_cancellable' });
    expect(await h.wallet(co.id)).toEqual(before);
  });
});

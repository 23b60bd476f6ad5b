import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../services/processing/credits.js';
import { encodeCursor } from '../../api/http/pagination.js';
import { ProcessingHarness, type JobJson, type TestCompany } from '../helpers/processing.js';
import { samplePdf, samplePng } from '../../support/sample-files.js';

/**
 * What a client polling many jobs needs besides GET /v1/jobs/{id}: the list of its jobs (filters, paging), an upload's
 * record, the wallet and its ledger, and `Location` on every 202. HTTP against real PostgreSQL (no worker runs, so
 * jobs stay queued unless a test moves them).
 */

const h = new ProcessingHarness();
let acme: TestCompany;
let other: TestCompany;
let pdf: string;
let png: string;

const get = (key: string, path: string) => fetch(`${h.app.url}${path}`, { headers: h.auth(key) });
async function getJson<T = Record<string, unknown>>(key: string, path: string, status = 200): Promise<T> {
  const res = await get(key, path);
  const body = (await res.json()) as T;
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}
type Page = { data: JobJson[]; next_cursor: string | null };

beforeAll(async () => {
  await h.start({ startWorkers: false });
  acme = await h.company('ReadsCo');
  other = await h.company('ReadsOther');
  pdf = await h.upload(acme.key, 'doc.pdf', await samplePdf(3));
  png = await h.upload(acme.key, 'pic.png', await samplePng(40, 30));
});
afterAll(() => h.stop());

describe('Location on 202', () => {
  it('POST /v1/jobs answers 202 with Location naming the job to poll, on the first answer and on a replay', async () => {
    const body = { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } };
    const first = await h.submit(acme.key, body, 'location-key-1');
    expect(first.status).toBe(202);
    const job = (await first.json()) as JobJson;
    expect(first.headers.get('location')).toBe(`/v1/jobs/${job.id}`);
    const replay = await h.submit(acme.key, body, 'location-key-1');
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('location')).toBe(`/v1/jobs/${job.id}`);
    expect(await getJson(acme.key, first.headers.get('location')!)).toMatchObject({ id: job.id, status: 'queued' });
    // Errors carry none.
    const refused = await h.submit(acme.key, { ...body, options: { angle: 45 } });
    expect(refused.status).toBe(422);
    expect(refused.headers.get('location')).toBeNull();
  });
});

describe('GET /v1/jobs', () => {
  const ids: string[] = [];
  const base = Date.parse('2025-03-04T09:00:00.000Z');

  beforeAll(async () => {
    const co = acme;
    // Seven jobs of acme at known times (one a minute), with several statuses and operations, plus one of another company.
    for (let i = 0; i < 7; i++) {
      const body =
        i % 3 === 2
          ? { operation: 'webp', upload_ids: [png] }
          : { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } };
      ids.push((await h.submitOk(co.key, body)).id);
    }
    await h.tdb
      .db('jobs')
      .where({ company_id: acme.id })
      .whereNotIn('id', ids)
      .update({ created_at: new Date(base - 3_600_000) });
    for (const [i, id] of ids.entries())
      await h.tdb
        .db('jobs')
        .where({ id })
        .update({ created_at: new Date(base + i * 60_000) });
    await h.tdb.db('jobs').where({ id: ids[1] }).update({
      status: 'failed',
      finished_at: new Date(),
      error_code: 'invalid_source',
      error_message: 'bad',
      secret_sealed: null,
    });
    await h.tdb
      .db('jobs')
      .where({ id: ids[4] })
      .update({ status: 'completed', finished_at: new Date(), result_files: JSON.stringify([]), secret_sealed: null });
    await h.tdb.db('jobs').where({ id: ids[5] }).update({
      deleted_at: new Date(),
      status: 'failed',
      finished_at: new Date(),
      secret_sealed: null,
      error_code: 'invalid_source',
      error_message: 'x',
    });
    const foreignPdf = await h.upload(other.key, 'theirs.pdf', await samplePdf(1));
    await h.submitOk(other.key, { operation: 'pdf-rotate', upload_ids: [foreignPdf], options: { angle: 90 } });
  });

  const visible = () => ids.filter((_, i) => i !== 5).reverse(); // newest first, without the deleted one

  it("lists the company's live jobs newest first, each as GET /v1/jobs/{id} shows it; a read key may list", async () => {
    const all = await getJson<Page>(acme.readKey, '/v1/jobs?created_after=2025-03-04T08:59:00Z');
    expect(all.data.map((j) => j.id)).toEqual(visible());
    expect(all.next_cursor).toBeNull();
    for (const job of all.data) expect(job).toEqual(await h.getJob(acme.key, job.id));
    const everything = await getJson<Page>(acme.key, '/v1/jobs');
    expect(everything.data.map((j) => j.id).slice(0, 6)).toEqual(visible());
    expect(everything.data).toHaveLength(7); // and the Location test's job, an hour earlier
    expect((await getJson<Page>(other.key, '/v1/jobs')).data).toHaveLength(1);
  });

  it("pages with limit and the before cursor: every job once, in order, even when the cursor's job is deleted meanwhile", async () => {
    const seen: string[] = [];
    let path = '/v1/jobs?limit=2&created_after=2025-03-04T08:59:00Z';
    let pages = 0;
    for (;;) {
      const page = await getJson<Page>(acme.key, path);
      pages++;
      seen.push(...page.data.map((j) => j.id));
      if (!page.next_cursor) break;
      expect(page.data).toHaveLength(2);
      expect(page.next_cursor).toBe(encodeCursor('jobs', page.data[1]!.id));
      path = `/v1/jobs?limit=2&created_after=2025-03-04T08:59:00Z&before=${page.next_cursor}`;
    }
    expect(seen).toEqual(visible());
    // Six jobs, two a page: three full pages (each with a cursor), then an empty one.
    expect(pages).toBe(4);

    // A cursor whose job was deleted since still pages on from where it was.
    const first = await getJson<Page>(acme.key, '/v1/jobs?limit=1&created_after=2025-03-04T08:59:00Z');
    const cursorJob = first.data[0]!.id;
    await h.tdb.db('jobs').where({ id: cursorJob }).update({ deleted_at: new Date() });
    const rest = await getJson<Page>(
      acme.key,
      `/v1/jobs?created_after=2025-03-04T08:59:00Z&before=${first.next_cursor}`,
    );
    expect(rest.data.map((j) => j.id)).toEqual(visible().slice(1));
    await h.tdb.db('jobs').where({ id: cursorJob }).update({ deleted_at: null });

    // Another company's job id in a cursor lists nothing of anyone.
    const foreign = (await getJson<Page>(other.key, '/v1/jobs')).data[0]!.id;
    expect((await getJson<Page>(acme.key, `/v1/jobs?before=${encodeCursor('jobs', foreign)}`)).data).toEqual([]);
  });

  it('filters by status, operation (one or several values) and creation time; bounds are strict', async () => {
    const ofStatus = await getJson<Page>(acme.key, '/v1/jobs?status=failed,completed');
    expect(ofStatus.data.map((j) => j.id)).toEqual([ids[4], ids[1]]);
    expect((await getJson<Page>(acme.key, '/v1/jobs?status=queued&operation=webp')).data.map((j) => j.id)).toEqual([
      ids[2],
    ]);
    expect((await getJson<Page>(acme.key, '/v1/jobs?operation=webp,pdf-merge')).data.map((j) => j.id)).toEqual([
      ids[2],
    ]);
    expect((await getJson<Page>(acme.key, '/v1/jobs?status=cancelled')).data).toEqual([]);
    expect((await getJson<Page>(acme.key, '/v1/jobs?operation=transcribe')).data).toEqual([]);
    // created_after / created_before are exclusive; offsets are honoured.
    const window = await getJson<Page>(
      acme.key,
      '/v1/jobs?created_after=2025-03-04T09:01:00Z&created_before=2025-03-04T10:04:00%2B01:00',
    );
    expect(window.data.map((j) => j.id)).toEqual([ids[3], ids[2]]);
    expect(
      (
        await getJson<Page>(
          acme.key,
          '/v1/jobs?created_before=2025-03-04T09:00:00.001Z&created_after=2025-03-04T08:59:59.999Z',
        )
      ).data.map((j) => j.id),
    ).toEqual([ids[0]]);
  });

  it("filters by batch_id: the batch's jobs, nothing for an unknown or another company's batch", async () => {
    expect((await getJson<Page>(acme.key, '/v1/jobs?batch_id=bat_AAAAAAAAAAAAAAAAAAAA')).data).toEqual([]);
    await h.fileUnderBatch(acme.id, 'bat_AAAAAAAAAAAAAAAAAAAA', [ids[0]!, ids[3]!]);
    expect((await getJson<Page>(acme.key, '/v1/jobs?batch_id=bat_AAAAAAAAAAAAAAAAAAAA')).data.map((j) => j.id)).toEqual(
      [ids[3], ids[0]],
    );
    expect((await getJson<Page>(other.key, '/v1/jobs?batch_id=bat_AAAAAAAAAAAAAAAAAAAA')).data).toEqual([]);
    expect((await getJson<Page>(acme.key, '/v1/jobs?batch_id=bat_BBBBBBBBBBBBBBBBBBBB')).data).toEqual([]);
  });

  it('refuses (422 naming the parameter) unknown or repeated parameters, unknown values, bad times, limits and cursors', async () => {
    const cases: Array<[string, string]> = [
      ['stauts=failed', 'stauts'],
      ['status=failed&status=queued', 'status'],
      ['status=done', 'status'],
      ['status=', 'status'],
      ['operation=nope', 'operation'],
      ['batch_id=x', 'batch_id'],
      ['created_after=yesterday', 'created_after'],
      ['created_after=2025-03-04T09:00:00', 'created_after'],
      ['created_before=2025-02-30T09:00:00Z', 'created_before'],
      ['created_before=2025-13-01T09:00:00Z', 'created_before'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['before=abc', 'before'],
      [`before=${encodeCursor('requests', 'req_AAAAAAAAAAAAAAAAAAAA')}`, 'before'],
    ];
    for (const [query, param] of cases) {
      const body = await getJson<{ code: string; issues: Array<{ path: string }> }>(acme.key, `/v1/jobs?${query}`, 422);
      expect(body, query).toMatchObject({ code: 'validation_failed', issues: [{ path: param }] });
    }
  });
});

describe('GET /v1/uploads/{id}', () => {
  it('answers the record POST /v1/uploads returned; 404 unknown, foreign or deleted; 410 past retention', async () => {
    const f = new FormData();
    f.append('files', new Blob([new Uint8Array(await samplePdf(2))]), 'Straße.pdf');
    const created = (
      (await (
        await fetch(`${h.app.url}/v1/uploads`, { method: 'POST', headers: h.auth(acme.key), body: f })
      ).json()) as { uploads: Array<Record<string, unknown>> }
    ).uploads[0]!;
    expect(await getJson(acme.readKey, `/v1/uploads/${String(created['id'])}`)).toEqual(created);

    for (const [key, id] of [
      [other.key, String(created['id'])],
      [acme.key, 'upl_AAAAAAAAAAAAAAAAAAAA'],
    ] as const) {
      expect(await getJson(key, `/v1/uploads/${id}`, 404)).toMatchObject({
        code: 'not_found',
        detail: 'Upload not found',
      });
    }
    expect(await getJson(acme.key, '/v1/uploads/junk', 404)).toMatchObject({ code: 'not_found' });
    const expiring = await h.upload(acme.key, 'old.pdf', await samplePdf(1));
    await h.tdb
      .db('uploads')
      .where({ id: expiring })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(await getJson(acme.key, `/v1/uploads/${expiring}`, 410)).toMatchObject({
      code: 'gone',
      detail: `Upload ${expiring} has expired (sources are kept 7 days)`,
    });
    const purged = await h.upload(acme.key, 'purged.pdf', await samplePdf(1));
    await h.tdb.db('uploads').where({ id: purged }).update({ purged_at: new Date() });
    expect(await getJson(acme.key, `/v1/uploads/${purged}`, 410)).toMatchObject({ code: 'gone' });

    const deleted = await h.upload(acme.key, 'deleted.pdf', await samplePdf(1));
    expect(
      (await fetch(`${h.app.url}/v1/uploads/${deleted}`, { method: 'DELETE', headers: h.auth(acme.key) })).status,
    ).toBe(204);
    expect(await getJson(acme.key, `/v1/uploads/${deleted}`, 404)).toMatchObject({ code: 'not_found' });
  });
});

describe('GET /v1/credits', () => {
  it('shows available and reserved credits and the ledger as a feed (after, limit), each entry with its job', async () => {
    const co = await h.company('LedgerCo');
    const source = await h.upload(co.key, 'l.pdf', await samplePdf(12)); // 4 credits
    await grantCredits(h.tdb.db, co.id, 500n, 'pack');
    const a = await h.submitOk(co.key, { operation: 'pdf-rotate', upload_ids: [source], options: { angle: 90 } });
    const b = await h.submitOk(co.key, { operation: 'pdf-rotate', upload_ids: [source], options: { angle: 180 } });
    expect(
      (await fetch(`${h.app.url}/v1/jobs/${b.id}/cancel`, { method: 'POST', headers: h.auth(co.key) })).status,
    ).toBe(200);

    type Credits = {
      available: number;
      reserved: number;
      ledger: {
        data: Array<{
          id: number;
          kind: string;
          amount: number;
          job_id: string | null;
          reason: string | null;
          created_at: string;
        }>;
        next_cursor: number;
      };
    };
    const credits = await getJson<Credits>(co.readKey, '/v1/credits');
    expect(credits).toMatchObject({ available: 1000 + 500 - 4, reserved: 4 });
    expect(credits.ledger.data.map((e) => [e.kind, e.amount, e.job_id, e.reason])).toEqual([
      ['grant', 1000, null, 'trial'],
      ['grant', 500, null, 'pack'],
      ['reserve', 4, a.id, null],
      ['reserve', 4, b.id, null],
      ['release', 4, b.id, 'job_cancelled'],
    ]);
    const entryIds = credits.ledger.data.map((e) => e.id);
    expect([...entryIds].sort((x, y) => x - y)).toEqual(entryIds);
    expect(credits.ledger.next_cursor).toBe(entryIds.at(-1));
    for (const e of credits.ledger.data) expect(Date.parse(e.created_at)).not.toBeNaN();

    // Paging: two at a time from the start, then nothing new past the end (the cursor stays where it is).
    const firstTwo = await getJson<Credits>(co.key, '/v1/credits?limit=2');
    expect(firstTwo.ledger.data.map((e) => e.id)).toEqual(entryIds.slice(0, 2));
    const next = await getJson<Credits>(co.key, `/v1/credits?limit=2&after=${firstTwo.ledger.next_cursor}`);
    expect(next.ledger.data.map((e) => e.id)).toEqual(entryIds.slice(2, 4));
    const end = await getJson<Credits>(co.key, `/v1/credits?after=${entryIds.at(-1)}`);
    expect(end.ledger).toEqual({ data: [], next_cursor: entryIds.at(-1) });
    // Nothing of another company.
    expect(
      (await getJson<Credits>(other.key, '/v1/credits')).ledger.data.every(
        (e) => e.job_id === null || !entryIds.includes(e.id),
      ),
    ).toBe(true);
    expect(
      (await getJson<Credits>(other.key, `/v1/credits?after=0`)).ledger.data
        .map((e) => e.id)
        .some((id) => entryIds.includes(id)),
    ).toBe(false);

    for (const [query, param] of [
      ['after=-1', 'after'],
      ['after=x', 'after'],
      ['limit=0', 'limit'],
      ['limit=500', 'limit'],
    ] as const) {
      expect(await getJson(co.key, `/v1/credits?${query}`, 422), query).toMatchObject({
        code: 'validation_failed',
        issues: [{ path: param }],
      });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../adapters/crypto/password.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { markUploadPurged } from '../../db/repositories/uploads.repo.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { samplePdf, samplePng } from '../../support/sample-files.js';
import { Conformance } from '../helpers/openapi-conformance.js';

/**
 * `GET /v1/uploads` and `GET /api/company/uploads` (docs/processing.md "Listing uploads"): the company's uploads that
 * still hold storage, newest first, paged like the other lists, each with whether a job or batch uses it, so a client
 * that lost an upload id can find it and free its storage.
 */
const h = new ProcessingHarness();
let acme: TestCompany;
let other: TestCompany;
let owner: DashboardClient;
let v1: Conformance;
let company: Conformance;
const ids: Record<'pdf' | 'png' | 'deleted' | 'purged' | 'latest', string> = {
  pdf: '',
  png: '',
  deleted: '',
  purged: '',
  latest: '',
};
let jobId = '';
const batchId = `bat_${'L'.repeat(20)}`;

type Listed = { id: string; in_use: boolean; job_count: number; batch_count: number } & Record<string, unknown>;
type Page = { data: Listed[]; next_cursor: string | null };
const get = (path: string, key?: string) =>
  fetch(`${h.app.url}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
const list = async (query = '', key = acme.readKey): Promise<Page> =>
  (await v1.check('GET /v1/uploads', await get(`/v1/uploads${query}`, key))) as Page;

beforeAll(async () => {
  // No worker: the job submitted below stays queued, so its source is in use until it is cancelled.
  await h.start({ startWorkers: false });
  acme = await h.company('Uploads');
  other = await h.company('Elsewhere');
  ids.pdf = await h.upload(acme.key, 'report.pdf', await samplePdf(2));
  ids.png = await h.upload(acme.key, 'scan.png', await samplePng(8, 6));
  ids.deleted = await h.upload(acme.key, 'gone.pdf', await samplePdf(1));
  ids.purged = await h.upload(acme.key, 'old.pdf', await samplePdf(1));
  ids.latest = await h.upload(acme.key, 'latest.pdf', await samplePdf(1));
  await h.upload(other.key, 'theirs.pdf', await samplePdf(1));
  expect(
    (await fetch(`${h.app.url}/v1/uploads/${ids.deleted}`, { method: 'DELETE', headers: h.auth(acme.key) })).status,
  ).toBe(204);
  await markUploadPurged(h.tdb.db, ids.purged, new Date());
  jobId = (await h.submitOk(acme.key, { operation: 'pdf-rotate', upload_ids: [ids.pdf], options: { angle: 90 } })).id;
  await h.fileUnderBatch(acme.id, batchId, [jobId]);

  v1 = new Conformance((await (await get('/v1/openapi.json')).json()) as Record<string, unknown>);
  company = new Conformance((await (await get('/api/company/openapi.json')).json()) as Record<string, unknown>);
  const ownerRow = await h.tdb
    .db('members as m')
    .join('accounts as a', 'a.id', 'm.account_id')
    .where('m.id', acme.ownerId)
    .first('a.id as account_id', 'a.email');
  await setAccountPassword(h.tdb.db, ownerRow.account_id, await hashPassword('uploads owner password'), new Date());
  owner = new DashboardClient(h.app.url, '/api/company');
  expect((await owner.signIn(ownerRow.email, 'uploads owner password', { idem: null })).status).toBe(201);
}, 300_000);
afterAll(() => h.stop());

describe('GET /v1/uploads', () => {
  it("lists the company's uploads that hold storage, newest first, with size, kind, times and their use", async () => {
    const page = await list();
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((u) => u.id)).toEqual([ids.latest, ids.png, ids.pdf]);
    const stored = await h.tdb.db('uploads').where({ id: ids.pdf }).first();
    expect(page.data[2]).toEqual({
      id: ids.pdf,
      filename: 'report.pdf',
      kind: 'pdf',
      mime_type: 'application/pdf',
      bytes: Number(stored.bytes),
      pages: 2,
      duration_seconds: null,
      width: null,
      height: null,
      encrypted: false,
      sha256: stored.sha256,
      created_at: stored.created_at.toISOString(),
      expires_at: stored.expires_at.toISOString(),
      in_use: true,
      job_count: 1,
      batch_count: 1,
    });
    expect(page.data[1]).toMatchObject({ kind: 'image', mime_type: 'image/png', width: 8, height: 6, in_use: false });
    expect(page.data[0]).toMatchObject({ in_use: false, job_count: 0, batch_count: 0 });
    // The same as GET /v1/uploads/{id} shows, plus the use.
    const one = (await (await get(`/v1/uploads/${ids.png}`, acme.key)).json()) as Record<string, unknown>;
    expect(page.data[1]).toEqual({ ...one, in_use: false, job_count: 0, batch_count: 0 });
  });

  it('shows a source free once its job has ended (DELETE then succeeds), still counting the job', async () => {
    const res = await fetch(`${h.app.url}/v1/jobs/${jobId}/cancel`, { method: 'POST', headers: h.auth(acme.key) });
    expect(res.status).toBe(200);
    const pdf = (await list()).data.find((u) => u.id === ids.pdf)!;
    expect(pdf).toMatchObject({ in_use: false, job_count: 1, batch_count: 1 });
  });

  it('pages with limit and the before cursor, and ends with a null cursor', async () => {
    const first = await list('?limit=2');
    expect(first.data.map((u) => u.id)).toEqual([ids.latest, ids.png]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await list(`?limit=2&before=${first.next_cursor}`);
    expect(second.data.map((u) => u.id)).toEqual([ids.pdf]);
    expect(second.next_cursor).toBeNull();
    const exact = await list(`?limit=1&before=${(await list('?limit=2')).next_cursor}`);
    expect(exact.data.map((u) => u.id)).toEqual([ids.pdf]);
    expect(await list(`?limit=1&before=${exact.next_cursor}`)).toEqual({ data: [], next_cursor: null });
    // Another company sees only its own.
    expect((await list('', other.readKey)).data).toHaveLength(1);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=ten', 'limit'],
    ['?before=nope', 'before'],
    [`?before=${Buffer.from(`jobs:job_${'A'.repeat(20)}`).toString('base64url')}`, 'before'],
    ['?status=queued', 'status'],
    ['?limit=1&limit=2', 'limit'],
  ])('%s is refused with a {detail} 422 naming %s', async (query, path) => {
    const res = await get(`/v1/uploads${query}`, acme.readKey);
    const body = (await v1.check('GET /v1/uploads', res)) as Record<string, unknown>;
    expect(res.status).toBe(422);
    expect(typeof body['detail']).toBe('string');
    expect(body['issues']).toEqual([expect.objectContaining({ path })]);
  });

  it('needs a key (401 in the {detail} shape)', async () => {
    const res = await get('/v1/uploads');
    expect(res.status).toBe(401);
    expect(await v1.check('GET /v1/uploads', res)).toMatchObject({ detail: expect.any(String) });
  });
});

describe('GET /api/company/uploads (any member of the company session)', () => {
  it('lists the same page as the API key does, and refuses a bad cursor the same way', async () => {
    const viaKey = await list('?limit=2');
    const res = await owner.request('GET', '/uploads?limit=2');
    expect(await company.check('GET /api/company/uploads', res)).toEqual(viaKey);
    const bad = await owner.request('GET', '/uploads?before=nope');
    expect(bad.status).toBe(422);
    expect(await company.check('GET /api/company/uploads', bad)).toMatchObject({ detail: expect.any(String) });
    const anonymous = await owner.request('GET', '/uploads', undefined, { cookie: null });
    expect(anonymous.status).toBe(401);
  });
});

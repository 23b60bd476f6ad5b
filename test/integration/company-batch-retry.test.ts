import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../adapters/crypto/password.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { DashboardClient, inviteAndAccept } from '../helpers/dashboard.js';
import { batchClient, type BatchJson } from '../helpers/batches.js';
import { samplePdf } from '../../support/sample-files.js';
import { Conformance } from '../helpers/openapi-conformance.js';

/**
 * `POST /api/company/batches/{id}/retry-failed` (docs/processing.md "Retrying failed items"): a billing administrator
 * retries a batch's failed items from the dashboard, through the same submission code as /v1, recorded as submitted
 * by the member (no API key); a double click makes one retry batch (409 `batch_retry_in_progress` while it runs).
 */
const h = new ProcessingHarness();
const b = batchClient(h);
let acme: TestCompany;
let other: TestCompany;
let owner: DashboardClient;
let member: DashboardClient;
let batch: BatchJson;
let good: string;
let bad: string;

async function signIn(email: string, password: string): Promise<DashboardClient> {
  const c = new DashboardClient(h.app.url, '/api/company');
  const res = await c.signIn(email, password, { idem: null });
  expect(res.status, await res.clone().text()).toBe(201);
  return c;
}
const retry = (c: DashboardClient, id: string, body?: unknown, opts: Parameters<DashboardClient['request']>[3] = {}) =>
  c.request('POST', `/batches/${id}/retry-failed`, body, opts);
const batchRows = async () =>
  h.tdb
    .db('batches')
    .where({ company_id: acme.id })
    .orderBy('created_at')
    .select('id', 'retry_of', 'api_key_id', 'member_id', 'status');

beforeAll(async () => {
  await h.start();
  acme = await h.company('Retry');
  other = await h.company('Elsewhere');
  good = await h.upload(acme.key, 'good.pdf', await samplePdf(1));
  bad = await h.upload(acme.key, 'bad.pdf', await samplePdf(1));
  writeFileSync(h.store.pathOf(bad), readFileSync(h.store.pathOf(bad)).subarray(0, 40)); // measured, then damaged
  batch = await b.submitOk(acme.key, { operation: 'pdf-rotate', upload_ids: [good, bad], options: { angle: 90 } });
  const ended = await b.waitForBatch(acme.key, batch.id);
  expect(ended).toMatchObject({ status: 'partial', progress: { completed: 1, failed: 1 } });

  const ownerRow = await h.tdb
    .db('members as m')
    .join('accounts as a', 'a.id', 'm.account_id')
    .where('m.id', acme.ownerId)
    .first('a.id as account_id', 'a.email');
  await setAccountPassword(h.tdb.db, ownerRow.account_id, await hashPassword('retry owner password'), new Date());
  owner = await signIn(ownerRow.email, 'retry owner password');
  const accepted = await inviteAndAccept(owner, h.smtp, 'viewer@retry.example', 'viewer password 1');
  expect(accepted.status, await accepted.clone().text()).toBe(201);
  member = await signIn('viewer@retry.example', 'viewer password 1');
}, 300_000);
afterAll(() => h.stop());

describe('POST /api/company/batches/{id}/retry-failed', () => {
  it("is refused to a member who is not a billing administrator, without the CSRF token, with a body field, and for another company's batch", async () => {
    const notAdmin = await retry(member, batch.id);
    expect(notAdmin.status).toBe(403);
    expect(await notAdmin.json()).toMatchObject({ code: 'billing_admin_required' });
    expect((await retry(owner, batch.id, undefined, { csrf: null })).status).toBe(403);
    const withField = await retry(owner, batch.id, { upload_ids: [good] });
    expect(withField.status).toBe(422);
    expect(await withField.json()).toMatchObject({
      code: 'validation_failed',
      issues: [expect.objectContaining({ path: 'upload_ids' })],
    });
    const foreign = await b.submitOk(other.key, {
      operation: 'pdf-rotate',
      upload_ids: [await h.upload(other.key, 'x.pdf', await samplePdf(1))],
      options: { angle: 90 },
    });
    expect((await retry(owner, foreign.id)).status).toBe(404);
    expect((await retry(owner, 'bat_Ab3Ab3Ab3Ab3Ab3Ab3Cd')).status).toBe(404);
    expect((await batchRows()).map((r) => r.id)).toEqual([batch.id]);
  });

  it('makes one retry batch of the failed item, attributed to the member; a double click gets 409 batch_retry_in_progress while it runs', async () => {
    await h.stopWorkers(); // the retry stays queued: "still running" is deterministic
    const before = await h.wallet(acme.id);
    const [first, second] = await Promise.all([retry(owner, batch.id), retry(owner, batch.id)]);
    const answers = [first, second].sort((x, y) => x.status - y.status);
    expect(answers.map((r) => r.status)).toEqual([202, 409]);
    const created = (await answers[0]!.json()) as BatchJson;
    expect(await answers[1]!.json()).toMatchObject({
      code: 'batch_retry_in_progress',
      detail: expect.stringContaining(created.id),
    });
    expect(answers[0]!.headers.get('location')).toBe(`/api/company/batches/${created.id}`);
    expect(created).toMatchObject({
      retry_of: batch.id,
      status: 'queued',
      item_count: 1,
      progress: { total: 1, queued: 1 },
      credits: { estimated: 2, reserved: 2 },
    });
    expect(created.jobs.map((j) => j.upload_ids)).toEqual([[bad]]);
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 2, reserved: before.reserved + 2 });

    const rows = await batchRows();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ id: batch.id, api_key_id: expect.stringMatching(/^key_/), member_id: null });
    expect(rows[1]).toMatchObject({ id: created.id, retry_of: batch.id, api_key_id: null, member_id: acme.ownerId });
    expect(await h.tdb.db('jobs').where({ batch_id: created.id }).select('api_key_id', 'member_id')).toEqual([
      { api_key_id: null, member_id: acme.ownerId },
    ]);

    // Still queued: a third press is refused the same way, and the running retry itself cannot be retried yet.
    expect(await (await retry(owner, batch.id)).json()).toMatchObject({ code: 'batch_retry_in_progress' });
    expect(await (await retry(owner, created.id)).json()).toMatchObject({ code: 'batch_not_terminal' });
    // The session sees it like any batch.
    const read = await owner.request('GET', `/batches/${created.id}`);
    expect(await read.json()).toMatchObject({ id: created.id, retry_of: batch.id });

    // Once the retry has ended (the damaged source fails again), the original may be retried once more.
    await h.startWorker();
    expect(await b.waitForBatch(acme.key, created.id)).toMatchObject({ status: 'failed' });
    const again = await retry(owner, batch.id);
    expect(again.status, await again.clone().text()).toBe(202);
  }, 300_000);

  it('answers 409 batch_has_no_failed_items for a batch that completed', async () => {
    const done = await b.submitOk(acme.key, { operation: 'pdf-rotate', upload_ids: [good], options: { angle: 90 } });
    await b.waitForBatch(acme.key, done.id);
    const res = await retry(owner, done.id);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'batch_has_no_failed_items' });
  }, 300_000);

  it('answers as the company OpenAPI document says: 202, 403, 404, 409 and 422', async () => {
    const doc = (await (await fetch(`${h.app.url}/api/company/openapi.json`)).json()) as Record<string, unknown>;
    const c = new Conformance(doc);
    const op = 'POST /api/company/batches/{batch_id}/retry-failed';
    for (const r of await h.tdb.db('batches').where({ retry_of: batch.id }).select('id'))
      await b.waitForBatch(acme.key, r.id as string);
    await h.stopWorkers();
    try {
      const created = (await c.check(op, await retry(owner, batch.id))) as { id: string };
      expect(created.id).toMatch(/^bat_/);
      expect(await c.check(op, await retry(owner, batch.id))).toMatchObject({ code: 'batch_retry_in_progress' });
      expect(await c.check(op, await retry(owner, created.id))).toMatchObject({ code: 'batch_not_terminal' });
      expect(await c.check(op, await retry(member, batch.id))).toMatchObject({ code: 'billing_admin_required' });
      expect(await c.check(op, await retry(owner, batch.id, undefined, { csrf: null }))).toMatchObject({
        code: 'csrf_failed',
      });
      expect(await c.check(op, await retry(owner, batch.id, { again: true }))).toMatchObject({
        code: 'validation_failed',
      });
      expect(await c.check(op, await retry(owner, 'bat_Ab3Ab3Ab3Ab3Ab3Ab3Cd'))).toMatchObject({ code: 'not_found' });
    } finally {
      await h.startWorker();
    }
  }, 300_000);
});

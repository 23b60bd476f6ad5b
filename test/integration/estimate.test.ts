import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { samplePdf, sampleEncryptedPdf, samplePng } from '../../support/sample-files.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
const logs = capturingLogger();
const ids: Record<string, string> = {};
let key = '';
let readKey = '';
let otherKey = '';

const auth = (k: string) => ({ Authorization: `Bearer ${k}` });
async function uploadAs(k: string, name: string, bytes: Buffer): Promise<string> {
  const f = new FormData();
  f.append('files', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${app.url}/v1/uploads`, { method: 'POST', headers: auth(k), body: f });
  expect(res.status).toBe(201);
  return ((await res.json()) as { uploads: Array<{ id: string }> }).uploads[0]!.id;
}
const estimate = (body: unknown, k = key) =>
  fetch(`${app.url}/v1/estimate`, {
    method: 'POST',
    headers: { ...auth(k), 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    config: testConfig({ STORAGE_DIR: mkdtempSync(join(tmpdir(), 'est-')), LOG_LEVEL: 'debug' }),
  });
  const mk = async (n: number) => {
    const { company, owner } = await createCompany(tdb.db, { name: `E${n}`, ownerEmail: `e${n}@example.com` });
    const issue = async (scopes: Array<'read' | 'write'>) =>
      (await issueCompanyKey(tdb.db, { companyId: company.id, memberId: owner.id, name: 'k', scopes }, new Date()))
        .secret;
    return { write: await issue(['read', 'write']), read: await issue(['read']) };
  };
  const main = await mk(1);
  key = main.write;
  readKey = main.read;
  otherKey = (await mk(2)).write;
  ids['pdf25'] = await uploadAs(key, 'long.pdf', await samplePdf(25));
  ids['pdf3'] = await uploadAs(key, 'short.pdf', await samplePdf(3));
  ids['locked'] = await uploadAs(key, 'locked.pdf', await sampleEncryptedPdf(4, 'pw123'));
  ids['png'] = await uploadAs(key, 'pic.png', await samplePng(40, 30));
  ids['foreign'] = await uploadAs(otherKey, 'theirs.pdf', await samplePdf(1));
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

describe('POST /v1/estimate', () => {
  it('quotes on server-measured pages, per source, and starts no work', async () => {
    const res = await estimate({
      operation: 'pdf-rotate',
      upload_ids: [ids['pdf25']],
      options: { angle: 90, pages: '1-5' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      operation: 'pdf-rotate',
      estimated_credits: 6,
      sources: [{ upload_id: ids['pdf25'], bytes: expect.any(Number), pages: 25, duration_seconds: null, credits: 6 }],
    });
    const merge = await estimate({ operation: 'pdf-merge', upload_ids: [ids['pdf25'], ids['pdf3']] });
    expect(((await merge.json()) as { estimated_credits: number }).estimated_credits).toBe(6 + 2);
    expect(
      (
        (await (await estimate({ operation: 'webp', upload_ids: [ids['png']] })).json()) as {
          estimated_credits: number;
        }
      ).estimated_credits,
    ).toBe(2);
    expect(await tdb.db('credit_reservations')).toHaveLength(0);
  });

  it('checks page selections against the real page count', async () => {
    const beyond = await estimate({ operation: 'pdf-extract', upload_ids: [ids['pdf3']], options: { pages: '1-3,5' } });
    expect(beyond.status).toBe(422);
    expect(await beyond.json()).toMatchObject({
      code: 'validation_failed',
      issues: [{ path: 'options.pages', message: expect.stringContaining('3 pages') }],
    });
    const all = await estimate({ operation: 'pdf-delete', upload_ids: [ids['pdf3']], options: { pages: '1-3' } });
    expect(all.status).toBe(422);
    expect(
      (await estimate({ operation: 'pdf-extract', upload_ids: [ids['pdf3']], options: { pages: '2-3' } })).status,
    ).toBe(200);
  });

  it('pdf-unlock validates the password and counts pages before quoting; other operations refuse an encrypted source', async () => {
    const wrong = await estimate({
      operation: 'pdf-unlock',
      upload_ids: [ids['locked']],
      options: { password: 'nope' },
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({ issues: [{ path: 'options.password' }] });
    const right = await estimate({
      operation: 'pdf-unlock',
      upload_ids: [ids['locked']],
      options: { password: 'pw123' },
    });
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ estimated_credits: 2, sources: [{ pages: 4 }] });
    const rotate = await estimate({ operation: 'pdf-rotate', upload_ids: [ids['locked']], options: { angle: 180 } });
    expect(rotate.status).toBe(422);
    expect(((await rotate.json()) as { detail: string }).detail).toContain('unlock it first');
    expect(
      (await estimate({ operation: 'pdf-unlock', upload_ids: [ids['pdf3']], options: { password: 'x' } })).status,
    ).toBe(422);
    expect(logs.text()).not.toContain('pw123');
    expect(logs.text()).not.toContain('nope');
  });

  it('refuses sources of the wrong kind, unknown or foreign uploads, expired ones and quotes above max_credits', async () => {
    expect((await estimate({ operation: 'image-compress', upload_ids: [ids['pdf3']] })).status).toBe(422);
    expect((await estimate({ operation: 'pdf-rotate', upload_ids: [ids['png']], options: { angle: 90 } })).status).toBe(
      422,
    );
    const missing = await estimate({ operation: 'webp', upload_ids: [`upl_${'z'.repeat(20)}`] });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found', detail: expect.any(String) });
    expect(
      (await estimate({ operation: 'pdf-rotate', upload_ids: [ids['foreign']], options: { angle: 90 } })).status,
    ).toBe(404);
    const over = await estimate({
      operation: 'pdf-rotate',
      upload_ids: [ids['pdf25']],
      options: { angle: 90 },
      max_credits: 5,
    });
    expect(over.status).toBe(409);
    expect(((await over.json()) as { detail: string }).detail).toContain('max_credits');
    expect(
      (await estimate({ operation: 'pdf-rotate', upload_ids: [ids['pdf25']], options: { angle: 90 }, max_credits: 6 }))
        .status,
    ).toBe(200);
    await tdb
      .db('uploads')
      .where({ id: ids['pdf3'] })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await estimate({ operation: 'webp', upload_ids: [ids['pdf3']] });
    expect(expired.status).toBe(410);
  });

  it('answers invalid bodies with 422 and a read-only key with 403', async () => {
    const bad = await estimate({
      operation: 'pdf-rotate',
      upload_ids: [ids['pdf25']],
      options: { angle: 45 },
      extra: true,
    });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { issues: Array<{ path: string }> }).issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['(body)']),
    );
    expect((await estimate('{"operation":')).status).toBe(422);
    expect((await estimate({ operation: 'webp', upload_ids: [ids['png']] }, readKey)).status).toBe(403);
  });
});

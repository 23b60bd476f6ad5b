import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { samplePdf, sampleEncryptedPdf, samplePng, sampleWav } from '../../support/sample-files.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import { createFileStore } from '../../adapters/storage/file-store.js';

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
const storageDir = mkdtempSync(join(tmpdir(), 'uploads-'));
const store = createFileStore(storageDir);
const keys: { write: string; read: string; other: string; suspended: string } = {} as never;
let companyId: string;
let seq = 0;

async function company(status: 'active' | 'suspended' = 'active') {
  const { company: c, owner } = await createCompany(tdb.db, { name: `Co${++seq}`, ownerEmail: `u${seq}@example.com` });
  if (status === 'suspended') await tdb.db('companies').where({ id: c.id }).update({ status });
  const issue = async (scopes: Array<'read' | 'write'>) =>
    (await issueCompanyKey(tdb.db, { companyId: c.id, memberId: owner.id, name: 'k', scopes }, new Date())).secret;
  return { id: c.id, write: await issue(['read', 'write']), read: await issue(['read']) };
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp({
    db: tdb.db,
    logger: capturingLogger().logger,
    config: testConfig({
      STORAGE_DIR: storageDir,
      UPLOAD_MAX_FILES: '5',
      UPLOAD_MAX_REQUEST_MB: '1',
      COMPANY_STORAGE_MB: '2',
    }),
  });
  const main = await company();
  companyId = main.id;
  keys.write = main.write;
  keys.read = main.read;
  keys.other = (await company()).write;
  keys.suspended = (await company('suspended')).write;
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

const form = (files: Array<[string, Buffer, string?]>, field = 'files') => {
  const f = new FormData();
  for (const [name, bytes, type] of files)
    f.append(field, new Blob([new Uint8Array(bytes)], { type: type ?? 'application/octet-stream' }), name);
  return f;
};
const upload = (body: FormData | string, key = keys.write, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/v1/uploads`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, ...headers }, body });
type UploadJson = {
  id: string;
  filename: string;
  kind: string;
  pages: number;
  bytes: number;
  duration_seconds: number | null;
  encrypted: boolean;
  mime_type: string;
};
const rows = async () => tdb.db('uploads').where({ company_id: companyId }).whereNull('deleted_at');
const storedFiles = () =>
  readdirSync(storageDir, { recursive: true, withFileTypes: true }).filter(
    (d) => d.isFile() && !d.parentPath.endsWith('tmp'),
  ).length;

describe('POST /v1/uploads', () => {
  it('measures PDF pages, images, text pages and media duration on the server', async () => {
    const pdf = await samplePdf(3);
    const text = Buffer.from('ä'.repeat(4_500)); // 9,000 bytes of UTF-8: 3 pages
    const res = await upload(
      form([
        ['report.pdf', pdf, 'image/png'], // the declared type is ignored
        ['photo.png', await samplePng(64, 48)],
        ['notes.txt', text],
        ['voice.wav', sampleWav(2.5)],
      ]),
    );
    expect(res.status).toBe(201);
    const { uploads } = (await res.json()) as { uploads: UploadJson[] };
    expect(uploads.map((u) => [u.filename, u.kind, u.pages, u.bytes])).toEqual([
      ['report.pdf', 'pdf', 3, pdf.length],
      ['photo.png', 'image', 1, expect.any(Number)],
      ['notes.txt', 'text', 3, 9_000],
      ['voice.wav', 'audio', 0, 44 + 40_000],
    ]);
    expect(uploads[3]!.duration_seconds).toBeCloseTo(2.5, 2);
    expect(uploads[0]).toMatchObject({ mime_type: 'application/pdf', encrypted: false, duration_seconds: null });
    for (const u of uploads) {
      expect(u.id).toMatch(/^upl_[A-Za-z0-9]{20}$/);
      expect(existsSync(store.pathOf(u.id))).toBe(true);
    }
  });

  it('reports an encrypted PDF with 0 pages', async () => {
    const res = await upload(form([['secret.pdf', await sampleEncryptedPdf(4, 'pw123')]]));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { uploads: UploadJson[] }).uploads[0]).toMatchObject({
      kind: 'pdf',
      pages: 0,
      encrypted: true,
    });
  });

  it('never uses the client file name as a path', async () => {
    const res = await upload(form([['../../etc/passwd', Buffer.from('hello')]]));
    expect(res.status).toBe(201);
    const u = ((await res.json()) as { uploads: UploadJson[] }).uploads[0]!;
    expect(u.filename).toBe('passwd');
    expect(store.pathOf(u.id).startsWith(storageDir)).toBe(true);
    expect(existsSync(join(storageDir, '..', 'etc'))).toBe(false);
  });

  it('answers a malformed multipart body with 422, promptly', async () => {
    const res = await upload(form([['bell\u0007.txt', Buffer.from('hello')]]));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'validation_failed', detail: expect.stringContaining('malformed') });
    const truncated = await upload(
      '--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhel',
      keys.write,
      {
        'content-type': 'multipart/form-data; boundary=xyz',
      },
    );
    expect(truncated.status).toBe(422);
  });

  it('rejects unreadable, empty or misnamed content with 422 and stores nothing of the request', async () => {
    const before = { rows: (await rows()).length, files: storedFiles() };
    const cases: Array<[FormData, string]> = [
      [
        form([
          ['ok.pdf', await samplePdf(1)],
          ['junk.bin', randomBytes(3000)],
        ]),
        'junk.bin',
      ],
      [form([['broken.pdf', Buffer.from('%PDF-1.7\n garbage')]]), 'broken.pdf'],
      [form([['empty.txt', Buffer.alloc(0)]]), 'empty'],
      [form([['a.txt', Buffer.from('x')]], 'file'), 'files'],
    ];
    for (const [body, mention] of cases) {
      const res = await upload(body);
      expect(res.status).toBe(422);
      const json = (await res.json()) as { detail: string; code: string };
      expect(json.code).toBe('validation_failed');
      expect(json.detail).toContain(mention);
    }
    expect({ rows: (await rows()).length, files: storedFiles() }).toEqual(before);
    expect(readdirSync(join(storageDir, 'tmp'))).toEqual([]);
  });

  it('answers 413 past the file count, the request size or the company storage, storing nothing', async () => {
    const before = (await rows()).length;
    const six = form(Array.from({ length: 6 }, (_, i) => [`t${i}.txt`, Buffer.from(`file ${i}`)] as [string, Buffer]));
    const tooMany = await upload(six);
    expect(tooMany.status).toBe(413);
    expect(await tooMany.json()).toMatchObject({
      code: 'payload_too_large',
      detail: expect.stringContaining('5 files'),
    });
    const big = await upload(form([['big.txt', Buffer.alloc(1_100_000, 'a')]]));
    expect(big.status).toBe(413);
    expect((await rows()).length).toBe(before);

    // Company storage: 2 MB. Fill it with 0.9 MB files, then one more is refused.
    const chunk = () => form([[`fill.txt`, Buffer.alloc(900_000, 'b')]]);
    const stored = (await rows()).reduce((s, r) => s + Number(r.bytes), 0);
    let accepted = stored;
    while (accepted + 900_000 <= 2_000_000) {
      expect((await upload(chunk())).status).toBe(201);
      accepted += 900_000;
    }
    const over = await upload(chunk());
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ detail: expect.stringContaining('storage') });
  });

  it('stops reading a chunked body as soon as it passes the request limit', async () => {
    const before = (await rows()).length;
    const boundary = 'chunkedboundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="huge.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (sent >= 3_000_000) {
          controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        sent += 64_000;
        controller.enqueue(Buffer.alloc(64_000, 'c'));
      },
    });
    const started = Date.now();
    const res = await fetch(`${app.url}/v1/uploads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${keys.write}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit).catch((e: unknown) => e);
    // Either the 413 arrives, or the server closed the connection after answering while the client still sent.
    if (res instanceof Response) {
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
    } else {
      expect(String((res as Error).cause ?? res)).toMatch(/ECONNRESET|EPIPE|closed|terminated|other side/i);
    }
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await rows()).length).toBe(before);
    expect(readdirSync(join(storageDir, 'tmp'))).toEqual([]);
  });

  it('deletes an unused upload; a foreign or deleted id is not found', async () => {
    const res = await upload(form([['del.txt', Buffer.from('bye')]]), keys.other);
    const id = ((await res.json()) as { uploads: UploadJson[] }).uploads[0]!.id;
    const del = (key: string) =>
      fetch(`${app.url}/v1/uploads/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${key}` } });
    expect((await del(keys.write)).status).toBe(404); // another company's id
    expect((await del(keys.other)).status).toBe(204);
    expect(existsSync(store.pathOf(id))).toBe(false);
    const again = await del(keys.other);
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ detail: 'Upload not found', code: 'not_found' });
  });

  it('answers auth, scope, suspension and media-type errors in the /v1 shape', async () => {
    const body = () => form([['a.txt', Buffer.from('x')]]);
    const anonymous = await fetch(`${app.url}/v1/uploads`, { method: 'POST', body: body() });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'unauthorized', detail: expect.any(String) });
    expect((await upload(body(), keys.read)).status).toBe(403);
    const suspended = await upload(body(), keys.suspended);
    expect(suspended.status).toBe(403);
    expect(await suspended.json()).toMatchObject({ detail: 'This company is suspended' });
    const json = await upload('{"files":[]}', keys.write, { 'content-type': 'application/json' });
    expect(json.status).toBe(415);
    expect((await fetch(`${app.url}/v1/uploads?api_key=${keys.write}`, { method: 'POST', body: body() })).status).toBe(
      401,
    );
  });
});

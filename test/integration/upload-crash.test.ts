import http from 'node:http';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { spawnApiProcess, type ApiProcess } from '../helpers/api-process.js';
import { until } from '../helpers/until.js';

/**
 * Uploads cut by a killed API process (issue 28, E25): real API processes (api/main.ts) sharing one STORAGE_DIR, one
 * SIGKILLed in the middle of a multipart upload. What the dead request had written under STORAGE_DIR/tmp must go
 * once the API starts again; what a live request of another process is writing must never be touched.
 */
let tdb: TestDatabase;
let storageDir: string;
let key: string;
const apis: ApiProcess[] = [];
const secretsKey = generateSecretsKey();

beforeAll(async () => {
  tdb = await createTestDatabase();
  storageDir = mkdtempSync(join(tmpdir(), 'upload-crash-'));
  const { company, owner } = await createCompany(tdb.db, {
    name: 'Crash',
    ownerEmail: `crash-${Date.now()}@example.com`,
  });
  key = (
    await issueCompanyKey(
      tdb.db,
      { companyId: company.id, memberId: owner.id, name: 'k', scopes: ['read', 'write'] },
      new Date(),
    )
  ).secret;
});
afterAll(async () => {
  for (const api of apis) await api.kill('SIGTERM');
  await tdb?.drop();
  rmSync(storageDir, { recursive: true, force: true });
});

async function startApi(): Promise<ApiProcess> {
  const api = await spawnApiProcess({
    DATABASE_URL: tdb.url,
    STORAGE_DIR: storageDir,
    SECRETS_KEY: secretsKey,
    DATA_DIR: join(storageDir, '..', `${storageDir.split('/').pop()}-data`),
  });
  apis.push(api);
  return api;
}

/** Every regular file under STORAGE_DIR/tmp (at any depth) with its size. */
function tempFiles(): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        try {
          out.set(p, statSync(p).size);
        } catch {
          // removed meanwhile
        }
      }
    }
  };
  walk(join(storageDir, 'tmp'));
  return out;
}

/** Waits until an upload in progress has written at least 1 MiB under tmp; the paths of its files. */
function onDisk(what: string): Promise<string[]> {
  return until(
    `${what} to reach STORAGE_DIR/tmp`,
    () => {
      const files = [...tempFiles()].filter(([, size]) => size >= 1024 * 1024);
      return files.length > 0 ? files.map(([p]) => p) : undefined;
    },
    120_000,
  );
}

const BOUNDARY = 'crash-test-boundary';
const CHUNK = Buffer.alloc(256 * 1024, 0x25);

/**
 * A multipart upload of `totalBytes` (one file) sent in chunks: the first `sendFirst` bytes of the file at once, the
 * rest only when `finish()` is called. `response` settles with the status (or the error when the server went away).
 */
function slowUpload(url: string, totalBytes: number, sendFirst: number) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const req = http.request(`${url}/v1/uploads`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      'Content-Length': String(head.length + totalBytes + tail.length),
    },
  });
  const response = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (e) => resolve({ error: String(e) }));
  });
  let sent = 0;
  const send = (upTo: number) => {
    while (sent < upTo) {
      const n = Math.min(CHUNK.length, upTo - sent);
      req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
      sent += n;
    }
  };
  req.write(head);
  send(sendFirst);
  return {
    response,
    finish() {
      send(totalBytes);
      req.end(tail);
    },
  };
}

describe('partial uploads of a killed API process', () => {
  it('are removed when the API starts again, while nothing else under STORAGE_DIR/tmp is left behind', async () => {
    const api = await startApi();
    const upload = slowUpload(api.url, 64 * 1024 * 1024, 8 * 1024 * 1024);
    // The request is being written to disk when the process dies.
    const partial = await onDisk('the upload');
    await api.kill('SIGKILL');
    expect(await upload.response).toMatchObject({ error: expect.any(String) });
    for (const p of partial) expect(tempFiles().has(p)).toBe(true);

    const restarted = await startApi();
    await until(
      `the killed request's partial upload (${partial.join(', ')}) to be removed`,
      () => {
        const left = tempFiles();
        return partial.every((p) => !left.has(p)) ? true : undefined;
      },
      120_000,
    );
    // No bytes of it are left anywhere under tmp; the new process removed them at its start.
    expect([...tempFiles().values()].reduce((a, b) => a + b, 0)).toBe(0);
    expect(restarted.output()).toContain('removed temporary files no live request owns');
  });

  it('a live upload of one process is never removed by another process starting on the same STORAGE_DIR', async () => {
    const writer = await startApi();
    const upload = slowUpload(writer.url, 16 * 1024 * 1024, 4 * 1024 * 1024);
    const partial = await onDisk('the live upload');
    // Another API process starts (and cleans up what it may) while the first one's request is still receiving.
    await startApi();
    for (const p of partial) expect(tempFiles().has(p), p).toBe(true);
    upload.finish();
    const res = await upload.response;
    expect(res, JSON.stringify(res)).toMatchObject({ status: 201 });
    const body = JSON.parse((res as { body: string }).body) as { uploads: Array<{ id: string; bytes: number }> };
    expect(body.uploads).toHaveLength(1);
    expect(body.uploads[0]).toMatchObject({ bytes: 16 * 1024 * 1024 });
  });
});

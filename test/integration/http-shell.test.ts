import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createThingsTable, testRouters } from '../helpers/test-routes.js';
import { issueApiKey } from '../../db/repositories/api-keys.repo.js';

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
const logs = capturingLogger();
let v1Key: string;
let proofKey: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  await createThingsTable(tdb.db);
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    routers: testRouters({ db: tdb.db, logger: logs.logger }),
  });
  v1Key = (await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_1', name: 'k', scopes: ['read', 'write'] }))
    .secret;
  proofKey = (
    await issueApiKey(tdb.db, { interface: 'proof', tenantId: 'mer_1', name: 'k', scopes: ['read', 'write'] })
  ).secret;
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

const get = (path: string, init: RequestInit = {}) => fetch(`${app.url}${path}`, init);

describe('HTTP shell', () => {
  it('GET /x402/health answers 200', async () => {
    const res = await get('/x402/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it('echoes a well-formed X-Request-Id and makes one otherwise', async () => {
    const mine = await get('/x402/health', { headers: { 'X-Request-Id': 'client-req-42' } });
    expect(mine.headers.get('x-request-id')).toBe('client-req-42');
    const bad = await get('/x402/health', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const none = await get('/x402/health');
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ['/v1/nope', 'detail'],
    ['/proof/v1/nope', 'error'],
    ['/x402/nope', 'error'],
    ['/api/integrations/nope', 'error'],
    ['/elsewhere', 'error'],
  ])('unknown path %s is a 404 with the interface body field %s', async (path, field) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    const body = (await res.json()) as Record<string, unknown>;
    expect(typeof body[field]).toBe('string');
    expect(body['code']).toBe('not_found');
    expect(body['request_id']).toBe(res.headers.get('x-request-id'));
  });

  it('wrong methods answer 405 with Allow, in each interface shape', async () => {
    const x = await get('/x402/health', { method: 'DELETE' });
    expect(x.status).toBe(405);
    expect(x.headers.get('allow')).toContain('GET');
    expect(await x.json()).toMatchObject({ code: 'method_not_allowed', error: expect.any(String) });
    const v = await get('/v1/test-things', { method: 'PUT', headers: { Authorization: `Bearer ${v1Key}` } });
    expect(v.status).toBe(405);
    expect(v.headers.get('allow')).toContain('POST');
    expect(await v.json()).toMatchObject({ code: 'method_not_allowed', detail: expect.any(String) });
    const p = await get('/proof/v1/test-things', {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${proofKey}` },
    });
    expect(p.status).toBe(405);
    expect(await p.json()).toMatchObject({ code: 'method_not_allowed', error: expect.any(String) });
  });

  it('oversized bodies answer 413 in the interface shape and create nothing', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(5000) });
    for (const [path, key, field] of [
      ['/v1/test-things', v1Key, 'detail'],
      ['/proof/v1/test-things', proofKey, 'error'],
    ] as const) {
      const res = await get(path, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': 'big-body-key-0000001',
        },
        body: big,
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ code: 'payload_too_large', [field]: expect.any(String) });
    }
    expect(await tdb.db('test_things').count('* as n').first()).toEqual({ n: '0' });
  });

  it('malformed JSON and non-JSON bodies are clear client errors, never 500', async () => {
    const headers = { Authorization: `Bearer ${v1Key}`, 'Idempotency-Key': 'malformed-json-key-1' };
    const broken = await get('/v1/test-things', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: '{"name":',
    });
    expect(broken.status).toBe(422);
    expect(await broken.json()).toMatchObject({ code: 'malformed_json', detail: expect.any(String) });
    const text = await get('/v1/test-things', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'text/plain' },
      body: 'name=x',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ code: 'unsupported_media_type', detail: expect.any(String) });
  });

  it('logs never contain the Authorization header, the key, a password or a request body', async () => {
    const marker = 'SuperSecretPassw0rd-in-body';
    await get('/v1/test-things', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${v1Key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'log-check-key-00001',
        Cookie: 'session=abc123cookie',
      },
      body: JSON.stringify({ name: marker, password: marker }),
    });
    await get(`/v1/test-things?api_key=${v1Key}`);
    await get('/proof/v1/test-things', { headers: { Authorization: `Bearer ${proofKey}x` } });
    const text = logs.text();
    expect(logs.lines.length).toBeGreaterThan(3);
    for (const secret of [v1Key, proofKey, marker, 'abc123cookie', 'Bearer']) expect(text).not.toContain(secret);
    for (const line of logs.lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});

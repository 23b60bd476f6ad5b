import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createThingsTable, testRouters } from '../helpers/test-routes.js';
import {
  countActiveApiKeys,
  issueApiKey,
  listApiKeys,
  revokeApiKey,
  verifyApiKey,
} from '../../db/repositories/api-keys.repo.js';

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
const logs = capturingLogger();

beforeAll(async () => {
  tdb = await createTestDatabase();
  await createThingsTable(tdb.db);
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    routers: testRouters({ db: tdb.db, logger: logs.logger }),
  });
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

const call = (path: string, key: string | null, init: RequestInit = {}) =>
  fetch(`${app.url}${path}`, {
    ...init,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(init.headers ?? {}) },
  });

describe('API keys', () => {
  it('issues prefixed keys, shows the secret once and stores only a hash with prefix and last four', async () => {
    const { key, secret } = await issueApiKey(tdb.db, {
      interface: 'proof',
      tenantId: 'mer_a',
      name: 'ci',
      scopes: ['read'],
    });
    expect(secret).toMatch(/^skp_[A-Za-z0-9]{44}$/);
    expect(key.prefix).toBe(secret.slice(0, 8));
    expect(key.last4).toBe(secret.slice(-4));
    expect(JSON.stringify(key)).not.toContain(secret);
    const row = await tdb.db('api_keys').where({ id: key.id }).first();
    expect(JSON.stringify(row)).not.toContain(secret.slice(4));
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    const v1 = await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_a', name: 'ci', scopes: ['read', 'write'] });
    expect(v1.secret).toMatch(/^sk_live_[A-Za-z0-9]{44}$/);
    const listed = await listApiKeys(tdb.db, 'proof', 'mer_a');
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it('authenticates a valid key and refuses missing, malformed, foreign-interface, revoked and expired keys', async () => {
    const now = new Date();
    const good = await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_b', name: 'g', scopes: ['read', 'write'] });
    const proof = await issueApiKey(tdb.db, {
      interface: 'proof',
      tenantId: 'co_b',
      name: 'p',
      scopes: ['read', 'write'],
    });
    const revoked = await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_b', name: 'r', scopes: ['read'] });
    await revokeApiKey(tdb.db, 'v1', 'co_b', revoked.key.id, now);
    const expired = await issueApiKey(tdb.db, {
      interface: 'v1',
      tenantId: 'co_b',
      name: 'e',
      scopes: ['read'],
      expiresAt: new Date(now.getTime() - 1000),
    });
    const tampered = good.secret.slice(0, -1) + (good.secret.endsWith('a') ? 'b' : 'a');

    expect((await call('/v1/test-things', good.secret)).status).toBe(200);
    expect((await call('/v1/test-things', null, { headers: { Authorization: `bearer ${good.secret}` } })).status).toBe(
      200,
    );
    for (const key of [null, 'garbage', tampered, proof.secret, revoked.secret, expired.secret]) {
      const res = await call('/v1/test-things', key);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toMatchObject({ detail: 'Missing or invalid API key', code: 'unauthorized' });
    }
    expect((await call('/v1/test-things', null, { headers: { Authorization: `Basic ${good.secret}` } })).status).toBe(
      401,
    );
    expect(await verifyApiKey(tdb.db, 'v1', revoked.secret, now)).toEqual({ ok: false, reason: 'revoked' });
    expect(await verifyApiKey(tdb.db, 'v1', expired.secret, now)).toEqual({ ok: false, reason: 'expired' });
    expect(await countActiveApiKeys(tdb.db, 'v1', 'co_b', now)).toBe(1);
    // last_used_at is written after the answer (not awaited by the request): wait for it, with a deadline.
    const deadline = Date.now() + 30_000;
    let used = await tdb.db('api_keys').where({ id: good.key.id }).first();
    while (used.last_used_at === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      used = await tdb.db('api_keys').where({ id: good.key.id }).first();
    }
    expect(used.last_used_at).toBeInstanceOf(Date);
    // A refused key is never touched: the touch comes after verification, which a revoked key does not pass.
    expect((await tdb.db('api_keys').where({ id: revoked.key.id }).first()).last_used_at).toBeNull();
  });

  it('enforces scopes: read permits GET only (403 on /v1, 401 on /proof/v1)', async () => {
    const v1Read = await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_c', name: 'r', scopes: ['read'] });
    const proofRead = await issueApiKey(tdb.db, { interface: 'proof', tenantId: 'mer_c', name: 'r', scopes: ['read'] });
    const post = (path: string, key: string) =>
      call(path, key, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'scope-check-key-000001' },
        body: '{"name":"a"}',
      });
    expect((await call('/v1/test-things', v1Read.secret)).status).toBe(200);
    const v = await post('/v1/test-things', v1Read.secret);
    expect(v.status).toBe(403);
    expect(await v.json()).toMatchObject({ code: 'insufficient_scope' });
    const p = await post('/proof/v1/test-things', proofRead.secret);
    expect(p.status).toBe(401);
    expect(await p.json()).toMatchObject({ code: 'insufficient_scope', error: expect.any(String) });
    expect(await tdb.db('test_things').where({ tenant_id: 'co_c' })).toHaveLength(0);
  });

  it('refuses a key in the query string even alongside a valid header', async () => {
    const k = await issueApiKey(tdb.db, { interface: 'proof', tenantId: 'mer_d', name: 'q', scopes: ['read'] });
    for (const qs of [`?api_key=${k.secret}`, `?anything=${k.secret}`, '?access_token=abc', '?key=1']) {
      const res = await call(`/proof/v1/test-things${qs}`, k.secret);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'api_key_in_url' });
    }
    expect((await call('/proof/v1/test-things?limit=5', k.secret)).status).toBe(200);
  });

  it('scopes data to the tenant of the key', async () => {
    const a = await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_x', name: 'a', scopes: ['write'] });
    const b = await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_y', name: 'b', scopes: ['read'] });
    const res = await call('/v1/test-things', a.secret, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'tenant-scope-00001' },
      body: '{"name":"mine"}',
    });
    expect(res.status).toBe(201);
    expect(await (await call('/v1/test-things', a.secret)).json()).toMatchObject({ data: [{ name: 'mine' }] });
    expect(await (await call('/v1/test-things', b.secret)).json()).toEqual({ data: [] });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createThingsTable, testRouters } from '../helpers/test-routes.js';
import { issueApiKey } from '../../db/repositories/api-keys.repo.js';

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
const logs = capturingLogger();
const keys: Record<'v1' | 'proof', { a: string; a2: string; b: string }> = {} as never;

beforeAll(async () => {
  tdb = await createTestDatabase();
  await createThingsTable(tdb.db);
  // The effect sleeps inside its transaction so concurrent requests really overlap.
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    routers: testRouters({ db: tdb.db, logger: logs.logger, slowEffectMs: 150 }),
  });
  for (const iface of ['v1', 'proof'] as const) {
    const issue = async (tenant: string) =>
      (await issueApiKey(tdb.db, { interface: iface, tenantId: tenant, name: 'k', scopes: ['write'] })).secret;
    keys[iface] = {
      a: await issue(`${iface}_tenant_a`),
      a2: await issue(`${iface}_tenant_a`),
      b: await issue(`${iface}_tenant_b`),
    };
  }
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

const prefix = { v1: '/v1', proof: '/proof/v1' } as const;
const post = (iface: 'v1' | 'proof', path: string, key: string, idem: string | null, body: unknown) =>
  fetch(`${app.url}${prefix[iface]}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      ...(idem === null ? {} : { 'Idempotency-Key': idem }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const countThings = async (tenant: string) =>
  Number((await tdb.db('test_things').where({ tenant_id: tenant }).count('* as n').first())!.n);

describe.each(['v1', 'proof'] as const)('%s idempotency', (iface) => {
  const field = iface === 'v1' ? 'detail' : 'error';
  const tenantA = `${iface}_tenant_a`;

  it('requires a key of the documented grammar', async () => {
    const missing = await post(iface, '/test-things', keys[iface].a, null, { name: 'x' });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ code: 'idempotency_key_required', [field]: expect.any(String) });
    const bad = iface === 'v1' ? 'short' : 'has.dots.not-allowed-here';
    const invalid = await post(iface, '/test-things', keys[iface].a, bad, { name: 'x' });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ code: 'idempotency_key_invalid' });
    expect(await countThings(tenantA)).toBe(0);
  });

  it('parallel requests with the same key produce exactly one effect and the same response', async () => {
    const key = `${iface}-parallel-key-000001`;
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => post(iface, '/test-things', keys[iface].a, key, { name: 'once' })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses).toEqual(Array(12).fill(201));
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(11);
    expect(await countThings(tenantA)).toBe(1);
  });

  it('replays the stored status and body byte for byte, also from another key of the same tenant', async () => {
    const key = `${iface}-replay-key-0000001`;
    const first = await post(iface, '/test-things', keys[iface].a, key, { name: 'replayed' });
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const again = await post(iface, '/test-things', keys[iface].a2, key, '{ "name" : "replayed" }');
    expect(again.status).toBe(first.status);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(Buffer.from(await again.arrayBuffer()).equals(firstBytes)).toBe(true);
    const stored = await tdb.db('idempotency_keys').where({ dialect: iface, key }).first();
    expect(stored.response_status).toBe(201);
    expect(Buffer.compare(stored.response_body, firstBytes)).toBe(0);
    if (iface === 'proof') expect(stored.expires_at).toBeNull();
    else expect(new Date(stored.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it('answers 409 for the same key with another payload or another operation, with no second effect', async () => {
    const key = `${iface}-conflict-key-000001`;
    expect((await post(iface, '/test-things', keys[iface].a, key, { name: 'first' })).status).toBe(201);
    const before = await countThings(tenantA);
    const payload = await post(iface, '/test-things', keys[iface].a, key, { name: 'second' });
    expect(payload.status).toBe(409);
    expect(await payload.json()).toMatchObject({ code: 'idempotency_conflict', [field]: expect.any(String) });
    const operation = await post(iface, '/test-other', keys[iface].a, key, { name: 'first' });
    expect(operation.status).toBe(409);
    expect(await countThings(tenantA)).toBe(before);
  });

  it('keys are scoped to the tenant: another tenant may use the same key', async () => {
    const key = `${iface}-shared-key-0000001`;
    expect((await post(iface, '/test-things', keys[iface].a, key, { name: 'a' })).status).toBe(201);
    const b = await post(iface, '/test-things', keys[iface].b, key, { name: 'b' });
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(await countThings(`${iface}_tenant_b`)).toBe(1);
  });

  it('a rejected call stores nothing and creates nothing, so the key stays usable', async () => {
    const key = `${iface}-rejected-key-000001`;
    const invalid = await post(iface, '/test-things', keys[iface].a, key, { name: '' });
    expect(invalid.status).toBe(422);
    const lateReject = await post(iface, '/test-things', keys[iface].a, key, { name: 'explode-after-insert' });
    expect(lateReject.status).toBe(422);
    expect(await tdb.db('idempotency_keys').where({ dialect: iface, key })).toHaveLength(0);
    expect(await tdb.db('test_things').where({ name: 'explode-after-insert' })).toHaveLength(0);
    const ok = await post(iface, '/test-things', keys[iface].a, key, { name: 'finally' });
    expect(ok.status).toBe(201);
  });
});

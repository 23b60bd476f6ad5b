import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMerchantPlan, setMerchantStatus } from '../../db/repositories/merchants.repo.js';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { ProofHarness, type TestMerchant } from '../helpers/proof.js';

const h = new ProofHarness();
let merchant: TestMerchant;
let user: { email: string; password: string; id: string };
let dash: DashboardClient;

beforeAll(async () => {
  await h.start();
  merchant = await h.merchant({ plan: 'business' });
  user = await createDashboardUser(h.tdb.db, merchant.id);
  dash = new DashboardClient(h.app.url);
  expect((await dash.signIn(user.email, user.password)).status).toBe(201);
});
afterAll(() => h.stop());

const keyCount = async () =>
  Number((await h.tdb.db('api_keys').where({ tenant_id: merchant.id }).count<{ n: string }[]>({ n: '*' }))[0]!.n);

async function expectError(res: Response, status: number, code: string) {
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body).toMatchObject({ code });
  expect(typeof body['error']).toBe('string');
  expect(typeof body['request_id']).toBe('string');
}

describe('dashboard sign-in', () => {
  it('sets an HttpOnly, Secure, SameSite=Strict host cookie and returns a CSRF token; nothing secret is stored in clear', async () => {
    const client = new DashboardClient(h.app.url);
    const res = await client.signIn(user.email.toUpperCase(), user.password);
    expect(res.status).toBe(201);
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(
      /^__Host-paycore_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Strict; Max-Age=43200$/,
    );
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ user: { id: user.id, email: user.email }, merchant: { id: merchant.id } });
    expect(body['csrf_token']).toMatch(/^[0-9a-f]{64}$/);

    const token = client.cookie!.split('=')[1]!;
    const dump = JSON.stringify([
      await h.tdb.db('merchant_sessions').select('*'),
      await h.tdb.db('merchant_users').select('*'),
    ]);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(user.password);
    expect(dump).not.toContain(body['csrf_token']);
    expect((await h.tdb.db('merchant_users').where({ id: user.id }).first()).password_hash).toMatch(
      /^scrypt\$15\$8\$1\$/,
    );
    expect(h.logs.text()).not.toContain(user.password);
    expect(h.logs.text()).not.toContain(token);

    const who = await client.request('GET', '/session');
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({ csrf_token: body['csrf_token'], user: { email: user.email } });
  });

  it('refuses a wrong password and an unknown address alike, with 401 {error}', async () => {
    const client = new DashboardClient(h.app.url);
    await expectError(await client.signIn(user.email, `${user.password}x`), 401, 'invalid_credentials');
    await expectError(await client.signIn('nobody-here@example.com', user.password), 401, 'invalid_credentials');
    await expectError(
      await client.request('POST', '/session', { email: 'not an address', password: 'x' }, { idem: null }),
      422,
      'validation_failed',
    );
    await expectError(
      await client.request(
        'POST',
        '/session',
        { email: user.email, password: user.password, extra: 1 },
        { idem: null },
      ),
      422,
      'validation_failed',
    );
    expect(client.cookie).toBeNull();
  });

  it('a sign-in from another origin is refused before the password is checked', async () => {
    const client = new DashboardClient(h.app.url);
    await expectError(
      await client.signIn(user.email, user.password, { origin: 'https://evil.example' }),
      403,
      'origin_rejected',
    );
    await expectError(await client.signIn(user.email, user.password, { origin: null }), 403, 'origin_rejected');
  });

  it('signing out ends the session: the cookie no longer opens anything', async () => {
    const client = new DashboardClient(h.app.url);
    await client.signIn(user.email, user.password);
    expect((await client.request('GET', '')).status).toBe(200);
    const out = await client.request('DELETE', '/session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^__Host-paycore_session=; .*Max-Age=0$/);
    await expectError(await client.request('GET', ''), 403, 'session_required');
  });
});

describe('management route guards', () => {
  it('without a session cookie every route answers 403 session_required', async () => {
    await expectError(await dash.request('GET', '', undefined, { cookie: null }), 403, 'session_required');
    await expectError(
      await dash.request('GET', '/deliveries', undefined, {
        cookie: '__Host-paycore_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      }),
      403,
      'session_required',
    );
    await expectError(
      await dash.request('POST', '/keys', { name: 'x', scopes: ['read'] }, { cookie: null }),
      403,
      'session_required',
    );
  });

  it('an Authorization header is rejected, even a valid /proof key beside a valid session', async () => {
    const before = await keyCount();
    await expectError(
      await dash.request('GET', '', undefined, { authorization: `Bearer ${merchant.key}` }),
      403,
      'authorization_header_rejected',
    );
    await expectError(
      await dash.request('POST', '/keys', { name: 'x', scopes: ['read'] }, { authorization: `Bearer ${merchant.key}` }),
      403,
      'authorization_header_rejected',
    );
    await expectError(
      await dash.request('POST', '/keys', { name: 'x', scopes: ['read'] }, { authorization: 'Basic dXNlcjpwYXNz' }),
      403,
      'authorization_header_rejected',
    );
    expect(await keyCount()).toBe(before);
    expect(h.logs.text()).not.toContain(merchant.key);
  });

  it('a mutation without the session CSRF token, or with another one, is refused and creates nothing', async () => {
    const before = await keyCount();
    const other = new DashboardClient(h.app.url);
    await other.signIn(user.email, user.password);
    expect(other.csrf).not.toBe(dash.csrf);
    await expectError(
      await dash.request('POST', '/keys', { name: 'x', scopes: ['read'] }, { csrf: null }),
      403,
      'csrf_failed',
    );
    await expectError(
      await dash.request('POST', '/keys', { name: 'x', scopes: ['read'] }, { csrf: other.csrf }),
      403,
      'csrf_failed',
    );
    await expectError(
      await dash.request('POST', '/keys', { name: 'x', scopes: ['read'] }, { csrf: 'not-a-token' }),
      403,
      'csrf_failed',
    );
    await expectError(await dash.request('DELETE', '/session', undefined, { csrf: null }), 403, 'csrf_failed');
    expect(await keyCount()).toBe(before);
    // Reads need no token.
    expect((await dash.request('GET', '/deliveries', undefined, { csrf: null })).status).toBe(200);
  });

  it('a mutation from a foreign, missing or opaque Origin, or a cross-site fetch, is refused and creates nothing', async () => {
    const before = await keyCount();
    await expectError(
      await dash.request('POST', '/keys', { name: 'x', scopes: ['read'] }, { origin: 'https://evil.example' }),
      403,
      'origin_rejected',
    );
    await expectError(
      await dash.request('POST', '/keys', { name: 'x', scopes: ['read'] }, { origin: null }),
      403,
      'origin_rejected',
    );
    await expectError(
      await dash.request('POST', '/keys', { name: 'x', scopes: ['read'] }, { origin: 'null' }),
      403,
      'origin_rejected',
    );
    await expectError(
      await dash.request(
        'POST',
        '/keys',
        { name: 'x', scopes: ['read'] },
        { headers: { 'Sec-Fetch-Site': 'cross-site' } },
      ),
      403,
      'origin_rejected',
    );
    expect(await keyCount()).toBe(before);
    const ok = await dash.request(
      'POST',
      '/keys',
      { name: 'guarded', scopes: ['read'] },
      { headers: { 'Sec-Fetch-Site': 'same-origin' } },
    );
    expect(ok.status).toBe(201);
    expect(await keyCount()).toBe(before + 1);
  });

  it('with DASHBOARD_ORIGINS set, only those origins may mutate', async () => {
    const app = await h.startApp({ DASHBOARD_ORIGINS: 'https://dashboard.example.com' });
    try {
      const client = new DashboardClient(app.url);
      await expectError(await client.signIn(user.email, user.password), 403, 'origin_rejected');
      expect((await client.signIn(user.email, user.password, { origin: 'https://dashboard.example.com' })).status).toBe(
        201,
      );
    } finally {
      await app.close();
    }
  });

  it('management needs an active plan or trial and an active merchant (403 customer_access_required)', async () => {
    const lapsed = await h.merchant({ plan: 'starter' });
    const u = await createDashboardUser(h.tdb.db, lapsed.id);
    const client = new DashboardClient(h.app.url);
    await client.signIn(u.email, u.password);
    expect((await client.request('GET', '')).status).toBe(200);
    await setMerchantPlan(h.tdb.db, lapsed.id, 'starter', new Date(Date.now() - 1000));
    await expectError(await client.request('GET', ''), 403, 'customer_access_required');
    await expectError(
      await client.request('POST', '/keys', { name: 'x', scopes: ['read'] }),
      403,
      'customer_access_required',
    );
    await setMerchantPlan(h.tdb.db, lapsed.id, 'starter', new Date(Date.now() + 86_400_000));
    await setMerchantStatus(h.tdb.db, lapsed.id, 'suspended');
    await expectError(await client.request('GET', ''), 403, 'customer_access_required');
    await expectError(
      await new DashboardClient(h.app.url).signIn(u.email, u.password),
      403,
      'customer_access_required',
    );
  });

  it('unknown paths and methods answer 404 and 405 in the {error} shape', async () => {
    await expectError(await dash.request('GET', '/nothing-here'), 404, 'not_found');
    const wrong = await dash.request('PUT', '/keys', {});
    await expectError(wrong, 405, 'method_not_allowed');
  });

  it('failed sign-ins are throttled per address and account, never locking the owner out (429 with Retry-After)', async () => {
    // The app's clock stands still, so no failure leaves its 15-minute window between the attempts counted here; behind
    // one trusted proxy, so each request says which client address it comes from.
    const frozen = new Date();
    const app = await h.startApp({ TRUST_PROXY: 'true' }, { now: () => frozen });
    try {
      const attempt = (ip: string, email: string, password: string) =>
        new DashboardClient(app.url).signIn(email, password, { headers: { 'X-Forwarded-For': ip } });
      const u = await createDashboardUser(h.tdb.db, merchant.id);
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await attempt('198.51.100.8', u.email, `wrong password ${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
      const res = await attempt('198.51.100.8', u.email, u.password);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await res.json()) as { code: string }).code).toBe('rate_limited');
      // The owner elsewhere signs in with the right password.
      expect((await attempt('203.0.113.12', u.email, u.password)).status).toBe(201);
    } finally {
      await app.close();
    }
  });
});

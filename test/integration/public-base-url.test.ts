import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_BASE_URL_UNSET_WARNING } from '../../api/http/public-origin.js';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { newIdem, ProofHarness, type TestMerchant } from '../helpers/proof.js';

type App = Awaited<ReturnType<ProofHarness['startApp']>>;

/**
 * PUBLIC_BASE_URL decides every absolute URL and the management routes' allowed Origin: with it set, a client that
 * sends `Host: evil.example` (and the matching `Origin`) can neither make the API hand out links to its host nor
 * pass the Origin check. Without it (development only: production refuses to start, test/unit/config.test.ts) the
 * request's Host is used, and the app says so once at start-up.
 */
const BASE = 'https://pay.example.com';
const h = new ProofHarness();
let app: App;
let m: TestMerchant;
let user: { email: string; password: string };

beforeAll(async () => {
  await h.start();
  app = await h.startApp({ PUBLIC_BASE_URL: BASE });
  m = await h.merchant({ plan: 'business' });
  user = await createDashboardUser(h.tdb.db, m.id);
});
afterAll(async () => {
  await app?.close();
  await h.stop();
});

/** A request with any Host header (fetch does not let a caller choose it). */
function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const evil = { Host: 'evil.example' };

describe('with PUBLIC_BASE_URL set', () => {
  it('payment-page URLs use it whatever the Host header says', async () => {
    const body = JSON.stringify({
      wallet_id: m.wallets['base'],
      amount_usdc: '12.50',
      description: 'Host header test',
    });
    const created = await raw(`${app.url}/proof/v1/requests`, {
      method: 'POST',
      body,
      headers: {
        ...evil,
        Authorization: `Bearer ${m.key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': newIdem(),
      },
    });
    expect(created.status, created.body).toBe(201);
    const request = JSON.parse(created.body) as { id: string; url: string };
    expect(request.url).toBe(`${BASE}/proof/pay/${request.id}`);
    const read = await raw(`${app.url}/proof/v1/requests/${request.id}`, {
      headers: { ...evil, 'X-Forwarded-Host': 'evil.example', Authorization: `Bearer ${m.key}` },
    });
    expect((JSON.parse(read.body) as { url: string }).url).toBe(`${BASE}/proof/pay/${request.id}`);
    const list = await raw(`${app.url}/proof/v1/requests`, { headers: { ...evil, Authorization: `Bearer ${m.key}` } });
    expect(list.body).not.toContain('evil.example');
  });

  it('x402 resource URLs use it whatever the Host header says', async () => {
    const res = await raw(`${app.url}/x402/.well-known/x402`, { headers: evil });
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('evil.example');
    const doc = JSON.parse(res.body) as { docs: string; resources: Array<{ url: string }> };
    expect(doc.docs).toBe(`${BASE}/x402/docs`);
    // The three routes, then the four MCP tools (all at the MCP endpoint).
    expect(doc.resources.map((r) => r.url)).toEqual([
      ...['verify', 'match', 'evidence.pdf'].map((p) => `${BASE}/x402/v1/usdc/${p}`),
      ...Array(4).fill(`${BASE}/mcp`),
    ]);
    // Pinned to configuration, so a cache may share it across Host headers.
    expect(res.headers['vary'] ?? '').not.toMatch(/host/i);
    expect(res.body).toContain(`${BASE}/x402/`);
  });

  it('Host: evil.example with Origin: http://evil.example passes no Origin check: no session, no key', async () => {
    const keysBefore = await h.tdb.db('api_keys').where({ tenant_id: m.id }).count<{ n: string }[]>({ n: '*' });
    const signIn = await raw(`${app.url}/api/integrations/session`, {
      method: 'POST',
      body: JSON.stringify({ email: user.email, password: user.password }),
      headers: { ...evil, Origin: 'http://evil.example', 'Content-Type': 'application/json' },
    });
    expect(signIn.status, signIn.body).toBe(403);
    expect(JSON.parse(signIn.body)).toMatchObject({ code: 'origin_rejected' });
    expect(signIn.headers['set-cookie']).toBeUndefined();

    // A real session (signed in from the public origin) still cannot be used from the attacker's origin.
    const dash = new DashboardClient(app.url);
    expect((await dash.signIn(user.email, user.password, { origin: BASE })).status).toBe(201);
    const create = await raw(`${app.url}/api/integrations/keys`, {
      method: 'POST',
      body: JSON.stringify({ name: 'evil', scopes: ['read', 'write'] }),
      headers: {
        ...evil,
        Origin: 'http://evil.example',
        Cookie: dash.cookie!,
        'X-CSRF-Token': dash.csrf!,
        'Content-Type': 'application/json',
        'Idempotency-Key': newIdem(),
      },
    });
    expect(create.status, create.body).toBe(403);
    expect(JSON.parse(create.body)).toMatchObject({ code: 'origin_rejected' });
    expect(await h.tdb.db('api_keys').where({ tenant_id: m.id }).count<{ n: string }[]>({ n: '*' })).toEqual(
      keysBefore,
    );
    // The public origin itself is allowed.
    expect((await dash.request('POST', '/keys', { name: 'legit', scopes: ['read'] }, { origin: BASE })).status).toBe(
      201,
    );
  });
});

describe('without PUBLIC_BASE_URL (development)', () => {
  it('follows the Host header, as documented: the risk PUBLIC_BASE_URL removes', async () => {
    const body = JSON.stringify({ wallet_id: m.wallets['base'], amount_usdc: '3', description: 'Host header test' });
    const created = await raw(`${h.app.url}/proof/v1/requests`, {
      method: 'POST',
      body,
      headers: {
        ...evil,
        Authorization: `Bearer ${m.key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': newIdem(),
      },
    });
    const request = JSON.parse(created.body) as { id: string; url: string };
    expect(request.url).toBe(`http://evil.example/proof/pay/${request.id}`);
  });

  it('warns once at start-up that links and the Origin check follow the Host header', () => {
    const warnings = h.logs.lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.msg === PUBLIC_BASE_URL_UNSET_WARNING);
    // Two apps were started: the harness's own without PUBLIC_BASE_URL (one warning) and the one with it (none).
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
  });
});

import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { createRouter, routesOf } from '../../api/http/router.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { concretePath } from '../helpers/route-probe.js';

/**
 * Every HTML page the app serves, found from the app's own routers (so a page added later is covered without
 * anyone listing it), carries a strict Content-Security-Policy that allows exactly its own stylesheet, no
 * framing, and a Referrer-Policy; HSTS goes on every response of an HTTPS request and never on plain HTTP.
 */
let tdb: TestDatabase;
const logs = capturingLogger();
type App = Awaited<ReturnType<typeof startTestApp>>;
let plain: App;
let proxied: App;
let bare: App;

beforeAll(async () => {
  tdb = await createTestDatabase();
  plain = await startTestApp({ db: tdb.db, logger: logs.logger });
  proxied = await startTestApp({ db: tdb.db, logger: logs.logger, config: testConfig({ TRUST_PROXY: 'true' }) });
  // A page written without the shared page headers.
  const careless = createRouter({ prefix: '/careless' });
  careless.get('/page', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = '<!doctype html><title>x</title><p>forgot the headers</p>';
  });
  bare = await startTestApp({ db: tdb.db, logger: logs.logger, routers: [careless] });
});
afterAll(async () => {
  await plain?.close();
  await proxied?.close();
  await bare?.close();
  await tdb?.drop();
});

/** The GET routes of the app (routesOf: every route of every router buildApp mounted), params filled in. */
function getRoutes(app: Koa): string[] {
  return [
    ...new Set(
      routesOf(app)
        .filter((r) => r.method === 'GET')
        .map((r) => concretePath(r)),
    ),
  ];
}

/** The directives of a Content-Security-Policy header. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!.toLowerCase(), values];
      }),
  );
}

const sha256 = (css: string) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;

describe('HTML pages', () => {
  it("finds the known pages among the routers' GET routes", async () => {
    const html: string[] = [];
    for (const path of getRoutes(plain.app)) {
      const res = await fetch(`${plain.url}${path}`);
      if ((res.headers.get('content-type') ?? '').startsWith('text/html')) html.push(path);
      await res.arrayBuffer();
    }
    expect(html).toEqual(
      expect.arrayContaining([
        '/x402',
        '/x402/docs',
        '/v1/docs',
        '/proof/developers',
        '/proof/pay/req_AAAAAAAAAAAAAAAAAAAA',
      ]),
    );
  });

  it('every HTML response: a CSP allowing only its own stylesheet, no script, no framing, X-Frame-Options and Referrer-Policy', async () => {
    const paths = [...getRoutes(plain.app), '/x402/']; // the landing page is also reached with its trailing slash
    let pages = 0;
    for (const path of paths) {
      const res = await fetch(`${plain.url}${path}`);
      const body = await res.text();
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) continue;
      // The web app at /dashboard runs its own scripts under its own strict policy: test/integration/dashboard-serving.test.ts.
      if (path === '/dashboard' || path.startsWith('/dashboard/')) continue;
      pages++;
      const where = `${path} (${res.status})`;
      const csp = res.headers.get('content-security-policy');
      expect(csp, where).toBeTruthy();
      const d = directives(csp!);
      expect(d.get('default-src'), where).toEqual(["'none'"]);
      expect(d.get('frame-ancestors'), where).toEqual(["'none'"]);
      expect(d.get('base-uri'), where).toEqual(["'none'"]);
      expect(d.get('form-action'), where).toEqual(["'none'"]);
      for (const name of ['script-src', 'script-src-elem', 'script-src-attr'])
        expect(d.get(name) ?? ["'none'"], where).toEqual(["'none'"]);
      expect(csp, where).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|\*|data:|https?:/);
      // Exactly the page's own <style> elements, by hash.
      const styles = [...body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1]!));
      expect(styles.length, where).toBeGreaterThan(0);
      expect([...(d.get('style-src') ?? [])].sort(), where).toEqual([...new Set(styles)].sort());
      // Nothing that a CSP without scripts or inline style attributes would silently break.
      expect(body, where).not.toMatch(
        /<script|<link|<iframe|<img|\ssrc=|\sstyle=|\son[a-z]+=|javascript:|@import|url\(/i,
      );
      expect(res.headers.get('x-frame-options'), where).toBe('DENY');
      expect(res.headers.get('referrer-policy'), where).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options'), where).toBe('nosniff');
    }
    expect(pages).toBeGreaterThanOrEqual(6);
  });

  it('an HTML response that forgot the page headers still gets the strictest ones', async () => {
    const res = await fetch(`${bare.url}/careless/page`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('Strict-Transport-Security', () => {
  const HSTS = /^max-age=(\d+); includeSubDomains$/;
  const samples = ['/x402/docs', '/x402/health', '/v1/jobs/job_x', '/proof/pay/req_x', '/no/such/path'];

  it('is sent on every response of a request that reached the trusted proxy over HTTPS', async () => {
    for (const path of samples) {
      const res = await fetch(`${proxied.url}${path}`, { headers: { 'X-Forwarded-Proto': 'https' } });
      await res.arrayBuffer();
      const hsts = res.headers.get('strict-transport-security');
      expect(hsts, path).toMatch(HSTS);
      expect(Number(HSTS.exec(hsts!)![1])).toBeGreaterThanOrEqual(31_536_000);
    }
  });

  it('is never sent on plain HTTP, nor on a forwarded "https" the app does not trust', async () => {
    for (const path of samples) {
      for (const [app, headers] of [
        [proxied, {}],
        [proxied, { 'X-Forwarded-Proto': 'https, http' }], // the client wrote https, the trusted proxy saw http
        [plain, {}],
        [plain, { 'X-Forwarded-Proto': 'https' }], // no TRUST_PROXY: the header is the client's word
      ] as const) {
        const res = await fetch(`${app.url}${path}`, { headers });
        await res.arrayBuffer();
        expect(res.headers.get('strict-transport-security'), `${path} ${JSON.stringify(headers)}`).toBeNull();
      }
    }
  });
});

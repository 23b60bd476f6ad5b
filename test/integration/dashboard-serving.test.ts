import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { DEFAULT_DASHBOARD_DIR } from '../../api/dashboard/dashboard.routes.js';

/**
 * The web app at /dashboard (api/dashboard/dashboard.routes.ts, docs/dashboard.md) as the real app serves the build
 * scripts/setup.sh made: a strict Content-Security-Policy, hashed assets cached for a year, index.html never cached,
 * client-side routes falling back to index.html, a missing asset a 404.
 */
let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
const logs = capturingLogger();

const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!.toLowerCase(), values] as const;
      }),
  );

beforeAll(async () => {
  expect(existsSync(join(DEFAULT_DASHBOARD_DIR, 'index.html')), 'the dashboard is built (scripts/setup.sh)').toBe(true);
  tdb = await createTestDatabase();
  app = await startTestApp({ db: tdb.db, logger: logs.logger });
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

describe('/dashboard', () => {
  it('serves the app with a strict Content-Security-Policy and no caching of the page', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/sign-in', '/dashboard/company/keys']) {
      const res = await fetch(`${app.url}${path}`);
      const html = await res.text();
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      const csp = res.headers.get('content-security-policy');
      expect(csp, path).toBeTruthy();
      const d = directives(csp!);
      expect(d.get('default-src'), path).toEqual(["'self'"]);
      expect(d.get('script-src'), path).toEqual(["'self'"]);
      expect(d.get('style-src'), path).toEqual(["'self'"]);
      expect(d.get('connect-src'), path).toEqual(["'self'"]);
      expect(d.get('object-src'), path).toEqual(["'none'"]);
      expect(d.get('base-uri'), path).toEqual(["'none'"]);
      expect(d.get('form-action'), path).toEqual(["'none'"]);
      expect(d.get('frame-ancestors'), path).toEqual(["'none'"]);
      // Nothing inline, nothing evaluated, nothing from elsewhere.
      expect(csp, path).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|wasm-unsafe-eval|\*|data:|blob:|https?:/);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      // The page itself: scripts and styles only as files of the build, no inline script, style or handler.
      expect(html, path).toMatch(/<div id="root"><\/div>/);
      for (const tag of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
        expect(tag[0], path).toMatch(/\ssrc="\/dashboard\/assets\/[^"]+\.js"/);
        expect(tag[1]!.trim(), path).toBe('');
      }
      expect(html, path).not.toMatch(/<style|\sstyle=|\son[a-z]+=|javascript:|https?:\/\//i);
    }
  });

  it('serves assets by hashed name, cached for a year as immutable', async () => {
    const page = await (await fetch(`${app.url}/dashboard/`)).text();
    const assets = [...page.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      expect(asset).toMatch(/\/[A-Za-z0-9_.-]+-[A-Za-z0-9_-]{8,}\.(js|css)$/); // a content hash in the name
      const res = await fetch(`${app.url}${asset}`);
      await res.arrayBuffer();
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type'), asset).toMatch(
        asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/,
      );
      expect(res.headers.get('x-content-type-options'), asset).toBe('nosniff');
    }
    // Every file of the build's assets folder is named with its hash.
    for (const name of readdirSync(join(DEFAULT_DASHBOARD_DIR, 'assets')))
      expect(name).toMatch(/-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/);
  });

  it('answers an unknown client-side route with the app, and a missing asset with 404', async () => {
    const route = await fetch(`${app.url}/dashboard/unknown/route`);
    expect(route.status).toBe(200);
    expect(route.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await route.text()).toMatch(/<div id="root"><\/div>/);

    for (const path of [
      '/dashboard/assets/index-AAAAAAAA.js',
      '/dashboard/assets/',
      '/dashboard/nothing.js',
      '/dashboard/../package.json',
      '/dashboard/%2e%2e/package.json',
    ]) {
      const res = await fetch(`${app.url}${path}`);
      const text = await res.text();
      expect([404, 200], path).toContain(res.status);
      if (res.status === 200)
        expect(text, path).toMatch(/<div id="root"><\/div>/); // normalised by the URL parser to a route of the app
      else expect(JSON.parse(text), path).toMatchObject({ code: 'not_found' });
      expect(text, path).not.toMatch(/"name":\s*"paycore"/);
    }
    const missing = await fetch(`${app.url}/dashboard/assets/index-AAAAAAAA.js`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
  });

  it('takes only GET and HEAD', async () => {
    const head = await fetch(`${app.url}/dashboard/company/keys`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const post = await fetch(`${app.url}/dashboard/company/keys`, { method: 'POST' });
    await post.arrayBuffer();
    expect(post.status).toBe(405);
  });
});

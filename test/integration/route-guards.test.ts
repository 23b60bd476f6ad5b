import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { interfaceOf } from '../../api/http/context.js';
import {
  appRoutes,
  authHeaders,
  concretePath,
  errorFields,
  expectErrorShape,
  probe,
  seedCredentials,
  type Credentials,
  type ProbeResponse,
} from '../helpers/route-probe.js';
import { createRouter, type RouteInfo } from '../../api/http/router.js';
import { keyOf, merchantOf, sessionOf } from '../../api/http/context.js';

/**
 * Every route of the app, under odd spellings of its path (another letter case, a trailing slash, a doubled
 * slash, a percent-encoded letter): the answer is the guard's answer of the canonical spelling (401/403 and
 * the same code, the same rate-limit headers) or a 404, never the handler without its guards. @koa/router
 * used to match routes case-insensitively while path-less guards matched case-sensitively, so `GET /V1/jobs/x`
 * reached the handler with no API key (500), `/Api/integrations/deliveries` with no session, and `/X402/*`
 * without the per-IP limit.
 */
let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
let creds: Credentials;
let routes: RouteInfo[];
const logs = capturingLogger();

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    config: testConfig({
      RATE_LIMIT_X402_PER_IP_PER_MINUTE: '100000',
      RATE_LIMIT_V1_PER_IP_PER_MINUTE: '100000',
      RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: '100000',
      RATE_LIMIT_INTEGRATIONS_PER_IP_PER_MINUTE: '100000',
      RATE_LIMIT_V1_PER_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_MINUTE: '100000',
    }),
  });
  creds = await seedCredentials(tdb.db, app.url);
  routes = appRoutes(app.app);
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

/**
 * Spellings of a route's concrete path that a careless matcher could take for it. Only the route's literal
 * segments change; parameter values (ids) are data and keep their case.
 */
function oddSpellings(route: RouteInfo, path: string): string[] {
  const pattern = route.path.split('/');
  const segments = path.split('/');
  const literal = (i: number) => i > 0 && !pattern[i]!.startsWith(':') && segments[i] !== '';
  const mapLiteral = (f: (s: string, i: number) => string) =>
    segments.map((s, i) => (literal(i) ? f(s, i) : s)).join('/');
  const flipFirst = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const lastLiteral = Math.max(...segments.map((_s, i) => (literal(i) && /^[a-z]/.test(segments[i]!) ? i : -1)));
  const out = new Set<string>([
    mapLiteral((s) => s.toUpperCase()),
    mapLiteral((s, i) => (i === 1 ? flipFirst(s) : s)), // /V1/…, /Proof/…, /Api/…, /X402/…
    mapLiteral((s) => flipFirst(s)),
    `${path}/`,
    path.replace(/^(\/[^/]+)/, '$1/'), // a doubled slash after the first segment
    `/${path}`,
  ]);
  if (lastLiteral > 0) {
    const s = segments[lastLiteral]!;
    out.add(mapLiteral((x, i) => (i === lastLiteral ? x.toUpperCase() : x)));
    out.add(mapLiteral((x, i) => (i === lastLiteral ? `%${s.charCodeAt(0).toString(16)}${s.slice(1)}` : x)));
  }
  out.add(path.replace(/^\/([a-z])/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16).toUpperCase()}`));
  out.delete(path);
  return [...out];
}

/** Signing out ends the probe's session; that route is probed without credentials only. */
const endsSession = (r: RouteInfo) => r.method === 'DELETE' && /^\/api\/(integrations|company)\/session$/.test(r.path);

const guardEvidence = (r: ProbeResponse) => ({
  status: r.status,
  code: r.json?.['code'] ?? null,
  rateLimited: r.headers['ratelimit-limit'] !== undefined,
});

describe('route guards under odd spellings of every path', () => {
  it('covers every route of the six interfaces and the web app', () => {
    const ifaces = new Set(routes.map((r) => r.iface));
    expect([...ifaces].sort()).toEqual(['company', 'dashboard', 'integrations', 'mcp', 'proof', 'v1', 'x402']);
  });

  it('without credentials: each odd spelling answers 404 or exactly what the guards answer the real path', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const path = concretePath(route);
      const canonical = await probe(app.url, route.method, path);
      expect(canonical.status, `${route.method} ${path}`).toBeLessThan(500);
      for (const odd of oddSpellings(route, path)) {
        const res = await probe(app.url, route.method, odd);
        if (res.status >= 500) failures.push(`${route.method} ${odd}: ${res.status} ${res.text.slice(0, 120)}`);
        else if (
          res.status !== 404 &&
          JSON.stringify(guardEvidence(res)) !== JSON.stringify(guardEvidence(canonical))
        ) {
          failures.push(
            `${route.method} ${odd}: ${JSON.stringify(guardEvidence(res))}, but ${path} gives ${JSON.stringify(guardEvidence(canonical))}`,
          );
        }
        // A 404 answers in the shape of the interface its path (an odd spelling may belong to none) falls under.
        if (res.status === 404 && res.json)
          expect(typeof errorFields(res, interfaceOf(new URL(odd, 'http://x').pathname))['code']).toBe('string');
      }
    }
    expect(failures).toEqual([]);
  });

  it('with valid credentials: an odd spelling reaches the handler only with its guards run (never a 5xx)', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => !endsSession(r))) {
      const path = concretePath(route);
      const headers = authHeaders(creds, route.iface, route.method);
      const canonical = await probe(app.url, route.method, path, { headers });
      for (const odd of oddSpellings(route, path)) {
        const res = await probe(app.url, route.method, odd, { headers });
        // A 503 the real path gives too (job submission without Temporal in this app) is that route's answer.
        if (res.status >= 500 && (res.status === 500 || res.status !== canonical.status))
          failures.push(`${route.method} ${odd}: ${res.status} ${res.text.slice(0, 120)}`);
        else if (res.status !== 404 && res.status !== canonical.status)
          failures.push(`${route.method} ${odd}: ${res.status}, but ${path} gives ${canonical.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('guarded routes answer their guard without credentials: 401 on /v1, /proof/v1 and /api/company, 403 on /api/integrations', async () => {
    for (const route of routes) {
      const path = concretePath(route);
      const res = await probe(app.url, route.method, path);
      if (route.iface === 'v1' && !/^\/v1\/(docs|openapi\.json)$/.test(route.path)) {
        expect(res.status, path).toBe(401);
        expectErrorShape(res, 'v1', path);
      }
      if (route.iface === 'proof' && route.path.startsWith('/proof/v1/')) {
        expect(res.status, path).toBe(401);
        expectErrorShape(res, 'proof', path);
      }
      if (route.iface === 'integrations' && !/^\/api\/integrations\/(session|docs|openapi\.json)$/.test(route.path)) {
        expect(res.status, path).toBe(403);
        expectErrorShape(res, 'integrations', path);
      }
      if (
        route.iface === 'company' &&
        !/^\/api\/company\/(session|invitations\/accept|docs|openapi\.json)$/.test(route.path)
      ) {
        expect(res.status, path).toBe(401);
        expectErrorShape(res, 'company', path);
      }
      if (route.iface === 'x402') expect(res.headers['ratelimit-limit'], `${path}: per-IP limit`).toBeDefined();
    }
  });

  it('an id outside the id alphabet is a 404 in the interface shape on every route, before any query', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.path.includes(':id'))) {
      for (const bad of [
        '%00',
        'job_%00AAAAAAAAAAAAAAAAAAA',
        'x'.repeat(300),
        '..%2F..%2Fetc',
        '%C3%A9t%C3%A9',
        '%E2%80%AE',
        '%ZZ',
        'a%2Fb',
        '1%20OR%201=1',
      ]) {
        const path = concretePath(route, { id: bad });
        const res = await probe(app.url, route.method, path, {
          headers: authHeaders(creds, route.iface, route.method),
        });
        if (res.status !== 404) failures.push(`${route.method} ${path}: ${res.status} ${res.text.slice(0, 120)}`);
        else expectErrorShape(res, route.iface, path);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('handlers fail closed', () => {
  it('a handler reached without its guard answers the guard, never runs for nobody nor crashes', async () => {
    const unguarded = createRouter({ prefix: '/v1' });
    unguarded.get('/unguarded-probe', (ctx) => {
      ctx.body = { tenant: keyOf(ctx).tenantId };
    });
    const proofUnguarded = createRouter({ prefix: '/proof' });
    proofUnguarded.get('/v1/unguarded-probe', (ctx) => {
      ctx.body = { merchant: merchantOf(ctx).id };
    });
    const integrationsUnguarded = createRouter({ prefix: '/api/integrations' });
    integrationsUnguarded.get('/unguarded-probe', (ctx) => {
      ctx.body = { user: sessionOf(ctx).userId };
    });
    const other = await startTestApp({
      db: tdb.db,
      logger: logs.logger,
      routers: [unguarded, proofUnguarded, integrationsUnguarded],
    });
    try {
      const v1 = await probe(other.url, 'GET', '/v1/unguarded-probe');
      expect(v1.status).toBe(401);
      expectErrorShape(v1, 'v1', 'v1');
      const proof = await probe(other.url, 'GET', '/proof/v1/unguarded-probe');
      expect(proof.status).toBe(401);
      expectErrorShape(proof, 'proof', 'proof');
      const dash = await probe(other.url, 'GET', '/api/integrations/unguarded-probe');
      expect(dash.status).toBe(403);
      expect(dash.json?.['code']).toBe('session_required');
    } finally {
      await other.close();
    }
  });
});

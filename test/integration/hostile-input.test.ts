import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { testGateway, uniqueTaskQueue } from '../helpers/temporal.js';
import { newIdem } from '../helpers/proof.js';
import {
  appRoutes,
  authHeaders,
  concretePath,
  errorFields,
  errorMessage,
  expectErrorShape,
  probe,
  seedCredentials,
  type Credentials,
  type ProbeResponse,
} from '../helpers/route-probe.js';
import type { RouteInfo } from '../../api/http/router.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';

/**
 * The bad-input families of a hostile client, sent to every route of the app (the routes come from the app,
 * so a new route is covered without anyone adding it here): broken and hostile JSON bodies, odd query
 * strings, malformed credentials and Idempotency-Keys. Every answer comes promptly, is never a 5xx, has the
 * interface's documented error body, and nothing is stored. Multipart shapes of /v1/uploads have their own
 * test (uploads-multipart.test.ts); path ids and odd path spellings are in route-guards.test.ts.
 */
let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
let gateway: WorkflowGateway;
let creds: Credentials;
let routes: RouteInfo[];
const logs = capturingLogger();
const HIGH = '1000000';

beforeAll(async () => {
  tdb = await createTestDatabase();
  gateway = await testGateway(uniqueTaskQueue('hostile')); // no worker: nothing here may start a workflow
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    workflows: gateway,
    config: testConfig({
      LOG_LEVEL: 'debug',
      RATE_LIMIT_X402_PER_IP_PER_MINUTE: HIGH,
      RATE_LIMIT_V1_PER_IP_PER_MINUTE: HIGH,
      RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: HIGH,
      RATE_LIMIT_INTEGRATIONS_PER_IP_PER_MINUTE: HIGH,
      RATE_LIMIT_V1_PER_KEY_PER_MINUTE: HIGH,
      RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE: HIGH,
      RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_MINUTE: HIGH,
    }),
  });
  creds = await seedCredentials(tdb.db, app.url);
  routes = appRoutes(app.app);
});
afterAll(async () => {
  await app?.close();
  await gateway?.close();
  await tdb?.drop();
});

/** Every table a request could write to, but for counters and touch timestamps. */
const TABLES = [
  'accounts',
  'api_keys',
  'companies',
  'contacts',
  'credit_ledger',
  'credit_reservations',
  'idempotency_keys',
  'invoice_mail_outbox',
  'invoices',
  'jobs',
  'members',
  'merchant_sessions',
  'merchant_users',
  'merchant_wallets',
  'merchants',
  'payment_evidence',
  'payment_requests',
  'proof_events',
  'uploads',
  'wallets',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'webhook_endpoints',
  'platform_purchases',
  'platform_purchase_grants',
  'wallet_challenges',
];
async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await tdb.db(t).count<{ count: string }[]>({ count: '*' }))[0]!.count);
  return out;
}

/** The disabled /x402/v1/processing routes answer in FastAPI's shape ({detail: [{loc, msg, type}]}), as documented. */
const fastApiShaped = (r: RouteInfo) => r.path.startsWith('/x402/v1/processing');
const isSignOut = (r: RouteInfo) => r.method === 'DELETE' && /^\/api\/(integrations|company)\/session$/.test(r.path);
const jsonRoutes = () => routes.filter((r) => r.method === 'POST' && r.path !== '/v1/uploads' && !fastApiShaped(r));

function expectAnswer(res: ProbeResponse, route: RouteInfo, label: string): void {
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status < 400 || !/json/.test(res.headers['content-type'] ?? '')) return;
  if (fastApiShaped(route)) expect(Array.isArray(res.json?.['detail']), label).toBe(true);
  else expectErrorShape(res, route.iface, label);
}

function send(
  route: RouteInfo,
  body: Buffer | string,
  headers: Record<string, string> = {},
  path = concretePath(route),
) {
  return probe(app.url, route.method, path, {
    headers: {
      'Content-Type': 'application/json',
      'Idempotency-Key': newIdem(),
      ...authHeaders(creds, route.iface, route.method),
      ...headers,
    },
    body,
  });
}

const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const issuesOf = (res: ProbeResponse, iface: RouteInfo['iface']) =>
  ((errorFields(res, iface)['issues'] ?? []) as Array<{ path: string }>).map((i) => i.path);

describe('hostile JSON bodies on every JSON route', () => {
  let before: Record<string, number>;
  beforeAll(async () => {
    before = await rowCounts();
  });

  it('a NUL character anywhere in a string or a key is a 422 naming the field', async () => {
    for (const route of jsonRoutes()) {
      for (const [body, field] of [
        ['{"zz_probe":"a\\u0000b"}', 'zz_probe'],
        ['{"options":{"text":"x\\u0000"}}', 'options.text'],
        ['{"items":[{"name":"ok"},{"name":"\\u0000"}]}', 'items.1.name'],
        ['{"a\\u0000b":1}', 'a\\u0000b'],
      ] as const) {
        const res = await send(route, body);
        const label = `${route.method} ${route.path} ${body}`;
        expect(res.status, `${label}: ${res.text}`).toBe(422);
        expectErrorShape(res, route.iface, label);
        expect(errorFields(res, route.iface)['code']).toBe('validation_failed');
        expect(issuesOf(res, route.iface), label).toContain(field);
        expect(errorMessage(res, route.iface) as string).toContain(field);
      }
    }
  });

  it('JSON nested 3,000 deep is a 422 before anything walks it; 32 levels are still read', async () => {
    for (const route of jsonRoutes()) {
      const res = await send(route, deep(3000));
      expect(res.status, `${route.path}: ${res.text.slice(0, 200)}`).toBe(422);
      expectErrorShape(res, route.iface, route.path);
      expect(errorMessage(res, route.iface)).toMatch(/nested more than 32 levels/);
      expectAnswer(await send(route, deep(31)), route, `${route.path} 32 levels`);
    }
  });

  it('a Content-Encoding that does not match the bytes is a 422, an unknown one a 415; a real gzip body is read', async () => {
    for (const route of jsonRoutes()) {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const res = await send(route, Buffer.from('definitely not compressed'), { 'Content-Encoding': encoding });
        expect(res.status, `${route.path} ${encoding}: ${res.text}`).toBe(422);
        expectErrorShape(res, route.iface, `${route.path} ${encoding}`);
        expect(errorFields(res, route.iface)['code']).toBe('malformed_json');
      }
      const truncated = gzipSync(Buffer.from('{"name":"x"}')).subarray(0, 12);
      expect(
        (await send(route, truncated, { 'Content-Encoding': 'gzip' })).status,
        `${route.path} truncated gzip`,
      ).toBe(422);
      const unknown = await send(route, Buffer.from('{}'), { 'Content-Encoding': 'compress' });
      expect(unknown.status, `${route.path} compress`).toBe(415);
      expectErrorShape(unknown, route.iface, `${route.path} compress`);
      // Compressed NUL is still NUL: the rules apply to the decoded body.
      const zipped = await send(route, gzipSync(Buffer.from('{"zz_probe":"\\u0000"}')), { 'Content-Encoding': 'gzip' });
      expect(zipped.status, `${route.path} gzip NUL`).toBe(422);
      expect(issuesOf(zipped, route.iface)).toContain('zz_probe');
    }
  });

  it('other broken bodies answer 4xx in the interface shape', async () => {
    for (const route of jsonRoutes()) {
      const cases: Array<[string, Buffer | string, Record<string, string>, number | null]> = [
        ['truncated JSON', '{"a":', {}, 422],
        ['not JSON', 'hello', {}, 422],
        ['text/plain', '{}', { 'Content-Type': 'text/plain' }, 415],
        // RFC 8259: JSON is UTF-8 and a charset parameter has no effect.
        ['a charset parameter', '{}', { 'Content-Type': 'application/json; charset=ebcdic' }, null],
        ['latin-1 bytes', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]), {}, null],
        ['top-level array', '[]', {}, null],
        ['top-level string', '"x"', {}, null],
        ['top-level null', 'null', {}, null],
        ['top-level number', '1e400', {}, null],
        ['lone surrogate', '{"name":"\\ud800"}', {}, null],
        ['duplicate keys', '{"name":"a","name":"b"}', {}, null],
        ['__proto__', '{"__proto__":{"admin":true}}', {}, null],
        ['huge number', '{"amount_usdc":1e308,"limit":-1e308}', {}, null],
        ['long string', JSON.stringify({ name: 'x'.repeat(9_000) }), {}, null],
      ];
      for (const [what, body, headers, status] of cases) {
        const res = await send(route, body, headers);
        const label = `${route.method} ${route.path} ${what}`;
        expectAnswer(res, route, label);
        if (status !== null) expect(res.status, `${label}: ${res.text}`).toBe(status);
      }
    }
  });

  it('stored nothing', async () => {
    expect(await rowCounts()).toEqual(before);
  });
});

describe('odd query strings and credentials on every route', () => {
  it('query strings: NUL, repeats, arrays, huge numbers, bad percent-encoding never give a 5xx', async () => {
    const queries = [
      '?limit=%00',
      '?before=%00',
      '?after=%00',
      '?status=%00',
      '?zz=%00',
      '?limit=1&limit=2',
      '?limit[]=1',
      '?status[a]=b',
      '?limit=99999999999999999999',
      '?after=9007199254740992',
      '?after=-1',
      '?before=0',
      '?%ZZ=1',
      '?limit=%ZZ',
      `?q=${'x'.repeat(6000)}`,
      '?tx_hash=%00&network=base',
      '?network=%00',
      '?operation=%00',
    ];
    for (const route of routes.filter((r) => !isSignOut(r))) {
      for (const q of queries) {
        const res = await probe(app.url, route.method, `${concretePath(route)}${q}`, {
          headers: { ...authHeaders(creds, route.iface, route.method), 'Idempotency-Key': newIdem() },
        });
        expectAnswer(res, route, `${route.method} ${route.path}${q.slice(0, 40)}`);
        if (q.includes('%00') && res.status === 422 && !fastApiShaped(route))
          expect(JSON.stringify(res.json)).toMatch(/NUL|must|invalid|expected/i);
      }
    }
  });

  it('malformed Authorization headers answer the guard (401 on /v1 and /proof/v1; 403 on /api/integrations and /api/company), never a 5xx', async () => {
    const shapes = [
      'Bearer',
      'Bearer ',
      'Bearer a b',
      `Bearer ${'x'.repeat(8000)}`,
      'Basic dXNlcjpwYXNz',
      'bearer sk_live_nope',
      'Bearer skp_' + 'A'.repeat(40),
      'Token x',
    ];
    for (const route of routes) {
      for (const authorization of shapes) {
        const res = await probe(app.url, route.method, concretePath(route), {
          headers: { Authorization: authorization },
        });
        const label = `${route.method} ${route.path} with ${authorization.slice(0, 30)}`;
        expectAnswer(res, route, label);
        if (route.iface === 'v1' && !/docs|openapi/.test(route.path)) expect(res.status, label).toBe(401);
        if (route.iface === 'proof' && route.path.startsWith('/proof/v1/')) expect(res.status, label).toBe(401);
        if (route.iface === 'integrations' && !/docs|openapi/.test(route.path)) expect(res.status, label).toBe(403);
        if (route.iface === 'company' && !/docs|openapi/.test(route.path)) expect(res.status, label).toBe(403);
      }
    }
  });

  it('malformed Idempotency-Keys on every mutation are refused in the interface shape', async () => {
    for (const route of jsonRoutes()) {
      for (const key of ['short', 'x'.repeat(300), 'has spaces in it here', 'semi;colon;key;value;1', '']) {
        const res = await send(route, '{}', { 'Idempotency-Key': key });
        expectAnswer(res, route, `${route.path} Idempotency-Key ${key.slice(0, 20)}`);
      }
    }
  });
});

describe('idempotency fingerprints keep every key', () => {
  it('a body with "__proto__" is another payload: the same Idempotency-Key answers 409, not the first response', async () => {
    const key = newIdem();
    const headers = {
      Authorization: `Bearer ${creds.proofKey}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': key,
    };
    const first = await probe(app.url, 'POST', '/proof/v1/contacts', {
      headers,
      body: '{"legal_name":"Proto Ltd","email":"billing@proto.example"}',
    });
    expect(first.status, first.text).toBe(201);
    const second = await probe(app.url, 'POST', '/proof/v1/contacts', {
      headers,
      body: '{"legal_name":"Proto Ltd","email":"billing@proto.example","__proto__":{"x":1}}',
    });
    expect(second.status, second.text).not.toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    const same = await probe(app.url, 'POST', '/proof/v1/contacts', {
      headers,
      body: '{ "email":"billing@proto.example", "legal_name" : "Proto Ltd" }',
    });
    expect(same.status).toBe(201);
    expect(same.headers['idempotent-replayed']).toBe('true');
  });
});

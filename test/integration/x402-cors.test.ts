import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FacilitatorClient } from '@x402/core/server';
import type { SupportedResponse } from '@x402/core/types';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createX402Payments } from '../../api/x402/payment.middleware.js';
import { PAID_ROUTES } from '../../services/x402/route-table.js';

/**
 * A wallet in a browser pays /x402 from another origin: the preflight of a paid GET with PAYMENT-SIGNATURE (and
 * the Access-Control-Expose-Headers request header @x402/fetch adds) is allowed, and every answer of a paid route,
 * errors included, carries the CORS headers and exposes the x402 headers. Without credentials, ever. Other
 * interfaces keep answering cross-origin requests without any CORS header.
 */
const supported: SupportedResponse = {
  kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }],
  extensions: [],
  signers: {},
};
const unused = () => Promise.reject(new Error('not used in this test'));
const facilitator: FacilitatorClient = {
  getSupported: () => Promise.resolve(supported),
  verify: unused,
  settle: unused,
};

let tdb: TestDatabase;
type App = Awaited<ReturnType<typeof startTestApp>>;
let paid: App;
let none: App;
let limited: App;
const logs = capturingLogger();

beforeAll(async () => {
  tdb = await createTestDatabase();
  const config = testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '100000' });
  const payments = createX402Payments({
    db: tdb.db,
    logger: logs.logger,
    payTo: '0x00000000000000000000000000000000000000a1',
    facilitator,
    authorizationState: null,
    paymentTimeoutSeconds: 120,
  });
  paid = await startTestApp({ db: tdb.db, logger: logs.logger, config, payments });
  none = await startTestApp({ db: tdb.db, logger: logs.logger, config });
  limited = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    config: testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '1' }),
  });
});
afterAll(async () => {
  await Promise.all([paid?.close(), none?.close(), limited?.close()]);
  await tdb?.drop();
});

const ORIGIN = 'https://wallet.example';
const TX = `0x${'ab'.repeat(32)}`;
const PAID_PATHS = Object.values(PAID_ROUTES).map((r) => `/x402${r.path}`);
const query = (path: string) =>
  path.endsWith('/match') ? `?tx_hash=${TX}&recipient=0x${'1f'.repeat(20)}&amount=1` : `?tx_hash=${TX}`;
const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

const expectCors = (res: Response, where: string) => {
  expect(res.headers.get('access-control-allow-origin'), where).toBe('*');
  expect(res.headers.get('access-control-allow-credentials'), where).toBeNull();
};
const expectExposed = (res: Response, where: string) => {
  expectCors(res, where);
  expect(list(res.headers.get('access-control-expose-headers')), where).toEqual(
    expect.arrayContaining([
      'payment-required',
      'payment-response',
      'x-evidence-sha256',
      'content-disposition',
      'retry-after',
      'x-request-id',
    ]),
  );
};

describe('preflight of the paid routes', () => {
  it.each(PAID_PATHS)('OPTIONS %s: 204, GET and HEAD, PAYMENT-SIGNATURE allowed, no credentials', async (path) => {
    const res = await fetch(`${paid.url}${path}`, {
      method: 'OPTIONS',
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'payment-signature,access-control-expose-headers,content-type,accept',
      },
    });
    expect(res.status).toBe(204);
    expectCors(res, path);
    expect(list(res.headers.get('access-control-allow-methods'))).toEqual(['get', 'head']);
    expect(list(res.headers.get('access-control-allow-headers'))).toEqual(
      expect.arrayContaining(['payment-signature', 'access-control-expose-headers', 'content-type', 'accept']),
    );
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(await res.text()).toBe('');
  });

  it('an odd spelling of a paid path gets no preflight answer', async () => {
    for (const path of ['/X402/v1/usdc/verify', '/x402/v1/USDC/verify', '/x402/v1/usdc/verify.json']) {
      const res = await fetch(`${paid.url}${path}`, {
        method: 'OPTIONS',
        headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'GET' },
      });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });
});

describe('answers of the paid routes carry CORS headers, errors included', () => {
  it.each(PAID_PATHS)('%s: 402 exposes PAYMENT-REQUIRED', async (path) => {
    const res = await fetch(`${paid.url}${path}${query(path)}`, { headers: { Origin: ORIGIN } });
    expect(res.status).toBe(402);
    expect(res.headers.get('payment-required')).toBeTruthy();
    expectExposed(res, path);
  });

  it.each(PAID_PATHS)('%s: 422 (invalid query) and 503 (payments not configured)', async (path) => {
    const invalid = await fetch(`${paid.url}${path}?tx_hash=nope`, { headers: { Origin: ORIGIN } });
    expect(invalid.status).toBe(422);
    expectExposed(invalid, `${path} 422`);
    const unavailable = await fetch(`${none.url}${path}${query(path)}`, { headers: { Origin: ORIGIN } });
    expect(unavailable.status).toBe(503);
    expectExposed(unavailable, `${path} 503`);
  });

  it('a 429 (per-IP limit) carries them, Retry-After readable', async () => {
    let res: Response | undefined;
    for (let i = 0; i < 3 && res?.status !== 429; i++)
      res = await fetch(`${limited.url}/x402/v1/usdc/verify${query('/verify')}`, { headers: { Origin: ORIGIN } });
    expect(res!.status).toBe(429);
    expect(res!.headers.get('retry-after')).toBeTruthy();
    expectExposed(res!, '429');
  });

  it('a HEAD and a wrong method (405) carry them too', async () => {
    const head = await fetch(`${paid.url}/x402/v1/usdc/verify${query('/verify')}`, {
      method: 'HEAD',
      headers: { Origin: ORIGIN },
    });
    expect(head.status).toBe(402);
    expectExposed(head, 'HEAD');
    const post = await fetch(`${paid.url}/x402/v1/usdc/verify`, { method: 'POST', headers: { Origin: ORIGIN } });
    expect(post.status).toBe(405);
    expectCors(post, 'POST');
  });
});

describe('public documents and other interfaces', () => {
  it.each(['/x402/health', '/x402/launch-status', '/x402/.well-known/x402', '/.well-known/x402'])(
    '%s is readable from any origin',
    async (path) => {
      const res = await fetch(`${paid.url}${path}`, { headers: { Origin: ORIGIN } });
      expect(res.status).toBe(200);
      expectCors(res, path);
    },
  );

  it('pages, the disabled processing routes and the other interfaces send no CORS header', async () => {
    for (const path of [
      '/x402/',
      '/x402/docs',
      '/x402/v1/processing',
      '/v1/jobs',
      '/proof/v1/me',
      '/api/integrations/session',
      '/api/company/session',
    ]) {
      const res = await fetch(`${paid.url}${path}`, { headers: { Origin: ORIGIN } });
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      const preflight = await fetch(`${paid.url}${path}`, {
        method: 'OPTIONS',
        headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin'), `OPTIONS ${path}`).toBeNull();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp({
    db: tdb.db,
    logger: capturingLogger().logger,
    config: testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '100000' }),
  });
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

const get = (path: string, init?: RequestInit) => fetch(`${app.url}${path}`, init);
const EVM_TX = `0x${'ab'.repeat(32)}`;
const EVM_ADDR = `0x${'1f'.repeat(20)}`;
const SOL_SIG = '1'.repeat(64);
const SOL_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

describe('discovery, pages and status', () => {
  it('serves the discovery manifest (x402 discovery extension) from the route table', async () => {
    const res = await get('/x402/.well-known/x402');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown> & {
      resources: Array<Record<string, unknown>>;
      networks: unknown[];
      fees: Array<Record<string, unknown>>;
    };
    expect(doc).toMatchObject({
      x402Version: 2,
      kind: 'resource-server',
      docs: `${app.url}/x402/docs`,
      interface_version: '1.0.0',
    });
    expect(doc['payments']).toEqual({
      configured: false,
      scheme: 'exact',
      network: 'eip155:8453',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      asset_name: 'USD Coin (native USDC on Base)',
    });
    expect(doc.networks).toHaveLength(7);
    // Payments are not configured here: bare pointers only, the prices as a separate extra.
    expect(doc.resources.filter((r) => r['type'] !== 'mcp')).toEqual([
      { url: `${app.url}/x402/v1/usdc/verify`, method: 'GET', description: expect.any(String) },
      { url: `${app.url}/x402/v1/usdc/match`, method: 'GET', description: expect.any(String) },
      { url: `${app.url}/x402/v1/usdc/evidence.pdf`, method: 'GET', description: expect.any(String) },
    ]);
    expect(doc.fees.map((f) => [f['url'], f['operation'], f['amount_atomic'], f['amount_usdc']])).toEqual([
      [`${app.url}/x402/v1/usdc/verify`, 'verify', '20000', '0.020000'],
      [`${app.url}/x402/v1/usdc/match`, 'match', '30000', '0.030000'],
      [`${app.url}/x402/v1/usdc/evidence.pdf`, 'evidence', '50000', '0.050000'],
    ]);
  });

  it('serves readable HTML landing and docs pages', async () => {
    for (const path of ['/x402/', '/x402/docs']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain('0.020000 USDC');
      expect(html).toContain('not a tax invoice');
    }
    const docs = await (await get('/x402/docs')).text();
    for (const text of [
      'tx_hash',
      'recipient',
      'amount',
      'PAYMENT-REQUIRED',
      'PAYMENT-SIGNATURE',
      'waiting_confirmations',
      '150 confirmations',
    ]) {
      expect(docs).toContain(text);
    }
    // How to connect from an MCP client, and how to recover an answer kept after an undecided settlement.
    expect(docs).toContain('Connecting from an MCP client');
    for (const tool of [
      'verify_native_usdc',
      'match_native_usdc_payment',
      'usdc_transfer_evidence_pdf',
      'domain_dns_tls_audit',
      '_meta["x402/payment"]',
      'not a vulnerability scan',
    ]) {
      expect(docs).toContain(tool);
    }
    expect(docs).toMatch(/same <code>PAYMENT-SIGNATURE<\/code>/);
  });

  it('states each threshold in words that fit it: one confirmation, a sub-minute wait in seconds', async () => {
    const docs = await (await get('/x402/docs')).text();
    const finality = (network: string) =>
      new RegExp(`<td><code>${network}</code></td>.*?<td>([^<]*)</td></tr>`).exec(docs)?.[1];
    expect(finality('avalanche')).toBe('1 confirmation (about 2 s)');
    expect(finality('base')).toBe('150 confirmations (about 5 min)');
    expect(finality('arbitrum')).toBe('1200 confirmations (about 5 min)');
    expect(finality('ethereum')).toBe('64 confirmations (about 12.8 min)');
    expect(docs).not.toMatch(/about 0 min|1 confirmations/);
  });

  it('reports launch status and health', async () => {
    expect(await (await get('/x402/health')).json()).toEqual({ status: 'ok', service: 'x402' });
    expect(await (await get('/x402/launch-status')).json()).toMatchObject({
      status: 'payments_not_configured',
      x402_version: 2,
      document_processing: 'disabled',
      payments: { configured: false, facilitator: 'none', fee_network: 'eip155:8453' },
    });
  });
});

describe('paid routes validate every parameter before asking for payment', () => {
  const routes = ['/x402/v1/usdc/verify', '/x402/v1/usdc/match', '/x402/v1/usdc/evidence.pdf'];
  const extra = (route: string, network: 'evm' | 'sol'): Record<string, string> =>
    route.endsWith('match') ? { recipient: network === 'evm' ? EVM_ADDR : SOL_WALLET, amount: '1' } : {};
  const qs = (p: Record<string, string>) => new URLSearchParams(p).toString();

  // [label, params (merged over valid ones), valid?]
  const txCases: Array<[string, Record<string, string>, boolean]> = [
    ['EVM hash, 66 characters', { tx_hash: EVM_TX }, true],
    ['EVM hash, 65 characters', { tx_hash: EVM_TX.slice(0, -1) }, false],
    ['EVM hash, 67 characters', { tx_hash: `${EVM_TX}a` }, false],
    ['63 characters', { tx_hash: 'a'.repeat(63) }, false],
    ['101 characters', { tx_hash: 'a'.repeat(101) }, false],
    ['Solana signature, 64 characters', { tx_hash: SOL_SIG, network: 'solana' }, true],
    ['Solana signature, 89 characters', { tx_hash: '2'.repeat(89), network: 'solana' }, false],
    ['Solana signature on base', { tx_hash: SOL_SIG }, false],
    ['EVM hash on solana', { tx_hash: EVM_TX, network: 'solana' }, false],
    ['unknown network', { tx_hash: EVM_TX, network: 'tron' }, false],
    ['missing tx_hash', {}, false],
  ];

  for (const route of routes) {
    it.each(txCases)(`${route}: %s`, async (_label, params, valid) => {
      const network = params['network'] === 'solana' ? 'sol' : 'evm';
      const res = await get(`${route}?${qs({ ...extra(route, network), ...params })}`);
      if (valid) {
        expect(res.status).toBe(503); // reached the payment gate: payments are not configured here
        expect(await res.json()).toMatchObject({ code: 'payments_not_configured' });
      } else {
        expect(res.status).toBe(422);
        const body = (await res.json()) as { code: string; issues: Array<{ param: string }> };
        expect(body.code).toBe('validation_failed');
        expect(body.issues.length).toBeGreaterThan(0);
        expect(res.headers.get('payment-required')).toBeNull();
      }
    });
  }

  const matchCases: Array<[string, Record<string, string>, boolean]> = [
    ['recipient 42 characters (EVM)', { recipient: EVM_ADDR }, true],
    ['recipient 31 characters', { recipient: 'a'.repeat(31) }, false],
    ['recipient 45 characters', { recipient: 'a'.repeat(45) }, false],
    ['Solana wallet on base', { recipient: SOL_WALLET }, false],
    ['amount 1 character', { amount: '5' }, true],
    ['amount 24 characters', { amount: '99999999999999999.999999' }, true],
    ['amount 25 characters', { amount: '099999999999999999.999999' }, false],
    ['amount 17 integer digits', { amount: '12345678901234567' }, true],
    ['amount 18 integer digits', { amount: '123456789012345678' }, false],
    ['amount 6 fraction digits', { amount: '0.000001' }, true],
    ['amount 7 fraction digits', { amount: '0.0000001' }, false],
    ['amount zero', { amount: '0.000000' }, false],
    ['amount empty', { amount: '' }, false],
    ['amount with exponent', { amount: '1e3' }, false],
    ['amount with sign', { amount: '-1' }, false],
    ['amount missing', { amount: '' }, false],
  ];
  it.each(matchCases)('/x402/v1/usdc/match: %s', async (_label, params, valid) => {
    const res = await get(
      `/x402/v1/usdc/match?${qs({ tx_hash: EVM_TX, recipient: EVM_ADDR, amount: '1', ...params })}`,
    );
    expect(res.status).toBe(valid ? 503 : 422);
  });

  it('a Solana recipient of 32 and 44 characters is accepted on solana', async () => {
    for (const recipient of ['1'.repeat(32), SOL_WALLET]) {
      const res = await get(
        `/x402/v1/usdc/match?${qs({ tx_hash: SOL_SIG, network: 'solana', recipient, amount: '1' })}`,
      );
      expect(res.status).toBe(503);
    }
  });
});

describe('disabled processing routes', () => {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  it.each(methods)('%s answers 200 with a JSON body saying processing is disabled', async (method) => {
    for (const path of ['/x402/v1/processing', '/x402/v1/processing?operation=pdf-merge', '/x402/v1/processing/ocr']) {
      const res = await get(path, { method });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ enabled: false, detail: expect.stringContaining('disabled') });
    }
  });

  it.each(methods)(
    '%s /x402/v1/processing/ (trailing slash, an empty operation segment) is a 404, not an empty operation',
    async (method) => {
      for (const path of ['/x402/v1/processing/', '/x402/v1/processing/?operation=ocr']) {
        const res = await get(path, { method });
        expect(res.status, path).toBe(404);
        expect(await res.json()).toEqual({
          error: expect.any(String),
          code: 'not_found',
          request_id: expect.any(String),
        });
      }
      // A trailing slash after an operation is that operation, as everywhere.
      const op = await get('/x402/v1/processing/ocr/', { method });
      expect(op.status).toBe(200);
      expect(await op.json()).toMatchObject({ enabled: false, operation: 'ocr' });
    },
  );

  it('answers invalid input with FastAPI-style 422 bodies', async () => {
    const cases: Array<[string, RequestInit, Array<string | number>, string]> = [
      ['/x402/v1/processing/Bad_Op', {}, ['path', 'operation'], 'string_pattern_mismatch'],
      [`/x402/v1/processing/${'a'.repeat(65)}`, {}, ['path', 'operation'], 'string_too_long'],
      ['/x402/v1/processing?operation=has%20space', {}, ['query', 'operation'], 'string_pattern_mismatch'],
      ['/x402/v1/processing?operation=a&operation=b', {}, ['query', 'operation'], 'string_type'],
      [
        '/x402/v1/processing',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":' },
        ['body', 0],
        'json_invalid',
      ],
      [
        '/x402/v1/processing/ocr',
        { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' },
        ['body'],
        'json_invalid',
      ],
      [
        '/x402/v1/processing/ocr',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ a: 'x'.repeat(70_000) }),
        },
        ['body'],
        'too_long',
      ],
    ];
    for (const [path, init, loc, type] of cases) {
      const res = await get(path, init);
      expect(res.status, path).toBe(422);
      const body = (await res.json()) as { detail: Array<{ loc: unknown[]; msg: string; type: string }> };
      expect(body.detail[0]).toMatchObject({ loc, type, msg: expect.any(String) });
    }
    const ok = await get('/x402/v1/processing/pdf-merge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"files":[]}',
    });
    expect(ok.status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FacilitatorClient } from '@x402/core/server';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequirements, SupportedResponse } from '@x402/core/types';
import {
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
  type DiscoveryExtension,
} from '@x402/extensions/bazaar';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createX402Payments } from '../../api/x402/payment.middleware.js';
import { PAID_ROUTES } from '../../services/x402/route-table.js';

/**
 * What a catalog or an x402 crawler sees: the bazaar block of every paid route's 402 challenge (checked with the
 * official validators of @x402/extensions), and the discovery manifest of the x402 discovery extension
 * (specs/extensions/discovery.md) at /x402/.well-known/x402. The root /.well-known/x402 is the crawlers' document
 * (x402-crawler-discovery.test.ts).
 */
const PAY_TO = '0x00000000000000000000000000000000000000a1';
const supported: SupportedResponse = {
  kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }],
  extensions: [],
  signers: {},
};
const unused = () => Promise.reject(new Error('not used in this test'));
const facilitatorUp: FacilitatorClient = {
  getSupported: () => Promise.resolve(supported),
  verify: unused,
  settle: unused,
};
const facilitatorDown: FacilitatorClient = {
  getSupported: () => Promise.reject(new Error('connect ECONNREFUSED')),
  verify: unused,
  settle: unused,
};

let tdb: TestDatabase;
type App = Awaited<ReturnType<typeof startTestApp>>;
let paid: App;
let down: App;
let none: App;
const logs = capturingLogger();

beforeAll(async () => {
  tdb = await createTestDatabase();
  const config = testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '100000' });
  const payments = (facilitator: FacilitatorClient) =>
    createX402Payments({
      db: tdb.db,
      logger: logs.logger,
      payTo: PAY_TO,
      facilitator,
      authorizationState: null,
      paymentTimeoutSeconds: 120,
    });
  paid = await startTestApp({ db: tdb.db, logger: logs.logger, config, payments: payments(facilitatorUp) });
  down = await startTestApp({ db: tdb.db, logger: logs.logger, config, payments: payments(facilitatorDown) });
  none = await startTestApp({ db: tdb.db, logger: logs.logger, config });
});
afterAll(async () => {
  await Promise.all([paid?.close(), down?.close(), none?.close()]);
  await tdb?.drop();
});

const VALID_QUERY: Record<string, string> = {
  tx_hash: `0x${'ab'.repeat(32)}`,
  recipient: `0x${'1f'.repeat(20)}`,
  amount: '12.5',
};
const routes = Object.values(PAID_ROUTES);
const challengeOf = async (app: App, path: string) => {
  const res = await fetch(`${app.url}/x402${path}?${new URLSearchParams(VALID_QUERY).toString()}`);
  expect(res.status).toBe(402);
  return decodePaymentRequiredHeader(res.headers.get('payment-required')!);
};

/** The manifest's entries of the HTTP routes, and of the MCP tools (type "mcp"). */
const httpEntries = (doc: { resources: Array<Record<string, unknown>> }) =>
  doc.resources.filter((r) => r['type'] !== 'mcp');
const mcpEntries = (doc: { resources: Array<Record<string, unknown>> }) =>
  doc.resources.filter((r) => r['type'] === 'mcp');

describe('bazaar discovery data in the 402 challenge', () => {
  it.each(routes.map((r) => [r.path, r] as const))(
    '%s: passes validateDiscoveryExtension and validateDiscoveryExtensionSpec',
    async (path) => {
      const challenge = await challengeOf(paid, path);
      const bazaar = challenge.extensions?.['bazaar'] as DiscoveryExtension & {
        info: { input: Record<string, unknown>; output?: Record<string, unknown> };
      };
      expect(bazaar).toBeDefined();
      expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
      expect(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>)).toEqual({ valid: true });
      expect(bazaar.info.input).toMatchObject({ type: 'http', method: 'GET' });
      expect(Object.keys(bazaar.info.input['queryParams'] as object)).toContain('tx_hash');
      expect(bazaar.info.output?.['example']).toBeTruthy();
    },
  );
});

interface Manifest {
  x402Version: unknown;
  kind: unknown;
  name: unknown;
  description: unknown;
  docs: unknown;
  updated: string;
  resources: Array<Record<string, unknown>>;
  [extra: string]: unknown;
}
const manifestOf = async (app: App, path: string) => {
  const res = await fetch(`${app.url}${path}`, { headers: { Origin: 'https://crawler.example' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  return { res, doc: (await res.json()) as Manifest };
};
const MANIFEST_PATHS = ['/x402/.well-known/x402'];

describe('the discovery manifest (x402 discovery extension)', () => {
  it.each(MANIFEST_PATHS)('%s: a resource-server manifest of x402 v2 listing every paid route', async (path) => {
    const { res, doc } = await manifestOf(paid, path);
    // No PUBLIC_BASE_URL in this app: the URLs follow the Host header, so caches must key on it.
    expect(res.headers.get('vary')).toMatch(/\bHost\b/);
    expect(doc.x402Version).toBe(2);
    expect(doc.kind).toBe('resource-server');
    expect(doc).not.toHaveProperty('version');
    expect(doc.name).toEqual(expect.any(String));
    expect(doc.description).toEqual(expect.any(String));
    expect(doc.docs).toBe(`${paid.url}/x402/docs`);
    expect(new Date(doc.updated).toISOString()).toBe(doc.updated);
    expect(httpEntries(doc).map((r) => [r['url'], r['method']])).toEqual(
      routes.map((r) => [`${paid.url}/x402${r.path}`, 'GET']),
    );
    // Then the MCP server's paid tools, from the same operation table.
    expect(mcpEntries(doc).map((r) => [r['url'], r['method'], r['toolName']])).toEqual(
      ['verify_native_usdc', 'match_native_usdc_payment', 'usdc_transfer_evidence_pdf', 'domain_dns_tls_audit'].map(
        (t) => [`${paid.url}/mcp`, 'POST', t],
      ),
    );
    // Extras (ignored by consumers, per the spec): the inspected networks and the fee of each operation.
    expect(doc['networks']).toHaveLength(7);
    expect((doc['fees'] as Array<Record<string, unknown>>).map((f) => [f['url'], f['amount_atomic']])).toEqual([
      [`${paid.url}/x402/v1/usdc/verify`, '20000'],
      [`${paid.url}/x402/v1/usdc/match`, '30000'],
      [`${paid.url}/x402/v1/usdc/evidence.pdf`, '50000'],
    ]);
  });

  it('the root /.well-known/x402 points crawlers to it', async () => {
    const root = (await (await fetch(`${paid.url}/.well-known/x402`)).json()) as { instructions: string };
    expect(root.instructions).toContain(`${paid.url}/x402/.well-known/x402`);
  });

  it('with payments live, each entry is complete: the exact accepts of the live 402 challenge', async () => {
    const { doc } = await manifestOf(paid, '/x402/.well-known/x402');
    for (const route of routes) {
      const entry = doc.resources.find((r) => r['url'] === `${paid.url}/x402${route.path}`)!;
      const challenge = await challengeOf(paid, route.path);
      expect(entry['accepts'] as PaymentRequirements[]).toEqual(challenge.accepts);
      expect(entry).toMatchObject({
        method: 'GET',
        description: challenge.resource.description,
        mimeType: challenge.resource.mimeType,
        x402Version: 2,
      });
      expect((entry['accepts'] as PaymentRequirements[])[0]).toMatchObject({
        payTo: PAY_TO,
        amount: route.priceAtomic,
        network: 'eip155:8453',
      });
    }
  });

  it.each([
    ['payments are not configured', () => none],
    ['the facilitator cannot be reached', () => down],
  ])(
    'when %s, each entry is a bare pointer (url, method, description) and never partial payment data',
    async (_label, app) => {
      const { doc } = await manifestOf(app(), '/x402/.well-known/x402');
      expect(httpEntries(doc)).toEqual(
        routes.map((r) => ({ url: `${app().url}/x402${r.path}`, method: 'GET', description: r.description })),
      );
      for (const tool of mcpEntries(doc))
        expect(Object.keys(tool).sort()).toEqual(['description', 'method', 'toolName', 'type', 'url']);
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  checkEndpointSchema,
  discoverOriginSchema,
  getX402WellKnown,
  validatePaymentRequiredDetailed,
} from '@agentcash/discovery';
import type { FacilitatorClient } from '@x402/core/server';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { SupportedResponse } from '@x402/core/types';
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
 * Issue 28 item 11: the root `/.well-known/x402` as the crawlers read it.
 *
 * - x402scan's crawler: the registry's discovery runs @agentcash/discovery (Merit-Systems/x402scan,
 *   apps/scan/src/services/discovery/fetch-discovery.ts). 1.6.3 is its last version that reads `/.well-known/x402`
 *   (1.7 reads OpenAPI only); it takes `{version?, resources: string[], instructions?}`, then probes each
 *   resource for its 402. Before that package, x402scan parsed the document itself; that schema is reproduced
 *   below (X402SCAN_DOCUMENT).
 * - The bazaar validator: every listed resource answers an unpaid request with a 402 whose `extensions.bazaar`
 *   passes validateDiscoveryExtension and validateDiscoveryExtensionSpec of @x402/extensions/bazaar, which is what
 *   a bazaar-speaking indexer reads after the pointer (specs/extensions/discovery.md in x402-foundation/x402:
 *   "indexers that speak bazaar can probe each URL for the full 402 + extensions.bazaar description").
 */

/**
 * x402scan's own parser of `/.well-known/x402` before it moved to @agentcash/discovery, reproduced from
 * Merit-Systems/x402scan apps/scan/src/lib/x402/discovery-schema.ts (x402DiscoveryDocumentSchema and
 * resourceEntrySchema; removed in commit f234b33c): `version` the literal 1, `resources` strings that are a full
 * URL, a path starting with `/`, or either prefixed with an HTTP method; optional `instructions` and
 * `ownershipProofs`.
 */
const RESOURCE_ENTRY = z.string().refine((v) => {
  const parts = v.split(' ');
  const target = parts.length === 2 && ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(parts[0]!) ? parts[1]! : v;
  return target.startsWith('/') || target.startsWith('https://') || target.startsWith('http://');
});
const X402SCAN_DOCUMENT = z.object({
  version: z.literal(1),
  resources: z.array(RESOURCE_ENTRY).min(1),
  instructions: z.string().optional(),
  ownershipProofs: z.array(z.string()).optional(),
});

const PAY_TO = '0x00000000000000000000000000000000000000a1';
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
let app: Awaited<ReturnType<typeof startTestApp>>;
const routes = Object.values(PAID_ROUTES);

beforeAll(async () => {
  tdb = await createTestDatabase();
  const logs = capturingLogger();
  const payments = createX402Payments({
    db: tdb.db,
    logger: logs.logger,
    payTo: PAY_TO,
    facilitator,
    authorizationState: null,
    paymentTimeoutSeconds: 120,
  });
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    config: testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '100000' }),
    payments,
  });
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

const rootDocument = async () => {
  const res = await fetch(`${app.url}/.well-known/x402`, { headers: { Origin: 'https://crawler.example' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  // No PUBLIC_BASE_URL in this app: the URLs follow the Host header, so caches must key on it.
  expect(res.headers.get('vary')).toMatch(/\bHost\b/);
  return (await res.json()) as Record<string, unknown>;
};

describe("the root /.well-known/x402, read by x402scan's crawler", () => {
  it("is x402scan's document: version 1, the paid routes as URL strings of this origin, and instructions", async () => {
    const doc = await rootDocument();
    const parsed = X402SCAN_DOCUMENT.safeParse(doc);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const urls = (doc['resources'] as string[]).map((r) => new URL(r));
    expect(urls.map((u) => `${u.origin}${u.pathname}`)).toEqual(routes.map((r) => `${app.url}/x402${r.path}`));
    expect(doc['instructions']).toEqual(expect.stringContaining(`${app.url}/x402/.well-known/x402`));
  });

  it("@agentcash/discovery (x402scan's discovery) reads it and finds every paid route", async () => {
    const wellKnown = await getX402WellKnown(app.url);
    expect(wellKnown.isOk()).toBe(true);
    const source = wellKnown._unsafeUnwrap();
    expect(source).not.toBeNull();
    expect(source!.routes.map((r) => r.path)).toEqual(routes.map((r) => `/x402${r.path}`));
    expect(source!.instructions).toEqual(expect.any(String));

    const discovered = await discoverOriginSchema({ target: app.url });
    expect(discovered).toMatchObject({ found: true, source: 'well-known/x402' });
    expect(discovered.found && discovered.endpoints.map((e) => e.path)).toEqual(routes.map((r) => `/x402${r.path}`));
  });

  it('each listed resource, probed as the crawler does, answers GET with a valid x402 v2 402', async () => {
    for (const resource of (await rootDocument())['resources'] as string[]) {
      const checked = await checkEndpointSchema({ url: resource, probe: true });
      expect(checked.found, resource).toBe(true);
      const advisories = checked.found ? checked.advisories : [];
      // GET is the paid call (HEAD is challenged like it; an OPTIONS preflight is free).
      const get = advisories.find((a) => a.method === 'GET');
      expect(get?.authMode).toBe('paid');
      for (const a of advisories)
        if (a.method !== 'OPTIONS') expect(a.authMode, `${a.method} ${resource}`).toBe('paid');
      const validation = validatePaymentRequiredDetailed(get!.paymentRequiredBody, {
        requireInputSchema: true,
        requireOutputSchema: true,
      });
      expect(validation.issues.filter((i) => i.severity === 'error')).toEqual([]);
      expect(validation).toMatchObject({ valid: true, version: 2 });
    }
  });
});

describe('the root /.well-known/x402, read by a bazaar indexer', () => {
  it('every listed resource carries a bazaar block that validateDiscoveryExtension and validateDiscoveryExtensionSpec accept', async () => {
    const resources = (await rootDocument())['resources'] as string[];
    expect(resources).toHaveLength(routes.length);
    for (const resource of resources) {
      const res = await fetch(resource);
      expect(res.status, resource).toBe(402);
      const challenge = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
      expect(challenge.resource.url).toBe(resource.split('?')[0]);
      const bazaar = challenge.extensions?.['bazaar'] as DiscoveryExtension;
      expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
      expect(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>)).toEqual({ valid: true });
    }
  });
});

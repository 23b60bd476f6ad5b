import { describe, expect, it } from 'vitest';
import type { PaymentRequirements } from '@x402/core/types';
import { buildDiscoveryManifest, paidRouteResources, type AcceptsFor } from '../../../services/x402/discovery.js';
import { PAID_ROUTES } from '../../../services/x402/route-table.js';

const ORIGIN = 'https://pay.example.com';
const settings = {
  payTo: '0x00000000000000000000000000000000000000a1',
  facilitator: 'remote' as const,
  paymentTimeoutSeconds: 120,
  requiredConfirmations: { base: 150, polygon: 128, arbitrum: 1200, optimism: 150, ethereum: 64, avalanche: 1 },
};
const requirements = (amount: string): PaymentRequirements[] => [
  {
    scheme: 'exact',
    network: 'eip155:8453',
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    amount,
    payTo: settings.payTo,
    maxTimeoutSeconds: 120,
    extra: { name: 'USD Coin', version: '2' },
  },
];
const pointers = Object.values(PAID_ROUTES).map((r) => ({
  url: `${ORIGIN}/x402${r.path}`,
  method: 'GET',
  description: r.description,
}));

describe('discovery manifest builder', () => {
  it('publishes complete entries carrying exactly what acceptsFor answers for each route URL', async () => {
    const asked: string[] = [];
    const acceptsFor: AcceptsFor = (route, url) => {
      asked.push(url);
      return Promise.resolve(requirements(route.priceAtomic));
    };
    const entries = await paidRouteResources(ORIGIN, acceptsFor);
    expect(asked).toEqual(pointers.map((p) => p.url));
    expect(entries.map((e) => e['accepts'])).toEqual(
      Object.values(PAID_ROUTES).map((r) => requirements(r.priceAtomic)),
    );
    expect(entries[0]).toMatchObject({
      ...pointers[0],
      mimeType: 'application/json',
      x402Version: 2,
      operation: 'verify',
    });
  });

  it.each<[string, AcceptsFor | undefined]>([
    ['absent', undefined],
    ['null', () => Promise.resolve(null)],
    ['empty', () => Promise.resolve([])],
    ['failing', () => Promise.reject(new Error('facilitator down'))],
    ['never answering', () => new Promise<never>(() => undefined)],
  ])('publishes bare pointers only when acceptsFor is %s', async (_label, acceptsFor) => {
    expect(await paidRouteResources(ORIGIN, acceptsFor, 50)).toEqual(pointers);
  });

  it('appends extra entries (the MCP tools) after the paid routes', async () => {
    const tool = { type: 'mcp', url: `${ORIGIN}/mcp`, toolName: 'verify_native_usdc', description: 'Verify over MCP' };
    const doc = await buildDiscoveryManifest({
      settings,
      origin: ORIGIN,
      updated: new Date('2026-01-02T03:04:05Z'),
      extraResources: [tool],
    });
    expect(doc.resources).toEqual([...pointers, tool]);
    expect(doc).toMatchObject({
      x402Version: 2,
      kind: 'resource-server',
      docs: `${ORIGIN}/x402/docs`,
      updated: '2026-01-02T03:04:05.000Z',
    });
  });
});

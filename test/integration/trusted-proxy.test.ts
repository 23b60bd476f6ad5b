import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';

/**
 * Behind N trusted reverse proxies (TRUST_PROXY=true, TRUST_PROXY_HOPS=N) the client is the address the
 * outermost trusted proxy saw: the N-th entry of X-Forwarded-For from the right. Whatever a client writes to
 * the left of it is its own invention and must not move it into a fresh per-IP budget.
 */
let tdb: TestDatabase;
const logs = capturingLogger();
// Pinned clock in the middle of a minute, so a rate-limit window boundary cannot fall inside a test.
const now = () => new Date('2026-11-22T12:00:30.000Z');
type App = Awaited<ReturnType<typeof startTestApp>>;
const apps: App[] = [];

async function app(env: Record<string, string>): Promise<App> {
  const config = testConfig({
    RATE_LIMIT_X402_PER_IP_PER_MINUTE: '3',
    RATE_LIMIT_INTEGRATIONS_PER_IP_PER_MINUTE: '3',
    ...env,
  });
  const a = await startTestApp({ db: tdb.db, logger: logs.logger, config, now });
  apps.push(a);
  return a;
}

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await tdb?.drop();
});

const health = (a: App, xff: string) =>
  fetch(`${a.url}/x402/health`, { headers: { 'X-Forwarded-For': xff } }).then((r) => r.status);

describe('TRUST_PROXY with a number of trusted hops', () => {
  it('one trusted hop (the default): a spoofed left part of X-Forwarded-For does not escape the /x402 per-IP limit', async () => {
    const a = await app({ TRUST_PROXY: 'true' });
    const statuses: number[] = [];
    // The proxy appends the address it saw (203.0.113.7); the client varies what it sent before it.
    for (let i = 0; i < 5; i++) statuses.push(await health(a, `198.51.100.${i}, 203.0.113.7`));
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Another real client, behind the same proxy, has its own budget.
    expect(await health(a, '198.51.100.1, 203.0.113.8')).toBe(200);
    // A client that sends no X-Forwarded-For of its own is counted by the proxy's entry alone.
    expect(await health(a, '203.0.113.8')).toBe(200);
  });

  it('one trusted hop: sign-in stuffing from one address across spoofed addresses is throttled per real IP', async () => {
    const a = await app({ TRUST_PROXY: 'true' });
    const origin = new URL(a.url).origin;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${a.url}/api/integrations/session`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json', 'X-Forwarded-For': `10.9.${i}.1, 203.0.113.20` },
        // A different address each time, so only the per-IP throttle can answer.
        body: JSON.stringify({ email: `victim-${i}@example.com`, password: 'guess-guess-guess' }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('two trusted hops: the address the outer proxy saw counts, not anything written before it', async () => {
    const a = await app({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await health(a, `192.0.2.${i}, 203.0.113.30, 10.0.0.2`));
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // The same client seen through another inner proxy address is still the same client.
    expect(await health(a, '203.0.113.30, 10.0.0.3')).toBe(429);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: every request counts against the socket address', async () => {
    const a = await app({ TRUST_PROXY: 'false', RATE_LIMIT_X402_PER_IP_PER_MINUTE: '1000' });
    expect(await health(a, '203.0.113.40')).toBe(200);
    expect(await tdb.db('rate_limit_windows').where('bucket', 'like', '%203.0.113.40%').select('bucket')).toEqual([]);
    expect(
      await tdb.db('rate_limit_windows').where('bucket', 'like', 'x402:ip:min:%127.0.0.1').select('bucket'),
    ).not.toEqual([]);
  });

  it('takes X-Forwarded-Proto and X-Forwarded-Host from the same trusted hop as the client address', async () => {
    const origins = async (a: App, headers: Record<string, string>) => {
      const doc = (await (
        await fetch(`${a.url}/x402/.well-known/x402`, { headers: { 'X-Forwarded-For': '203.0.113.50', ...headers } })
      ).json()) as { docs: string };
      return new URL(doc.docs).origin;
    };
    const one = await app({ TRUST_PROXY: 'true', RATE_LIMIT_X402_PER_IP_PER_MINUTE: '1000' });
    // Proxies that overwrite: one value each.
    expect(await origins(one, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'pay.example.com' })).toBe(
      'https://pay.example.com',
    );
    // A proxy that appends: the client's own left part is ignored.
    expect(
      await origins(one, { 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-Host': 'evil.example, pay.example.com' }),
    ).toBe('http://pay.example.com');
    // Only http and https are schemes a proxy can have received.
    expect(await origins(one, { 'X-Forwarded-Proto': 'javascript', 'X-Forwarded-Host': 'pay.example.com' })).toBe(
      'http://pay.example.com',
    );
    const two = await app({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2', RATE_LIMIT_X402_PER_IP_PER_MINUTE: '1000' });
    expect(
      await origins(two, {
        'X-Forwarded-Proto': 'http, https, http',
        'X-Forwarded-Host': 'evil.example, pay.example.com, internal-lb',
      }),
    ).toBe('https://pay.example.com');
    // Without TRUST_PROXY none of them is read.
    const direct = await app({ TRUST_PROXY: 'false', RATE_LIMIT_X402_PER_IP_PER_MINUTE: '1000' });
    expect(await origins(direct, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'pay.example.com' })).toBe(
      new URL(direct.url).origin,
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createThingsTable, testRouters } from '../helpers/test-routes.js';
import { issueApiKey } from '../../db/repositories/api-keys.repo.js';
import { purgeExpiredRateLimits } from '../../db/repositories/rate-limits.repo.js';

let tdb: TestDatabase;
const apps: Array<Awaited<ReturnType<typeof startTestApp>>> = [];
const logs = capturingLogger();
// Pinned clock in the middle of a minute, so a window boundary cannot fall inside a test.
const now = () => new Date('2026-11-22T12:00:30.000Z');

beforeAll(async () => {
  tdb = await createTestDatabase();
  await createThingsTable(tdb.db);
  const config = testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '4' });
  // Two app instances on one database stand for two API processes.
  for (let i = 0; i < 2; i++) {
    apps.push(await startTestApp({ db: tdb.db, logger: logs.logger, config, now, routers: testRouters({ db: tdb.db, logger: logs.logger, perKeyPerMinute: 5, now }) }));
  }
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await tdb?.drop();
});

describe('rate limits', () => {
  it('counts per key across processes and answers 429 with Retry-After in the interface shape', async () => {
    const { secret } = await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_rl', name: 'k', scopes: ['read'] });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${apps[i % 2]!.url}/v1/test-things`, { headers: { Authorization: `Bearer ${secret}` } });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toBe('30');
        expect(await res.json()).toMatchObject({ code: 'rate_limited', detail: expect.any(String) });
      } else {
        expect(res.headers.get('ratelimit-limit')).toBe('5');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Another key of the same tenant has its own budget.
    const other = await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_rl', name: 'k2', scopes: ['read'] });
    expect((await fetch(`${apps[0]!.url}/v1/test-things`, { headers: { Authorization: `Bearer ${other.secret}` } })).status).toBe(200);
  });

  it('limits per IP on /x402 with the configured value', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${apps[i % 2]!.url}/x402/health`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const res = await fetch(`${apps[0]!.url}/x402/health`);
    expect(await res.json()).toMatchObject({ code: 'rate_limited', error: expect.any(String) });
  });

  it('keeps counters in PostgreSQL and purges ended windows', async () => {
    const rows = await tdb.db('rate_limit_counters').select('bucket', 'hits');
    expect(rows.length).toBeGreaterThan(0);
    expect(await purgeExpiredRateLimits(tdb.db, new Date('2026-11-22T12:05:00Z'))).toBe(rows.length);
  });
});

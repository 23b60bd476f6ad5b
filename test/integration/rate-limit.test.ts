import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createThingsTable, testRouters } from '../helpers/test-routes.js';
import { issueApiKey } from '../../db/repositories/api-keys.repo.js';
import { purgeExpiredRateLimits } from '../../db/repositories/rate-limits.repo.js';
import { createCompany, issueCompanyKey } from '../../db/repositories/companies.repo.js';

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

describe('failed authentication per IP', () => {
  it('throttles bogus keys on /v1 and /proof/v1 together, before the key lookup, in each interface shape', async () => {
    const fresh = await createTestDatabase();
    const app = await startTestApp({ db: fresh.db, logger: logs.logger, config: testConfig({ RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_MINUTE: '5' }), now });
    const lookups: string[] = [];
    const onQuery = (q: { sql: string }) => {
      if (/from "api_keys"/i.test(q.sql) && /^select/i.test(q.sql.trim())) lookups.push(q.sql);
    };
    fresh.db.on('query', onQuery);
    try {
      const { secret } = await issueApiKey(fresh.db, { interface: 'v1', tenantId: 'co_af', name: 'k', scopes: ['read'] });
      const bogus = (i: number) => `sk_live_${'A'.repeat(12)}${String(i).padStart(32, '0')}`;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const path = i % 2 ? '/proof/v1/me' : '/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA';
        statuses.push((await fetch(`${app.url}${path}`, { headers: { Authorization: `Bearer ${bogus(i)}` } })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      const lookupsBefore = lookups.length;
      const v1 = await fetch(`${app.url}/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA`, { headers: { Authorization: `Bearer ${bogus(9)}` } });
      expect(v1.status).toBe(429);
      expect(v1.headers.get('retry-after')).toBe('30');
      expect(await v1.json()).toMatchObject({ code: 'rate_limited', detail: expect.stringContaining('authentication') });
      const proof = await fetch(`${app.url}/proof/v1/me`, { headers: { Authorization: 'Bearer skp_nope' } });
      expect(proof.status).toBe(429);
      expect(await proof.json()).toMatchObject({ code: 'rate_limited', error: expect.any(String) });
      // No key was looked up for the throttled requests; a good key from the same address waits out the window too.
      expect(lookups.length).toBe(lookupsBefore);
      expect((await fetch(`${app.url}/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA`, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(429);
    } finally {
      fresh.db.off('query', onQuery);
      await app.close();
      await fresh.drop();
    }
  });

  it('lets authenticated traffic through and counts only failures', async () => {
    const fresh = await createTestDatabase();
    const app = await startTestApp({ db: fresh.db, logger: logs.logger, config: testConfig({ RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_MINUTE: '2' }), now });
    try {
      const { company, owner } = await createCompany(fresh.db, { name: 'Ok', ownerEmail: 'ok@example.com' });
      const { secret } = await issueCompanyKey(fresh.db, { companyId: company.id, memberId: owner.id, name: 'k', scopes: ['read'] }, new Date());
      for (let i = 0; i < 6; i++) {
        expect((await fetch(`${app.url}/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA`, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(404);
      }
      expect((await fetch(`${app.url}/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA`)).status).toBe(401);
      expect((await fetch(`${app.url}/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA`)).status).toBe(401);
      expect((await fetch(`${app.url}/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA`)).status).toBe(429);
    } finally {
      await app.close();
      await fresh.drop();
    }
  });
});

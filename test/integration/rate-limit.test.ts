import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createThingsTable, testRouters } from '../helpers/test-routes.js';
import { issueApiKey } from '../../db/repositories/api-keys.repo.js';
import { purgeExpiredRateLimits } from '../../db/repositories/rate-limits.repo.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';

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
    apps.push(
      await startTestApp({
        db: tdb.db,
        logger: logs.logger,
        config,
        now,
        routers: testRouters({ db: tdb.db, logger: logs.logger, perKeyPerMinute: 5, now }),
      }),
    );
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
        // Sliding windows: every hit was at the pinned 12:00:30, so the oldest leaves the window a minute later.
        expect(res.headers.get('retry-after')).toBe('60');
        expect(await res.json()).toMatchObject({ code: 'rate_limited', detail: expect.any(String) });
      } else {
        expect(res.headers.get('ratelimit-limit')).toBe('5');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Another key of the same tenant has its own budget.
    const other = await issueApiKey(tdb.db, { interface: 'v1', tenantId: 'co_rl', name: 'k2', scopes: ['read'] });
    expect(
      (await fetch(`${apps[0]!.url}/v1/test-things`, { headers: { Authorization: `Bearer ${other.secret}` } })).status,
    ).toBe(200);
  });

  it('limits per IP on /x402 with the configured value', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${apps[i % 2]!.url}/x402/health`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const res = await fetch(`${apps[0]!.url}/x402/health`);
    expect(await res.json()).toMatchObject({ code: 'rate_limited', error: expect.any(String) });
  });

  it('keeps counters in PostgreSQL and purges ended windows', async () => {
    const rows = await tdb.db('rate_limit_windows').select('bucket', 'hits');
    expect(rows.length).toBeGreaterThan(0);
    expect(await purgeExpiredRateLimits(tdb.db, new Date('2026-11-22T12:05:00Z'))).toBe(rows.length);
  });
});

describe('a sliding window, as "120 per minute" reads', () => {
  it('never admits more than 120 in any 60 s across two processes, keeps close to 120 a minute, and its headers are true', async () => {
    const fresh = await createTestDatabase();
    let clock = new Date('2026-11-22T12:00:30.000Z'); // mid-minute: a fixed window would start over 30 s in
    const config = testConfig({ RATE_LIMIT_V1_PER_KEY_PER_MINUTE: '120' });
    const pair = [
      await startTestApp({ db: fresh.db, logger: logs.logger, config, now: () => clock }),
      await startTestApp({ db: fresh.db, logger: logs.logger, config, now: () => clock }),
    ];
    try {
      const { company, owner } = await createCompany(fresh.db, { name: 'Sliding', ownerEmail: 'sliding@example.com' });
      const { secret } = await issueCompanyKey(
        fresh.db,
        { companyId: company.id, memberId: owner.id, name: 'k', scopes: ['read'] },
        new Date(),
      );
      const get = (i: number) =>
        fetch(`${pair[i % 2]!.url}/v1/jobs/job_${'A'.repeat(20)}`, { headers: { Authorization: `Bearer ${secret}` } });
      // A client sending 4 requests a second for 150 s, alternating between the processes (404: admitted).
      const admitted: number[] = [];
      for (let i = 0; i < 600; i++) {
        const t = clock.getTime();
        const res = await get(i);
        expect([404, 429], await res.clone().text()).toContain(res.status);
        if (res.status === 404) {
          admitted.push(t);
          // Each process knows the others' hits as of its last statement: between 0 and the limit.
          expect(Number(res.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
          expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(120);
        } else {
          const wait = Number(res.headers.get('retry-after'));
          expect(wait).toBeGreaterThanOrEqual(1);
          expect(wait).toBeLessThanOrEqual(61);
        }
        clock = new Date(t + 250);
      }
      // Whichever 60 s one looks at, at most 120 were admitted (a fixed window admits up to 240 across a minute's end).
      const busiest = Math.max(...admitted.map((t) => admitted.filter((a) => a > t - 60_000 && a <= t).length));
      expect(busiest, 'most requests admitted in any 60 s').toBeLessThanOrEqual(120);
      // ... and the client is not starved: close to 120 a minute over the 150 s (at most a second or two of slack per minute).
      expect(admitted.length).toBeGreaterThanOrEqual(280);

      // Retry-After is true: refused now, admitted once it has passed (nothing else sent meanwhile).
      let refused = await get(0);
      while (refused.status !== 429) {
        clock = new Date(clock.getTime() + 100);
        refused = await get(0);
      }
      const wait = Number(refused.headers.get('retry-after'));
      clock = new Date(clock.getTime() + wait * 1000);
      expect((await get(1)).status).toBe(404);

      // One process alone: RateLimit-Remaining never promises more than the window has left, and once RateLimit-Reset
      // has passed with nothing sent, the whole limit is there again.
      const alone = (): Promise<Response> => get(0);
      let last: Response | null = null;
      const recent: number[] = admitted.filter((a) => a > clock.getTime() - 60_000);
      recent.push(clock.getTime());
      for (let i = 0; i < 5; i++) {
        clock = new Date(clock.getTime() + 20_000);
        last = await alone();
        if (last.status === 404) {
          recent.push(clock.getTime());
          expect(Number(last.headers.get('ratelimit-remaining'))).toBeLessThanOrEqual(
            120 - recent.filter((a) => a > clock.getTime() - 60_000).length,
          );
        }
      }
      clock = new Date(clock.getTime() + Number(last!.headers.get('ratelimit-reset')) * 1000);
      const fresh1 = await alone();
      expect([fresh1.status, fresh1.headers.get('ratelimit-remaining')]).toEqual([404, '119']);
    } finally {
      for (const a of pair) await a.close();
      await fresh.drop();
    }
  }, 300_000);
});

describe('failed authentication per IP', () => {
  it('throttles bogus keys on /v1 and /proof/v1 together, before the key lookup, in each interface shape', async () => {
    const fresh = await createTestDatabase();
    const app = await startTestApp({
      db: fresh.db,
      logger: logs.logger,
      config: testConfig({ RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_MINUTE: '5' }),
      now,
    });
    const lookups: string[] = [];
    const onQuery = (q: { sql: string }) => {
      if (/from "api_keys"/i.test(q.sql) && /^select/i.test(q.sql.trim())) lookups.push(q.sql);
    };
    fresh.db.on('query', onQuery);
    try {
      const { secret } = await issueApiKey(fresh.db, {
        interface: 'v1',
        tenantId: 'co_af',
        name: 'k',
        scopes: ['read'],
      });
      const bogus = (i: number) => `sk_live_${'A'.repeat(12)}${String(i).padStart(32, '0')}`;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const path = i % 2 ? '/proof/v1/me' : '/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA';
        statuses.push((await fetch(`${app.url}${path}`, { headers: { Authorization: `Bearer ${bogus(i)}` } })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      const lookupsBefore = lookups.length;
      const v1 = await fetch(`${app.url}/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA`, {
        headers: { Authorization: `Bearer ${bogus(9)}` },
      });
      expect(v1.status).toBe(429);
      expect(v1.headers.get('retry-after')).toBe('60'); // the failures of the pinned 12:00:30 leave the window a minute later
      expect(await v1.json()).toMatchObject({
        code: 'rate_limited',
        detail: expect.stringContaining('authentication'),
      });
      const proof = await fetch(`${app.url}/proof/v1/me`, { headers: { Authorization: 'Bearer skp_nope' } });
      expect(proof.status).toBe(429);
      expect(await proof.json()).toMatchObject({ code: 'rate_limited', error: expect.any(String) });
      // No key was looked up for the throttled requests; a good key from the same address waits out the window too.
      expect(lookups.length).toBe(lookupsBefore);
      expect(
        (await fetch(`${app.url}/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA`, { headers: { Authorization: `Bearer ${secret}` } }))
          .status,
      ).toBe(429);
    } finally {
      fresh.db.off('query', onQuery);
      await app.close();
      await fresh.drop();
    }
  });

  it('lets authenticated traffic through and counts only failures', async () => {
    const fresh = await createTestDatabase();
    const app = await startTestApp({
      db: fresh.db,
      logger: logs.logger,
      config: testConfig({ RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_MINUTE: '2' }),
      now,
    });
    try {
      const { company, owner } = await createCompany(fresh.db, { name: 'Ok', ownerEmail: 'ok@example.com' });
      const { secret } = await issueCompanyKey(
        fresh.db,
        { companyId: company.id, memberId: owner.id, name: 'k', scopes: ['read'] },
        new Date(),
      );
      for (let i = 0; i < 6; i++) {
        expect(
          (
            await fetch(`${app.url}/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA`, {
              headers: { Authorization: `Bearer ${secret}` },
            })
          ).status,
        ).toBe(404);
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

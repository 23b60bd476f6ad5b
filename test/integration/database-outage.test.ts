import { createRouter } from '../../api/http/router.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../db/connection.js';
import { migrateLatest } from '../../db/migrate.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import { createMerchant } from '../../db/repositories/merchants.repo.js';
import { addVerifiedWallet, issueMerchantKey } from '../../services/proof/account.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { newId } from '../../adapters/crypto/tokens.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { capturingLogger } from '../helpers/logs.js';
import { OwnPostgres } from '../helpers/own-postgres.js';
import { ADDRESSES, newIdem } from '../helpers/proof.js';
import { startBlackHole } from '../helpers/tcp-fault.js';
import { PROOF_EVENT_TYPES } from '../../domain/proof/events.js';

type App = Awaited<ReturnType<typeof startTestApp>>;

const APP_NAME = 'paycore-outage-test';
/** Generous deadline for the server to come back and the pool to reconnect on a loaded machine. */
const RECOVERY_DEADLINE_MS = 60_000;

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  deadlineMs = RECOVERY_DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each interface's documented 503: its body shape, a stable code, a request id and Retry-After. */
async function expectUnavailable(res: Response, shape: 'detail' | 'error'): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(503);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body).toMatchObject({
    code: 'service_unavailable',
    [shape]: expect.any(String),
    request_id: expect.any(String),
  });
  expect(Object.keys(body).sort()).toEqual(['code', 'request_id', shape].sort());
  expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres|knex|terminat/i);
}

describe('PostgreSQL stops under a running app and starts again', () => {
  const logs = capturingLogger();
  let own: OwnPostgres;
  let db: Db;
  let app: App;
  let v1Key: string;
  let merchant: { id: string; key: string; walletId: string };
  let dash: DashboardClient;
  let requestId: string;

  beforeAll(async () => {
    own = await OwnPostgres.start();
    db = createDb(own.url, {
      poolMax: 6,
      applicationName: APP_NAME,
      timeouts: { connectMs: 2_000, statementMs: 20_000, acquireMs: 30_000 },
      logger: logs.logger,
    });
    await migrateLatest(db);
    const now = new Date();
    const { company, owner } = await createCompany(db, { name: 'Outage Co', ownerEmail: 'owner@outage.example' });
    v1Key = (
      await issueCompanyKey(
        db,
        { companyId: company.id, memberId: owner.id, name: 'server', scopes: ['read', 'write'] },
        now,
      )
    ).secret;
    const m = await createMerchant(db, { name: 'Outage Merchant', trial: true }, now);
    const wallet = await addVerifiedWallet(db, { merchantId: m.id, network: 'base', address: ADDRESSES.base }, now);
    merchant = {
      id: m.id,
      walletId: wallet.id,
      key: (
        await issueMerchantKey(
          db,
          { merchantId: m.id, name: 'server', scopes: ['read', 'write'], expiresAt: null },
          now,
        )
      ).secret,
    };
    // An enabled destination: creating a payment request also records an event and a delivery in its transaction.
    await createEndpoint(db, {
      interface: 'proof',
      tenantId: m.id,
      url: 'https://hooks.example.com/outage',
      events: [...PROOF_EVENT_TYPES],
      secretSealed: createSecretBox(generateSecretsKey()).seal('whsec_outage'),
    });
    const user = await createDashboardUser(db, m.id);

    // A bug and a constraint violation must stay 500s: they are not "the database is unavailable".
    const faults = createRouter({ prefix: '/x402' });
    faults.get('/test-unique-violation', async (ctx) => {
      await db('merchants').insert({ id: m.id, name: 'duplicate' });
      ctx.body = {};
    });
    faults.get('/test-bug', async (ctx) => {
      await db('merchants').where({ id: m.id }).first();
      (ctx.state as unknown as { missing: { field: string } }).missing.field.toString();
    });
    app = await startTestApp({
      db,
      logger: logs.logger,
      config: testConfig({ RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: '100000' }),
      routers: [faults],
    });
    dash = new DashboardClient(app.url);
    expect((await dash.signIn(user.email, user.password)).status).toBe(201);
    const created = await proof('POST', '/v1/requests', {
      wallet_id: merchant.walletId,
      amount_usdc: '12.5',
      description: 'Before the outage',
    });
    expect(created.status).toBe(201);
    requestId = ((await created.json()) as { id: string }).id;
  });

  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await own?.remove();
  });

  const proof = (
    method: string,
    path: string,
    body?: unknown,
    idem: string | null = method === 'POST' ? newIdem() : null,
  ) =>
    fetch(`${app.url}/proof${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${merchant.key}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(idem ? { 'Idempotency-Key': idem } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(60_000),
    });
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, { headers, signal: AbortSignal.timeout(60_000) });

  /** One database-backed request per interface, with the status it answers while PostgreSQL is up. */
  const probes = (): Array<{ name: string; shape: 'detail' | 'error'; up: number; send: () => Promise<Response> }> => [
    {
      name: '/x402/health (per-IP rate limit in PostgreSQL)',
      shape: 'error',
      up: 200,
      send: () => get('/x402/health'),
    },
    {
      name: '/v1 (API key lookup)',
      shape: 'detail',
      up: 404,
      send: () => get(`/v1/jobs/${newId('job')}`, { Authorization: `Bearer ${v1Key}` }),
    },
    { name: '/proof/v1 list', shape: 'error', up: 200, send: () => proof('GET', '/v1/requests') },
    {
      name: '/proof/v1 create (idempotent)',
      shape: 'error',
      up: 201,
      send: () =>
        proof('POST', '/v1/requests', { wallet_id: merchant.walletId, amount_usdc: '3', description: 'Probe' }),
    },
    { name: '/api/integrations (session)', shape: 'error', up: 200, send: () => dash.request('GET', '/session') },
    {
      name: '/api/integrations sign-in',
      shape: 'error',
      up: 401,
      send: () => new DashboardClient(app.url).signIn('nobody@outage.example', 'wrong-password-123'),
    },
    { name: 'payment page', shape: 'error', up: 200, send: () => get(`/proof/pay/${requestId}`) },
  ];

  it('answers every interface normally, then 503 with Retry-After while PostgreSQL is down, then normally again without a restart', async () => {
    for (const p of probes()) expect((await p.send()).status, p.name).toBe(p.up);

    await own.down();
    for (const p of probes()) {
      const res = await p.send();
      await expectUnavailable(res, p.shape).catch((e: Error) => {
        throw new Error(`${p.name}: ${e.message}`);
      });
    }
    // The failures were logged as what they are (a warning, not an unhandled error), with no credentials in them.
    const messages = logs.lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages.filter((m) => m === 'database unavailable')).toHaveLength(probes().length);
    expect(messages).not.toContain('unhandled error');
    expect(logs.text()).not.toContain('paycore-embedded');

    await own.up();
    await until('the app to answer /x402/health again', async () => (await get('/x402/health')).status === 200);
    for (const p of probes()) expect((await p.send()).status, p.name).toBe(p.up);
  });

  it('keeps a constraint violation and a bug as 500 internal_error, not 503', async () => {
    for (const path of ['/x402/test-unique-violation', '/x402/test-bug']) {
      const res = await get(path);
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status, path).toBe(500);
      expect(body['code']).toBe('internal_error');
      expect(res.headers.get('retry-after')).toBeNull();
    }
  });

  it('leaves nothing half-written by a mutation in flight when the server goes away; its retry after recovery has one effect', async () => {
    const counts = async () => {
      const n = async (table: string) =>
        Number(
          (
            await db(table)
              .where(table === 'webhook_deliveries' ? {} : { merchant_id: merchant.id })
              .count<{ n: string }[]>({ n: '*' })
          )[0]!.n,
        );
      return {
        requests: await n('payment_requests'),
        events: await n('proof_events'),
        deliveries: await n('webhook_deliveries'),
      };
    };
    const before = await counts();
    const idem = newIdem();
    const body = { wallet_id: merchant.walletId, amount_usdc: '7.25', description: 'In flight during the outage' };

    // Hold the destination's row: the creation claims its key, inserts the request row and then waits on this
    // lock (recording the event reads the destinations FOR SHARE), mid-transaction, when the server goes away.
    const blocker = new pg.Client({ connectionString: own.url });
    blocker.on('error', () => undefined);
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query("SELECT id FROM webhook_endpoints WHERE tenant_id = $1 AND interface = 'proof' FOR UPDATE", [
      merchant.id,
    ]);
    const blockerPid = (await blocker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const inFlight = proof('POST', '/v1/requests', body, idem);
    const watcher = new pg.Client({ connectionString: own.url });
    watcher.on('error', () => undefined);
    await watcher.connect();
    await until(
      'the creation to wait on the held lock mid-transaction',
      async () => {
        const r = await watcher.query(
          // Blocked by the holder of the destination's row (the statement's text may be cut in pg_stat_activity).
          "SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock' AND $2 = ANY(pg_blocking_pids(pid))",
          [APP_NAME, blockerPid],
        );
        return r.rowCount === 1;
      },
      30_000,
    );
    await watcher.end();

    await own.down();
    await expectUnavailable(await inFlight, 'error');
    await blocker.end().catch(() => undefined);

    await own.up();
    await until('the app to answer /x402/health again', async () => (await get('/x402/health')).status === 200);
    expect(await counts()).toEqual(before);
    expect(await db('idempotency_keys').where({ key: idem })).toHaveLength(0);

    const first = await proof('POST', '/v1/requests', body, idem);
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: string };
    const again = await proof('POST', '/v1/requests', body, idem);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(created.id);
    expect(await counts()).toEqual({
      requests: before.requests + 1,
      events: before.events + 1,
      deliveries: before.deliveries + 1,
    });
  });
});

describe('a database address that accepts connections and never answers (black-holed network)', () => {
  it('answers 503 within the connect timeout instead of hanging', async () => {
    const hole = await startBlackHole();
    const connectMs = 500;
    // The acquire timeout is far longer: only the connect timeout can end the wait this quickly.
    const { logger } = capturingLogger();
    const db = createDb(`postgres://paycore:unused@127.0.0.1:${hole.port}/paycore`, {
      poolMax: 2,
      applicationName: APP_NAME,
      timeouts: { connectMs, statementMs: 1_000, acquireMs: 120_000 },
      logger,
    });
    const app = await startTestApp({ db, logger });
    try {
      for (const path of ['/x402/health', `/v1/jobs/${newId('job')}`]) {
        // No stopwatch: an answer at all proves the connect timeout ended the wait, since the only other bound
        // (the 120 s acquire timeout) lies beyond this request's 60 s hang guard.
        const res = await fetch(`${app.url}${path}`, {
          headers: { Authorization: `Bearer sk_live_${'a'.repeat(44)}` },
          signal: AbortSignal.timeout(60_000),
        });
        await expectUnavailable(res, path.startsWith('/v1') ? 'detail' : 'error');
      }
    } finally {
      await app.close();
      await db.destroy();
      await hole.close();
    }
  });
});

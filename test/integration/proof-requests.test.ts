import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESSES, newIdem, ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { setMerchantPlan, setMerchantStatus } from '../../db/repositories/merchants.repo.js';
import { issueMerchantKey } from '../../services/proof/account.js';
import { revokeApiKey, listApiKeys } from '../../db/repositories/api-keys.repo.js';
import { createMaintenanceActivities } from '../../activities/maintenance.activities.js';

const h = new ProofHarness();
let trial: TestMerchant;
let other: TestMerchant;

interface RequestJson {
  id: string;
  url: string;
  status: string;
  network: string;
  amount_atomic: string;
  quoted_amount_atomic: string;
  amount_usdc: string;
  expires_at: string;
}

beforeAll(async () => {
  await h.start();
  trial = await h.merchant({ networks: ['base', 'solana'] });
  other = await h.merchant({ plan: 'business' });
});
afterAll(() => h.stop());

const body = (m: TestMerchant, extra: Record<string, unknown> = {}) => ({
  wallet_id: m.wallets['base'],
  amount_usdc: '12.5',
  description: 'Consulting, November',
  ...extra,
});

describe('GET /proof/v1/me', () => {
  it('shows api_version, the tenant, plan limits and usage, and the verified wallets', async () => {
    const me = await h.ok(h.call(trial.key, 'GET', '/v1/me'));
    expect(me).toMatchObject({
      api_version: '1.0',
      id: trial.id,
      plan: 'trial',
      plan_ends_at: expect.any(String),
      limits: { requests_per_period: 12, invoices_per_period: 12, keys: 1, destinations: 1, max_valid_hours: 72 },
      usage: { requests: 0, invoices: 0 },
    });
    expect(me['wallets']).toHaveLength(2);
    expect(me['wallets']).toEqual(
      expect.arrayContaining([
        { id: trial.wallets['base'], network: 'base', address: ADDRESSES.base, label: null },
        { id: trial.wallets['solana'], network: 'solana', address: ADDRESSES.solana, label: null },
      ]),
    );
    expect((await h.ok(h.call(other.key, 'GET', '/v1/me')))['limits']).toMatchObject({
      requests_per_period: 200,
      keys: 3,
    });
    const pro = await h.merchant({ plan: 'pro' });
    expect((await h.ok(h.call(pro.key, 'GET', '/v1/me')))['limits']).toMatchObject({
      requests_per_period: null,
      keys: 10,
      requests_per_hour: 300,
    });
  });
});

describe('POST /proof/v1/requests', () => {
  it('creates an AWAITING request with a unique amount and a real payment page', async () => {
    const res = await h.call(
      trial.key,
      'POST',
      '/v1/requests',
      body(trial, { customer_label: 'ACME GmbH', valid_hours: 48 }),
    );
    const r = await h.ok<RequestJson>(res, 201);
    expect(r).toMatchObject({
      status: 'AWAITING',
      network: 'base',
      quoted_amount_atomic: '12500000',
      amount_atomic: '12500001',
      amount_usdc: '12.500001',
    });
    expect(new Date(r.expires_at).getTime() - Date.now()).toBeGreaterThan(47.9 * 3600_000);
    expect(r.url).toBe(`${h.app.url}/proof/pay/${r.id}`);
    const page = await fetch(r.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    for (const text of ['12.500001', ADDRESSES.base, 'Base', 'Waiting for payment', '<svg'])
      expect(html).toContain(text);
    expect((await fetch(`${h.app.url}/proof/pay/req_AAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);

    expect(await h.ok(h.call(trial.key, 'GET', `/v1/requests/${r.id}`))).toEqual(r);
    const second = await h.ok<RequestJson>(h.call(trial.key, 'POST', '/v1/requests', body(trial)), 201);
    expect(second.amount_atomic).toBe('12500002');
    const sol = await h.ok<RequestJson>(
      h.call(
        trial.key,
        'POST',
        '/v1/requests',
        body(trial, { wallet_id: trial.wallets['solana'], expected_payer: ADDRESSES.solana }),
      ),
      201,
    );
    expect(sol).toMatchObject({ network: 'solana', amount_atomic: '12500001' });
  });

  it('validates every field and the wallet, naming each problem (422)', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount_usdc: '12.5000001' }, 'amount_usdc'],
      [{ amount_usdc: '0' }, 'amount_usdc'],
      [{ amount_usdc: 12.5 }, 'amount_usdc'],
      [{ amount_usdc: '-1' }, 'amount_usdc'],
      [{ description: 'ab' }, 'description'],
      [{ description: 'x'.repeat(351) }, 'description'],
      [{ customer_label: 'x'.repeat(121) }, 'customer_label'],
      [{ valid_hours: 0 }, 'valid_hours'],
      [{ valid_hours: 721 }, 'valid_hours'],
      [{ valid_hours: 100 }, 'valid_hours'], // over the trial's 72
      [{ expected_payer: ADDRESSES.solana }, 'expected_payer'], // not a base address
      [{ wallet_id: 'not-a-wallet-id' }, 'wallet_id'], // malformed; a well-formed unknown or foreign one is 404 (body-ids.test.ts)
      [{ pay_to: ADDRESSES.base }, '(body)'], // a custom receiver is rejected
    ];
    for (const [extra, path] of cases) {
      const res = await h.call(trial.key, 'POST', '/v1/requests', body(trial, extra));
      const json = (await res.json()) as { error: string; code: string; issues: Array<{ path: string }> };
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(json.code).toBe('validation_failed');
      expect(
        json.issues.map((i) => i.path),
        JSON.stringify(extra),
      ).toContain(path);
    }
    expect((await h.call(trial.key, 'POST', '/v1/requests', '{"wallet_id":')).status).toBe(422);
    expect(await h.tdb.db('payment_requests').where({ merchant_id: trial.id, quoted_amount_atomic: '0' })).toHaveLength(
      0,
    );
  });

  it('parallel creations for one wallet and amount all get distinct amounts', async () => {
    const m = await h.merchant({ plan: 'pro' });
    const results = await Promise.all(
      Array.from({ length: 25 }, () => h.call(m.key, 'POST', '/v1/requests', body(m, { amount_usdc: '5' }))),
    );
    const made = await Promise.all(results.map((r) => h.ok<RequestJson>(r, 201)));
    const amounts = made.map((r) => BigInt(r.amount_atomic));
    expect(new Set(amounts).size).toBe(25);
    expect(amounts.every((a) => a > 5_000_000n && a <= 5_000_000n + 9_999n)).toBe(true);
    expect([...amounts].sort((a, b) => Number(a - b))).toEqual(
      Array.from({ length: 25 }, (_, i) => 5_000_001n + BigInt(i)),
    );
  });

  it('one Idempotency-Key: parallel creates make one request and replay identical bytes; another body is 409', async () => {
    const m = await h.merchant({ plan: 'starter' });
    const key = newIdem();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => h.call(m.key, 'POST', '/v1/requests', body(m), key)),
    );
    const texts = await Promise.all(results.map((r) => r.text()));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(texts).size).toBe(1);
    expect(await h.tdb.db('payment_requests').where({ merchant_id: m.id })).toHaveLength(1);
    const replay = await h.call(m.key, 'POST', '/v1/requests', body(m), key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(texts[0]);
    const conflict = await h.call(m.key, 'POST', '/v1/requests', body(m, { amount_usdc: '13' }), key);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ error: expect.any(String), code: 'idempotency_conflict' });
    for (const bad of [null, 'short', 'has space in it here', 'x'.repeat(81)]) {
      const res = await h.call(m.key, 'POST', '/v1/requests', body(m), bad);
      expect(res.status, String(bad)).toBe(422);
    }
    expect(await h.tdb.db('payment_requests').where({ merchant_id: m.id })).toHaveLength(1);
  });

  it("same-key retries sent while the first is in flight get its answer, even when it used the quota's last creation", async () => {
    const m = await h.merchant(); // a trial: 12 creations
    for (let i = 0; i < 11; i++) await h.ok(h.call(m.key, 'POST', '/v1/requests', body(m)), 201);
    const key = newIdem();
    // The merchant row is held here until all four have read the key (none stored) and wait for its lock, as a client
    // retrying a slow creation does: the first to get the lock creates, the others must replay its answer.
    const holder = await h.tdb.db.transaction();
    let results: Response[];
    try {
      await holder.raw('SELECT 1 FROM merchants WHERE id = ? FOR UPDATE', [m.id]);
      const sent = Promise.all(Array.from({ length: 4 }, () => h.call(m.key, 'POST', '/v1/requests', body(m), key)));
      await waitersOnLocks(4);
      await holder.commit();
      results = await sent;
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }
    const texts = await Promise.all(results.map((r) => r.text()));
    expect(
      results.map((r) => r.status),
      texts.join('\n'),
    ).toEqual([201, 201, 201, 201]);
    expect(new Set(texts).size).toBe(1);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(3);
    expect(await h.tdb.db('payment_requests').where({ merchant_id: m.id })).toHaveLength(12);
  });

  it('counts the quota over the trial; a replay consumes none; over it is 422', async () => {
    const m = await h.merchant();
    const key = newIdem();
    for (let i = 0; i < 12; i++)
      await h.ok(h.call(m.key, 'POST', '/v1/requests', body(m), i === 0 ? key : newIdem()), 201);
    expect((await h.call(m.key, 'POST', '/v1/requests', body(m), key)).status).toBe(201);
    const over = await h.call(m.key, 'POST', '/v1/requests', body(m));
    expect(over.status).toBe(422);
    expect(await over.json()).toMatchObject({ code: 'quota_exceeded', error: expect.stringContaining('12') });
    expect((await h.ok(h.call(m.key, 'GET', '/v1/me')))['usage']).toMatchObject({ requests: 12 });
    const lapsed = await h.merchant({ trial: false, plan: 'starter' });
    await setMerchantPlan(h.tdb.db, lapsed.id, 'starter', new Date(Date.now() - 1000));
    const none = await h.call(lapsed.key, 'POST', '/v1/requests', body(lapsed));
    expect(none.status).toBe(422);
    expect(await none.json()).toMatchObject({
      code: 'quota_exceeded',
      error: expect.stringContaining('no active plan'),
    });
    expect((await h.call(lapsed.key, 'GET', '/v1/me')).status).toBe(200);
  });
});

describe('lists', () => {
  it('parallel creations never overrun the quota: 20 at once on a trial of 12 make exactly 12', async () => {
    // The row is inserted in the statement that takes the merchant lock and the quota is decided after it, from the
    // usage read under that lock (the row just written counted as this creation's own): a refusal rolls it back.
    const m = await h.merchant();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => h.call(m.key, 'POST', '/v1/requests', body(m), newIdem())),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(12);
    expect(statuses.filter((s) => s === 422)).toHaveLength(8);
    for (const r of results.filter((x) => x.status === 422))
      expect(await r.json()).toMatchObject({ code: 'quota_exceeded' });
    expect(await h.tdb.db('payment_requests').where({ merchant_id: m.id })).toHaveLength(12);
  });

  it('pages by id with limit and an opaque before cursor', async () => {
    const m = await h.merchant({ plan: 'business' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await h.ok<RequestJson>(h.call(m.key, 'POST', '/v1/requests', body(m)), 201)).id);
    const seen: string[] = [];
    let before: string | null = null;
    for (;;) {
      const pageRes: { data: RequestJson[]; next_cursor: string | null } = await h.ok(
        h.call(m.key, 'GET', `/v1/requests?limit=2${before ? `&before=${before}` : ''}`),
      );
      seen.push(...pageRes.data.map((r) => r.id));
      if (!pageRes.next_cursor) break;
      expect(pageRes.next_cursor).not.toContain('req_');
      before = pageRes.next_cursor;
    }
    expect(seen).toEqual([...ids].sort().reverse());
    expect(((await h.ok(h.call(m.key, 'GET', '/v1/requests'))) as { data: unknown[] }).data).toHaveLength(5);
    for (const q of [
      'limit=0',
      'limit=101',
      'limit=x',
      'before=garbage',
      `before=${Buffer.from(`contacts:${ids[0]}`).toString('base64url')}`,
    ]) {
      expect((await h.call(m.key, 'GET', `/v1/requests?${q}`)).status, q).toBe(422);
    }
  });
});

describe('keys and access', () => {
  it('read permits GET, write permits POST; expired, revoked and inactive keys get 401; never cookies or CORS', async () => {
    const reader = await h.merchant({ plan: 'business', readKey: true });
    expect((await h.call(reader.readKey!, 'GET', '/v1/me')).status).toBe(200);
    const denied = await h.call(reader.readKey!, 'POST', '/v1/requests', body(reader));
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ code: 'insufficient_scope', error: expect.any(String) });
    const m = await h.merchant({ plan: 'business' });
    const writeOnly = (
      await issueMerchantKey(h.tdb.db, { merchantId: m.id, name: 'w', scopes: ['write'], expiresAt: null }, new Date())
    ).secret;
    expect((await h.call(writeOnly, 'GET', '/v1/me')).status).toBe(401);
    expect((await h.call(writeOnly, 'POST', '/v1/requests', body(m))).status).toBe(201);
    // A key that expires 1.5 s from now, against an app whose clock the test moves past that instant.
    const issuedAt = new Date();
    let clock = issuedAt;
    const clocked = await h.startApp({}, { now: () => clock });
    try {
      const expiring = await issueMerchantKey(
        h.tdb.db,
        { merchantId: m.id, name: 'e', scopes: ['read'], expiresAt: new Date(issuedAt.getTime() + 1500) },
        issuedAt,
      );
      expect((await h.call(expiring.secret, 'GET', '/v1/me', undefined, null, clocked)).status).toBe(200);
      clock = new Date(issuedAt.getTime() + 1600);
      expect((await h.call(expiring.secret, 'GET', '/v1/me', undefined, null, clocked)).status).toBe(401);
    } finally {
      await clocked.close();
    }
    await revokeApiKey(h.tdb.db, 'proof', m.id, (await listApiKeys(h.tdb.db, 'proof', m.id))[0]!.id, new Date());
    expect((await h.call(m.key, 'GET', '/v1/me')).status).toBe(401);
    expect((await h.call(`${m.key}x`, 'GET', '/v1/me')).status).toBe(401);
    expect((await fetch(`${h.app.url}/proof/v1/me?api_key=${trial.key}`)).status).toBe(401);

    const res = await fetch(`${h.app.url}/proof/v1/me`, {
      headers: { Authorization: `Bearer ${trial.key}`, Origin: 'https://evil.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(
      (
        await fetch(`${h.app.url}/proof/v1/me`, {
          method: 'OPTIONS',
          headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
        })
      ).headers.get('access-control-allow-origin'),
    ).toBeNull();
    expect((await fetch(`${h.app.url}/proof/v1/me`, { headers: { Cookie: 'session=abc' } })).status).toBe(401);
    expect(h.logs.text()).not.toContain(trial.key);
  });

  it('after a downgrade only the earliest allowed keys work; a suspended account gets 403', async () => {
    const m = await h.merchant({ plan: 'business' });
    const later = [];
    for (const name of ['second', 'third'])
      later.push(
        (await issueMerchantKey(h.tdb.db, { merchantId: m.id, name, scopes: ['read'], expiresAt: null }, new Date()))
          .secret,
      );
    for (const k of [m.key, ...later]) expect((await h.call(k, 'GET', '/v1/me')).status).toBe(200);
    await setMerchantPlan(h.tdb.db, m.id, 'starter', new Date(Date.now() + 86_400_000));
    expect((await h.call(m.key, 'GET', '/v1/me')).status).toBe(200);
    for (const k of later) {
      const res = await h.call(k, 'GET', '/v1/me');
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: expect.stringContaining('allows 1 key') });
    }
    await setMerchantStatus(h.tdb.db, m.id, 'suspended');
    expect((await h.call(m.key, 'GET', '/v1/me')).status).toBe(403);
  });
});

describe('throttles', () => {
  it('per key per minute, per IP per minute, and pro creations per hour → 429 with Retry-After', async () => {
    // Both apps' clocks stand still, so no minute or hour window can end between the calls counted below.
    const frozen = new Date();
    const now = () => frozen;
    const limited = await h.startApp(
      { RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE: '3', RATE_LIMIT_PROOF_PRO_PER_HOUR: '2' },
      { now },
    );
    // Behind a trusted proxy, so this test's client address is its own (the counters are shared in PostgreSQL).
    const perIp = await h.startApp({ RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: '4', TRUST_PROXY: 'true' }, { now });
    const clientIp = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    try {
      const keys = [(await h.merchant({ plan: 'business' })).key, (await h.merchant({ plan: 'business' })).key];
      const fromOneIp = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${perIp.url}/proof/v1/me`, {
          headers: { Authorization: `Bearer ${keys[i % 2]!}`, 'X-Forwarded-For': clientIp },
        });
        fromOneIp.push(res.status);
      }
      expect(fromOneIp).toEqual([200, 200, 200, 200, 429, 429]);
      const m = await h.merchant({ plan: 'business' });
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await h.call(m.key, 'GET', '/v1/me', undefined, null, limited)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const pro = await h.merchant({ plan: 'pro' });
      const proReader = (
        await issueMerchantKey(
          h.tdb.db,
          { merchantId: pro.id, name: 'me', scopes: ['read'], expiresAt: null },
          new Date(),
        )
      ).secret;
      expect((await h.ok(h.call(proReader, 'GET', '/v1/me', undefined, null, limited)))['limits']).toMatchObject({
        requests_per_hour: 2,
      });
      const made = [];
      for (let i = 0; i < 3; i++)
        made.push(await h.call(pro.key, 'POST', '/v1/requests', body(pro), newIdem(), limited));
      expect(made.map((r) => r.status)).toEqual([201, 201, 429]);
      expect(made[2]!.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await made[2]!.json()).toMatchObject({ code: 'rate_limited' });
    } finally {
      await limited.close();
      await perIp.close();
    }
  });
});

describe('pro creations per hour', () => {
  it("count creations only: rejected POSTs and replays never use the hour's allowance, and a replay is answered past it", async () => {
    const frozen = new Date();
    const limited = await h.startApp({ RATE_LIMIT_PROOF_PRO_PER_HOUR: '2' }, { now: () => frozen });
    try {
      const pro = await h.merchant({ plan: 'pro' });
      const post = (payload: unknown, idem = newIdem()) =>
        h.call(pro.key, 'POST', '/v1/requests', payload, idem, limited);
      // Rejected creations: a bad body, an unknown wallet, a bad Idempotency-Key. None creates anything.
      for (let i = 0; i < 3; i++) expect((await post(body(pro, { amount_usdc: 'ten' }))).status).toBe(422);
      expect((await post(body(pro, { wallet_id: 'wal_AAAAAAAAAAAAAAAAAAAA' }))).status).toBe(404);
      expect((await post(body(pro), 'short')).status).toBe(422);
      const idem = newIdem();
      const first = await post(body(pro), idem);
      expect(first.status).toBe(201);
      // Replays of the first creation create nothing.
      for (let i = 0; i < 3; i++) expect((await post(body(pro), idem)).headers.get('idempotent-replayed')).toBe('true');
      expect((await post(body(pro, { amount_usdc: '13' }))).status).toBe(201);
      const over = await post(body(pro, { amount_usdc: '14' }));
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
      expect(await over.json()).toMatchObject({ code: 'rate_limited' });
      // Past the allowance, the stored answer of a creation is still replayed (it creates nothing).
      const replay = await post(body(pro), idem);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(
        await h.tdb.db('payment_requests').where({ merchant_id: pro.id }).count<{ count: string }[]>('* as count'),
      ).toEqual([{ count: '2' }]);
      // Parallel creations (requests and an invoice) cannot overrun the hour: the count is read under the merchant lock.
      const busy = await h.merchant({ plan: 'pro' });
      const contact = await h.ok<{ id: string }>(
        h.call(
          busy.key,
          'POST',
          '/v1/contacts',
          { legal_name: 'Buyer', email: 'buyer@example.com' },
          newIdem(),
          limited,
        ),
        201,
      );
      const invoice = {
        customer_id: contact.id,
        wallet_id: busy.wallets['base'],
        due_date: frozen.toISOString().slice(0, 10),
        items: [{ description: 'Work', quantity: '1', unit_usdc: '5' }],
      };
      const parallel = await Promise.all([
        ...Array.from({ length: 5 }, (_, i) =>
          h.call(busy.key, 'POST', '/v1/requests', body(busy, { amount_usdc: String(20 + i) }), newIdem(), limited),
        ),
        h.call(busy.key, 'POST', '/v1/invoices', invoice, newIdem(), limited),
      ]);
      expect(parallel.map((r) => r.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
      expect(
        await h.tdb.db('payment_requests').where({ merchant_id: busy.id }).count<{ count: string }[]>('* as count'),
      ).toEqual([{ count: '2' }]);
    } finally {
      await limited.close();
    }
  });
});

describe('expiry', () => {
  it('a request past expires_at reads EXPIRED at once; the maintenance sweep closes it and frees its amount', async () => {
    const m = await h.merchant({ plan: 'business' });
    const r = await h.ok<RequestJson>(h.call(m.key, 'POST', '/v1/requests', body(m, { amount_usdc: '9' })), 201);
    expect(r.amount_atomic).toBe('9000001');
    await h.tdb
      .db('payment_requests')
      .where({ id: r.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${r.id}`))).toMatchObject({ status: 'EXPIRED' });
    expect(await (await fetch(r.url)).text()).toContain('Expired');
    expect(await h.tdb.db('payment_requests').where({ id: r.id }).first('status')).toEqual({ status: 'AWAITING' });
    const swept = await createMaintenanceActivities({ db: h.tdb.db }).purgeExpiredRecords();
    expect(swept.expiredRequests).toBeGreaterThanOrEqual(1);
    expect(await h.tdb.db('payment_requests').where({ id: r.id }).first('status')).toEqual({ status: 'EXPIRED' });
    // Its amount is free again for the wallet.
    expect(
      (await h.ok<RequestJson>(h.call(m.key, 'POST', '/v1/requests', body(m, { amount_usdc: '9' })), 201))
        .amount_atomic,
    ).toBe('9000001');
  });
});

describe('retained responses', () => {
  it('past the per-account bound a new Idempotency-Key is 422; replays of stored ones still work', async () => {
    const bounded = await h.startApp({ PROOF_RETAINED_RESPONSES_PER_ACCOUNT: '3' });
    try {
      const m = await h.merchant({ plan: 'business' });
      const keys = [newIdem(), newIdem(), newIdem()];
      const first = [];
      for (const k of keys)
        first.push(
          await (
            await h.call(m.key, 'POST', '/v1/contacts', { legal_name: `C ${k}`, email: 'c@example.com' }, k, bounded)
          ).text(),
        );
      const over = await h.call(
        m.key,
        'POST',
        '/v1/contacts',
        { legal_name: 'One more', email: 'c@example.com' },
        newIdem(),
        bounded,
      );
      expect(over.status).toBe(422);
      expect(await over.json()).toMatchObject({ code: 'quota_exceeded', error: expect.stringContaining('3 stored') });
      const replay = await h.call(
        m.key,
        'POST',
        '/v1/contacts',
        { legal_name: `C ${keys[0]}`, email: 'c@example.com' },
        keys[0],
        bounded,
      );
      expect(replay.status).toBe(201);
      expect(await replay.text()).toBe(first[0]);
      expect(await h.tdb.db('contacts').where({ merchant_id: m.id })).toHaveLength(3);
    } finally {
      await bounded.close();
    }
  });
});

describe('foreign ids', () => {
  it("another tenant's request id is 404, as is an unknown one", async () => {
    const theirs = await h.ok<RequestJson>(h.call(other.key, 'POST', '/v1/requests', body(other)), 201);
    for (const path of [
      `/v1/requests/${theirs.id}`,
      '/v1/requests/req_AAAAAAAAAAAAAAAAAAAA',
      '/v1/requests/nonsense',
    ]) {
      const res = await h.call(trial.key, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
  });
});

/** Returns once at least `n` backends of the test database wait for a lock (polled; the test's own timeout bounds it). */
async function waitersOnLocks(n: number): Promise<void> {
  for (;;) {
    const { rows } = await h.tdb.db.raw<{ rows: Array<{ n: number }> }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if ((rows[0]?.n ?? 0) >= n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

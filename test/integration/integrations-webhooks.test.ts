import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueDelivery } from '../../services/workflows/deliveries.js';
import { deliveryOutcome } from '../helpers/deliveries.js';
import { setMerchantPlan } from '../../db/repositories/merchants.repo.js';
import { getEndpoint, listAttempts } from '../../db/repositories/webhooks.repo.js';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { newIdem, ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { startReceiver, verifyReceived } from '../helpers/receiver.js';

const h = new ProofHarness();

beforeAll(async () => {
  await h.start({}, { workflows: true });
  await h.startMailWorker(); // a worker with every activity, webhook delivery included
});
afterAll(() => h.stop());

/** A merchant on `plan` with a signed-in dashboard client. */
async function signedIn(
  plan: 'starter' | 'business' | 'pro' = 'business',
): Promise<{ m: TestMerchant; dash: DashboardClient }> {
  const m = await h.merchant({ plan });
  const u = await createDashboardUser(h.tdb.db, m.id);
  const dash = new DashboardClient(h.app.url);
  expect((await dash.signIn(u.email, u.password)).status).toBe(201);
  return { m, dash };
}

async function json<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const createRequest = (m: TestMerchant, amount = '12.50') =>
  h.ok(
    h.call(m.key, 'POST', '/v1/requests', {
      wallet_id: m.wallets['base'],
      amount_usdc: amount,
      description: 'Order from the dashboard test',
    }),
    201,
  );

describe('management keys', () => {
  it('creates a key whose secret is shown once; a replay returns the metadata without it; the key works until revoked', async () => {
    const { m, dash } = await signedIn();
    const idem = newIdem();
    const created = await json<Record<string, unknown>>(
      await dash.request('POST', '/keys', { name: 'billing server', scopes: ['read'] }, { idem }),
      201,
    );
    expect(created).toMatchObject({
      name: 'billing server',
      scopes: ['read'],
      status: 'active',
      usable: true,
      revoked_at: null,
    });
    const secret = created['secret'] as string;
    expect(secret).toMatch(/^skp_/);
    expect(secret.endsWith(created['last4'] as string)).toBe(true);

    const replay = await dash.request('POST', '/keys', { name: 'billing server', scopes: ['read'] }, { idem });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(replay, 201)).toEqual({ ...created, secret: null });
    await json(await dash.request('POST', '/keys', { name: 'another name', scopes: ['read'] }, { idem }), 409);

    const overview = await (await dash.request('GET', '')).text();
    expect(overview).not.toContain(secret);
    expect(JSON.parse(overview).keys.map((k: { id: string }) => k.id)).toContain(created['id']);
    const stored = JSON.stringify(await h.tdb.db('idempotency_keys').select('*'));
    expect(stored).not.toContain(secret);
    expect(h.logs.text()).not.toContain(secret);

    expect((await h.call(secret, 'GET', '/v1/me')).status).toBe(200);
    expect(
      (await h.call(secret, 'POST', '/v1/contacts', { legal_name: 'Read only', email: 'r@example.com' })).status,
    ).toBe(401); // read scope
    const revoked = await json<Record<string, unknown>>(
      await dash.request('POST', `/keys/${created['id']}/revoke`, {}),
      200,
    );
    expect(revoked).toMatchObject({ id: created['id'], status: 'revoked', usable: false });
    expect(revoked['secret']).toBeUndefined();
    expect((await h.call(secret, 'GET', '/v1/me')).status).toBe(401);
    expect(m.key).not.toBe(secret);
  });

  it('keeps to the plan: business allows 3 active keys (422 past it); revoked and expired keys stop counting', async () => {
    const { dash } = await signedIn('business'); // the harness merchant has one key already
    for (let i = 0; i < 2; i++)
      await json(await dash.request('POST', '/keys', { name: `k${i}`, scopes: ['read', 'write'] }), 201);
    const over = await json<{ code: string; error: string }>(
      await dash.request('POST', '/keys', { name: 'k3', scopes: ['read'] }),
      422,
    );
    expect(over.code).toBe('limit_reached');
    const overview = await json<{
      keys: Array<{ id: string; status: string }>;
      entitlements: { keys: { limit: number; used: number } };
    }>(await dash.request('GET', ''), 200);
    expect(overview.entitlements.keys).toEqual({ limit: 3, used: 3 });
    await json(await dash.request('POST', `/keys/${overview.keys[2]!.id}/revoke`, {}), 200);
    await json(
      await dash.request('POST', '/keys', {
        name: 'k3',
        scopes: ['read'],
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
      }),
      201,
    );
  });

  it('validates bodies field by field and scopes ids to the merchant', async () => {
    const { dash } = await signedIn();
    const bad = await json<{ issues: Array<{ path: string }> }>(
      await dash.request('POST', '/keys', { name: '', scopes: ['admin'] }),
      422,
    );
    expect(bad.issues.map((i) => i.path).sort()).toEqual(['name', 'scopes.0']);
    const far = await json<{ error: string }>(
      await dash.request('POST', '/keys', {
        name: 'x',
        scopes: ['read'],
        expires_at: Math.floor(Date.now() / 1000) + 400 * 86_400,
      }),
      422,
    );
    expect(far.error).toContain('366 days');
    await json(await dash.request('POST', '/keys/key_AAAAAAAAAAAAAAAAAAAA/revoke', {}), 404);
    await json(await dash.request('POST', '/keys', 'not json'), 422);
    const other = await signedIn();
    const foreign = await json<{ id: string }>(
      await other.dash.request('POST', '/keys', { name: 'theirs', scopes: ['read'] }),
      201,
    );
    await json(await dash.request('POST', `/keys/${foreign.id}/revoke`, {}), 404);
    await json(await dash.request('POST', '/keys/key_AAAAAAAAAAAAAAAAAAAA/revoke', { reason: 'no body allowed' }), 422);
    // An id that cannot exist is not found before the body is read.
    await json(await dash.request('POST', '/keys/x/revoke', { reason: 'no body allowed' }), 404);
    await json(await dash.request('POST', '/keys', { name: 'no key', scopes: ['read'] }, { idem: null }), 422);
  });
});

describe('webhook destinations', () => {
  it('refuses URLs outside the destination policy and unknown event types, naming the field', async () => {
    const { dash } = await signedIn();
    for (const url of [
      'http://hooks.example.com/x',
      'https://10.0.0.8/x',
      'https://hooks.example.com:8443/x',
      'https://hooks.example.com/x?token=1',
      'https://user:pw@hooks.example.com/x',
      'https://printer.local/x',
    ]) {
      const res = await json<{ issues: Array<{ path: string }> }>(
        await dash.request('POST', '/webhooks', { url, events: ['invoice.paid'] }),
        422,
      );
      expect(res.issues[0]!.path, url).toBe('url');
    }
    const events = await json<{ issues: Array<{ path: string }> }>(
      await dash.request('POST', '/webhooks', { url: 'https://hooks.example.com/x', events: ['invoice.created'] }),
      422,
    );
    expect(events.issues[0]!.path).toBe('events.0');
    // An empty list is refused, not read as "every type" (docs/proof.md): a destination receives what it lists.
    const empty = await json<{ code: string; issues: Array<{ path: string }> }>(
      await dash.request('POST', '/webhooks', { url: 'https://hooks.example.com/x', events: [] }),
      422,
    );
    expect(empty).toMatchObject({ code: 'validation_failed', issues: [{ path: 'events' }] });
  });

  it('an endpoint row listing no event type receives nothing: there is no implicit "all"', async () => {
    const { m, dash } = await signedIn();
    const listed = await json<{ id: string }>(
      await dash.request('POST', '/webhooks', {
        url: 'https://hooks.example.com/listed',
        events: ['payment_request.created'],
      }),
      201,
    );
    // No route can make such a row (above); one written directly must not subscribe to everything.
    const [bare] = await h.tdb
      .db('webhook_endpoints')
      .insert({
        id: 'whe_EmptyEventsList00001',
        interface: 'proof',
        tenant_id: m.id,
        url: 'https://hooks.example.com/bare',
        events: [],
        secret_sealed: h.secretBox.seal('whsec_bare'),
      })
      .returning('id');
    await createRequest(m);
    const deliveries = await h.tdb.db('webhook_deliveries').where({ tenant_id: m.id });
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([listed.id]);
    expect(bare.id).toBe('whe_EmptyEventsList00001');
  });

  it('creates a destination with a secret shown once, delivers only subscribed events, and rotates to a new secret and key version', async () => {
    const { m, dash } = await signedIn();
    const idem = newIdem();
    const created = await json<Record<string, unknown>>(
      await dash.request(
        'POST',
        '/webhooks',
        { url: 'https://hooks.example.com/proof', events: ['payment_request.created'] },
        { idem },
      ),
      201,
    );
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/proof',
      events: ['payment_request.created'],
      status: 'enabled',
      key_version: 1,
      usable: true,
    });
    const secret = created['secret'] as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(
      await json(
        await dash.request(
          'POST',
          '/webhooks',
          { url: 'https://hooks.example.com/proof', events: ['payment_request.created'] },
          { idem },
        ),
        201,
      ),
    ).toEqual({ ...created, secret: null });
    const endpoint = await getEndpoint(h.tdb.db, created['id'] as string);
    expect(h.secretBox.open(endpoint!.secretSealed)).toBe(secret);
    expect(JSON.stringify(await h.tdb.db('webhook_endpoints').select('*'))).not.toContain(secret);

    const other = await json<{ id: string }>(
      await dash.request('POST', '/webhooks', { url: 'https://other.example.com/proof', events: ['invoice.paid'] }),
      201,
    );
    await createRequest(m);
    const deliveries = await h.tdb.db('webhook_deliveries').where({ tenant_id: m.id });
    expect(deliveries.map((d) => [d.endpoint_id, d.event_type])).toEqual([[created['id'], 'payment_request.created']]);
    expect(other.id).not.toBe(created['id']);

    const rotated = await json<Record<string, unknown>>(
      await dash.request('POST', `/webhooks/${created['id']}/rotate`, {}),
      200,
    );
    expect(rotated).toMatchObject({ id: created['id'], key_version: 2 });
    expect(rotated['secret']).toMatch(/^whsec_/);
    expect(rotated['secret']).not.toBe(secret);
    expect(h.secretBox.open((await getEndpoint(h.tdb.db, created['id'] as string))!.secretSealed)).toBe(
      rotated['secret'],
    );
    const overview = await (await dash.request('GET', '')).text();
    expect(overview).not.toContain(secret);
    expect(overview).not.toContain(rotated['secret'] as string);
    expect(JSON.parse(overview)).toMatchObject({
      event_types: ['payment_request.created', 'invoice.issued', 'invoice.voided', 'payment.confirmed', 'invoice.paid'],
    });
  });

  it('keeps to the plan: disabled destinations count until deleted; deletion is soft and final', async () => {
    const { m, dash } = await signedIn('starter'); // 1 destination
    const first = await json<{ id: string }>(
      await dash.request('POST', '/webhooks', { url: 'https://a.example.com/h', events: ['invoice.paid'] }),
      201,
    );
    expect(
      (
        await json<{ code: string }>(
          await dash.request('POST', '/webhooks', { url: 'https://b.example.com/h', events: ['invoice.paid'] }),
          422,
        )
      ).code,
    ).toBe('limit_reached');
    expect(await json(await dash.request('POST', `/webhooks/${first.id}/disable`, {}), 200)).toMatchObject({
      id: first.id,
      status: 'disabled',
      usable: false,
    });
    await json(
      await dash.request('POST', '/webhooks', { url: 'https://b.example.com/h', events: ['invoice.paid'] }),
      422,
    );
    // A disabled destination gets no deliveries, and with no enabled destination no events are recorded.
    await createRequest(m);
    expect(await h.tdb.db('proof_events').where({ merchant_id: m.id })).toHaveLength(0);
    expect(await json(await dash.request('POST', `/webhooks/${first.id}/delete`, {}), 200)).toMatchObject({
      id: first.id,
      status: 'deleted',
    });
    for (const action of ['disable', 'rotate', 'delete'])
      await json(await dash.request('POST', `/webhooks/${first.id}/${action}`, {}), 404);
    const row = await h.tdb.db('webhook_endpoints').where({ id: first.id }).first();
    expect(row.status).toBe('deleted');
    expect(row.deleted_at).toBeInstanceOf(Date);
    const second = await json<{ id: string }>(
      await dash.request('POST', '/webhooks', { url: 'https://b.example.com/h', events: ['invoice.paid'] }),
      201,
    );
    const overview = await json<{ webhooks: Array<{ id: string }> }>(await dash.request('GET', ''), 200);
    expect(overview.webhooks.map((w) => w.id)).toEqual([second.id]);
  });

  it('after a downgrade only the earliest destinations are usable and receive deliveries', async () => {
    const { m, dash } = await signedIn('business');
    const ids: string[] = [];
    for (const host of ['one', 'two', 'three'])
      ids.push(
        (
          await json<{ id: string }>(
            await dash.request('POST', '/webhooks', {
              url: `https://${host}.example.com/h`,
              events: ['payment_request.created'],
            }),
            201,
          )
        ).id,
      );
    await setMerchantPlan(h.tdb.db, m.id, 'starter', new Date(Date.now() + 86_400_000));
    const overview = await json<{ webhooks: Array<{ id: string; usable: boolean }> }>(
      await dash.request('GET', ''),
      200,
    );
    expect(overview.webhooks.map((w) => [w.id, w.usable])).toEqual([
      [ids[0], true],
      [ids[1], false],
      [ids[2], false],
    ]);
    await createRequest(m);
    expect((await h.tdb.db('webhook_deliveries').where({ tenant_id: m.id })).map((d) => d.endpoint_id)).toEqual([
      ids[0],
    ]);
  });
});

describe('deliveries', () => {
  it('a redirect is a terminal failure; a manual retry keeps the delivery and event ids and goes on from the next attempt', async () => {
    const { m, dash } = await signedIn();
    let answer = 302;
    const receiver = await startReceiver(() => answer);
    try {
      const hook = await json<{ id: string; secret: string }>(
        await dash.request('POST', '/webhooks', { url: receiver.url, events: ['payment_request.created'] }),
        201,
      );
      await createRequest(m);
      const [row] = await h.tdb.db('webhook_deliveries').where({ endpoint_id: hook.id });
      expect(await deliveryOutcome(h.tdb.db, row.id)).toEqual({ status: 'failed', attempts: 1 });
      expect(receiver.requests).toHaveLength(1); // the Location was not followed

      const history = await json<{ data: Array<Record<string, unknown>>; next_cursor: string | null }>(
        await dash.request('GET', '/deliveries?limit=25'),
        200,
      );
      expect(history.data).toEqual([
        expect.objectContaining({
          id: row.id,
          endpoint_id: hook.id,
          event_type: 'payment_request.created',
          status: 'failed',
          attempts: 1,
          max_attempts: 5,
          last_status_code: 302,
          retryable: true,
        }),
      ]);
      expect(JSON.stringify(history)).not.toContain('receiver body');

      answer = 200;
      const retried = await json<Record<string, unknown>>(
        await dash.request('POST', `/deliveries/${row.id}/retry`, {}),
        202,
      );
      expect(retried).toMatchObject({ id: row.id, status: 'retrying', attempts: 1 });
      await receiver.waitForRequests(2);
      // A manual retry runs in delivery:<id>, from the next attempt number.
      const result = await h.gateway!.client.workflow.getHandle(`delivery:${row.id}`).result();
      expect(result).toEqual({ status: 'delivered', attempts: 2 });
      const [first, second] = receiver.requests;
      expect(second!.headers['x-service-delivery-id']).toBe(row.id);
      expect(second!.headers['x-service-event-id']).toBe(first!.headers['x-service-event-id']);
      expect(second!.body.equals(first!.body)).toBe(true);
      expect(verifyReceived(second!, hook.secret)).toEqual({ ok: true });
      expect((await listAttempts(h.tdb.db, row.id)).map((a) => [a.attemptNo, a.outcome, a.statusCode])).toEqual([
        [1, 'terminal', 302],
        [2, 'delivered', 200],
      ]);

      const after = await json<{ data: Array<Record<string, unknown>> }>(await dash.request('GET', '/deliveries'), 200);
      expect(after.data[0]).toMatchObject({ id: row.id, status: 'delivered', attempts: 2, retryable: false });
      expect(
        (await json<{ code: string }>(await dash.request('POST', `/deliveries/${row.id}/retry`, {}), 409)).code,
      ).toBe('invalid_retry_state');

      // One delivery with every attempt: outcome, status, error class and duration; never a body.
      const detail = await json<{
        id: string;
        attempts_detail: Array<{
          attempt: number;
          outcome: string;
          status_code: number;
          error: string | null;
          duration_ms: number;
          key_version: number;
          started_at: string;
        }>;
      }>(await dash.request('GET', `/deliveries/${row.id}`), 200);
      expect(detail).toMatchObject({ id: row.id, status: 'delivered', attempts: 2 });
      expect(detail.attempts_detail.map((a) => [a.attempt, a.outcome, a.status_code, a.key_version])).toEqual([
        [1, 'terminal', 302, 1],
        [2, 'delivered', 200, 1],
      ]);
      expect(detail.attempts_detail.map((a) => a.error)).toEqual([null, null]); // an HTTP answer has its status, no error class
      for (const a of detail.attempts_detail) expect(Number.isInteger(a.duration_ms) && a.duration_ms >= 0).toBe(true);
      expect(JSON.stringify(detail)).not.toContain(hook.secret);
      const outsider = await signedIn();
      await json(await outsider.dash.request('GET', `/deliveries/${row.id}`), 404);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a retry to a disabled destination or with no attempts left (409), and a foreign delivery (404)', async () => {
    const { m, dash } = await signedIn();
    const receiver = await startReceiver(() => 410);
    try {
      const hook = await json<{ id: string }>(
        await dash.request('POST', '/webhooks', { url: receiver.url, events: ['payment_request.created'] }),
        201,
      );
      await createRequest(m);
      const [row] = await h.tdb.db('webhook_deliveries').where({ endpoint_id: hook.id });
      await deliveryOutcome(h.tdb.db, row.id);
      await json(await dash.request('POST', `/webhooks/${hook.id}/disable`, {}), 200);
      expect(
        (await json<{ error: string }>(await dash.request('POST', `/deliveries/${row.id}/retry`, {}), 409)).error,
      ).toContain('disabled');
      const outsider = await signedIn();
      await json(await outsider.dash.request('POST', `/deliveries/${row.id}/retry`, {}), 404);
      await h.tdb.db('webhook_deliveries').where({ id: row.id }).update({ attempts: 5 });
      expect(
        (await json<{ error: string }>(await dash.request('POST', `/deliveries/${row.id}/retry`, {}), 409)).error,
      ).toContain('all 5 attempts');
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('pages the history by id with limit and before', async () => {
    const { m, dash } = await signedIn();
    await json(
      await dash.request('POST', '/webhooks', {
        url: 'https://hooks.example.com/p',
        events: ['payment_request.created'],
      }),
      201,
    );
    for (let i = 0; i < 3; i++) await createRequest(m, `${i + 1}.25`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { data: Array<{ id: string }>; next_cursor: string | null } = await json(
        await dash.request('GET', `/deliveries?limit=2${cursor ? `&before=${cursor}` : ''}`),
        200,
      );
      seen.push(...res.data.map((d) => d.id));
      cursor = res.next_cursor;
    } while (cursor);
    const all = (await h.tdb.db('webhook_deliveries').where({ tenant_id: m.id }).orderBy('id', 'desc')).map(
      (d) => d.id,
    );
    expect(seen).toEqual(all);
    expect(all).toHaveLength(3);
    await json(await dash.request('GET', '/deliveries?limit=0'), 422);
    await json(await dash.request('GET', '/deliveries?before=bogus'), 422);
  });

  it('a rotation while a retry is pending signs the next attempt with the new secret and key version', async () => {
    const { dash } = await signedIn();
    let rotated: { secret: string; key_version: number } | undefined;
    const receiver = await startReceiver(async (_req, index) => {
      if (index > 0) return 200;
      // Attempt 1 is answered 503 only after the destination was rotated through the management route.
      rotated = await json(await dash.request('POST', `/webhooks/${hook.id}/rotate`, {}), 200);
      return 503;
    });
    const hook = await json<{ id: string; secret: string }>(
      await dash.request('POST', '/webhooks', { url: receiver.url, events: ['payment.confirmed'] }),
      201,
    );
    try {
      const endpoint = (await getEndpoint(h.tdb.db, hook.id))!;
      const body = Buffer.from(
        JSON.stringify({
          id: 'evt_rotation_test_000001',
          api_version: '1.0',
          type: 'payment.confirmed',
          occurred_at: 1_800_000_000,
          data: {},
        }),
      );
      const { delivery } = await enqueueDelivery(h.tdb.db, {
        endpoint,
        eventId: 'evt_rotation_test_000001',
        eventType: 'payment.confirmed',
        body,
        delaysMs: [50, 50, 50, 50],
      });
      expect(await deliveryOutcome(h.tdb.db, delivery.id)).toEqual({ status: 'delivered', attempts: 2 });
      const [first, second] = receiver.requests;
      expect(first!.headers['x-service-key-version']).toBe('1');
      expect(verifyReceived(first!, hook.secret)).toEqual({ ok: true });
      expect(second!.headers['x-service-key-version']).toBe('2');
      expect(rotated!.key_version).toBe(2);
      expect(verifyReceived(second!, rotated!.secret)).toEqual({ ok: true });
      expect(verifyReceived(second!, hook.secret)).toMatchObject({ ok: false });
    } finally {
      await receiver.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { capturingLogger } from '../helpers/logs.js';
import { startReceiver, verifyReceived } from '../helpers/receiver.js';
import { deliveryOutcome } from '../helpers/deliveries.js';
import { until } from '../helpers/until.js';
import { TEST_DELIVERY_TIMEOUTS } from '../helpers/temporal.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import {
  createEndpoint,
  getDelivery,
  listAttempts,
  type WebhookEndpoint,
} from '../../db/repositories/webhooks.repo.js';
import { enqueueDelivery } from '../../services/workflows/deliveries.js';
import { createWebhookDispatcher, type DispatcherOptions } from '../../workers/webhook-dispatcher.js';
import { DEFAULT_DISPATCH } from '../../workers/worker.js';
import type { DeliveryWorkflowInput } from '../../workflows/webhooks/delivery.workflow.js';

/**
 * The worker's webhook dispatcher on its own (workers/webhook-dispatcher.ts) against a real PostgreSQL: the
 * per-destination cap, several dispatchers sharing one queue, and the hand-over of a retry to `delivery:<id>` (here a
 * stand-in that records the starts and fails on demand; the real workflow is covered by webhook-delivery.test.ts).
 */
let tdb: TestDatabase;
const secretBox = createSecretBox(generateSecretsKey());
const logs = capturingLogger();
let seq = 0;

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

function dispatcher(
  opts: Partial<DispatcherOptions> & { startRetries?: (input: DeliveryWorkflowInput) => Promise<void> } = {},
) {
  const { startRetries, ...rest } = opts;
  return createWebhookDispatcher(
    {
      db: tdb.db,
      secretBox,
      resolver: createSystemResolver(),
      allowLoopbackForTests: true,
      timeouts: TEST_DELIVERY_TIMEOUTS,
      logger: logs.logger,
      startRetries:
        startRetries ??
        (async () => {
          throw new Error('no retry expected');
        }),
    },
    { concurrency: 32, perEndpoint: 8, ...rest },
  );
}

async function endpointFor(url: string, secret: string): Promise<WebhookEndpoint> {
  return createEndpoint(tdb.db, {
    interface: 'proof',
    tenantId: `mer_${++seq}`,
    url,
    events: [],
    secretSealed: secretBox.seal(secret),
  });
}

async function enqueueMany(endpoint: WebhookEndpoint, n: number, delaysMs?: number[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const eventId = `evt_dispatch_${++seq}`;
    const body = Buffer.from(JSON.stringify({ id: eventId, type: 'test.event', n: i }));
    ids.push(
      (
        await enqueueDelivery(tdb.db, {
          endpoint,
          eventId,
          eventType: 'test.event',
          body,
          ...(delaysMs ? { delaysMs } : {}),
        })
      ).delivery.id,
    );
  }
  return ids;
}

describe('the webhook dispatcher', () => {
  it('never has more than its per-destination cap in flight to one receiver, and sends each delivery once', async () => {
    let open = 0;
    let most = 0;
    const receiver = await startReceiver(async () => {
      open++;
      most = Math.max(most, open);
      // The receiver takes a little while to answer, so requests overlap when the dispatcher lets them.
      await new Promise((r) => setTimeout(r, 5));
      open--;
      return 200;
    });
    const endpoint = await endpointFor(receiver.url, 'whsec_cap');
    const ids = await enqueueMany(endpoint, 40);
    const d = dispatcher({ perEndpoint: 3 });
    d.start();
    try {
      for (const id of ids) expect(await deliveryOutcome(tdb.db, id)).toEqual({ status: 'delivered', attempts: 1 });
    } finally {
      await d.stop();
    }
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThan(0);
    expect(receiver.requests).toHaveLength(40);
    for (const req of receiver.requests) expect(verifyReceived(req, 'whsec_cap')).toEqual({ ok: true });
    await receiver.close();
  });

  it('two dispatchers on one database send each of many deliveries exactly once, with one attempt each', async () => {
    const receiver = await startReceiver(() => 200);
    const endpoints = [await endpointFor(receiver.url, 'whsec_two_a'), await endpointFor(receiver.url, 'whsec_two_b')];
    const a = dispatcher({ concurrency: 4, perEndpoint: 2 });
    const b = dispatcher({ concurrency: 4, perEndpoint: 2 });
    a.start();
    b.start();
    let ids: string[] = [];
    try {
      // Enqueued while both run, so both are woken and race for the same rows.
      ids = [...(await enqueueMany(endpoints[0]!, 30)), ...(await enqueueMany(endpoints[1]!, 30))];
      for (const id of ids) expect(await deliveryOutcome(tdb.db, id)).toEqual({ status: 'delivered', attempts: 1 });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const perEvent = new Map<string, number>();
    for (const r of receiver.requests)
      perEvent.set(
        String(r.headers['x-service-event-id']),
        (perEvent.get(String(r.headers['x-service-event-id'])) ?? 0) + 1,
      );
    expect(perEvent.size).toBe(60);
    expect([...perEvent.values()].every((n) => n === 1)).toBe(true);
    const attempts = await tdb
      .db('webhook_delivery_attempts')
      .whereIn('delivery_id', ids)
      .count<{ count: string }[]>('* as count');
    expect(Number(attempts[0]!.count)).toBe(60);
    await receiver.close();
  });

  it('a long backlog for one slow destination does not hold back another destination', async () => {
    // The slow receiver holds every request until the test lets go; the dispatcher fills that destination's slots.
    let letGo!: () => void;
    const released = new Promise<void>((r) => (letGo = r));
    const slow = await startReceiver(async () => released.then(() => 200));
    const fast = await startReceiver(() => 200);
    const slowEndpoint = await endpointFor(slow.url, 'whsec_slow');
    const fastEndpoint = await endpointFor(fast.url, 'whsec_fast');
    // More waiting rows for the slow destination than a claim looks at (1000), all older than the fast one's.
    const backlog = 1050;
    await tdb.db.transaction(async (trx) => {
      for (let i = 0; i < backlog; i++) {
        const eventId = `evt_backlog_${++seq}`;
        await enqueueDelivery(trx, {
          endpoint: slowEndpoint,
          eventId,
          eventType: 'test.event',
          body: Buffer.from(`{"id":"${eventId}"}`),
        });
      }
    });
    const [fastId] = await enqueueMany(fastEndpoint, 1);
    const d = dispatcher({ perEndpoint: 2 });
    d.start();
    try {
      expect(await deliveryOutcome(tdb.db, fastId!, 60_000)).toEqual({ status: 'delivered', attempts: 1 });
      expect(slow.requests.length).toBeLessThanOrEqual(2);
    } finally {
      letGo();
      // Stopping sends what was claimed (a few of the backlog), then returns; the rest stays queued.
      await d.stop();
    }
    expect(fast.requests).toHaveLength(1);
    // The rest of the backlog leaves the queue, so the next test's dispatcher does not meet it.
    await tdb
      .db('webhook_deliveries')
      .where({ endpoint_id: slowEndpoint.id })
      .whereNotNull('dispatch')
      .update({ dispatch: null, dispatch_claim: null, dispatch_until: null });
    await slow.close();
    await fast.close();
  });

  /**
   * `tenants` tenants with ten destinations each whose receivers accept every request and answer nothing until the
   * test lets go, four events queued per destination (more than a worker process holds at once), then one event of
   * another tenant: its first attempt must go while they all still hang (issue 28, C13).
   */
  async function behindSlowTenants(tenants: number): Promise<void> {
    let letGo!: () => void;
    const released = new Promise<void>((r) => (letGo = r));
    const slow = await Promise.all(
      Array.from({ length: 10 * tenants }, () => startReceiver(() => released.then(() => 200))),
    );
    const fast = await startReceiver(() => 200);
    const slowEndpoints: WebhookEndpoint[] = [];
    for (let t = 0; t < tenants; t++) {
      const tenantId = `mer_slow_${++seq}`;
      for (const r of slow.slice(10 * t, 10 * t + 10)) {
        slowEndpoints.push(
          await createEndpoint(tdb.db, {
            interface: 'proof',
            tenantId,
            url: r.url,
            events: [],
            secretSealed: secretBox.seal('whsec_hang'),
          }),
        );
      }
    }
    // Oldest first across all their destinations.
    for (let i = 0; i < 4; i++) for (const e of slowEndpoints) await enqueueMany(e, 1);
    const fastEndpoint = await endpointFor(fast.url, 'whsec_other_tenant');
    // The production limits (WEBHOOK_DISPATCH_* defaults).
    const d = dispatcher({ ...DEFAULT_DISPATCH });
    d.start();
    const hanging = () => slow.reduce((n, r) => n + r.requests.length, 0);
    try {
      // The dispatcher has claimed the slow tenants' rows and their POSTs hang on the wire.
      await until(
        "the slow tenants' requests to hang",
        () => (hanging() >= DEFAULT_DISPATCH.perEndpoint * tenants ? true : undefined),
        60_000,
      );
      const [otherId] = await enqueueMany(fastEndpoint, 1);
      const committed = Date.now();
      expect(await deliveryOutcome(tdb.db, otherId!, 120_000)).toEqual({ status: 'delivered', attempts: 1 });
      // It did not wait behind them: when it was sent, no request of the slow tenants had been answered or timed out
      // (they hang until the test lets go, or for the 30 s socket timeout of the test delivery profile).
      const slowAttempts = await tdb
        .db('webhook_delivery_attempts as a')
        .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .whereIn(
          'd.endpoint_id',
          slowEndpoints.map((e) => e.id),
        )
        .select<Array<{ outcome: string }>>('a.outcome');
      expect(slowAttempts.length).toBeGreaterThan(0);
      expect(slowAttempts.filter((a) => a.outcome !== 'in_flight')).toEqual([]);
      // A bound for a loaded machine, far below the 30 s the old dispatcher made it wait here.
      expect(fast.requests[0]!.receivedAt - committed).toBeLessThan(10_000);
    } finally {
      letGo();
      await d.stop();
    }
    // The rest of the slow tenants' events leave the queue, so the next test's dispatcher does not meet them.
    await tdb
      .db('webhook_deliveries')
      .whereIn(
        'endpoint_id',
        slowEndpoints.map((e) => e.id),
      )
      .whereNotNull('dispatch')
      .update({ dispatch: null, dispatch_claim: null, dispatch_until: null });
    await Promise.all([...slow, fast].map((r) => r.close()));
  }

  it("ten destinations of one tenant that accept connections and never answer do not delay another tenant's first attempt", async () => {
    await behindSlowTenants(1);
  });

  it('nor do two such tenants together: a tenant that holds nothing still gets a slot at once', async () => {
    await behindSlowTenants(2);
  });

  it('hands a retryable first attempt to delivery:<id> from attempt 2 at the first wait, and hands it over again when the start failed', async () => {
    const receiver = await startReceiver(() => 503);
    const endpoint = await endpointFor(receiver.url, 'whsec_handoff');
    const starts: DeliveryWorkflowInput[] = [];
    const d = dispatcher({
      leaseMs: 600,
      pollMs: 100,
      async startRetries(input) {
        starts.push(input);
        // Temporal is unreachable the first time: the row stays with the dispatcher until its claim lapses.
        if (starts.length === 1) throw new Error('14 UNAVAILABLE: connection refused');
      },
    });
    const [id] = await enqueueMany(endpoint, 1, [60_000, 50]);
    d.start();
    try {
      await until('the second hand-over', () => (starts.length >= 2 ? true : undefined), 60_000);
      await until(
        'the dispatcher to let go',
        async () =>
          (await tdb.db('webhook_deliveries').where({ id }).first('dispatch')).dispatch === null ? true : undefined,
        60_000,
      );
    } finally {
      await d.stop();
    }
    const stored = await getDelivery(tdb.db, id!);
    expect(stored).toMatchObject({ status: 'retrying', attempts: 1, lastStatusCode: 503 });
    expect(starts).toHaveLength(2);
    for (const s of starts) {
      expect(s).toMatchObject({ deliveryId: id, interface: 'proof', startAttempt: 2, delaysMs: [60_000, 50] });
      // Attempt 2 is due at the first wait after attempt 1 (the row's next_attempt_at).
      expect(s.resumeAt).toBe(stored!.nextAttemptAt!.getTime());
    }
    // Sent once: the second hand-over started the retries, it did not send again.
    expect(receiver.requests).toHaveLength(1);
    expect(await listAttempts(tdb.db, id!)).toMatchObject([{ attemptNo: 1, outcome: 'retry', statusCode: 503 }]);
    expect(logs.text()).toContain('handed to its workflow');
    await receiver.close();
  });
});

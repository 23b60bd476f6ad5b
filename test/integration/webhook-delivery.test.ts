import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { capturingLogger } from '../helpers/logs.js';
import { startReceiver, verifyReceived } from '../helpers/receiver.js';
import { startTestWorker, testGateway, uniqueTaskQueue } from '../helpers/temporal.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import {
  createEndpoint,
  getDelivery,
  listAttempts,
  rotateEndpointSecret,
  setEndpointStatus,
} from '../../db/repositories/webhooks.repo.js';
import { enqueueDelivery } from '../../services/workflows/deliveries.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import type { WebhookInterface } from '../../domain/webhooks.js';
import { WorkflowNotFoundError } from '@temporalio/client';
import { deliveryOutcome } from '../helpers/deliveries.js';

let tdb: TestDatabase;
let gw: WorkflowGateway;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
const secretBox = createSecretBox(generateSecretsKey());
const logs = capturingLogger();
let seq = 0;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const taskQueue = uniqueTaskQueue('webhooks');
  worker = await startTestWorker(taskQueue, {
    db: tdb.db,
    logger: logs.logger,
    secretBox,
    resolver: createSystemResolver(),
    allowLoopbackForTests: true,
  });
  gw = await testGateway(taskQueue);
});
afterAll(async () => {
  await worker?.stop();
  await gw?.close();
  await tdb?.drop();
});

async function deliver(opts: {
  iface: WebhookInterface;
  url: string;
  secret?: string;
  delaysMs?: number[];
  eventId?: string;
}) {
  const secret = opts.secret ?? `whsec_${++seq}_secret`;
  const endpoint = await createEndpoint(tdb.db, {
    interface: opts.iface,
    tenantId: 'tenant_1',
    url: opts.url,
    events: [],
    secretSealed: secretBox.seal(secret),
  });
  const eventId = opts.eventId ?? `evt_${Date.now()}_${++seq}`;
  const body = Buffer.from(
    JSON.stringify({ id: eventId, type: 'test.event', created_at: 1_800_000_000, data: { n: seq } }),
  );
  const { delivery } = await enqueueDelivery(tdb.db, {
    endpoint,
    eventId,
    eventType: 'test.event',
    body,
    delaysMs: opts.delaysMs ?? [50, 50, 50, 50, 50],
  });
  // The first attempt is the dispatcher's; retries run in `delivery:<id>`, started only when one is needed.
  const workflowId = `delivery:${delivery.id}`;
  const result = () => deliveryOutcome(tdb.db, delivery.id);
  return { endpoint, delivery, workflowId, body, secret, eventId, result };
}

describe('signed webhook delivery (the dispatcher, then delivery:<id> for retries)', () => {
  it('delivers a /proof/v1 event once with every header, with no workflow when the first attempt succeeds', async () => {
    const receiver = await startReceiver(() => 200);
    const d = await deliver({ iface: 'proof', url: receiver.url });
    expect(await d.result()).toEqual({ status: 'delivered', attempts: 1 });
    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0]!;
    expect(req.body.equals(d.body)).toBe(true);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-service-event-id']).toBe(d.eventId);
    expect(req.headers['x-service-delivery-id']).toBe(d.delivery.id);
    expect(req.headers['x-service-key-version']).toBe('1');
    expect(verifyReceived(req, d.secret)).toEqual({ ok: true });
    await expect(gw.client.workflow.getHandle(d.workflowId).describe()).rejects.toThrow(WorkflowNotFoundError);
    const stored = await getDelivery(tdb.db, d.delivery.id);
    expect(stored).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200 });
    expect(stored!.deliveredAt).toBeInstanceOf(Date);
    // The dispatcher is done with it: nothing can send it again.
    expect(
      await tdb
        .db('webhook_deliveries')
        .where({ id: d.delivery.id })
        .first('dispatch', 'dispatch_claim', 'dispatch_until'),
    ).toEqual({ dispatch: null, dispatch_claim: null, dispatch_until: null });
    const attempts = await listAttempts(tdb.db, d.delivery.id);
    expect(attempts).toMatchObject([
      { attemptNo: 1, outcome: 'delivered', statusCode: 200, errorClass: null, keyVersion: 1 },
    ]);
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);
    const columns = Object.keys(await tdb.db('webhook_delivery_attempts').columnInfo());
    expect(columns.some((c) => /body|response/.test(c))).toBe(false);
    expect(logs.text()).not.toContain('receiver body that must never be stored');
    await receiver.close();
  });

  it('sends /v1 events with the /v1 headers only', async () => {
    const receiver = await startReceiver(() => 204);
    const d = await deliver({ iface: 'v1', url: receiver.url });
    expect(await d.result()).toEqual({ status: 'delivered', attempts: 1 });
    const h = receiver.requests[0]!.headers;
    expect(h['x-service-event-id']).toBe(d.eventId);
    expect(h['x-service-delivery-id']).toBeUndefined();
    expect(h['x-service-key-version']).toBeUndefined();
    expect(verifyReceived(receiver.requests[0]!, d.secret)).toEqual({ ok: true });
    await receiver.close();
  });

  it('retries 503, 429 and 408 with the same bytes and ids, refreshing timestamp and signature', async () => {
    const answers = [503, 429, 408, 200];
    const receiver = await startReceiver((_r, i) => answers[i] ?? 200);
    const d = await deliver({ iface: 'proof', url: receiver.url, delaysMs: [1100, 50, 50, 50] });
    expect(await d.result()).toEqual({ status: 'delivered', attempts: 4 });
    expect(receiver.requests).toHaveLength(4);
    for (const req of receiver.requests) {
      expect(req.body.equals(d.body)).toBe(true);
      expect(req.headers['x-service-event-id']).toBe(d.eventId);
      expect(req.headers['x-service-delivery-id']).toBe(d.delivery.id);
      expect(verifyReceived(req, d.secret)).toEqual({ ok: true });
    }
    const [first, second] = receiver.requests;
    expect(Number(second!.headers['x-service-timestamp'])).toBeGreaterThan(
      Number(first!.headers['x-service-timestamp']),
    );
    expect(second!.headers['x-service-signature']).not.toBe(first!.headers['x-service-signature']);
    const attempts = await listAttempts(tdb.db, d.delivery.id);
    expect(attempts.map((a) => [a.attemptNo, a.outcome, a.statusCode])).toEqual([
      [1, 'retry', 503],
      [2, 'retry', 429],
      [3, 'retry', 408],
      [4, 'delivered', 200],
    ]);
    // The retries ran in delivery:<id> (the operator's view in the Temporal UI), from attempt 2 after the first wait.
    const handle = gw.client.workflow.getHandle(d.workflowId);
    expect(await handle.result()).toEqual({ status: 'delivered', attempts: 4 });
    const desc = await handle.describe();
    expect(desc.type).toBe('webhookDeliveryWorkflow');
    expect(desc.status.name).toBe('COMPLETED');
    expect(
      Number(second!.headers['x-service-timestamp']) - Number(first!.headers['x-service-timestamp']),
    ).toBeGreaterThanOrEqual(1);
    await receiver.close();
  });

  it.each([
    [302, 'a redirect'],
    [404, 'a client error'],
    [410, 'gone'],
  ])('treats %i (%s) as a terminal failure after one attempt', async (status) => {
    const receiver = await startReceiver(() => status);
    const d = await deliver({ iface: 'v1', url: receiver.url });
    expect(await d.result()).toEqual({ status: 'failed', attempts: 1 });
    expect(receiver.requests).toHaveLength(1);
    expect(await getDelivery(tdb.db, d.delivery.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastStatusCode: status,
    });
    await receiver.close();
  });

  it.each([
    ['v1', 6],
    ['proof', 5],
  ] as const)('a %s delivery gives up after %i attempts', async (iface, max) => {
    const receiver = await startReceiver(() => 500);
    const d = await deliver({ iface, url: receiver.url });
    expect(await d.result()).toEqual({ status: 'failed', attempts: max });
    expect(receiver.requests).toHaveLength(max);
    const stored = await getDelivery(tdb.db, d.delivery.id);
    expect(stored).toMatchObject({ status: 'failed', attempts: max, maxAttempts: max, lastStatusCode: 500 });
    await receiver.close();
  });

  it('retries a receiver that is down, then delivers when it recovers', async () => {
    const receiver = await startReceiver(() => 200);
    const url = receiver.url;
    await receiver.close();
    // Long enough waits that the receiver is back (right after the first refused attempt is recorded) well before
    // the attempts run out, however slow this machine is.
    const d = await deliver({ iface: 'proof', url, delaysMs: [1000, 5000, 15_000, 30_000] });
    // The attempt's row is written in flight when the dispatcher claims the delivery, before its POST: wait for its
    // outcome, or a loaded machine may bring the receiver back before the first POST is even sent.
    const deadline = Date.now() + 60_000;
    while (!(await listAttempts(tdb.db, d.delivery.id)).some((a) => a.outcome !== 'in_flight')) {
      if (Date.now() > deadline) throw new Error('the first attempt was never recorded');
      await new Promise((r) => setTimeout(r, 50));
    }
    // The same port again (a receiver coming back where it was).
    const port = Number(new URL(url).port);
    const { createServer } = await import('node:http');
    let got = 0;
    const revived = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        got++;
        res.end();
      });
    });
    await new Promise<void>((r) => revived.listen(port, '127.0.0.1', () => r()));
    const result = await d.result();
    expect(result.status).toBe('delivered');
    expect(result.attempts).toBeGreaterThan(1);
    expect(got).toBe(1);
    const attempts = await listAttempts(tdb.db, d.delivery.id);
    expect(attempts[0]).toMatchObject({ outcome: 'retry', errorClass: 'connection_refused', statusCode: null });
    await new Promise<void>((r) => revived.close(() => r()));
  });

  it('signs pending retries with a rotated secret and the new key version', async () => {
    let rotated = false;
    // Attempt 1 is answered 503 only once the secret was rotated, so the retry is pending across the rotation.
    let rotationDone!: () => void;
    const afterRotation = new Promise<void>((r) => (rotationDone = r));
    const receiver = await startReceiver(async (_r, i) => (i === 0 ? afterRotation.then(() => 503) : 200));
    const d = await deliver({ iface: 'proof', url: receiver.url, delaysMs: [50, 50, 50, 50] });
    await receiver.waitForRequests(1);
    const newSecret = 'whsec_rotated_secret';
    await rotateEndpointSecret(tdb.db, d.endpoint.id, secretBox.seal(newSecret));
    rotated = true;
    rotationDone();
    expect(await d.result()).toEqual({ status: 'delivered', attempts: 2 });
    expect(rotated).toBe(true);
    const [first, second] = receiver.requests;
    expect(first!.headers['x-service-key-version']).toBe('1');
    expect(second!.headers['x-service-key-version']).toBe('2');
    expect(verifyReceived(second!, newSecret)).toEqual({ ok: true });
    expect(verifyReceived(second!, d.secret)).toEqual({ ok: false, reason: 'bad_signature' });
    await receiver.close();
  });

  it('stops delivering to a disabled endpoint', async () => {
    // Attempt 1 is answered 503 only once the endpoint was disabled, so the retry comes after the change.
    let disabledDone!: () => void;
    const afterDisabling = new Promise<void>((r) => (disabledDone = r));
    const receiver = await startReceiver(async () => afterDisabling.then(() => 503));
    const d = await deliver({ iface: 'v1', url: receiver.url, delaysMs: [50, 50, 50, 50, 50] });
    await receiver.waitForRequests(1);
    await setEndpointStatus(tdb.db, d.endpoint.id, 'disabled');
    disabledDone();
    expect(await d.result()).toEqual({ status: 'failed', attempts: 2 });
    expect(receiver.requests).toHaveLength(1);
    const attempts = await listAttempts(tdb.db, d.delivery.id);
    expect(attempts.at(-1)).toMatchObject({ attemptNo: 2, outcome: 'terminal', errorClass: 'endpoint_disabled' });
    await receiver.close();
  });

  it('a destination outside the policy is a terminal failure without any request', async () => {
    const d = await deliver({ iface: 'proof', url: 'https://10.0.0.1/hook' });
    expect(await d.result()).toEqual({ status: 'failed', attempts: 1 });
    expect(await listAttempts(tdb.db, d.delivery.id)).toMatchObject([
      { outcome: 'terminal', errorClass: 'policy_rejected' },
    ]);
  });

  it('enqueueing the same event for the same endpoint again creates no second delivery', async () => {
    const receiver = await startReceiver(() => 200);
    const d = await deliver({ iface: 'proof', url: receiver.url });
    await d.result();
    const again = await enqueueDelivery(tdb.db, {
      endpoint: d.endpoint,
      eventId: d.eventId,
      eventType: 'test.event',
      body: Buffer.from('{"different":true}'),
    });
    expect(again).toMatchObject({ created: false, delivery: { id: d.delivery.id, status: 'delivered' } });
    const stored = await tdb.db('webhook_deliveries').where({ id: d.delivery.id }).first();
    expect(Buffer.compare(stored.body, d.body)).toBe(0);
    expect(stored.dispatch).toBeNull();
    // Another delivery enqueued and delivered after it proves the dispatcher ran since: still one request for the first.
    const later = await deliver({ iface: 'proof', url: receiver.url });
    expect(await later.result()).toEqual({ status: 'delivered', attempts: 1 });
    expect(receiver.requests.filter((r) => r.headers['x-service-event-id'] === d.eventId)).toHaveLength(1);
    await expect(
      tdb
        .db('webhook_deliveries')
        .where({ id: d.delivery.id })
        .update({ body: Buffer.from('x') }),
    ).rejects.toThrow(/immutable/);
    await receiver.close();
  });
});

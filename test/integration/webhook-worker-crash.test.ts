import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startReceiver, verifyReceived } from '../helpers/receiver.js';
import { testGateway, uniqueTaskQueue, deleteRunSchedules } from '../helpers/temporal.js';
import { spawnWorkerProcess, stopLiveWorkers, type WorkerProcess } from '../helpers/worker-process.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createEndpoint, getDelivery, listAttempts } from '../../db/repositories/webhooks.repo.js';
import { enqueueDelivery } from '../../services/workflows/deliveries.js';
import { deliveryOutcome } from '../helpers/deliveries.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';

let tdb: TestDatabase;
let gw: WorkflowGateway;
const secretsKey = generateSecretsKey();
const taskQueue = uniqueTaskQueue('crash');
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  gw = await testGateway(taskQueue);
});
afterAll(async () => {
  await stopLiveWorkers(workers);
  // The real worker entry point created this run's maintenance schedule; leave the shared server clean.
  await deleteRunSchedules(gw, taskQueue);
  await gw?.close();
  await tdb?.drop();
});

describe('a worker dies in the middle of a webhook delivery', () => {
  it('the delivery completes exactly once after a new worker starts', async () => {
    const env = { DATABASE_URL: tdb.url, TEMPORAL_TASK_QUEUE: taskQueue, SECRETS_KEY: secretsKey };
    const processed = new Set<string>();
    const receiver = await startReceiver((req, index) => {
      if (index === 0) return 'hang'; // the first worker is killed while this request is open
      // A receiver per the spec: verify, dedupe durably by event id, then 2xx.
      const ok = verifyReceived(req, 'whsec_crash_test');
      if (!ok.ok) return 400;
      processed.add(req.headers['x-service-event-id'] as string);
      return 200;
    });

    workers.push(await spawnWorkerProcess(env));
    const endpoint = await createEndpoint(tdb.db, {
      interface: 'proof',
      tenantId: 'mer_crash',
      url: receiver.url,
      events: [],
      secretSealed: createSecretBox(secretsKey).seal('whsec_crash_test'),
    });
    const body = Buffer.from('{"id":"evt_crash_1","type":"payment.confirmed"}');
    const { delivery } = await enqueueDelivery(tdb.db, {
      endpoint,
      eventId: 'evt_crash_1',
      eventType: 'payment.confirmed',
      body,
    });

    await receiver.waitForRequests(1);
    const first = receiver.requests[0]!;
    expect(await workers[0]!.kill('SIGKILL')).toBeNull();
    expect((await getDelivery(tdb.db, delivery.id))!.status).toBe('pending');

    // The dead worker's claim lapses (no renewal) and the new worker's dispatcher takes the delivery over.
    workers.push(await spawnWorkerProcess(env));
    expect(await deliveryOutcome(tdb.db, delivery.id)).toEqual({ status: 'delivered', attempts: 1 });

    // The repeat carries the same event and delivery ids and the same bytes, freshly signed. The delivery has left the
    // dispatcher (below), so no further attempt can come after these two.
    expect(receiver.requests).toHaveLength(2);
    const second = receiver.requests[1]!;
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers['x-service-event-id']).toBe(first.headers['x-service-event-id']);
    expect(second.headers['x-service-delivery-id']).toBe(delivery.id);
    expect(processed).toEqual(new Set(['evt_crash_1']));

    const stored = await getDelivery(tdb.db, delivery.id);
    expect(stored).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200 });
    const attempts = await listAttempts(tdb.db, delivery.id);
    expect(attempts.map((a) => [a.attemptNo, a.outcome, a.errorClass])).toEqual([
      [1, 'interrupted', 'worker_interrupted'],
      [1, 'delivered', null],
    ]);
    expect(await tdb.db('webhook_deliveries').where({ id: delivery.id }).first('dispatch', 'dispatch_claim')).toEqual({
      dispatch: null,
      dispatch_claim: null,
    });
    await receiver.close();
  });
});

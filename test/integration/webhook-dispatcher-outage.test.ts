import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnPostgres } from '../helpers/own-postgres.js';
import { capturingLogger } from '../helpers/logs.js';
import { startReceiver } from '../helpers/receiver.js';
import { deliveryOutcome } from '../helpers/deliveries.js';
import { until } from '../helpers/until.js';
import { TEST_DELIVERY_TIMEOUTS } from '../helpers/temporal.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { createDb, type Db } from '../../db/connection.js';
import { migrateLatest } from '../../db/migrate.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { enqueueDelivery } from '../../services/workflows/deliveries.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../workers/webhook-dispatcher.js';

/**
 * The webhook dispatcher while its PostgreSQL goes away and comes back (a server of this file's own, stopped under the
 * running dispatcher): it warns once, keeps trying, LISTENs again, and sends what was queued before and after.
 */
let own: OwnPostgres;
let db: Db;
let dispatcher: WebhookDispatcher;
const logs = capturingLogger();
const secretBox = createSecretBox(generateSecretsKey());

beforeAll(async () => {
  own = await OwnPostgres.start();
  db = createDb(own.url, {
    poolMax: 4,
    applicationName: 'paycore-dispatcher-outage',
    timeouts: { connectMs: 2_000, statementMs: 20_000, acquireMs: 30_000 },
    logger: logs.logger,
  });
  await migrateLatest(db);
  dispatcher = createWebhookDispatcher(
    {
      db,
      secretBox,
      resolver: createSystemResolver(),
      allowLoopbackForTests: true,
      timeouts: TEST_DELIVERY_TIMEOUTS,
      logger: logs.logger,
      startRetries: async () => {
        throw new Error('no retry expected');
      },
    },
    { concurrency: 8, perEndpoint: 4, pollMs: 200 },
  );
  dispatcher.start();
});
afterAll(async () => {
  await dispatcher?.stop();
  await db?.destroy();
  await own?.remove();
});

describe('the webhook dispatcher across a database outage', () => {
  it('warns once while PostgreSQL is down, then sends what is queued once it is back', async () => {
    const receiver = await startReceiver(() => 200);
    const endpoint = await createEndpoint(db, {
      interface: 'v1',
      tenantId: 'co_outage',
      url: receiver.url,
      events: [],
      secretSealed: secretBox.seal('whsec_outage'),
    });
    const body = (id: string) => Buffer.from(`{"id":"${id}"}`);
    const before = (
      await enqueueDelivery(db, {
        endpoint,
        eventId: 'evt_before',
        eventType: 'job.completed',
        body: body('evt_before'),
      })
    ).delivery;
    expect(await deliveryOutcome(db, before.id)).toEqual({ status: 'delivered', attempts: 1 });

    await own.down();
    await until(
      'the dispatcher to notice the outage',
      () => (logs.text().includes('could not read the queue') ? true : undefined),
      60_000,
    );
    await own.up();

    // Queued after the outage: found by the poll or the renewed LISTEN, and sent once.
    const after = (
      await enqueueDelivery(db, { endpoint, eventId: 'evt_after', eventType: 'job.completed', body: body('evt_after') })
    ).delivery;
    expect(await deliveryOutcome(db, after.id, 60_000)).toEqual({ status: 'delivered', attempts: 1 });
    expect(receiver.requests.map((r) => r.headers['x-service-event-id'])).toEqual(['evt_before', 'evt_after']);
    // One warning for the whole outage, however many times the poll tried.
    expect(logs.text().split('could not read the queue').length - 1).toBe(1);
    await until(
      'the dispatcher to say it reads the queue again',
      () => (logs.text().includes('reading the queue again') ? true : undefined),
      60_000,
    );
    await receiver.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { capturingLogger } from '../helpers/logs.js';
import { startReceiver, verifyReceived, type ReceivedRequest } from '../helpers/receiver.js';
import { startTestWorker, testGateway, uniqueTaskQueue } from '../helpers/temporal.js';
import { deliveryOutcome } from '../helpers/deliveries.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { newWebhookSecret } from '../../adapters/crypto/tokens.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { enqueueDelivery } from '../../services/workflows/deliveries.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import type { WebhookInterface } from '../../domain/webhooks.js';

/*
 * Standard Webhooks (https://www.standardwebhooks.com) beside the X-Service headers: real deliveries by the dispatcher
 * (attempt 1) and `delivery:<id>` (the retries) to a local receiver that verifies each request on arrival with the
 * official npm package, built from the signing secret exactly as docs/webhooks.md tells a receiver to.
 */

let tdb: TestDatabase;
let gw: WorkflowGateway;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
const secretBox = createSecretBox(generateSecretsKey());
const logs = capturingLogger();

beforeAll(async () => {
  tdb = await createTestDatabase();
  const taskQueue = uniqueTaskQueue('std-webhooks');
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

/** The two documented ways to build the official verifier from the secret a client holds (`whsec_…`). */
const verifiers = (secret: string) => ({
  raw: new Webhook(secret, { format: 'raw' }),
  base64: new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`),
});

/** What the official verifier said about one request, on arrival (its 5-minute window is measured then). */
function verdictOf(wh: Webhook, req: ReceivedRequest): string {
  try {
    wh.verify(req.body, req.headers as Record<string, string>);
    return 'ok';
  } catch (e) {
    return e instanceof WebhookVerificationError ? `refused: ${e.message}` : `error: ${String(e)}`;
  }
}

async function deliver(iface: WebhookInterface, url: string, secret: string) {
  const endpoint = await createEndpoint(tdb.db, {
    interface: iface,
    tenantId: 'tenant_std',
    url,
    events: [],
    secretSealed: secretBox.seal(secret),
  });
  const eventId = `evt_std${iface}${Date.now()}`;
  const body = Buffer.from(JSON.stringify({ id: eventId, type: 'test.event', created_at: 1_800_000_000, note: 'é' }));
  const { delivery } = await enqueueDelivery(tdb.db, {
    endpoint,
    eventId,
    eventType: 'test.event',
    body,
    // Attempt 2 waits over a second, so its timestamp is a later second than attempt 1's.
    delaysMs: [1100, 50, 50, 50, 50],
  });
  return { eventId, body, delivery, result: () => deliveryOutcome(tdb.db, delivery.id) };
}

describe('Standard Webhooks headers on every delivery', () => {
  it.each(['v1', 'proof'] as const)(
    'a %s delivery, retried once, verifies with the official package under the same secret',
    async (iface) => {
      const secret = newWebhookSecret();
      const { raw, base64 } = verifiers(secret);
      const verdicts: Array<{ raw: string; base64: string }> = [];
      // A receiver that verifies with `standardwebhooks` as it receives: the first request is answered 503 (so the
      // event is retried by its workflow), then 200 if it verifies and 401 (terminal) if it does not.
      const receiver = await startReceiver((req, i) => {
        const v = { raw: verdictOf(raw, req), base64: verdictOf(base64, req) };
        verdicts.push(v);
        if (i === 0) return 503;
        return v.raw === 'ok' && v.base64 === 'ok' ? 200 : 401;
      });
      try {
        const d = await deliver(iface, receiver.url, secret);
        expect(await d.result()).toEqual({ status: 'delivered', attempts: 2 });
        expect(verdicts).toEqual([
          { raw: 'ok', base64: 'ok' },
          { raw: 'ok', base64: 'ok' },
        ]);
        const [first, second] = receiver.requests;
        for (const req of [first!, second!]) {
          // webhook-id is the event id: the same on every attempt (receivers deduplicate on it).
          expect(req.headers['webhook-id']).toBe(d.eventId);
          expect(req.headers['webhook-id']).toBe(req.headers['x-service-event-id']);
          // The attempt's send time, the same second as X-Service-Timestamp.
          expect(req.headers['webhook-timestamp']).toBe(req.headers['x-service-timestamp']);
          expect(req.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
          // The X-Service scheme is unchanged and verifies under the same secret.
          expect(verifyReceived(req, secret)).toEqual({ ok: true });
          expect(req.body.equals(d.body)).toBe(true);
        }
        expect(Number(second!.headers['webhook-timestamp'])).toBeGreaterThan(
          Number(first!.headers['webhook-timestamp']),
        );
        expect(second!.headers['webhook-signature']).not.toBe(first!.headers['webhook-signature']);

        // A tampered body, another id under the same signature, or another secret are refused.
        const headers = second!.headers as Record<string, string>;
        const tampered = Buffer.from(d.body.toString().replace('test.event', 'test.evenT'));
        expect(() => raw.verify(tampered, headers)).toThrow(WebhookVerificationError);
        expect(() => base64.verify(tampered, headers)).toThrow(WebhookVerificationError);
        expect(() => raw.verify(d.body, { ...headers, 'webhook-id': `${d.eventId}x` })).toThrow(
          WebhookVerificationError,
        );
        expect(() => verifiers(newWebhookSecret()).raw.verify(d.body, headers)).toThrow(WebhookVerificationError);
        expect(raw.verify(d.body, headers)).toMatchObject({ id: d.eventId, type: 'test.event' });

        expect(logs.text()).not.toContain(secret);
      } finally {
        await receiver.close();
      }
    },
  );
});

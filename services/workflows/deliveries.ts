import { DELIVERY_PROFILES } from '../../domain/webhooks.js';
import type { Db } from '../../db/connection.js';
import { createDelivery, type WebhookDelivery, type WebhookEndpoint } from '../../db/repositories/webhooks.repo.js';

/**
 * Records a delivery of an event (its body bytes stored once); its commit wakes the worker's webhook dispatcher,
 * which sends it (docs/webhooks.md, "How a delivery is sent"). Idempotent per (endpoint, event): a repeat returns
 * the same delivery. `delaysMs` is a test-only override of the waits between attempts.
 */
export async function enqueueDelivery(
  db: Db,
  input: { endpoint: WebhookEndpoint; eventId: string; eventType: string; body: Buffer; delaysMs?: number[] },
): Promise<{ delivery: WebhookDelivery; created: boolean }> {
  return createDelivery(db, { ...input, maxAttempts: DELIVERY_PROFILES[input.endpoint.interface].maxAttempts });
}

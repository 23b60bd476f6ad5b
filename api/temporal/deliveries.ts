import { DELIVERY_PROFILES } from '../../domain/webhooks.js';
import type { Db } from '../../db/connection.js';
import { createDelivery, type WebhookDelivery, type WebhookEndpoint } from '../../db/repositories/webhooks.repo.js';
import { workflowIds } from '../../workflows/task-queues.js';
import { startDeliveryWorkflow, type WorkflowGateway } from './workflow-client.js';

/**
 * Records a delivery of an event (its body bytes stored once) and starts its workflow. Idempotent per
 * (endpoint, event): a repeat returns the same delivery and the workflow start is a no-op while it runs.
 */
export async function enqueueDelivery(
  db: Db,
  gw: WorkflowGateway,
  input: { endpoint: WebhookEndpoint; eventId: string; eventType: string; body: Buffer; delaysMs?: number[] },
): Promise<{ delivery: WebhookDelivery; workflowId: string }> {
  const profile = DELIVERY_PROFILES[input.endpoint.interface];
  const { delivery, created } = await createDelivery(db, { ...input, maxAttempts: profile.maxAttempts });
  const workflowId = created || delivery.status === 'pending'
    ? await startDeliveryWorkflow(gw, {
        deliveryId: delivery.id,
        interface: delivery.interface,
        ...(input.delaysMs ? { delaysMs: input.delaysMs } : {}),
      })
    : workflowIds.delivery(delivery.id);
  return { delivery, workflowId };
}

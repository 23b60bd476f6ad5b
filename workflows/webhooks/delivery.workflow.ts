import { patched, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import { DELIVERY_PROFILES, nextStep, scheduleMs, type WebhookInterface } from '../../domain/webhooks.js';
import type { WebhookActivities } from '../../activities/webhooks.activities.js';

export interface DeliveryWorkflowInput {
  deliveryId: string;
  interface: WebhookInterface;
  /**
   * First attempt number of this run: the dispatcher hands a delivery over from attempt 2 after a retryable first
   * attempt, and a manual retry continues the budget of the same delivery.
   */
  startAttempt?: number;
  /** When the first attempt of this run is due (epoch ms): the dispatcher's hand-over waits until then. */
  resumeAt?: number;
  /**
   * Test-only override of the waits between attempts, in milliseconds. Production starters never set it,
   * so the profile's schedule applies.
   */
  delaysMs?: number[];
}

export interface DeliveryWorkflowResult {
  status: 'delivered' | 'failed';
  attempts: number;
}

const { sendAttempt } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '60 seconds',
  // Heartbeats every second while the POST is in flight: a dead worker is noticed within seconds and the
  // attempt is repeated (same attempt number, same event and delivery ids) on another worker.
  heartbeatTimeout: '5 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: ['delivery_not_found'],
  },
});

/**
 * The same attempt as a local activity (patch `delivery-attempt-local`): it runs inside the workflow task, so a
 * delivery costs one workflow task and no activity task round trip through the server. A worker that dies during it
 * is noticed when its workflow task times out (10 s), and the same attempt is sent again by another worker.
 */
const local = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '60 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: ['delivery_not_found'],
  },
});

const { settleDelivery } = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * The retries of one signed webhook delivery (workflow id `delivery:<id>`), started by the dispatcher after a
 * retryable first attempt, by a manual retry, or (deliveries of earlier versions) for the whole delivery: attempt,
 * and after a retryable failure wait per the interface's schedule, until delivered, terminally failed, or out of
 * attempts.
 */
export async function webhookDeliveryWorkflow(input: DeliveryWorkflowInput): Promise<DeliveryWorkflowResult> {
  const profile = DELIVERY_PROFILES[input.interface];
  const delays = input.delaysMs ?? scheduleMs(profile);
  const attemptLocally = patched('delivery-attempt-local');
  // Only a hand-over from the dispatcher carries `resumeAt`; runs started before it existed never wait here.
  if (input.resumeAt !== undefined && input.resumeAt > Date.now()) await sleep(input.resumeAt - Date.now());
  for (let attempt = input.startAttempt ?? 1; attempt <= profile.maxAttempts; attempt++) {
    const { verdict } = await (attemptLocally ? local.sendAttempt : sendAttempt)({
      deliveryId: input.deliveryId,
      attemptNo: attempt,
    });
    const step = nextStep(verdict, attempt, profile);
    const waitMs = step.state === 'retrying' ? (delays[attempt - 1] ?? delays[delays.length - 1]!) : 0;
    await settleDelivery({ deliveryId: input.deliveryId, attemptNo: attempt, state: step.state, waitMs });
    if (step.state !== 'retrying') return { status: step.state, attempts: attempt };
    await sleep(waitMs);
  }
  return { status: 'failed', attempts: profile.maxAttempts };
}

import type { DeliverySummary } from '../../db/repositories/webhook-destinations.repo.js';
import type { AttemptRecord, WebhookEndpoint } from '../../db/repositories/webhooks.repo.js';

/* The webhook destination, delivery and attempt records both sessions show (the company's and the merchant's). */

/** Destination metadata: never the signing secret. */
export function destinationJson(e: WebhookEndpoint, usable: boolean) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    status: e.status,
    key_version: e.keyVersion,
    usable,
    created_at: e.createdAt.toISOString(),
  };
}

/** A delivery's history entry: ids, type, state and attempt counts; never the body or a response body. */
export function deliveryJson(d: DeliverySummary) {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    max_attempts: d.maxAttempts,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastErrorClass,
    created_at: d.createdAt.toISOString(),
    delivered_at: d.deliveredAt?.toISOString() ?? null,
    failed_at: d.failedAt?.toISOString() ?? null,
    retryable: d.status === 'failed' && d.attempts < d.maxAttempts && d.endpointStatus === 'enabled',
  };
}

/** One attempt of a delivery: its outcome, HTTP status, error class and duration (never a body). */
export function attemptJson(a: AttemptRecord) {
  return {
    attempt: a.attemptNo,
    outcome: a.outcome,
    status_code: a.statusCode,
    error: a.errorClass,
    duration_ms: a.durationMs,
    key_version: a.keyVersion,
    started_at: a.startedAt.toISOString(),
  };
}

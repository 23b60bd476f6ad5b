import {
  batchEventBody,
  batchEvents,
  jobEventBody,
  jobEvents,
  type EventBatchInput,
  type EventJobInput,
  type V1EventType,
} from '../../domain/processing-events.js';
import { DELIVERY_PROFILES } from '../../domain/webhooks.js';
import { sha256Hex } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { createDelivery, toEndpoint, type WebhookEndpoint } from './webhooks.repo.js';

/**
 * The `/v1` job and batch events (docs/webhooks.md, "/v1 job and batch events"). The delivery row
 * (`webhook_deliveries`, with the exact body bytes) is the outbox: it is written in the transaction of the
 * terminal transition it reports, so the event exists exactly when the transition committed, once. Its commit wakes
 * the worker's webhook dispatcher, which sends it (workers/webhook-dispatcher.ts).
 */

/**
 * The event id of the one terminal event of a job or batch, derived from its id: a repeated enqueue (an activity
 * retried after the commit was lost on the wire) finds the same delivery (`unique (endpoint_id, event_id)`).
 */
export function terminalEventId(subject: { jobId: string } | { batchId: string }): string {
  const key = 'jobId' in subject ? `job:${subject.jobId}:terminal` : `batch:${subject.batchId}:terminal`;
  const digits = BigInt(`0x${sha256Hex(key)}`).toString(36);
  return `evt_${digits.slice(0, 20).padEnd(20, '0')}`;
}

/**
 * The company's enabled `/v1` webhook of this id, or null when it is unknown, another company's, a `/proof` one,
 * disabled or deleted (`webhook_id` then answers 404 naming the field). With `forShare` the row is locked until
 * commit, so a concurrent disable waits: "enabled when the event committed".
 */
export async function findUsableV1Webhook(
  db: Db,
  companyId: string,
  id: string,
  opts: { forShare?: boolean } = {},
): Promise<WebhookEndpoint | null> {
  const q = db('webhook_endpoints').where({ id, interface: 'v1', tenant_id: companyId, status: 'enabled' });
  const row = await (opts.forShare ? q.forShare() : q).first();
  return row ? toEndpoint(row) : null;
}

/**
 * Records one `/v1` event for delivery in the caller's transaction, if the webhook is still the company's and
 * enabled; returns the delivery id (null when nothing is sent). Idempotent per (webhook, event id).
 */
export async function enqueueV1Event(
  trx: Db,
  input: { companyId: string; webhookId: string; eventId: string; type: V1EventType; body: unknown },
): Promise<string | null> {
  const endpoint = await findUsableV1Webhook(trx, input.companyId, input.webhookId, { forShare: true });
  if (!endpoint) return null;
  const { delivery } = await createDelivery(trx, {
    endpoint,
    eventId: input.eventId,
    eventType: input.type,
    body: Buffer.from(JSON.stringify(input.body)),
    maxAttempts: DELIVERY_PROFILES.v1.maxAttempts,
  });
  return delivery.id;
}

/**
 * The job's terminal event (`job.completed` / `job.failed`), in the transaction of its terminal update. `webhookId`
 * is the job's own: a batch's child stores the batch's webhook only in modes `items` and `both` (`childWebhookId`).
 */
export async function enqueueJobTerminalEvent(
  trx: Db,
  input: { companyId: string; webhookId: string | null; job: EventJobInput; at: Date },
): Promise<string[]> {
  const ids: string[] = [];
  for (const type of jobEvents({ status: input.job.status, webhookId: input.webhookId, batch: null })) {
    const eventId = terminalEventId({ jobId: input.job.id });
    const id = await enqueueV1Event(trx, {
      companyId: input.companyId,
      webhookId: input.webhookId!,
      eventId,
      type,
      body: jobEventBody(eventId, input.job, input.at),
    });
    if (id) ids.push(id);
  }
  return ids;
}

/**
 * The batch's terminal event (`batch.completed|partial|failed`, modes `batch` and `both`), to be called by the
 * batches repository in the transaction that makes the batch terminal.
 */
export async function enqueueBatchTerminalEvent(
  trx: Db,
  input: { companyId: string; webhookId: string | null; batch: EventBatchInput; at: Date },
): Promise<string[]> {
  const ids: string[] = [];
  for (const type of batchEvents({
    status: input.batch.status,
    webhookId: input.webhookId,
    mode: input.batch.webhookMode,
  })) {
    const eventId = terminalEventId({ batchId: input.batch.id });
    const id = await enqueueV1Event(trx, {
      companyId: input.companyId,
      webhookId: input.webhookId!,
      eventId,
      type,
      body: batchEventBody(eventId, input.batch, input.at),
    });
    if (id) ids.push(id);
  }
  return ids;
}

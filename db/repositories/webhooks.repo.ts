import { traceHeaders } from '../../adapters/tracing/tracing.js';
import type { AttemptOutcome } from '../../domain/validation/integrations-responses.js';
import { WEBHOOK_ID_PREFIX, type WebhookInterface } from '../../domain/webhooks.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';

export type EndpointStatus = 'enabled' | 'disabled' | 'deleted';
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

export interface WebhookEndpoint {
  id: string;
  interface: WebhookInterface;
  tenantId: string;
  url: string;
  events: string[];
  /** Sealed (encrypted) signing secret; open it only to sign. */
  secretSealed: string;
  keyVersion: number;
  status: EndpointStatus;
  createdAt: Date;
}

export interface WebhookDelivery {
  id: string;
  interface: WebhookInterface;
  endpointId: string;
  tenantId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastErrorClass: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  failedAt: Date | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export const toEndpoint = (r: any): WebhookEndpoint => ({
  id: r.id,
  interface: r.interface,
  tenantId: r.tenant_id,
  url: r.url,
  events: r.events,
  secretSealed: r.secret_sealed,
  keyVersion: r.key_version,
  status: r.status,
  createdAt: r.created_at,
});

export const toDelivery = (r: any): WebhookDelivery => ({
  id: r.id,
  interface: r.interface,
  endpointId: r.endpoint_id,
  tenantId: r.tenant_id,
  eventId: r.event_id,
  eventType: r.event_type,
  status: r.status,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
  nextAttemptAt: r.next_attempt_at,
  lastStatusCode: r.last_status_code,
  lastErrorClass: r.last_error_class,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
  failedAt: r.failed_at,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

export async function createEndpoint(
  db: Db,
  input: { interface: WebhookInterface; tenantId: string; url: string; events: string[]; secretSealed: string },
): Promise<WebhookEndpoint> {
  const [row] = await db('webhook_endpoints')
    .insert({
      id: newId(WEBHOOK_ID_PREFIX),
      interface: input.interface,
      tenant_id: input.tenantId,
      url: input.url,
      events: input.events,
      secret_sealed: input.secretSealed,
    })
    .returning('*');
  return toEndpoint(row);
}

export async function getEndpoint(db: Db, id: string): Promise<WebhookEndpoint | null> {
  const row = await db('webhook_endpoints').where({ id }).first();
  return row ? toEndpoint(row) : null;
}

/** Replaces the signing secret and bumps the key version; pending retries sign with the new secret. */
export async function rotateEndpointSecret(db: Db, id: string, secretSealed: string): Promise<WebhookEndpoint | null> {
  const [row] = await db('webhook_endpoints')
    .where({ id })
    .whereNot({ status: 'deleted' })
    .update({ secret_sealed: secretSealed, key_version: db.raw('key_version + 1'), updated_at: db.fn.now() })
    .returning('*');
  return row ? toEndpoint(row) : null;
}

export async function setEndpointStatus(db: Db, id: string, status: EndpointStatus): Promise<WebhookEndpoint | null> {
  const [row] = await db('webhook_endpoints').where({ id }).update({ status, updated_at: db.fn.now() }).returning('*');
  return row ? toEndpoint(row) : null;
}

/**
 * Records a delivery of one event to one endpoint with its body bytes, once: a repeat of the same
 * (endpoint, event) returns the existing delivery. Pass a transaction to commit it with the event: at commit the
 * worker's dispatcher is woken and sends its first attempt (webhook-dispatch.repo.ts). `delaysMs` is a test-only
 * override of the waits between attempts.
 */
export async function createDelivery(
  db: Db,
  input: {
    endpoint: WebhookEndpoint;
    eventId: string;
    eventType: string;
    body: Buffer;
    maxAttempts: number;
    delaysMs?: number[];
  },
): Promise<{ delivery: WebhookDelivery; created: boolean }> {
  const inserted = await db('webhook_deliveries')
    .insert({
      id: newId('dlv'),
      interface: input.endpoint.interface,
      endpoint_id: input.endpoint.id,
      tenant_id: input.endpoint.tenantId,
      event_id: input.eventId,
      event_type: input.eventType,
      body: input.body,
      max_attempts: input.maxAttempts,
      dispatch: 'queued',
      retry_delays_ms: input.delaysMs ?? null,
      // The context of the work that queued it (null while tracing is off): the dispatcher's POST continues its trace.
      trace_parent: traceHeaders()['traceparent'] ?? null,
    })
    .onConflict(['endpoint_id', 'event_id'])
    .ignore()
    .returning('*');
  if (inserted[0]) return { delivery: toDelivery(inserted[0]), created: true };
  const existing = await db('webhook_deliveries')
    .where({ endpoint_id: input.endpoint.id, event_id: input.eventId })
    .first();
  return { delivery: toDelivery(existing), created: false };
}

export async function getDelivery(db: Db, id: string): Promise<WebhookDelivery | null> {
  const row = await db('webhook_deliveries').where({ id }).first();
  return row ? toDelivery(row) : null;
}

/** The delivery with its endpoint and the stored body, for sending one attempt. */
export async function loadDeliveryForSend(
  db: Db,
  id: string,
): Promise<{ delivery: WebhookDelivery; endpoint: WebhookEndpoint; body: Buffer } | null> {
  const row = await db('webhook_deliveries').where({ id }).first();
  if (!row) return null;
  const endpoint = await getEndpoint(db, row.endpoint_id);
  if (!endpoint) return null;
  return { delivery: toDelivery(row), endpoint, body: row.body };
}

/** Attempts left open by a worker that died mid-send are closed as interrupted before a new send. */
export async function interruptInFlightAttempts(db: Db, deliveryId: string): Promise<number> {
  return db('webhook_delivery_attempts')
    .where({ delivery_id: deliveryId, outcome: 'in_flight' })
    .update({ outcome: 'interrupted', error_class: 'worker_interrupted', finished_at: db.fn.now() });
}

export async function startAttempt(
  db: Db,
  deliveryId: string,
  attemptNo: number,
  keyVersion: number | null,
): Promise<number> {
  const [row] = await db('webhook_delivery_attempts')
    .insert({ delivery_id: deliveryId, attempt_no: attemptNo, key_version: keyVersion, outcome: 'in_flight' })
    .returning('id');
  return Number((row as { id: string | number }).id);
}

export async function finishAttempt(
  db: Db,
  attemptId: number,
  result: {
    outcome: 'delivered' | 'retry' | 'terminal';
    statusCode: number | null;
    errorClass: string | null;
    durationMs: number;
  },
): Promise<void> {
  await db('webhook_delivery_attempts').where({ id: attemptId }).update({
    outcome: result.outcome,
    status_code: result.statusCode,
    error_class: result.errorClass,
    duration_ms: result.durationMs,
    finished_at: db.fn.now(),
  });
}

/**
 * Moves a delivery to the state the workflow decided after an attempt. Terminal states are final: a repeated
 * settle (activity retry, workflow replay) changes nothing.
 */
export async function settleDelivery(
  db: Db,
  input: {
    deliveryId: string;
    attemptNo: number;
    state: 'delivered' | 'failed' | 'retrying';
    nextAttemptAt: Date | null;
  },
): Promise<void> {
  const last = await db('webhook_delivery_attempts')
    .where({ delivery_id: input.deliveryId, attempt_no: input.attemptNo })
    .whereNot({ outcome: 'interrupted' })
    .orderBy('id', 'desc')
    .first();
  await db('webhook_deliveries')
    .where({ id: input.deliveryId })
    .whereNotIn('status', ['delivered', 'failed'])
    .update({
      status: input.state,
      attempts: db.raw('GREATEST(attempts, ?)', [input.attemptNo]),
      next_attempt_at: input.nextAttemptAt,
      last_status_code: last?.status_code ?? null,
      last_error_class: last?.error_class ?? null,
      delivered_at: input.state === 'delivered' ? db.fn.now() : null,
      failed_at: input.state === 'failed' ? db.fn.now() : null,
      updated_at: db.fn.now(),
    });
}

export interface AttemptRecord {
  attemptNo: number;
  outcome: AttemptOutcome;
  statusCode: number | null;
  errorClass: string | null;
  durationMs: number | null;
  keyVersion: number | null;
  startedAt: Date;
}

export async function listAttempts(db: Db, deliveryId: string): Promise<AttemptRecord[]> {
  const rows = await db('webhook_delivery_attempts').where({ delivery_id: deliveryId }).orderBy('id', 'asc');
  return rows.map((r) => ({
    attemptNo: r.attempt_no,
    outcome: r.outcome,
    statusCode: r.status_code,
    errorClass: r.error_class,
    durationMs: r.duration_ms,
    keyVersion: r.key_version,
    startedAt: r.started_at,
  }));
}

/**
 * Deliveries of earlier versions (not queued for the dispatcher) that were recorded but never attempted for longer
 * than `olderThan`: their workflow start was lost (e.g. the process died between commit and start). The maintenance
 * workflow starts them again. Queued deliveries are the dispatcher's, which takes over an expired claim itself.
 */
export async function findUnstartedDeliveries(
  db: Db,
  olderThan: Date,
  limit: number,
): Promise<Array<{ deliveryId: string; interface: WebhookInterface }>> {
  const rows = await db('webhook_deliveries as d')
    .select('d.id', 'd.interface')
    .where('d.status', 'pending')
    .whereNull('d.dispatch')
    .andWhere('d.attempts', 0)
    .andWhere('d.created_at', '<', olderThan)
    .whereNotExists(db('webhook_delivery_attempts as a').whereRaw('a.delivery_id = d.id'))
    .orderBy('d.created_at', 'asc')
    .limit(limit);
  return rows.map((r) => ({ deliveryId: r.id, interface: r.interface }));
}

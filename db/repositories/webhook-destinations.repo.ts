import { WEBHOOK_ID_PREFIX, type WebhookInterface } from '../../domain/webhooks.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { toDelivery, toEndpoint, type WebhookDelivery, type WebhookEndpoint } from './webhooks.repo.js';

/**
 * A tenant's webhook destinations as the management routes see them: a merchant's `/proof` ones (`/api/integrations`,
 * the default `iface`) and a company's `/v1` ones (`/api/company`, `POST /v1/webhooks`), in `webhook_endpoints`.
 * For /proof (spec sections 4, 6 and 8):
 * Destinations count against the plan until deleted (enabled and disabled alike); after a downgrade only the
 * earliest `allowed` of them, by creation, are usable: a later one receives no deliveries.
 */
export interface Destination extends WebhookEndpoint {
  /** 0-based position among the merchant's counted (not deleted) destinations, oldest first. */
  rank: number;
}

const counted = (db: Db, tenantId: string, iface: WebhookInterface = 'proof') =>
  db('webhook_endpoints').where({ interface: iface, tenant_id: tenantId }).whereNot({ status: 'deleted' });

/** Counted destinations with their rank, oldest first. */
export async function listDestinations(
  db: Db,
  merchantId: string,
  iface: WebhookInterface = 'proof',
): Promise<Destination[]> {
  const rows = await counted(db, merchantId, iface).orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map((r: Record<string, unknown>, rank: number) => ({ ...toEndpoint(r), rank }));
}

/** The tenant's destination `id` unless deleted, locked (null for a foreign or deleted id). */
async function lockDestination(
  trx: Db,
  merchantId: string,
  id: string,
  iface: WebhookInterface,
): Promise<WebhookEndpoint | null> {
  const row = await counted(trx, merchantId, iface).where({ id }).forUpdate().first();
  return row ? toEndpoint(row) : null;
}

/** The tenant's counted (not deleted) destinations. */
export async function countDestinations(trx: Db, tenantId: string, iface: WebhookInterface): Promise<number> {
  const [count] = await counted(trx, tenantId, iface).count<{ n: string }[]>({ n: '*' });
  return Number(count?.n ?? 0);
}

export async function insertDestination(
  trx: Db,
  input: { tenantId: string; url: string; events: string[]; secretSealed: string; interface: WebhookInterface },
  now: Date,
): Promise<WebhookEndpoint> {
  const [row] = await trx('webhook_endpoints')
    .insert({
      id: newId(WEBHOOK_ID_PREFIX),
      interface: input.interface,
      tenant_id: input.tenantId,
      url: input.url,
      events: input.events,
      secret_sealed: input.secretSealed,
      created_at: now,
      updated_at: now,
    })
    .returning('*');
  return toEndpoint(row);
}

/**
 * enabled → disabled (no way back: spec section 4, rule 3). Disabling a disabled destination changes nothing. Null for
 * a foreign or deleted id (as for delete and rotate below).
 */
export async function disableDestination(
  trx: Db,
  merchantId: string,
  id: string,
  now: Date,
  iface: WebhookInterface = 'proof',
): Promise<WebhookEndpoint | null> {
  const endpoint = await lockDestination(trx, merchantId, id, iface);
  if (!endpoint || endpoint.status === 'disabled') return endpoint;
  const [row] = await trx('webhook_endpoints')
    .where({ id })
    .update({ status: 'disabled', updated_at: now })
    .returning('*');
  return toEndpoint(row);
}

/** Soft deletion: the row and its delivery history stay; the destination stops counting and is never listed again. */
export async function deleteDestination(
  trx: Db,
  merchantId: string,
  id: string,
  now: Date,
  iface: WebhookInterface = 'proof',
): Promise<WebhookEndpoint | null> {
  if (!(await lockDestination(trx, merchantId, id, iface))) return null;
  const [row] = await trx('webhook_endpoints')
    .where({ id })
    .update({ status: 'deleted', deleted_at: now, updated_at: now })
    .returning('*');
  return toEndpoint(row);
}

/** A new signing secret and key version; the next attempt of every pending retry signs with it. */
export async function rotateDestination(
  trx: Db,
  merchantId: string,
  id: string,
  secretSealed: string,
  now: Date,
  iface: WebhookInterface = 'proof',
): Promise<WebhookEndpoint | null> {
  if (!(await lockDestination(trx, merchantId, id, iface))) return null;
  const [row] = await trx('webhook_endpoints')
    .where({ id })
    .update({ secret_sealed: secretSealed, key_version: trx.raw('key_version + 1'), updated_at: now })
    .returning('*');
  return toEndpoint(row);
}

/** A delivery as its history shows it (never the body), with its destination's state. */
export interface DeliverySummary extends WebhookDelivery {
  endpointStatus: WebhookEndpoint['status'];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const toSummary = (r: any): DeliverySummary => ({ ...toDelivery(r), endpointStatus: r.endpoint_status });

const deliveryColumns = [
  'd.id',
  'd.interface',
  'd.tenant_id',
  'd.endpoint_id',
  'd.event_id',
  'd.event_type',
  'd.status',
  'd.attempts',
  'd.max_attempts',
  'd.next_attempt_at',
  'd.last_status_code',
  'd.last_error_class',
  'd.created_at',
  'd.delivered_at',
  'd.failed_at',
  'e.status as endpoint_status',
];

/** One page of the merchant's delivery history, by id descending, strictly before `before`; never the bodies. */
export async function deliveriesPage(
  db: Db,
  merchantId: string,
  limit: number,
  before: string | null,
  scope: { iface?: WebhookInterface; endpointId?: string } = {},
): Promise<DeliverySummary[]> {
  const q = db('webhook_deliveries as d')
    .join('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .where({ 'd.interface': scope.iface ?? 'proof', 'd.tenant_id': merchantId })
    .orderBy('d.id', 'desc')
    .limit(limit)
    .select(deliveryColumns);
  if (before) q.where('d.id', '<', before);
  if (scope.endpointId) q.where('d.endpoint_id', scope.endpointId);
  return (await q).map(toSummary);
}

/** One delivery of the tenant's, by id (never its body); null for a foreign or unknown id. */
export async function getDeliverySummary(
  db: Db,
  tenantId: string,
  id: string,
  iface: WebhookInterface,
): Promise<DeliverySummary | null> {
  const row = await db('webhook_deliveries as d')
    .join('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .where({ 'd.id': id, 'd.interface': iface, 'd.tenant_id': tenantId })
    .first(deliveryColumns);
  return row ? toSummary(row) : null;
}

/** A /proof delivery of the merchant with its destination's status, its row locked; null if none. */
export async function lockProofDelivery(trx: Db, merchantId: string, id: string): Promise<DeliverySummary | null> {
  const row = await trx('webhook_deliveries as d')
    .join('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .where({ 'd.id': id, 'd.interface': 'proof', 'd.tenant_id': merchantId })
    .forUpdate('d')
    .first(deliveryColumns);
  return row ? toSummary(row) : null;
}

/** A failed delivery back to `retrying`, due now, in place (same ids, body and attempt count). */
export async function reopenDelivery(trx: Db, delivery: DeliverySummary, now: Date): Promise<DeliverySummary> {
  const [updated] = await trx('webhook_deliveries')
    .where({ id: delivery.id, status: 'failed' })
    .update({ status: 'retrying', failed_at: null, next_attempt_at: now, updated_at: now })
    .returning('*');
  return { ...toDelivery(updated), endpointStatus: delivery.endpointStatus };
}

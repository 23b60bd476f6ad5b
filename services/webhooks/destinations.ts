import { DomainError } from '../../domain/errors.js';
import type { WebhookInterface } from '../../domain/webhooks.js';
import type { Db } from '../../db/connection.js';
import {
  countDestinations,
  deleteDestination as markDeleted,
  disableDestination as markDisabled,
  insertDestination,
  listDestinations,
  lockProofDelivery,
  reopenDelivery,
  rotateDestination as replaceSecret,
  type DeliverySummary,
} from '../../db/repositories/webhook-destinations.repo.js';
import type { WebhookEndpoint } from '../../db/repositories/webhooks.repo.js';

/*
 * The rules of webhook destinations both sessions manage (the merchant's /proof ones and the company's /v1 ones): how
 * many a tenant may have, and when a failed delivery may be retried by hand.
 */

/**
 * Creates a destination if the tenant has room (`allowed`: the plan's for a merchant, the company limit); the caller
 * holds the tenant's lock (no race past the limit).
 */
export async function createDestination(
  trx: Db,
  input: {
    merchantId: string;
    url: string;
    events: string[];
    secretSealed: string;
    allowed: number;
    interface?: WebhookInterface;
  },
  now: Date,
): Promise<WebhookEndpoint> {
  const iface = input.interface ?? 'proof';
  if ((await countDestinations(trx, input.merchantId, iface)) >= input.allowed) {
    const whose = iface === 'proof' ? 'The plan allows' : 'A company has at most';
    throw new DomainError(
      'limit_reached',
      `${whose} ${input.allowed} webhook destination(s), disabled ones included; delete one first`,
    );
  }
  return insertDestination(
    trx,
    {
      tenantId: input.merchantId,
      url: input.url,
      events: input.events,
      secretSealed: input.secretSealed,
      interface: iface,
    },
    now,
  );
}

/**
 * Manual retry (spec section 6): only a failed delivery with attempts left, to an enabled destination the plan
 * still allows. It is reopened in place, keeping its delivery id, event id, body and attempt count; the
 * caller starts `delivery:<id>` after commit from attempt `attempts + 1`.
 */
export async function reopenFailedDelivery(
  trx: Db,
  merchantId: string,
  id: string,
  allowedDestinations: number,
  now: Date,
): Promise<DeliverySummary> {
  const d = await lockProofDelivery(trx, merchantId, id);
  if (!d) throw new DomainError('not_found', 'Delivery not found');
  if (d.status !== 'failed')
    throw new DomainError('invalid_retry_state', `Only a failed delivery can be retried; this one is ${d.status}`);
  if (d.attempts >= d.maxAttempts)
    throw new DomainError('invalid_retry_state', `This delivery has used all ${d.maxAttempts} attempts`);
  if (d.endpointStatus !== 'enabled')
    throw new DomainError(
      'invalid_retry_state',
      `Its destination is ${d.endpointStatus}; a delivery is retried only to an enabled destination`,
    );
  const usable = (await listDestinations(trx, merchantId)).find((e) => e.id === d.endpointId);
  if (!usable || usable.rank >= allowedDestinations) {
    throw new DomainError(
      'invalid_retry_state',
      'Its destination is beyond what the current plan allows; only the earliest destinations are usable',
    );
  }
  return reopenDelivery(trx, d, now);
}

const found = (endpoint: WebhookEndpoint | null): WebhookEndpoint => {
  if (!endpoint) throw new DomainError('not_found', 'Webhook destination not found');
  return endpoint;
};

/** Disables the tenant's destination `id` for good (a foreign or deleted id is not found). */
export async function disableDestination(
  trx: Db,
  tenantId: string,
  id: string,
  now: Date,
  iface: WebhookInterface = 'proof',
): Promise<WebhookEndpoint> {
  return found(await markDisabled(trx, tenantId, id, now, iface));
}

/** Deletes the tenant's destination `id` (soft: its history stays; a foreign or deleted id is not found). */
export async function deleteDestination(
  trx: Db,
  tenantId: string,
  id: string,
  now: Date,
  iface: WebhookInterface = 'proof',
): Promise<WebhookEndpoint> {
  return found(await markDeleted(trx, tenantId, id, now, iface));
}

/** Gives the tenant's destination `id` a new signing secret and key version (a foreign or deleted id is not found). */
export async function rotateDestination(
  trx: Db,
  tenantId: string,
  id: string,
  secretSealed: string,
  now: Date,
  iface: WebhookInterface = 'proof',
): Promise<WebhookEndpoint> {
  return found(await replaceSecret(trx, tenantId, id, secretSealed, now, iface));
}

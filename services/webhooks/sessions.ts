import { LIMITS } from '../../domain/accounts.js';
import { DomainError } from '../../domain/errors.js';
import { usableLimit } from '../../domain/proof/plans.js';
import { V1_WEBHOOK_EVENT_TYPES } from '../../domain/validation/company.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { newWebhookSecret } from '../../adapters/crypto/tokens.js';
import { checkDestinationUrl, type DestinationPolicy } from '../../adapters/webhooks/url-policy.js';
import type { Db } from '../../db/connection.js';
import type { DeliverySummary } from '../../db/repositories/webhook-destinations.repo.js';
import type { WebhookEndpoint } from '../../db/repositories/webhooks.repo.js';
import { lockCompany } from '../company/company-lock.js';
import { lockMerchant } from '../proof/merchant-lock.js';
import type { WorkflowGateway } from '../workflows/workflow-client.js';
import { startAfterCommit, type AfterCommit } from '../workflows/workflow-starts.js';
import { createDestination, reopenFailedDelivery } from './destinations.js';

/*
 * What the two sessions do with webhooks beyond the destination rules (destinations.ts): a new destination (its URL
 * under the destination policy, its secret, the tenant's lock and limit) for the company's /v1 webhooks and the
 * merchant's /proof ones, and a merchant's manual retry of a failed delivery.
 */

export interface WebhookCreationDeps {
  secretBox: SecretBox;
  allowLoopbackForTests: boolean;
  /** WEBHOOK_PRIVATE_DESTINATIONS (config.webhooks.privateDestinations). */
  privateDestinations?: readonly string[] | undefined;
  now: () => Date;
}

/** A new destination and its signing secret (shown in the creation's answer only). */
export interface CreatedWebhook {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** The URL as the destination policy normalises it; refused (422 naming `url`) otherwise. */
function destinationUrl(deps: WebhookCreationDeps, url: string): string {
  const policy: DestinationPolicy = {
    allowLoopbackForTests: deps.allowLoopbackForTests,
    privateDestinations: deps.privateDestinations,
  };
  const check = checkDestinationUrl(url, policy);
  if (!check.ok)
    throw new DomainError('validation_failed', `url: ${check.reason}`, {
      issues: [{ path: 'url', message: check.reason }],
    });
  return check.href;
}

/**
 * A company's /v1 webhook (every /v1 event type): a public HTTPS URL under the destination policy, at most
 * `LIMITS.webhooksPerCompany` per company, decided in its own transaction under the company lock (creations are
 * serialised, so the limit cannot be overrun).
 */
export async function createCompanyWebhook(
  deps: WebhookCreationDeps & { db: Db },
  companyId: string,
  input: { url: string },
): Promise<CreatedWebhook> {
  const href = destinationUrl(deps, input.url);
  const secret = newWebhookSecret();
  const endpoint = await deps.db.transaction(async (trx) => {
    await lockCompany(trx, companyId);
    return createDestination(
      trx,
      {
        merchantId: companyId,
        url: href,
        events: [...V1_WEBHOOK_EVENT_TYPES],
        secretSealed: deps.secretBox.seal(secret),
        allowed: LIMITS.webhooksPerCompany,
        interface: 'v1',
      },
      deps.now(),
    );
  });
  return { endpoint, secret };
}

/**
 * A merchant's /proof destination, in the caller's transaction: the URL under the destination policy, then under the
 * merchant lock (creations are serialised) the plan's number of destinations.
 */
export async function createMerchantWebhook(
  deps: WebhookCreationDeps,
  trx: Db,
  merchantId: string,
  input: { url: string; events: string[] },
): Promise<CreatedWebhook> {
  const href = destinationUrl(deps, input.url);
  const now = deps.now();
  const merchant = await lockMerchant(trx, merchantId);
  const secret = newWebhookSecret();
  const endpoint = await createDestination(
    trx,
    {
      merchantId: merchant.id,
      url: href,
      events: input.events,
      secretSealed: deps.secretBox.seal(secret),
      allowed: usableLimit(merchant, now, 'destinations'),
    },
    now,
  );
  return { endpoint, secret };
}

/**
 * A merchant's manual retry of a failed delivery, in the caller's transaction: refused (503) without Temporal; under
 * the merchant lock, reopened in place if the rules allow it (reopenFailedDelivery, with the plan's destinations); the
 * same delivery (ids, body) goes on from its next attempt number, its `delivery:<id>` started after the commit.
 */
export async function retryMerchantDelivery(
  deps: { workflows: WorkflowGateway | null; now: () => Date },
  trx: Db,
  afterCommit: AfterCommit,
  merchantId: string,
  deliveryId: string,
): Promise<DeliverySummary> {
  const workflows = deps.workflows;
  if (!workflows)
    throw new DomainError('service_unavailable', 'Deliveries cannot be retried right now; try again later');
  const now = deps.now();
  const merchant = await lockMerchant(trx, merchantId);
  const delivery = await reopenFailedDelivery(
    trx,
    merchant.id,
    deliveryId,
    usableLimit(merchant, now, 'destinations'),
    now,
  );
  await startAfterCommit(trx, afterCommit, workflows, {
    kind: 'delivery',
    input: { deliveryId: delivery.id, interface: 'proof', startAttempt: delivery.attempts + 1 },
  });
  return delivery;
}

import type { z } from 'zod';
import type Router from '@koa/router';
import { answer } from '../http/contract.js';
import {
  deletedDestinationSchema,
  deliveryDetailSchema,
  deliverySchema,
  destinationSchema,
  newDestinationSchema,
  rotatedDestinationSchema,
} from '../../domain/validation/integrations-responses.js';
import { deliveryPageSchema } from './openapi.contract.js';
import { DomainError } from '../../domain/errors.js';
import { usableLimit } from '../../domain/proof/plans.js';
import { parseEmptyBody, parseWebhookCreate } from '../../domain/validation/integrations.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { newWebhookSecret } from '../../adapters/crypto/tokens.js';
import { checkDestinationUrl } from '../../adapters/webhooks/url-policy.js';
import type { Db } from '../../db/connection.js';
import { lockMerchant } from '../../services/proof/merchant-lock.js';
import { deliveriesPage, getDeliverySummary } from '../../db/repositories/webhook-destinations.repo.js';
import {
  createDestination,
  reopenFailedDelivery,
  deleteDestination,
  disableDestination,
  rotateDestination,
} from '../../services/webhooks/destinations.js';
import { listAttempts } from '../../db/repositories/webhooks.repo.js';
import type { AppState } from '../http/context.js';
import { merchantOf } from '../http/context.js';
import { withoutSecret, type MerchantIdempotent } from '../http/merchant-idempotency.js';
import { decodeCursor, page, parseLimit } from '../http/pagination.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { startAfterCommit } from '../../services/workflows/workflow-starts.js';
import { attemptJson, deliveryJson, destinationJson } from '../../services/webhooks/records.js';
import { PROOF_EVENT_TYPES, type ProofEventType } from '../../domain/proof/events.js';
import type { DeliverySummary } from '../../db/repositories/webhook-destinations.repo.js';
import type { WebhookEndpoint } from '../../db/repositories/webhooks.repo.js';

export interface WebhookRouteDeps {
  db: Db;
  secretBox: SecretBox;
  /** Starts `delivery:<id>` for a manual retry; null without Temporal (retries are then refused with 503). */
  workflows: WorkflowGateway | null;
  allowLoopbackForTests: boolean;
  /** WEBHOOK_PRIVATE_DESTINATIONS (config.webhooks.privateDestinations). */
  privateDestinations?: readonly string[] | undefined;
  now: () => Date;
}

const isProofEvent = (t: string): t is ProofEventType => (PROOF_EVENT_TYPES as readonly string[]).includes(t);

/** A /proof destination's metadata (never its secret): its events are /proof events, and a deleted one is never shown. */
export function proofDestinationJson(e: WebhookEndpoint, usable: boolean): z.input<typeof destinationSchema> {
  const { status, events, ...view } = destinationJson(e, usable);
  if (status === 'deleted') throw new Error(`destination ${e.id} is deleted`);
  return { ...view, status, events: events.filter(isProofEvent) };
}

/** A /proof delivery's history entry: deliveries of this session are of /proof events only (`getDeliverySummary(…, 'proof')`). */
function proofDeliveryJson(d: DeliverySummary): z.input<typeof deliverySchema> {
  const { event_type, ...view } = deliveryJson(d);
  if (!isProofEvent(event_type)) throw new Error(`delivery ${d.id} is of ${event_type}, not a /proof event`);
  return { ...view, event_type };
}

/** Webhook destinations (create, disable, delete, rotate) and the delivery history with manual retry. */
export function mountWebhooks(router: Router<AppState>, deps: WebhookRouteDeps, idempotent: MerchantIdempotent): void {
  const merchantId = (ctx: { state: AppState }) => merchantOf(ctx).id;

  router.post(
    '/webhooks',
    idempotent('integrations.webhooks.create', { storedBody: withoutSecret }, async (ctx, { transaction: trx }) => {
      const body = parseWebhookCreate(ctx.request.body);
      const check = checkDestinationUrl(body.url, {
        allowLoopbackForTests: deps.allowLoopbackForTests,
        privateDestinations: deps.privateDestinations,
      });
      if (!check.ok)
        throw new DomainError('validation_failed', `url: ${check.reason}`, {
          issues: [{ path: 'url', message: check.reason }],
        });
      const now = deps.now();
      const merchant = await lockMerchant(trx, merchantId(ctx)); // serialises creations: the limit cannot be overrun
      const secret = newWebhookSecret();
      const endpoint = await createDestination(
        trx,
        {
          merchantId: merchant.id,
          url: check.href,
          events: body.events,
          secretSealed: deps.secretBox.seal(secret),
          allowed: usableLimit(merchant, now, 'destinations'),
        },
        now,
      );
      ctx.state.resourceId = endpoint.id;
      ctx.status = 201;
      ctx.body = answer(newDestinationSchema, { ...proofDestinationJson(endpoint, true), secret });
    }),
  );

  router.post(
    '/webhooks/:id/disable',
    idempotent('integrations.webhooks.disable', async (ctx, { transaction: trx }) => {
      parseEmptyBody(ctx.request.body);
      const endpoint = await disableDestination(trx, merchantId(ctx), ctx.params['id'] ?? '', deps.now());
      ctx.body = answer(destinationSchema, proofDestinationJson(endpoint, false));
    }),
  );

  router.post(
    '/webhooks/:id/delete',
    idempotent('integrations.webhooks.delete', async (ctx, { transaction: trx }) => {
      parseEmptyBody(ctx.request.body);
      const endpoint = await deleteDestination(trx, merchantId(ctx), ctx.params['id'] ?? '', deps.now());
      if (endpoint.status !== 'deleted') throw new Error(`destination ${endpoint.id} is not deleted`);
      ctx.body = answer(deletedDestinationSchema, {
        id: endpoint.id,
        status: endpoint.status,
        deleted_at: deps.now().toISOString(),
      });
    }),
  );

  router.post(
    '/webhooks/:id/rotate',
    idempotent('integrations.webhooks.rotate', { storedBody: withoutSecret }, async (ctx, { transaction: trx }) => {
      parseEmptyBody(ctx.request.body);
      const secret = newWebhookSecret();
      const endpoint = await rotateDestination(
        trx,
        merchantId(ctx),
        ctx.params['id'] ?? '',
        deps.secretBox.seal(secret),
        deps.now(),
      );
      ctx.body = answer(rotatedDestinationSchema, { id: endpoint.id, key_version: endpoint.keyVersion, secret });
    }),
  );

  router.get('/deliveries', async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    const rows = await deliveriesPage(deps.db, merchantId(ctx), limit, decodeCursor('deliveries', ctx.query['before']));
    ctx.body = answer(deliveryPageSchema, page('deliveries', rows, limit, proofDeliveryJson));
  });

  /** GET /deliveries/{id}: the delivery and every attempt, oldest first. */
  router.get('/deliveries/:id', async (ctx) => {
    const delivery = await getDeliverySummary(deps.db, merchantId(ctx), ctx.params['id'] ?? '', 'proof');
    if (!delivery) throw new DomainError('not_found', 'Delivery not found');
    ctx.body = answer(deliveryDetailSchema, {
      ...proofDeliveryJson(delivery),
      attempts_detail: (await listAttempts(deps.db, delivery.id)).map(attemptJson),
    });
  });

  router.post(
    '/deliveries/:id/retry',
    idempotent('integrations.deliveries.retry', async (ctx, { transaction: trx, afterCommit }) => {
      parseEmptyBody(ctx.request.body);
      const workflows = deps.workflows;
      if (!workflows)
        throw new DomainError('service_unavailable', 'Deliveries cannot be retried right now; try again later');
      const now = deps.now();
      const merchant = await lockMerchant(trx, merchantId(ctx));
      const delivery = await reopenFailedDelivery(
        trx,
        merchant.id,
        ctx.params['id'] ?? '',
        usableLimit(merchant, now, 'destinations'),
        now,
      );
      // The same delivery (ids, body) goes on from its next attempt number: the remaining budget, no new one.
      await startAfterCommit(trx, afterCommit, workflows, {
        kind: 'delivery',
        input: { deliveryId: delivery.id, interface: 'proof', startAttempt: delivery.attempts + 1 },
      });
      ctx.status = 202;
      ctx.body = answer(deliverySchema, proofDeliveryJson(delivery));
    }),
  );
}

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
import { parseEmptyBody, parseWebhookCreate } from '../../domain/validation/integrations.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { newWebhookSecret } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import { deliveriesPage, getDeliverySummary } from '../../db/repositories/webhook-destinations.repo.js';
import { deleteDestination, disableDestination, rotateDestination } from '../../services/webhooks/destinations.js';
import { createMerchantWebhook, retryMerchantDelivery } from '../../services/webhooks/sessions.js';
import { listAttempts } from '../../db/repositories/webhooks.repo.js';
import type { AppState } from '../http/context.js';
import { merchantOf } from '../http/context.js';
import { withoutSecret, type MerchantIdempotent } from '../http/merchant-idempotency.js';
import { decodeCursor, page, parseLimit } from '../http/pagination.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
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
      const { endpoint, secret } = await createMerchantWebhook(deps, trx, merchantId(ctx), {
        url: body.url,
        events: body.events,
      });
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
      const delivery = await retryMerchantDelivery(deps, trx, afterCommit, merchantId(ctx), ctx.params['id'] ?? '');
      ctx.status = 202;
      ctx.body = answer(deliverySchema, proofDeliveryJson(delivery));
    }),
  );
}

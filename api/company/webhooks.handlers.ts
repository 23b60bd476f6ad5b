import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { parseEmptyBody } from '../../domain/validation/integrations.js';
import type { z } from 'zod';
import {
  parseV1WebhookCreate,
  V1_WEBHOOK_EVENT_TYPES,
  type deletedV1WebhookSchema,
  type newV1WebhookSchema,
  type rotatedV1WebhookSchema,
  type v1WebhookListSchema,
  type v1WebhookSchema,
} from '../../domain/validation/company.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { newWebhookSecret } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import {
  deliveriesPage,
  getDeliverySummary,
  listDestinations,
} from '../../db/repositories/webhook-destinations.repo.js';
import { deleteDestination, disableDestination, rotateDestination } from '../../services/webhooks/destinations.js';
import { listAttempts, type WebhookEndpoint } from '../../db/repositories/webhooks.repo.js';
import type { AppState } from '../http/context.js';
import { memberOf } from '../http/context.js';
import { answer } from '../http/contract.js';
import { deliveryPageSchema } from './responses.js';
import { v1DeliveryDetailSchema, type v1DeliverySchema } from '../../domain/validation/company-responses.js';
import { decodeCursor, page, parseLimit } from '../http/pagination.js';
import { attemptJson, deliveryJson as proofDeliveryJson, destinationJson } from '../../services/webhooks/records.js';
import { createCompanyWebhook } from '../../services/webhooks/sessions.js';

export interface CompanyWebhookDeps {
  db: Db;
  secretBox: SecretBox;
  allowLoopbackForTests: boolean;
  /** WEBHOOK_PRIVATE_DESTINATIONS (config.webhooks.privateDestinations). */
  privateDestinations?: readonly string[] | undefined;
  now: () => Date;
}

/** A /v1 webhook's metadata: never its signing secret. */
export function webhookJson(e: WebhookEndpoint): z.input<typeof v1WebhookSchema> {
  const { usable: _plan, status, events, ...view } = destinationJson(e, true); // `usable` is the /proof plan rule
  // A deleted webhook is never listed or read (listDestinations leaves it out); its events are the /v1 ones.
  if (status === 'deleted') throw new Error(`webhook ${e.id} is deleted`);
  return { ...view, status, events: events.filter(isV1WebhookEvent) };
}

const isV1WebhookEvent = (t: string): t is (typeof V1_WEBHOOK_EVENT_TYPES)[number] =>
  (V1_WEBHOOK_EVENT_TYPES as readonly string[]).includes(t);

/** A delivery of the history: ids, type, state and attempt counts; never the body. No manual retry on /v1. */
function deliveryJson(d: Parameters<typeof proofDeliveryJson>[0]): z.input<typeof v1DeliverySchema> {
  const { retryable: _manual, endpoint_id: webhookId, ...view } = proofDeliveryJson(d);
  return { ...view, webhook_id: webhookId };
}

const V1 = 'v1' as const;

/**
 * `POST /v1/webhooks` (spec section 4): a public HTTPS URL under the same destination policy as /proof's
 * (adapters/webhooks/url-policy.ts), at most 20 per company; the signing secret is in this response only.
 */
export function createWebhookHandler(deps: CompanyWebhookDeps): Middleware<AppState> {
  return async (ctx) => {
    const body = parseV1WebhookCreate(ctx.request.body);
    const { endpoint, secret } = await createCompanyWebhook(deps, memberOf(ctx).companyId, { url: body.url });
    ctx.status = 201;
    ctx.set('Location', `/api/company/webhooks/${endpoint.id}`);
    const created: z.input<typeof newV1WebhookSchema> = { ...webhookJson(endpoint), secret };
    ctx.body = created;
  };
}

/** List, read, disable, delete, rotate; the delivery history with every attempt. */
export function mountWebhooks(router: Router<AppState>, deps: CompanyWebhookDeps): void {
  const companyId = (ctx: { state: AppState }) => memberOf(ctx).companyId;
  const inTransaction = <T>(work: (trx: Db) => Promise<T>) => deps.db.transaction(work);

  router.get('/webhooks', async (ctx) => {
    const list: z.input<typeof v1WebhookListSchema> = {
      data: (await listDestinations(deps.db, companyId(ctx), V1)).map(webhookJson),
    };
    ctx.body = list;
  });

  router.get('/webhooks/:id', async (ctx) => {
    const endpoint = (await listDestinations(deps.db, companyId(ctx), V1)).find((e) => e.id === ctx.params['id']);
    if (!endpoint) throw new DomainError('not_found', 'Webhook not found');
    ctx.body = webhookJson(endpoint);
  });

  router.post('/webhooks/:id/disable', async (ctx) => {
    parseEmptyBody(ctx.request.body);
    ctx.body = webhookJson(
      await inTransaction((trx) => disableDestination(trx, companyId(ctx), ctx.params['id'] ?? '', deps.now(), V1)),
    );
  });

  router.post('/webhooks/:id/delete', async (ctx) => {
    parseEmptyBody(ctx.request.body);
    const endpoint = await inTransaction((trx) =>
      deleteDestination(trx, companyId(ctx), ctx.params['id'] ?? '', deps.now(), V1),
    );
    if (endpoint.status !== 'deleted') throw new Error(`webhook ${endpoint.id} is not deleted`);
    const deleted: z.input<typeof deletedV1WebhookSchema> = {
      id: endpoint.id,
      status: endpoint.status,
      deleted_at: deps.now().toISOString(),
    };
    ctx.body = deleted;
  });

  // The new secret is in this response only; the next attempt of every pending retry signs with it.
  router.post('/webhooks/:id/rotate', async (ctx) => {
    parseEmptyBody(ctx.request.body);
    const secret = newWebhookSecret();
    const endpoint = await inTransaction((trx) =>
      rotateDestination(trx, companyId(ctx), ctx.params['id'] ?? '', deps.secretBox.seal(secret), deps.now(), V1),
    );
    const rotated: z.input<typeof rotatedV1WebhookSchema> = {
      id: endpoint.id,
      key_version: endpoint.keyVersion,
      secret,
    };
    ctx.body = rotated;
  });

  router.get('/deliveries', async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    const rows = await deliveriesPage(deps.db, companyId(ctx), limit, decodeCursor('deliveries', ctx.query['before']), {
      iface: V1,
    });
    ctx.body = answer(deliveryPageSchema, page('deliveries', rows, limit, deliveryJson));
  });

  router.get('/deliveries/:id', async (ctx) => {
    const delivery = await getDeliverySummary(deps.db, companyId(ctx), ctx.params['id'] ?? '', V1);
    if (!delivery) throw new DomainError('not_found', 'Delivery not found');
    const attempts = await listAttempts(deps.db, delivery.id);
    ctx.body = answer(v1DeliveryDetailSchema, {
      ...deliveryJson(delivery),
      attempts_detail: attempts.map(attemptJson),
    });
  });
}

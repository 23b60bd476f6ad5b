import type Router from '@koa/router';
import { answer } from '../http/contract.js';
import {
  merchantKeySchema,
  newMerchantKeySchema,
  overviewSchema,
} from '../../domain/validation/integrations-responses.js';
import { validateExpiry } from '../../domain/api-keys.js';
import { DomainError } from '../../domain/errors.js';
import { PROOF_EVENT_TYPES } from '../../domain/proof/events.js';
import { entitlementAt, usableAfterDowngrade, usableLimit } from '../../domain/proof/plans.js';
import { parseEmptyBody, parseKeyCreate } from '../../domain/validation/integrations.js';
import type { Db } from '../../db/connection.js';
import { listApiKeys, revokeApiKey } from '../../db/repositories/api-keys.repo.js';
import { issueMerchantKey } from '../../services/proof/account.js';
import { listDestinations } from '../../db/repositories/webhook-destinations.repo.js';
import type { AppState } from '../http/context.js';
import { merchantOf, sessionOf } from '../http/context.js';
import { withoutSecret, type MerchantIdempotent } from '../http/merchant-idempotency.js';
import { usageOf } from '../../services/proof/quota.js';
import { isActive, keyJson } from '../../services/keys/records.js';
import { proofDestinationJson } from './webhooks.handlers.js';

export interface ManagementDeps {
  db: Db;
  now: () => Date;
}

/** Inactive (revoked or expired) keys listed beside the active ones: the most recent, bounded. */
const INACTIVE_KEYS_SHOWN = 20;

/** `GET /api/integrations` (keys, webhook metadata, event types, entitlements) and the key routes. */
export function mountKeys(router: Router<AppState>, deps: ManagementDeps, idempotent: MerchantIdempotent): void {
  router.get('/', async (ctx) => {
    const merchant = merchantOf(ctx);
    const now = deps.now();
    const ent = entitlementAt(merchant, now);
    const allowedKeys = usableLimit(merchant, now, 'keys');
    const allowedDestinations = usableLimit(merchant, now, 'destinations');
    const keys = await listApiKeys(deps.db, 'proof', merchant.id);
    const active = keys.filter((k) => isActive(k, now)); // oldest first: the rank order of the downgrade rule
    const inactive = keys
      .filter((k) => !isActive(k, now))
      .reverse()
      .slice(0, INACTIVE_KEYS_SHOWN);
    const destinations = await listDestinations(deps.db, merchant.id);
    const usage = await usageOf(deps.db, merchant, ent);
    ctx.body = answer(overviewSchema, {
      merchant: { id: merchant.id, name: merchant.name },
      user: { id: sessionOf(ctx).userId, email: sessionOf(ctx).email },
      entitlements: {
        plan: ent.kind === 'plan' ? ent.plan : ent.kind === 'trial' ? 'trial' : null,
        ends_at: ent.kind === 'none' ? null : ent.endsAt.toISOString(),
        keys: { limit: allowedKeys, used: active.length },
        destinations: { limit: allowedDestinations, used: destinations.length },
        requests_per_period: ent.kind === 'none' ? null : ent.limits.requestsPerPeriod,
        invoices_per_period: ent.kind === 'none' ? null : ent.limits.invoicesPerPeriod,
        usage: {
          requests: usage.requests,
          invoices: usage.invoices,
          window_start: usage.windowStart?.toISOString() ?? null,
        },
      },
      keys: [
        ...active.map((k, rank) => keyJson(k, now, usableAfterDowngrade(rank, allowedKeys))),
        ...inactive.map((k) => keyJson(k, now, false)),
      ],
      webhooks: destinations.map((d) => proofDestinationJson(d, usableAfterDowngrade(d.rank, allowedDestinations))),
      event_types: [...PROOF_EVENT_TYPES],
    });
  });

  // The secret is in the live response only; a replay of the same call returns the metadata with `secret: null`.
  router.post(
    '/keys',
    idempotent('integrations.keys.create', { storedBody: withoutSecret }, async (ctx, { transaction: trx }) => {
      const body = parseKeyCreate(ctx.request.body);
      const now = deps.now();
      const expiresAt = validateExpiry('proof', body.expires_at, now);
      const { key, secret } = await issueMerchantKey(
        trx,
        { merchantId: merchantOf(ctx).id, name: body.name, scopes: body.scopes, expiresAt },
        now,
      );
      ctx.state.resourceId = key.id;
      ctx.status = 201;
      ctx.body = answer(newMerchantKeySchema, { ...keyJson(key, now, true), secret });
    }),
  );

  router.post(
    '/keys/:id/revoke',
    idempotent('integrations.keys.revoke', async (ctx, { transaction: trx }) => {
      parseEmptyBody(ctx.request.body);
      const now = deps.now();
      const key = await revokeApiKey(trx, 'proof', merchantOf(ctx).id, ctx.params['id'] ?? '', now);
      if (!key) throw new DomainError('not_found', 'API key not found');
      ctx.body = answer(merchantKeySchema, keyJson(key, now, false));
    }),
  );
}

import type Router from '@koa/router';
import { answer } from '../http/contract.js';
import { planSchema, purchaseSchema } from '../../domain/validation/integrations-responses.js';
import { purchasePageSchema } from './openapi.contract.js';
import { DomainError } from '../../domain/errors.js';
import { formatUsdc } from '../../domain/money.js';
import {
  entitlementAt,
  PAID_PLANS,
  paidSchedule,
  PLAN_PERIOD_DAYS,
  TRIAL_DAYS,
  type MerchantPlanState,
} from '../../domain/proof/plans.js';
import type { SelfServiceConfig } from '../../domain/self-service.js';
import { parsePlanPurchase } from '../../domain/validation/self-service.js';
import type { Db } from '../../db/connection.js';
import { getPurchase, listPurchases } from '../../db/repositories/platform-purchases.repo.js';
import type { AppState } from '../http/context.js';
import { merchantOf } from '../http/context.js';
import { decodeCursor, page, parseLimit } from '../http/pagination.js';
import { publicBase } from '../http/public-origin.js';
import { limitsJson } from '../shared/proof/limits.js';
import type { MerchantIdempotent } from '../http/merchant-idempotency.js';
import { usageOf } from '../../services/proof/quota.js';
import { purchaseJson, purchaseNetworks } from '../../services/self-service/purchases.js';
import { orderPlan } from '../../services/self-service/orders.js';

export interface PlanRouteDeps {
  db: Db;
  selfService: SelfServiceConfig;
  publicBaseUrl: string | undefined;
  proPerHour: number;
  now: () => Date;
}

/** The paid periods that follow the one running at `now` (docs/proof.md "Plans paid in USDC"), in the order they run. */
function queuedPeriods(m: MerchantPlanState, now: Date) {
  const schedule = paidSchedule(m);
  const running = schedule.findIndex((p) => p.end.getTime() > now.getTime());
  return running < 0
    ? []
    : schedule
        .slice(running + 1)
        .map((p) => ({ plan: p.plan, starts_at: p.start!.toISOString(), ends_at: p.end.toISOString() }));
}

/**
 * The merchant's plan and its purchase (docs/proof.md "Plans paid in USDC"). Mounted behind the session and CSRF
 * guards but before the active-plan guard: a merchant whose plan or trial ended must be able to buy one.
 */
export function mountPlan(router: Router<AppState>, deps: PlanRouteDeps, idempotent: MerchantIdempotent): void {
  router.get('/plan', async (ctx) => {
    const merchant = merchantOf(ctx);
    const now = deps.now();
    const ent = entitlementAt(merchant, now);
    const usage = await usageOf(deps.db, merchant, ent);
    ctx.body = answer(planSchema, {
      plan: ent.kind === 'plan' ? ent.plan : ent.kind === 'trial' ? 'trial' : null,
      ends_at: ent.kind === 'none' ? null : ent.endsAt.toISOString(),
      paid_plan: merchant.plan,
      paid_until: merchant.planPaidUntil?.toISOString() ?? null,
      queued: queuedPeriods(merchant, now),
      limits: ent.kind === 'none' ? null : limitsJson(ent.limits, deps.proPerHour),
      usage: {
        requests: usage.requests,
        invoices: usage.invoices,
        window_start: usage.windowStart?.toISOString() ?? null,
      },
      prices: PAID_PLANS.map((plan) => ({
        plan,
        price_usdc: formatUsdc(BigInt(deps.selfService.planPricesAtomic[plan])),
        period_days: PLAN_PERIOD_DAYS,
      })),
      trial_days: TRIAL_DAYS,
      purchase_networks: purchaseNetworks(deps.selfService),
    });
  });

  /** POST /plan/purchases `{plan, network, payer}` → 201: a purchase awaiting its payment to the platform's wallet. */
  router.post(
    '/plan/purchases',
    idempotent('integrations.plan.purchase', async (ctx, { transaction: trx }) => {
      const body = parsePlanPurchase(ctx.request.body);
      const now = deps.now();
      const purchase = await orderPlan(deps.selfService, trx, merchantOf(ctx), body, now);
      ctx.state.resourceId = purchase.id;
      ctx.status = 201;
      ctx.body = answer(purchaseSchema, purchaseJson(purchase, publicBase(deps.publicBaseUrl, ctx), now));
    }),
  );

  router.get('/plan/purchases', async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    const rows = await listPurchases(
      deps.db,
      { kind: 'plan', merchantId: merchantOf(ctx).id },
      limit,
      decodeCursor('purchases', ctx.query['before']),
    );
    const now = deps.now();
    ctx.body = answer(
      purchasePageSchema,
      page('purchases', rows, limit, (p) => purchaseJson(p, publicBase(deps.publicBaseUrl, ctx), now)),
    );
  });

  router.get('/plan/purchases/:id', async (ctx) => {
    const purchase = await getPurchase(
      deps.db,
      { kind: 'plan', merchantId: merchantOf(ctx).id },
      ctx.params['id'] ?? '',
    );
    if (!purchase) throw new DomainError('not_found', 'Purchase not found');
    ctx.body = answer(purchaseSchema, purchaseJson(purchase, publicBase(deps.publicBaseUrl, ctx), deps.now()));
  });
}

import { DomainError } from '../../domain/errors.js';
import { PLAN_PERIOD_DAYS, type MerchantPlanState } from '../../domain/proof/plans.js';
import { planPurchaseIssue, type SelfServiceConfig } from '../../domain/self-service.js';
import type { PackPurchase, PlanPurchase } from '../../domain/validation/self-service.js';
import type { Db } from '../../db/connection.js';
import type { Purchase } from '../../db/repositories/platform-purchases.repo.js';
import { startPurchase } from './purchases.js';

/*
 * What a buyer orders in the dashboards (a /proof plan from the merchant's session, a credit pack from the company's),
 * priced from the self-service configuration; the purchase itself (a payment to the platform's wallet) is startPurchase.
 */

/**
 * A merchant's plan purchase, in the caller's transaction: a plan the merchant may buy now (planPurchaseIssue; 422
 * naming `plan` otherwise), at the configured price for one period.
 */
export async function orderPlan(
  cfg: SelfServiceConfig,
  trx: Db,
  merchant: MerchantPlanState & { id: string },
  body: PlanPurchase,
  now: Date,
): Promise<Purchase> {
  const issue = planPurchaseIssue(merchant, body.plan, now);
  if (issue)
    throw new DomainError('validation_failed', `plan: ${issue}`, { issues: [{ path: 'plan', message: issue }] });
  return startPurchase(
    trx,
    cfg,
    {
      buyer: { kind: 'plan', merchantId: merchant.id },
      plan: body.plan,
      network: body.network,
      payer: body.payer,
      priceAtomic: BigInt(cfg.planPricesAtomic[body.plan]),
      description: `${body.plan} plan, ${PLAN_PERIOD_DAYS} days, for ${merchant.id}`,
    },
    now,
  );
}

/**
 * A company's credit pack purchase, in its own transaction: one of the configured packs (404 naming `pack`
 * otherwise), at its price.
 */
export async function orderCreditPack(
  cfg: SelfServiceConfig,
  db: Db,
  companyId: string,
  body: PackPurchase,
  now: Date,
): Promise<Purchase> {
  const pack = cfg.creditPacks.find((p) => p.id === body.pack);
  if (!pack)
    throw new DomainError('not_found', 'pack: no credit pack with this id (see GET /api/company/credit-packs)', {
      issues: [{ path: 'pack', message: 'no credit pack with this id' }],
    });
  return db.transaction((trx) =>
    startPurchase(
      trx,
      cfg,
      {
        buyer: { kind: 'credits', companyId },
        pack: { id: pack.id, credits: BigInt(pack.credits) },
        network: body.network,
        payer: body.payer,
        priceAtomic: BigInt(pack.priceAtomic),
        description: `${pack.credits} credits for ${companyId}`,
      },
      now,
    ),
  );
}

import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import { formatUsdc } from '../../domain/money.js';
import type { SelfServiceConfig } from '../../domain/self-service.js';
import type { z } from 'zod';
import { parsePackPurchase, type creditPacksSchema } from '../../domain/validation/self-service.js';
import type { Db } from '../../db/connection.js';
import { getPurchase, listPurchases } from '../../db/repositories/platform-purchases.repo.js';
import type { AppState } from '../http/context.js';
import { memberOf } from '../http/context.js';
import { decodeCursor, page, parseLimit } from '../http/pagination.js';
import { purchasePageSchema } from './responses.js';
import { answer } from '../http/contract.js';
import { publicBase } from '../http/public-origin.js';
import { purchaseJson, purchaseNetworks } from '../../services/self-service/purchases.js';
import { orderCreditPack } from '../../services/self-service/orders.js';

export interface CreditPackDeps {
  db: Db;
  selfService: SelfServiceConfig;
  publicBaseUrl: string | undefined;
  now: () => Date;
}

/**
 * Credit packs paid in USDC (docs/processing.md "Credit packs paid in USDC"): the same purchase as a merchant's plan
 * (services/self-service/purchases.ts), granted once through the credits ledger when the payment watcher confirms it.
 * Reads are for every member; buying is a billing administrator's (`admin` is that guard).
 */
export function mountCreditPacks(signedIn: Router<AppState>, admin: Router<AppState>, deps: CreditPackDeps): void {
  const buyer = (ctx: { state: AppState }) => ({ kind: 'credits' as const, companyId: memberOf(ctx).companyId });

  signedIn.get('/credit-packs', (ctx) => {
    const packs: z.input<typeof creditPacksSchema> = {
      packs: deps.selfService.creditPacks.map((p) => ({
        id: p.id,
        credits: p.credits,
        price_usdc: formatUsdc(BigInt(p.priceAtomic)),
      })),
      purchase_networks: purchaseNetworks(deps.selfService),
      card_checkout: false,
    };
    ctx.body = packs;
  });

  signedIn.get('/credit-packs/purchases', async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    const rows = await listPurchases(deps.db, buyer(ctx), limit, decodeCursor('purchases', ctx.query['before']));
    const now = deps.now();
    ctx.body = answer(
      purchasePageSchema,
      page('purchases', rows, limit, (p) => purchaseJson(p, publicBase(deps.publicBaseUrl, ctx), now)),
    );
  });

  signedIn.get('/credit-packs/purchases/:id', async (ctx) => {
    const purchase = await getPurchase(deps.db, buyer(ctx), ctx.params['id'] ?? '');
    if (!purchase) throw new DomainError('not_found', 'Purchase not found');
    ctx.body = purchaseJson(purchase, publicBase(deps.publicBaseUrl, ctx), deps.now());
  });

  /** POST /credit-packs/purchases `{pack, network, payer}` → 201: a purchase awaiting its payment to the platform's wallet. */
  admin.post('/credit-packs/purchases', async (ctx) => {
    const body = parsePackPurchase(ctx.request.body);
    const now = deps.now();
    const purchase = await orderCreditPack(deps.selfService, deps.db, memberOf(ctx).companyId, body, now);
    ctx.status = 201;
    ctx.body = purchaseJson(purchase, publicBase(deps.publicBaseUrl, ctx), now);
  });
}

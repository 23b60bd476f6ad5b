import type Router from '@koa/router';
import { PROOF_API_VERSION } from '../../domain/proof/events.js';
import { entitlementAt } from '../../domain/proof/plans.js';
import type { MeJson } from '../../domain/validation/proof-responses.js';
import { listVerifiedWallets } from '../../db/repositories/merchants.repo.js';
import type { MerchantIdempotent } from '../http/merchant-idempotency.js';
import type { AppState } from '../http/context.js';
import { merchantOf } from '../http/context.js';
import type { ProofDeps } from '../shared/proof/requests.handlers.js';
import { mountContacts } from '../shared/proof/contacts.handlers.js';
import { mountEvents } from '../shared/proof/events.handlers.js';
import { limitsJson } from '../shared/proof/limits.js';
import { usageOf } from '../../services/proof/quota.js';

/** `/v1/me`, contacts and the event log. */
export function mountAccount(router: Router<AppState>, deps: ProofDeps, idempotent: MerchantIdempotent): void {
  mountMe(router, deps);
  mountContacts(router, deps, idempotent);
  mountEvents(router, deps);
}

function mountMe(router: Router<AppState>, deps: ProofDeps): void {
  router.get('/v1/me', async (ctx) => {
    const merchant = merchantOf(ctx);
    const now = deps.now();
    const ent = entitlementAt(merchant, now);
    const usage = await usageOf(deps.db, merchant, ent);
    const limits = ent.kind === 'none' ? null : ent.limits;
    const body: MeJson = {
      api_version: PROOF_API_VERSION,
      id: merchant.id,
      name: merchant.name,
      plan: ent.kind === 'plan' ? ent.plan : ent.kind === 'trial' ? 'trial' : null,
      plan_ends_at: ent.kind === 'none' ? null : ent.endsAt.toISOString(),
      limits: limits && limitsJson(limits, deps.proPerHour),
      usage: {
        requests: usage.requests,
        invoices: usage.invoices,
        window_start: usage.windowStart?.toISOString() ?? null,
      },
      wallets: (await listVerifiedWallets(deps.db, merchant.id)).map((w) => ({
        id: w.id,
        network: w.network,
        address: w.address,
        label: w.label,
      })),
    };
    ctx.body = body;
  });
}

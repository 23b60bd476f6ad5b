import type { ProofMount } from '../../api/proof/proof.routes.js';
import { merchantOf } from '../../api/http/context.js';
import { publicBase } from '../../api/http/public-origin.js';
import { DomainError } from '../../domain/errors.js';
import { parseRequestCreate } from '../../domain/validation/proof-request.js';
import { requestJson } from '../../services/proof/payment-requests.js';
import type { BenchMerchant } from './proof-db.js';
import { insertBareRow } from './proof-db.js';

/** Where the baseline answers: beside the product's `POST /proof/v1/requests`, behind the same router and guards. */
export const BASELINE_PATH = '/proof/v1/bench/requests';

/**
 * The baseline of issue 31 item 5: the app's own HTTP stack (the same app, router, key check, rate limits, merchant
 * and plan guard, JSON body and /proof idempotency middleware, claiming the key with the stored answer at commit)
 * around ONE INSERT of the same `payment_requests` row a creation writes (`insertBareRow`, the bare side's statement).
 * What it leaves out is the creation's own work: the merchant and wallet locks, quota, limits on `valid_hours`, the
 * unique-delta search, the webhook destinations count and the event. The amount is the quote plus the next delta of
 * `nextDelta` (unique per wallet, past the API's: the bench sets where it starts). The wallet must be one of the
 * bench's merchants' and the key's merchant's, else 404 as the product answers.
 */
export function baselineInsertMount(opts: {
  merchants: () => readonly BenchMerchant[];
  nextDelta: () => bigint;
  publicBaseUrl: string | null | undefined;
}): ProofMount {
  return (router, idempotent) => {
    router.post(
      '/v1/bench/requests',
      idempotent('bench.baseline_insert', { claimAtCommit: true }, async (ctx, { transaction }) => {
        const req = parseRequestCreate(ctx.request.body);
        const merchant = merchantOf(ctx);
        const owner = opts.merchants().find((m) => m.id === merchant.id && m.wallet.id === req.walletId);
        if (!owner) throw new DomainError('not_found', 'no verified wallet with this id in this account');
        const now = new Date();
        const row = await insertBareRow(
          transaction,
          {
            merchantId: merchant.id,
            wallet: owner.wallet,
            quotedAtomic: req.quotedAtomic,
            amountAtomic: req.quotedAtomic + opts.nextDelta(),
            description: req.description,
            validHours: req.validHours,
          },
          now,
        );
        // The answer is the product's record of the row as inserted (`returning *`), as a creation answers.
        ctx.state.resourceId = row.id;
        ctx.status = 201;
        ctx.body = requestJson(row, publicBase(opts.publicBaseUrl, ctx), now);
      }),
    );
  };
}

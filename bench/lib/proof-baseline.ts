import { DomainError } from '../../domain/errors.js';
import { parseRequestCreate } from '../../domain/validation/proof-request.js';
import { requestJson } from '../../services/proof/payment-requests.js';
import type { ProofBenchRoute } from './http-stack.js';
import type { BenchMerchant } from './proof-db.js';
import { insertBareRow } from './proof-db.js';

/** Where the baseline answers: beside the product's `POST /proof/v1/requests`, behind the same router and guards. */
export const BASELINE_PATH = '/proof/v1/bench/requests';

/**
 * The baseline of issue 31 item 5: the app's own HTTP stack (the same app, router, key check, rate limits, merchant
 * and plan guard, JSON body and /proof idempotency middleware, claiming the key with the stored answer at commit;
 * bench/lib/http-stack.ts mounts it) around ONE INSERT of the same `payment_requests` row a creation writes
 * (`insertBareRow`, the bare side's statement). What it leaves out is the creation's own work: the merchant and wallet
 * locks, quota, limits on `valid_hours`, the unique-delta search, the webhook destinations count and the event. The
 * amount is the quote plus the next delta of `nextDelta` (unique per wallet, past the API's: the bench sets where it
 * starts). The wallet must be one of the bench's merchants' and the key's merchant's, else 404 as the product answers.
 */
export function baselineInsertRoute(opts: {
  merchants: () => readonly BenchMerchant[];
  nextDelta: () => bigint;
}): ProofBenchRoute {
  return {
    path: BASELINE_PATH.slice('/proof'.length),
    operation: 'bench.baseline_insert',
    handle: async ({ body, merchantId, publicBase, transaction }) => {
      const req = parseRequestCreate(body);
      const owner = opts.merchants().find((m) => m.id === merchantId && m.wallet.id === req.walletId);
      if (!owner) throw new DomainError('not_found', 'no verified wallet with this id in this account');
      const now = new Date();
      const row = await insertBareRow(
        transaction,
        {
          merchantId,
          wallet: owner.wallet,
          quotedAtomic: req.quotedAtomic,
          amountAtomic: req.quotedAtomic + opts.nextDelta(),
          description: req.description,
          validHours: req.validHours,
        },
        now,
      );
      // The answer is the product's record of the row as inserted (`returning *`), as a creation answers.
      return { status: 201, body: requestJson(row, publicBase, now), resourceId: row.id };
    },
  };
}

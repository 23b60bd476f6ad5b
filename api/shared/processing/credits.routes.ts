import type Router from '@koa/router';
import type { z } from 'zod';
import type { creditsSchema, ledgerEntrySchema } from '../../../domain/validation/processing-responses.js';
import type { Db } from '../../../db/connection.js';
import type { LedgerFeedEntry } from '../../../db/repositories/credits.repo.js';
import { getCreditsWithLedger } from '../../../services/processing/credits.js';
import type { AppContext, AppState } from '../../http/context.js';
import { keyOf } from '../../http/context.js';
import { parseAfter, parseLimit } from '../../http/pagination.js';

/** One ledger entry as the API shows it (credits are whole numbers). */
export function ledgerEntryJson(e: LedgerFeedEntry): z.input<typeof ledgerEntrySchema> {
  return {
    id: e.id,
    kind: e.kind,
    amount: Number(e.amount),
    job_id: e.jobId,
    reason: e.reason,
    created_at: e.createdAt.toISOString(),
  };
}

/**
 * GET /v1/credits?after=&limit=: the wallet's `available` and `reserved` credits, and its ledger as a feed (the
 * `/proof/v1/events` convention): entries with an id greater than `after`, oldest first; `next_cursor` is the last id
 * returned (or `after` itself when nothing is new), to pass as `after` next time. Read scope. The company session
 * mounts the same route (`GET /api/company/credits`) with the signed-in member's company.
 */
export function mountCredits(
  router: Router<AppState>,
  deps: { db: Db; companyOf?: (ctx: AppContext) => string },
): void {
  const companyOf = deps.companyOf ?? ((ctx: AppContext) => keyOf(ctx).tenantId);
  router.get('/credits', async (ctx) => {
    const after = parseAfter(ctx.query['after']);
    const limit = parseLimit(ctx.query['limit']);
    const companyId = companyOf(ctx);
    const { balance, entries } = await getCreditsWithLedger(deps.db, companyId, after, limit);
    const body: z.input<typeof creditsSchema> = {
      available: Number(balance.available),
      reserved: Number(balance.reserved),
      ledger: {
        data: entries.map(ledgerEntryJson),
        next_cursor: entries.length ? entries[entries.length - 1]!.id : after,
      },
    };
    ctx.body = body;
  });
}

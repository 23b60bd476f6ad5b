import type Router from '@koa/router';
import { DomainError } from '../../../domain/errors.js';
import { parseRequestCreate } from '../../../domain/validation/proof-request.js';
import type { Db } from '../../../db/connection.js';
import { getPaymentRequest, listPaymentRequests } from '../../../db/repositories/payment-requests.repo.js';
import type { MerchantIdempotent } from '../../http/merchant-idempotency.js';
import type { AppContext, AppState } from '../../http/context.js';
import { merchantOf } from '../../http/context.js';
import { decodeCursor, page, parseLimit } from '../../http/pagination.js';
import { publicBase } from '../../http/public-origin.js';
import { REQUEST_STATUSES, type RequestStatus } from '../../../domain/proof/statuses.js';
import { createPaymentRequest, requestJson } from '../../../services/proof/payment-requests.js';

export interface ProofDeps {
  db: Db;
  /** Public origin for payment page links; the request's own origin when unset. */
  publicBaseUrl: string | null | undefined;
  /** The enforced pro creations per hour (RATE_LIMIT_PROOF_PRO_PER_HOUR), as /v1/me reports it. */
  proPerHour: number;
  now: () => Date;
}

/** PUBLIC_BASE_URL, else this request's own scheme and host (`publicBase`; Koa's `origin` reflects the Origin header). */
export const originOf = (deps: ProofDeps, ctx: AppContext) => publicBase(deps.publicBaseUrl, ctx);

/**
 * Where a set of /proof handlers is mounted: `/v1` on the API-key router (`/proof/v1/…`), `` on the dashboard's
 * session router (`/api/integrations/…`). The handlers are the same functions either way; the session router adds
 * the list filters the dashboard needs (`filters`).
 */
export interface MountAt {
  base: '/v1' | '';
  filters?: boolean;
}

/** `status` of a request list: one of the request states, or absent. */
function parseStatusFilter(raw: unknown): RequestStatus | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string' && (REQUEST_STATUSES as readonly string[]).includes(raw)) return raw as RequestStatus;
  throw new DomainError('validation_failed', `status must be one of ${REQUEST_STATUSES.join(', ')}`, {
    issues: [{ path: 'status', message: `one of ${REQUEST_STATUSES.join(', ')}` }],
  });
}

export function mountRequests(
  router: Router<AppState>,
  deps: ProofDeps,
  idempotent: MerchantIdempotent,
  at: MountAt = { base: '/v1' },
): void {
  // Every effect of a creation is in the idempotent transaction, after the merchant lock a same-key request also
  // waits for: the key is claimed with the stored answer in the statement sent with the COMMIT, and a same-key
  // request refused after waiting replays the first answer instead (api/http/idempotency.ts claimAtCommit).
  router.post(
    `${at.base}/requests`,
    idempotent('requests.create', { claimAtCommit: true }, async (ctx, { transaction }) => {
      const req = parseRequestCreate(ctx.request.body);
      const now = deps.now();
      const request = await createPaymentRequest(transaction, merchantOf(ctx).id, req, now, {
        perHour: deps.proPerHour,
      });
      ctx.state.resourceId = request.id;
      ctx.status = 201;
      ctx.body = requestJson(request, originOf(deps, ctx), now);
    }),
  );

  router.get(`${at.base}/requests`, async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    const status = at.filters ? parseStatusFilter(ctx.query['status']) : undefined;
    const now = deps.now();
    const rows = await listPaymentRequests(
      deps.db,
      merchantOf(ctx).id,
      limit,
      decodeCursor('requests', ctx.query['before']),
      status && { status, now },
    );
    ctx.body = page('requests', rows, limit, (r) => requestJson(r, originOf(deps, ctx), now));
  });

  router.get(`${at.base}/requests/:id`, async (ctx) => {
    const request = await getPaymentRequest(deps.db, merchantOf(ctx).id, ctx.params['id'] ?? '');
    if (!request) throw new DomainError('not_found', 'Payment request not found');
    ctx.body = requestJson(request, originOf(deps, ctx), deps.now());
  });
}

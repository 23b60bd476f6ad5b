import type Router from '@koa/router';
import { createRouter } from '../http/router.js';
import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { IDEMPOTENCY_RULES } from '../../domain/idempotency.js';
import { usableAfterDowngrade, usableLimit } from '../../domain/proof/plans.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { Db } from '../../db/connection.js';
import { activeKeyRank } from '../../db/repositories/api-keys.repo.js';
import { getMerchant, verifyMerchantKey } from '../../db/repositories/merchants.repo.js';
import { refuseKeyInQuery, requireApiKey } from '../http/auth.js';
import { jsonBody } from '../http/body.js';
import type { AppState } from '../http/context.js';
import { keyOf } from '../http/context.js';
import { authFailureThrottle, perIp, perKey, rateLimit } from '../http/rate-limit.js';
import { mountAccount } from './account.handlers.js';
import { merchantIdempotency, type MerchantIdempotent } from '../http/merchant-idempotency.js';
import { mountRequests, type ProofDeps } from '../shared/proof/requests.handlers.js';
import { mountPaymentPage } from './payment-page.routes.js';
import { mountInvoices } from '../shared/proof/invoices.handlers.js';
import { mountInvoiceSend } from './invoice-send.handlers.js';
import { mountProofDocs } from './docs.routes.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';

export interface ProofRouterDeps {
  db: Db;
  logger: Logger;
  rateLimits: {
    perKeyPerMinute: number;
    perIpPerMinute: number;
    proPerHour: number;
    authFailuresPerIpPerMinute: number;
  };
  bodyLimitJson: string;
  publicBaseUrl: string | null | undefined;
  /** Stored idempotent responses per merchant (a fair-use bound, spec section 8). */
  retainedResponsesPerAccount: number;
  /** Issued invoice documents are stored here. */
  store: FileStore;
  /** Starts invoice e-mail workflows; null when mail (SMTP_URL) or Temporal is not configured. */
  mailWorkflows?: WorkflowGateway | null;
  /** Starts invoice workflows (lifecycle, a voiding's nudge); null without Temporal (the maintenance run starts what is missing). */
  workflows?: WorkflowGateway | null;
  now?: () => Date;
  /**
   * More `/proof/v1` routes behind the same guards and idempotency (none in the product): `bench/proof.ts` mounts its
   * baseline here, one INSERT through this very stack, so the two are measured side by side.
   */
  extraMounts?: readonly ProofMount[];
}

/** Mounts routes under `/proof` after the product's, given the /proof idempotency guard (see ProofRouterDeps.extraMounts). */
export type ProofMount = (router: Router<AppState>, idempotent: MerchantIdempotent) => void;

/**
 * The merchant of the key: unknown → 401; suspended → 403 (customer access). After a downgrade only the
 * earliest keys the plan allows are usable; a later one answers 401 like an inactive key.
 */
function merchantOfKey(db: Db, now: () => Date): Middleware<AppState> {
  return async (ctx, next) => {
    const key = keyOf(ctx);
    // Read with the key (requireApiKey with verifyMerchantKey) when it came that way; else looked up here.
    const read = ctx.state.keyMerchant;
    const merchant = read ? read.merchant : await getMerchant(db, key.tenantId);
    if (!merchant) throw new DomainError('unauthorized', 'Missing or invalid API key');
    if (merchant.status !== 'active') throw new DomainError('forbidden', 'This account is suspended');
    const at = now();
    const allowed = usableLimit(merchant, at, 'keys');
    if (!usableAfterDowngrade(read ? read.keyRank : await activeKeyRank(db, 'proof', merchant.id, key, at), allowed)) {
      throw new DomainError(
        'unauthorized',
        `This API key is inactive: the current plan allows ${allowed} key(s), and only the earliest are usable`,
      );
    }
    ctx.state.merchant = merchant;
    await next();
  };
}

/**
 * `/proof/v1`: bearer `skp_` keys only (never cookies, never in the URL, no CORS), 60 calls per key and 120
 * per IP per minute, the merchant and its plan, then the resources. Every JSON mutation needs an
 * Idempotency-Key (the /proof dialect: kept forever, tenant-wide).
 */
export function proofRouter(deps: ProofRouterDeps): Router<AppState> {
  const now = deps.now ?? (() => new Date());
  const router = createRouter({ prefix: '/proof' });
  router.use(refuseKeyInQuery());
  mountPaymentPage(router, deps.db, now);
  mountProofDocs(router, deps); // public, outside the /v1-scoped guards below
  router.use(
    '/v1',
    authFailureThrottle(deps.db, deps.rateLimits.authFailuresPerIpPerMinute, now),
    requireApiKey(deps.db, 'proof', now, async (ctx, token, at) => {
      // A mutation's Idempotency-Key, when valid, is looked up in the key's statement too (the guard's first read).
      const idemKey = ctx.method === 'GET' || ctx.method === 'HEAD' ? undefined : ctx.get('Idempotency-Key');
      const lookup = idemKey && IDEMPOTENCY_RULES.proof.pattern.test(idemKey) ? idemKey : undefined;
      const { outcome, merchant, keyRank, idempotency } = await verifyMerchantKey(deps.db, token, at, lookup);
      if (outcome.ok) {
        ctx.state.keyMerchant = { merchant, keyRank };
        if (idempotency) ctx.state.idempotencyRead = idempotency;
      }
      return outcome;
    }),
    rateLimit(
      deps.db,
      [
        perKey('proof:key:min', deps.rateLimits.perKeyPerMinute, 60),
        perIp('proof:ip:min', deps.rateLimits.perIpPerMinute, 60),
      ],
      now,
    ),
    merchantOfKey(deps.db, now),
    jsonBody(deps.bodyLimitJson),
  );
  const handlerDeps: ProofDeps = {
    db: deps.db,
    publicBaseUrl: deps.publicBaseUrl,
    proPerHour: deps.rateLimits.proPerHour,
    now,
  };
  const idempotency = merchantIdempotency({
    db: deps.db,
    logger: deps.logger,
    retainedResponsesPerAccount: deps.retainedResponsesPerAccount,
    now,
  });
  // Webhook deliveries recorded with an event are sent by the worker's dispatcher, woken by their commit.
  const idem = idempotency;
  mountAccount(router, handlerDeps, idem);
  mountRequests(router, handlerDeps, idem);
  const invoiceDeps = {
    ...handlerDeps,
    store: deps.store,
    mailWorkflows: deps.mailWorkflows ?? null,
    workflows: deps.workflows ?? null,
  };
  mountInvoices(router, invoiceDeps, idem);
  mountInvoiceSend(router, invoiceDeps, idem);
  for (const mount of deps.extraMounts ?? []) mount(router, idem);
  return router;
}

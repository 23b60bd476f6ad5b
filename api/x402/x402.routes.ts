import type Router from '@koa/router';
import { createRouter } from '../http/router.js';
import type { Middleware } from 'koa';
import type { AppState } from '../http/context.js';
import type { ChainReader } from '../../adapters/chains/types.js';
import type { Db } from '../../db/connection.js';
import { createEvidenceService } from './evidence.service.js';
import { createPaidOperations, type PaidOperations } from './paid-operations.js';
import { launchStatus, wellKnownDocument, type X402Settings } from './discovery.js';
import { docsPage, landingPage, X402_PAGE_HEADERS } from './pages.js';
import { mountProcessingDisabled } from './processing-disabled.routes.js';
import { mountUsdcRoutes, paymentsNotConfigured, type PaymentGate } from './usdc.routes.js';
import { publicBase } from '../http/public-origin.js';

export interface X402RouterDeps {
  db: Db;
  rateLimit: Middleware<AppState>;
  settings: X402Settings;
  reader: ChainReader;
  /** The paid operations (shared with /mcp); built on `reader` when absent. */
  operations?: PaidOperations;
  /** Null when payments are not configured: paid routes then answer 503. */
  payments: PaymentGate | null;
  publicBaseUrl: string | undefined;
  now?: () => Date;
}

/** Everything under /x402: health, discovery, pages, the paid USDC routes and the disabled processing routes. */
export function x402Router(deps: X402RouterDeps): Router<AppState> {
  const router = createRouter({ prefix: '/x402' });
  router.use(deps.rateLimit);
  // PUBLIC_BASE_URL when set (required in production); otherwise the origin the client used.
  const origin = (ctx: { protocol: string; host: string }) => publicBase(deps.publicBaseUrl, ctx);

  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', service: 'x402' };
  });
  router.get('/launch-status', (ctx) => {
    ctx.body = launchStatus(deps.settings);
  });
  router.get('/.well-known/x402', (ctx) => {
    ctx.body = wellKnownDocument(deps.settings, origin(ctx));
  });
  router.get('/', (ctx) => {
    ctx.set(X402_PAGE_HEADERS);
    ctx.body = landingPage(deps.settings);
  });
  router.get('/docs', (ctx) => {
    ctx.set(X402_PAGE_HEADERS);
    ctx.body = docsPage(deps.settings);
  });

  mountUsdcRoutes(router, {
    operations: deps.operations ?? createPaidOperations({ evidence: createEvidenceService({ db: deps.db, reader: deps.reader, ...(deps.now ? { now: deps.now } : {}) }) }),
    payments: deps.payments ?? paymentsNotConfigured,
  });
  mountProcessingDisabled(router);
  return router;
}

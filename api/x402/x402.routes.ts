import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { createRouter } from '../http/router.js';
import type { AppContext, AppState } from '../http/context.js';
import type { PaidOperations } from '../../services/x402/paid-operations.js';
import {
  buildDiscoveryManifest,
  crawlerDocument,
  launchStatus,
  type AcceptsFor,
  type ManifestResource,
  type X402Settings,
} from '../../services/x402/discovery.js';
import { docsPage, landingPage, X402_PAGE_HEADERS } from './pages.js';
import { mountProcessingDisabled } from './processing-disabled.routes.js';
import { mountUsdcRoutes, paymentsNotConfigured, type PaymentGate } from './usdc.routes.js';
import { publicBase } from '../http/public-origin.js';

export interface X402RouterDeps {
  rateLimit: Middleware<AppState>;
  settings: X402Settings;
  /** The paid operations, shared with /mcp (api/server.ts builds them). */
  operations: PaidOperations;
  /** Null when payments are not configured: paid routes then answer 503. */
  payments: PaymentGate | null;
  publicBaseUrl: string | undefined;
  /**
   * The live `accepts` of a paid route, published as complete entries of the discovery manifest. Default: decoded
   * from `payments.paymentRequiredHeader` when the gate has it. Absent, null or failing: bare pointers.
   */
  acceptsFor?: AcceptsFor;
  /** Manifest entries appended after the paid routes (the MCP tools), for a public origin. */
  extraManifestResources?: (origin: string) => readonly ManifestResource[] | Promise<readonly ManifestResource[]>;
  now?: () => Date;
}

/** Seconds a client or cache may keep the discovery manifest. */
export const MANIFEST_MAX_AGE_SECONDS = 60;

/**
 * The routers of the x402 interface: everything under /x402 (health, discovery, pages, the paid USDC routes and
 * the disabled processing routes), and the root `/.well-known/x402` (the crawlers' document: discovery.ts crawlerDocument).
 */
export function x402Routers(deps: X402RouterDeps): Array<Router<AppState>> {
  // PUBLIC_BASE_URL when set (required in production); otherwise the origin the client used.
  const origin = (ctx: { protocol: string; host: string }) => publicBase(deps.publicBaseUrl, ctx);
  const manifest = manifestHandler(deps, origin);

  const router = createRouter({ prefix: '/x402' });
  router.use(deps.rateLimit);
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', service: 'x402' };
  });
  router.get('/launch-status', (ctx) => {
    ctx.body = launchStatus(
      deps.settings,
      Object.values(deps.operations).map((op) => ({ name: op.tool.name, priceAtomic: op.spec.priceAtomic })),
    );
  });
  router.get('/.well-known/x402', manifest);
  router.get('/', (ctx) => {
    ctx.set(X402_PAGE_HEADERS);
    ctx.body = landingPage(deps.settings);
  });
  router.get('/docs', (ctx) => {
    ctx.set(X402_PAGE_HEADERS);
    ctx.body = docsPage(deps.settings);
  });

  mountUsdcRoutes(router, {
    operations: deps.operations,
    payments: deps.payments ?? paymentsNotConfigured,
  });
  mountProcessingDisabled(router);

  // The root document is the crawlers' (x402scan): URL strings, pointing to the full manifest above.
  const root = createRouter();
  root.use(deps.rateLimit);
  root.get('/.well-known/x402', (ctx) => {
    ctx.body = crawlerDocument(origin(ctx));
    publicDocumentHeaders(ctx, deps.publicBaseUrl);
  });
  return [router, root];
}

/** A public discovery document: cached a minute; without PUBLIC_BASE_URL its URLs follow the request's host. */
function publicDocumentHeaders(ctx: AppContext, publicBaseUrl: string | undefined): void {
  ctx.set('Cache-Control', `public, max-age=${MANIFEST_MAX_AGE_SECONDS}`);
  if (!publicBaseUrl) ctx.vary('Host, X-Forwarded-Host, X-Forwarded-Proto');
}

/** The live `accepts` of a gate's 402 challenge, or undefined when the gate cannot tell them. */
export function acceptsFromGate(gate: PaymentGate | null): AcceptsFor | undefined {
  const header = gate?.paymentRequiredHeader?.bind(gate);
  if (!header) return undefined;
  return async (route, resourceUrl) => decodePaymentRequiredHeader(await header(route, resourceUrl)).accepts;
}

/**
 * GET /x402/.well-known/x402, the manifest of the x402 discovery extension. Public data: any origin may read it (api/x402/cors.ts) and
 * caches may keep it a minute. Without PUBLIC_BASE_URL its URLs follow the request's host, so it varies by it.
 */
function manifestHandler(deps: X402RouterDeps, origin: (ctx: AppContext) => string): Middleware<AppState> {
  const updated = (deps.now ?? (() => new Date()))();
  const acceptsFor = deps.acceptsFor ?? acceptsFromGate(deps.payments);
  return async (ctx) => {
    const base = origin(ctx);
    ctx.body = await buildDiscoveryManifest({
      settings: deps.settings,
      origin: base,
      updated,
      acceptsFor,
      extraResources: deps.extraManifestResources ? await deps.extraManifestResources(base) : [],
    });
    publicDocumentHeaders(ctx, deps.publicBaseUrl);
  };
}

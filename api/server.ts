import Koa from 'koa';
import type Router from '@koa/router';
import type { Db } from '../db/connection.js';
import type { Logger } from '../adapters/logging/logger.js';
import type { Config } from '../config/schema.js';
import type { AppState } from './http/context.js';
import { errorMiddleware } from './http/errors.js';
import { requestEnvelope } from './http/request-envelope.js';
import { metricsEndpoint } from './http/metrics.js';
import { createMetrics, type PlatformMetrics } from '../adapters/metrics/metrics.js';
import { metricsGaugeSource } from '../db/repositories/metrics-gauges.repo.js';
import { installSharedCounters, perIp, rateLimit } from './http/rate-limit.js';
import { createSharedCounters } from './http/shared-counters.js';
import { trustProxies } from './http/proxy.js';
import { publicCors } from './http/cors.js';
import { PUBLIC_BASE_URL_UNSET_WARNING } from './http/public-origin.js';
import { securityHeaders } from './http/security-headers.js';
import { mcpCorsOptions, mcpRouter } from './mcp/mcp.routes.js';
import { mcpManifestEntries, mcpTools } from './mcp/tools.js';
import { createEvidenceService } from '../services/x402/evidence.js';
import { createPaidOperations } from '../services/x402/paid-operations.js';
import { createDomainAuditor } from '../adapters/domain-audit/index.js';
import { x402Routers } from './x402/x402.routes.js';
import { x402CorsOptions } from './x402/cors.js';
import { processingRouter } from './processing/processing.routes.js';
import { qpdfOptions, videoWorkPolicy } from '../services/processing/estimate.js';
import { proofRouter, type ProofMount } from './proof/proof.routes.js';
import { integrationsRouter } from './integrations/integrations.routes.js';
import { companyRouter, v1WebhooksRouter, type CompanyRouterDeps } from './company/company.routes.js';
import { dashboardRouter } from './dashboard/dashboard.routes.js';
import { allowedMethods, recordRoutes } from './http/router.js';
import { createFileStore, type FileStore } from '../adapters/storage/file-store.js';
import { LIMITS } from '../domain/accounts.js';
import type { ChainReader } from '../adapters/chains/types.js';
import type { PaymentGate } from './x402/usdc.routes.js';
import type { SecretBox } from '../adapters/crypto/secret-box.js';
import type { WorkflowGateway } from '../services/workflows/workflow-client.js';
import { createSmtpMailer, type Mailer } from '../adapters/mail/smtp-mailer.js';

export interface AppDeps {
  db: Db;
  logger: Logger;
  config: Pick<
    Config,
    | 'http'
    | 'rateLimits'
    | 'env'
    | 'x402'
    | 'chains'
    | 'storage'
    | 'media'
    | 'mail'
    | 'dashboard'
    | 'webhooks'
    | 'domainAudit'
    | 'selfService'
    | 'metrics'
  >;
  /** This process's metrics (adapters/metrics/metrics.ts); a registry of the app's own when absent. */
  metrics?: PlatformMetrics;
  /** Reads chain evidence for /x402 (all seven networks). */
  chainReader: ChainReader;
  /** x402 payment gate for the paid routes; null when payments are not configured. */
  payments: PaymentGate | null;
  /** Seals PDF passwords of unfinished jobs; digests secrets in idempotency fingerprints. */
  secretBox: SecretBox;
  /** Starts workflows (jobs); null when the API runs without Temporal. */
  workflows: WorkflowGateway | null;
  /** Sends the API's e-mail (company invitations); by default the SMTP mailer of `config.mail`, none without it. */
  mailer?: Mailer | null;
  now?: () => Date;
}

export type InterfaceRouter = Router<AppState>;

/**
 * The Koa app: request ids, request logs, one error middleware rendering each interface's body shape, then
 * the four interfaces. Each interface router answers its own 405s; anything unmatched is a 404 in the shape
 * of the interface its path belongs to.
 */
export function buildApp(
  deps: AppDeps,
  extra: { routers?: InterfaceRouter[]; proofMounts?: readonly ProofMount[] } = {},
): Koa<AppState> {
  const { app, metrics } = appWithMiddleware(deps);
  const store = createFileStore(deps.config.storage.dir);
  const company = companyDeps(deps, store, metrics);
  const routers: InterfaceRouter[] = [
    ...x402Interfaces(deps, metrics),
    v1WebhooksRouter(company), // POST /v1/webhooks: a session route under /v1, before the /v1 key guards
    processingInterface(deps, store, metrics),
    proofInterface(deps, store, extra.proofMounts),
    integrationsInterface(deps, store),
    companyRouter(company),
    dashboardRouter(), // the web app at /dashboard (web/, docs/dashboard.md), same origin as the session routes
    ...(extra.routers ?? []),
  ];
  for (const router of routers) {
    app.use(router.routes());
    app.use(allowedMethods(router));
  }
  recordRoutes(app, routers);
  return app;
}

/** The app and the middleware every interface shares: request ids and logs, metrics, errors, headers, CORS. */
function appWithMiddleware(deps: AppDeps): { app: Koa<AppState>; metrics: PlatformMetrics } {
  const app = new Koa<AppState>();
  trustProxies(app, deps.config.http.trustProxyHops);
  // Production refuses to start without it (config/schema.ts); elsewhere say once what its absence means.
  if (!deps.config.http.publicBaseUrl) deps.logger.warn({ variable: 'PUBLIC_BASE_URL' }, PUBLIC_BASE_URL_UNSET_WARNING);
  app.silent = true; // errors are rendered and logged by errorMiddleware
  // One set of rate-limit reservations per app (an API process), shared by all its limiters.
  installSharedCounters(app, createSharedCounters(deps.db, { reserveMax: deps.config.rateLimits.reserveMax }));
  const metrics = deps.metrics ?? createMetrics();
  // The queue depth and the webhook backlog are read from PostgreSQL when this API is scraped (one place is enough).
  metrics.attachDatabaseGauges(metricsGaugeSource(deps.db));
  app.use(requestEnvelope({ logger: deps.logger, metrics })); // request id, then its metrics and log line once answered
  app.use(errorMiddleware(deps.logger));
  // GET /metrics here only behind METRICS_TOKEN (without it the path is not served here: no middleware at all).
  if (deps.config.metrics.token !== undefined) app.use(metricsEndpoint(metrics, deps.config.metrics.token));
  app.use(securityHeaders());
  // CORS for browser wallets on /x402's paid routes and public documents only, and for browser-based MCP clients on /mcp
  // (credential-free; the payment rides in the JSON-RPC body).
  app.use(publicCors(x402CorsOptions(), mcpCorsOptions()));
  return { app, metrics };
}

/** What the company session's routes (and POST /v1/webhooks) need. */
function companyDeps(deps: AppDeps, store: FileStore, metrics: PlatformMetrics): CompanyRouterDeps {
  const rl = deps.config.rateLimits;
  // The API's own mail (company invitations, sent while the request waits); invoice mail is the worker's.
  const mail = deps.mailer !== undefined ? deps.mailer : deps.config.mail ? createSmtpMailer(deps.config.mail) : null;
  return {
    db: deps.db,
    logger: deps.logger,
    secretBox: deps.secretBox,
    perIpPerMinute: rl.integrationsPerIpPerMinute,
    perSessionPerMinute: rl.v1PerKeyPerMinute,
    bodyLimitJson: deps.config.http.bodyLimitJson,
    publicBaseUrl: deps.config.http.publicBaseUrl,
    dashboard: deps.config.dashboard,
    allowLoopbackForTests: deps.config.webhooks.allowLoopbackForTests,
    privateDestinations: deps.config.webhooks.privateDestinations,
    store,
    submission: {
      workflows: deps.workflows,
      qpdf: qpdfOptions(deps.config.media),
      ...(deps.config.media.ocr ? { ocrLanguages: deps.config.media.ocr.languages } : {}),
      video: videoWorkPolicy(deps.config.media),
      metrics,
    },
    selfService: deps.config.selfService,
    mail: mail && deps.config.mail ? { mailer: mail, from: deps.config.mail.from } : null,
    ...(deps.now ? { now: deps.now } : {}),
  };
}

/** /x402's routes and /mcp: one table of paid operations behind both, one per-IP limit for both. */
function x402Interfaces(deps: AppDeps, metrics: PlatformMetrics): InterfaceRouter[] {
  const rl = deps.config.rateLimits;
  const paidOperations = createPaidOperations({
    evidence: createEvidenceService({ db: deps.db, reader: deps.chainReader, ...(deps.now ? { now: deps.now } : {}) }),
    auditor: createDomainAuditor(deps.config.domainAudit),
  });
  const paidTools = mcpTools(Object.values(paidOperations));
  const x402RateLimit = rateLimit(deps.db, [perIp('x402:ip:min', rl.x402PerIpPerMinute, 60)], deps.now);
  return [
    ...x402Routers({
      rateLimit: x402RateLimit,
      operations: paidOperations,
      settings: {
        payTo: deps.config.x402.payTo,
        facilitator: deps.config.x402.facilitator.kind,
        paymentTimeoutSeconds: deps.config.x402.paymentTimeoutSeconds,
        requiredConfirmations: deps.config.chains.requiredConfirmations,
      },
      payments: deps.payments,
      publicBaseUrl: deps.config.http.publicBaseUrl,
      // The MCP tools are listed in the discovery manifest beside the routes, from the same operation table.
      extraManifestResources: (origin) => mcpManifestEntries(paidTools, origin, deps.payments?.calls ?? null),
      ...(deps.now ? { now: deps.now } : {}),
    }),
    mcpRouter({
      logger: deps.logger,
      rateLimit: x402RateLimit,
      tools: paidTools,
      payments: deps.payments?.calls ?? null,
      publicBaseUrl: deps.config.http.publicBaseUrl,
      version: '1.0.0',
      metrics,
    }),
  ];
}

function processingInterface(deps: AppDeps, store: FileStore, metrics: PlatformMetrics): InterfaceRouter {
  const rl = deps.config.rateLimits;
  return processingRouter({
    db: deps.db,
    store,
    logger: deps.logger,
    secretBox: deps.secretBox,
    workflows: deps.workflows,
    limits: { ...deps.config.storage, retentionDays: LIMITS.retentionDays },
    media: deps.config.media,
    rateLimits: {
      perKeyPerMinute: rl.v1PerKeyPerMinute,
      perIpPerMinute: rl.v1PerIpPerMinute,
      authFailuresPerIpPerMinute: rl.authFailuresPerIpPerMinute,
    },
    bodyLimitJson: deps.config.http.bodyLimitJson,
    ...(deps.now ? { now: deps.now } : {}),
    metrics,
  });
}

function proofInterface(
  deps: AppDeps,
  store: FileStore,
  proofMounts: readonly ProofMount[] | undefined,
): InterfaceRouter {
  const rl = deps.config.rateLimits;
  return proofRouter({
    db: deps.db,
    logger: deps.logger,
    rateLimits: {
      perKeyPerMinute: rl.proofPerKeyPerMinute,
      perIpPerMinute: rl.proofPerIpPerMinute,
      proPerHour: rl.proofProPerHour,
      authFailuresPerIpPerMinute: rl.authFailuresPerIpPerMinute,
    },
    bodyLimitJson: deps.config.http.bodyLimitJson,
    publicBaseUrl: deps.config.http.publicBaseUrl,
    retainedResponsesPerAccount: rl.proofRetainedResponsesPerAccount,
    store,
    // Invoice e-mail is started only when it can be sent (SMTP_URL); otherwise it stays queued.
    mailWorkflows: deps.config.mail ? deps.workflows : null,
    workflows: deps.workflows,
    ...(deps.now ? { now: deps.now } : {}),
    ...(proofMounts ? { extraMounts: proofMounts } : {}),
  });
}

function integrationsInterface(deps: AppDeps, store: FileStore): InterfaceRouter {
  const rl = deps.config.rateLimits;
  return integrationsRouter({
    db: deps.db,
    logger: deps.logger,
    secretBox: deps.secretBox,
    workflows: deps.workflows,
    perIpPerMinute: rl.integrationsPerIpPerMinute,
    bodyLimitJson: deps.config.http.bodyLimitJson,
    publicBaseUrl: deps.config.http.publicBaseUrl,
    dashboard: deps.config.dashboard,
    retainedResponsesPerAccount: rl.proofRetainedResponsesPerAccount,
    allowLoopbackForTests: deps.config.webhooks.allowLoopbackForTests,
    privateDestinations: deps.config.webhooks.privateDestinations,
    store,
    selfService: deps.config.selfService,
    proPerHour: rl.proofProPerHour,
    ...(deps.now ? { now: deps.now } : {}),
  });
}

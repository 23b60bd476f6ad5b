import type Router from '@koa/router';
import { createRouter } from '../http/router.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { Db } from '../../db/connection.js';
import { listJobs } from '../../db/repositories/job-list.repo.js';
import { childrenPage } from '../http/pagination.js';
import { sendBatchResults } from '../http/result-files.js';
import { perIp, rateLimit } from '../http/rate-limit.js';
import { refuseKeyInQuery } from '../http/auth.js';
import { jsonBody } from '../http/body.js';
import type { AppContext, AppState } from '../http/context.js';
import { memberOf } from '../http/context.js';
import { decodeCursor, page, parseLimit } from '../http/pagination.js';
import { answer } from '../http/contract.js';
import { batchPageSchema, jobPageSchema } from './responses.js';
import { requireAllowedOrigin, requireCsrfToken } from '../http/browser-session.js';
import { sendResultFile } from '../http/result-files.js';
import { mountUploadList } from '../shared/processing/upload-list.routes.js';
import {
  perSessionLimit,
  refuseApiKey,
  refuseAuthorizationOnSession,
  requireBillingAdmin,
  requireCompanySession,
} from './guards.js';
import { mountPublicSession, mountSession } from './session.handlers.js';
import { mountTeam } from './team.handlers.js';
import type { InvitationMail } from '../../services/company/invitation-mail.js';
import { createWebhookHandler, mountWebhooks } from './webhooks.handlers.js';
import { mountCompanyDocs } from './docs.routes.js';
import { mountCreditPacks } from './credit-packs.handlers.js';
import type { SelfServiceConfig } from '../../domain/self-service.js';
import type { SignInLimits } from '../../domain/sign-in.js';
import { mountSavedWorkflowChanges, mountSavedWorkflowReads } from './workflows.handlers.js';
import { mountExtractionReview } from './extraction-review.handlers.js';
import { mountBatchRetry, type SessionSubmissionDeps } from './batch-retry.handlers.js';
import { mountCredits } from '../shared/processing/credits.routes.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import { listBatches } from '../../db/repositories/batches.repo.js';
import { batchJson, batchSummaryJson, companyBatch, companyJob, jobJson } from '../../services/processing/records.js';

export interface CompanyRouterDeps {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  perIpPerMinute: number;
  /** Requests per minute per session (the spec's 120 per key or session: the /v1 per-key limit). */
  perSessionPerMinute: number;
  bodyLimitJson: string;
  publicBaseUrl: string | undefined;
  dashboard: {
    origins: readonly string[];
    sessionTtlMs: number;
    sessionIdleMs: number;
    signIn: SignInLimits;
    invitationTtlMs: number;
  };
  allowLoopbackForTests: boolean;
  /** WEBHOOK_PRIVATE_DESTINATIONS (config.webhooks.privateDestinations). */
  privateDestinations?: readonly string[] | undefined;
  /** Result files (job downloads, batch ZIPs, regenerated extraction exports). */
  store: FileStore;
  /** The /v1 submission's engines and workflow client, for a billing administrator's retry-failed. */
  submission?: SessionSubmissionDeps;
  /** Credit packs paid to the platform's receiving wallets. */
  selfService: SelfServiceConfig;
  /** Invitations are e-mailed to the invitee (SMTP_URL, MAIL_FROM); null without mail. */
  mail: InvitationMail | null;
  now?: () => Date;
}

/**
 * `/api/company`: the company administrators' session (spec section 5; docs/processing.md "Company session"). In
 * order: its public OpenAPI document and page; the per-IP limit; an Authorization header refused (403); a key in the
 * query refused; on every mutation an allowed Origin (403); JSON bodies; sign-in and invitation acceptance; then a
 * live session, its X-CSRF-Token on mutations and 120 requests a minute per session. Every member may read the
 * session, the company's jobs and its saved workflows; keys, members, invitations, webhooks and changes to saved
 * workflows need a billing administrator.
 */
export function companyRouter(deps: CompanyRouterDeps): Router<AppState> {
  const now = deps.now ?? (() => new Date());
  const router = createRouter({ prefix: '/api/company' });
  mountCompanyDocs(router); // public: before the guards
  const origin = requireAllowedOrigin(deps.dashboard.origins, deps.publicBaseUrl);
  router.use(
    rateLimit(deps.db, [perIp('company:ip:min', deps.perIpPerMinute, 60)], now),
    refuseAuthorizationOnSession(),
    refuseKeyInQuery(),
    jsonBody(deps.bodyLimitJson),
  );
  const store = mountPublicSession(
    router,
    { db: deps.db, logger: deps.logger, secretBox: deps.secretBox, ...deps.dashboard, now },
    origin,
  );

  // Who first (401 without a session), then where from and the CSRF token on mutations (403).
  const signedIn = createRouter();
  signedIn.use(
    requireCompanySession(deps.db, deps.secretBox, deps.dashboard.sessionIdleMs, now),
    origin,
    requireCsrfToken(),
    perSessionLimit(deps.db, deps.perSessionPerMinute, now),
  );
  mountSession(signedIn, store, now);

  /** The company's jobs, newest first (any member). */
  signedIn.get('/jobs', async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    const rows = await listJobs(deps.db, memberOf(ctx).companyId, {}, limit, decodeCursor('jobs', ctx.query['before']));
    ctx.body = answer(jobPageSchema, page('jobs', rows, limit, jobJson));
  });

  /** The company's uploads that hold storage, newest first, with their use by jobs (any member), as GET /v1/uploads. */
  mountUploadList(signedIn, { db: deps.db, companyOf: (ctx) => memberOf(ctx).companyId });

  /** The company's batches, newest first, without their children (any member). */
  signedIn.get('/batches', async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    const rows = await listBatches(
      deps.db,
      memberOf(ctx).companyId,
      limit,
      decodeCursor('batches', ctx.query['before']),
    );
    const summaries = new Map<string, Awaited<ReturnType<typeof batchSummaryJson>>>();
    for (const b of rows) summaries.set(b.id, await batchSummaryJson(deps.db, b));
    ctx.body = answer(
      batchPageSchema,
      page('batches', rows, limit, (b) => summaries.get(b.id)!),
    );
  });

  /** One job of the company, its results and, for flow-extract, its review (any member). */
  const findJob = (ctx: AppContext) => companyJob(deps.db, memberOf(ctx).companyId, ctx.params['id'] ?? '');
  signedIn.get('/jobs/:id', async (ctx) => {
    ctx.body = jobJson(await findJob(ctx));
  });
  signedIn.get('/jobs/:id/results/:index', async (ctx) => {
    await sendResultFile(ctx, deps.store, await findJob(ctx), ctx.params['index'] ?? '', now());
  });
  mountExtractionReview(signedIn, { db: deps.db, store: deps.store, now });

  /** One batch with its children, and its results ZIP once ended (any member), as on /v1. */
  const findBatch = (ctx: AppContext) => companyBatch(deps.db, memberOf(ctx).companyId, ctx.params['id'] ?? '');
  signedIn.get('/batches/:id', async (ctx) => {
    ctx.body = await batchJson(deps.db, await findBatch(ctx), childrenPage(ctx));
  });
  signedIn.get('/batches/:id/results.zip', async (ctx) => {
    await sendBatchResults(
      ctx,
      { db: deps.db, store: deps.store, logger: deps.logger, now: now() },
      await findBatch(ctx),
    );
  });

  /** The company's credits: available, reserved and the ledger feed (any member), as GET /v1/credits. */
  mountCredits(signedIn, { db: deps.db, companyOf: (ctx) => memberOf(ctx).companyId });

  mountSavedWorkflowReads(signedIn, { db: deps.db, now });

  const admin = createRouter();
  admin.use(requireBillingAdmin());
  mountSavedWorkflowChanges(admin, { db: deps.db, now });
  mountTeam(admin, {
    db: deps.db,
    logger: deps.logger,
    invitationTtlMs: deps.dashboard.invitationTtlMs,
    mail: deps.mail,
    publicBaseUrl: deps.publicBaseUrl,
    now,
  });
  mountBatchRetry(admin, {
    db: deps.db,
    store: deps.store,
    logger: deps.logger,
    secretBox: deps.secretBox,
    submission: deps.submission,
    now,
  });
  mountWebhooks(admin, {
    db: deps.db,
    secretBox: deps.secretBox,
    allowLoopbackForTests: deps.allowLoopbackForTests,
    privateDestinations: deps.privateDestinations,
    now,
  });
  mountCreditPacks(signedIn, admin, {
    db: deps.db,
    selfService: deps.selfService,
    publicBaseUrl: deps.publicBaseUrl,
    now,
  });
  signedIn.use(admin.routes(), admin.allowedMethods());
  router.use(signedIn.routes(), signedIn.allowedMethods());
  return router;
}

/**
 * `POST /v1/webhooks` (spec section 4): under /v1 but a billing administrator's session route, never an API key's
 * (any Authorization header gets 403 `api_key_not_accepted`). Its own router, so the /v1 key guards never run for it; the same
 * session, Origin and CSRF checks as `/api/company`.
 */
/** What `POST /v1/webhooks` needs of the company routes' dependencies. */
export type V1WebhooksRouterDeps = Pick<
  CompanyRouterDeps,
  | 'db'
  | 'secretBox'
  | 'perIpPerMinute'
  | 'perSessionPerMinute'
  | 'bodyLimitJson'
  | 'publicBaseUrl'
  | 'allowLoopbackForTests'
  | 'privateDestinations'
  | 'now'
> & { dashboard: Pick<CompanyRouterDeps['dashboard'], 'sessionIdleMs' | 'origins'> };

export function v1WebhooksRouter(deps: V1WebhooksRouterDeps): Router<AppState> {
  const now = deps.now ?? (() => new Date());
  const router = createRouter({ prefix: '/v1' });
  router.post(
    '/webhooks',
    rateLimit(deps.db, [perIp('company:ip:min', deps.perIpPerMinute, 60)], now),
    refuseApiKey(),
    refuseKeyInQuery(),
    requireCompanySession(deps.db, deps.secretBox, deps.dashboard.sessionIdleMs, now),
    requireAllowedOrigin(deps.dashboard.origins, deps.publicBaseUrl),
    requireCsrfToken(),
    perSessionLimit(deps.db, deps.perSessionPerMinute, now),
    requireBillingAdmin(),
    jsonBody(deps.bodyLimitJson),
    createWebhookHandler({
      db: deps.db,
      secretBox: deps.secretBox,
      allowLoopbackForTests: deps.allowLoopbackForTests,
      privateDestinations: deps.privateDestinations,
      now,
    }),
  );
  return router;
}

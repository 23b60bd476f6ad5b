import type Router from '@koa/router';
import { createRouter } from '../http/router.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { Db } from '../../db/connection.js';
import { refuseKeyInQuery } from '../http/auth.js';
import { jsonBody } from '../http/body.js';
import type { AppState } from '../http/context.js';
import { perIp, rateLimit } from '../http/rate-limit.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { merchantIdempotency } from '../http/merchant-idempotency.js';
import { requireAllowedOrigin, requireCsrfToken } from '../http/browser-session.js';
import { refuseAuthorizationHeader, requireCustomerAccess, requireSession } from './guards.js';
import { mountKeys } from './keys.handlers.js';
import { mountSession } from './session.handlers.js';
import { mountWebhooks } from './webhooks.handlers.js';
import { mountPlan } from './plan.handlers.js';
import { mountIntegrationsDocs } from './docs.routes.js';
import { mountRecords } from './records.handlers.js';
import { mountWallets } from './wallets.handlers.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { SelfServiceConfig } from '../../domain/self-service.js';
import type { SignInLimits } from '../../domain/sign-in.js';

export interface IntegrationsRouterDeps {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  workflows: WorkflowGateway | null;
  perIpPerMinute: number;
  bodyLimitJson: string;
  publicBaseUrl: string | undefined;
  dashboard: { origins: readonly string[]; sessionTtlMs: number; sessionIdleMs: number; signIn: SignInLimits };
  retainedResponsesPerAccount: number;
  allowLoopbackForTests: boolean;
  /** WEBHOOK_PRIVATE_DESTINATIONS (config.webhooks.privateDestinations). */
  privateDestinations?: readonly string[] | undefined;
  /** Issued invoice documents (the same store /proof/v1 writes them to). */
  store: FileStore;
  /** Self-service purchases (plans) paid to the platform's receiving wallets. */
  selfService: SelfServiceConfig;
  /** The enforced pro creations per hour (RATE_LIMIT_PROOF_PRO_PER_HOUR), shared with /proof/v1. */
  proPerHour: number;
  now?: () => Date;
}

/**
 * `/api/integrations`: the dashboard's management routes (spec section 4). In order: the per-IP throttle; an
 * Authorization header refused (403); on every mutation an allowed Origin (403); JSON bodies; sign-in at
 * `/session`; then a live cookie session and the session's X-CSRF-Token on mutations; the plan and its purchase;
 * then an active plan or trial, the pro creations throttle, and the resources (keys, webhooks, wallets, and the
 * merchant's records through the /proof/v1 handlers). Mutations take an Idempotency-Key in the /proof dialect (tenant-wide, kept forever).
 */
export function integrationsRouter(deps: IntegrationsRouterDeps): Router<AppState> {
  const now = deps.now ?? (() => new Date());
  const router = createRouter({ prefix: '/api/integrations' });
  mountIntegrationsDocs(router); // public: before the guards
  router.use(
    rateLimit(deps.db, [perIp('integrations:ip:min', deps.perIpPerMinute, 60)], now),
    refuseAuthorizationHeader(),
    refuseKeyInQuery(),
    requireAllowedOrigin(deps.dashboard.origins, deps.publicBaseUrl),
    jsonBody(deps.bodyLimitJson),
  );
  mountSession(router, { db: deps.db, logger: deps.logger, secretBox: deps.secretBox, ...deps.dashboard, now });

  // Signed in (and the CSRF token on mutations): the plan and its purchase, which need no active plan or trial.
  const signedIn = createRouter();
  signedIn.use(requireSession(deps.db, deps.secretBox, deps.dashboard.sessionIdleMs, now), requireCsrfToken());
  const idem = merchantIdempotency({
    db: deps.db,
    logger: deps.logger,
    retainedResponsesPerAccount: deps.retainedResponsesPerAccount,
    now,
  });
  mountPlan(
    signedIn,
    { db: deps.db, selfService: deps.selfService, publicBaseUrl: deps.publicBaseUrl, proPerHour: deps.proPerHour, now },
    idem,
  );

  // Everything else needs an active plan or trial too.
  const managed = createRouter();
  managed.use(requireCustomerAccess(now));
  mountKeys(managed, { db: deps.db, now }, idem);
  mountWebhooks(
    managed,
    {
      db: deps.db,
      secretBox: deps.secretBox,
      workflows: deps.workflows,
      allowLoopbackForTests: deps.allowLoopbackForTests,
      privateDestinations: deps.privateDestinations,
      now,
    },
    idem,
  );
  mountWallets(managed, { db: deps.db, service: 'paycore', now }, idem);
  mountRecords(
    managed,
    {
      db: deps.db,
      logger: deps.logger,
      store: deps.store,
      workflows: deps.workflows,
      publicBaseUrl: deps.publicBaseUrl,
      proPerHour: deps.proPerHour,
      now,
    },
    idem,
  );
  signedIn.use(managed.routes(), managed.allowedMethods());
  router.use(signedIn.routes(), signedIn.allowedMethods());
  return router;
}

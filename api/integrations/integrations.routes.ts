import type Router from '@koa/router';
import { createRouter } from '../http/router.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { Db } from '../../db/connection.js';
import { refuseKeyInQuery } from '../http/auth.js';
import { jsonBody } from '../http/body.js';
import type { AppState } from '../http/context.js';
import { perIp, rateLimit } from '../http/rate-limit.js';
import type { WorkflowGateway } from '../temporal/workflow-client.js';
import { merchantIdempotency } from '../proof/idempotency.js';
import { requireAllowedOrigin, requireCsrfToken } from '../http/browser-session.js';
import { refuseAuthorizationHeader, requireCustomerAccess, requireSession } from './guards.js';
import { mountKeys } from './keys.handlers.js';
import { mountSession } from './session.handlers.js';
import { mountWebhooks } from './webhooks.handlers.js';

export interface IntegrationsRouterDeps {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  workflows: WorkflowGateway | null;
  perIpPerMinute: number;
  bodyLimitJson: string;
  publicBaseUrl: string | undefined;
  dashboard: { origins: readonly string[]; sessionTtlMs: number; sessionIdleMs: number; signInPerEmailPer15Minutes: number };
  retainedResponsesPerAccount: number;
  allowLoopbackForTests: boolean;
  now?: () => Date;
}

/**
 * `/api/integrations`: the dashboard's management routes (spec section 4). In order: the per-IP throttle; an
 * Authorization header refused (403); on every mutation an allowed Origin (403); JSON bodies; sign-in at
 * `/session`; then a live cookie session, the session's X-CSRF-Token on mutations, an active plan or trial,
 * and the resources. Mutations take an Idempotency-Key in the /proof dialect (tenant-wide, kept forever).
 */
export function integrationsRouter(deps: IntegrationsRouterDeps): Router<AppState> {
  const now = deps.now ?? (() => new Date());
  const router = createRouter({ prefix: '/api/integrations' });
  router.use(
    rateLimit(deps.db, [perIp('integrations:ip:min', deps.perIpPerMinute, 60)], now),
    refuseAuthorizationHeader(),
    refuseKeyInQuery(),
    requireAllowedOrigin(deps.dashboard.origins, deps.publicBaseUrl),
    jsonBody(deps.bodyLimitJson),
  );
  mountSession(router, { db: deps.db, logger: deps.logger, secretBox: deps.secretBox, ...deps.dashboard, now });

  const managed = createRouter();
  managed.use(requireSession(deps.db, deps.secretBox, deps.dashboard.sessionIdleMs, now), requireCsrfToken(), requireCustomerAccess(now));
  const idem = merchantIdempotency({ db: deps.db, logger: deps.logger, retainedResponsesPerAccount: deps.retainedResponsesPerAccount, now });
  mountKeys(managed, { db: deps.db, now }, idem);
  mountWebhooks(managed, { db: deps.db, secretBox: deps.secretBox, workflows: deps.workflows, allowLoopbackForTests: deps.allowLoopbackForTests, now }, idem);
  router.use(managed.routes(), managed.allowedMethods());
  return router;
}

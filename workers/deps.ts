import type { Config } from '../config/schema.js';
import { createSecretBox } from '../adapters/crypto/secret-box.js';
import { resolveSecretsKey } from '../adapters/crypto/secrets-key-file.js';
import { createSystemResolver } from '../adapters/webhooks/http-delivery.js';
import type { Logger } from '../adapters/logging/logger.js';
import type { Db } from '../db/connection.js';
import type { WebhookActivityDeps } from '../activities/webhooks.activities.js';
import type { X402ActivityDeps } from '../activities/x402.activities.js';
import { createAuthorizationStateReader } from '../adapters/x402/authorization-state.js';
import { createFileStore } from '../adapters/storage/file-store.js';
import { createFileOperationRunners } from '../adapters/media/operation-runners.js';
import type { ProcessingWorkerDeps } from './worker.js';

/** Composition root of the activities: real adapters wired from the validated config. */
export function buildActivityDeps(
  config: Config,
  db: Db,
  logger: Logger,
): WebhookActivityDeps & Pick<X402ActivityDeps, 'authorizationState'> & { processing: ProcessingWorkerDeps } {
  return {
    processing: { store: createFileStore(config.storage.dir), runners: createFileOperationRunners({ qpdfPath: config.media.qpdfPath, timeoutMs: config.media.qpdfTimeoutMs }) },
    authorizationState:
      config.x402.facilitator.kind === 'none'
        ? null
        : createAuthorizationStateReader({ rpcUrls: config.chains.rpcUrls.base, timeoutMs: config.chains.rpcTimeoutMs }),
    db,
    logger,
    secretBox: createSecretBox(resolveSecretsKey(config.secretsKey, config.dataDir)),
    resolver: createSystemResolver(),
    allowLoopbackForTests: config.webhooks.allowLoopbackForTests,
  };
}

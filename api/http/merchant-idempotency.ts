import type { Middleware } from 'koa';
import type { Logger } from '../../adapters/logging/logger.js';
import type { Db } from '../../db/connection.js';
import type { AppState } from './context.js';
import { merchantOf } from './context.js';
import { idempotent } from './idempotency.js';

/** An Idempotency-Key guard for one operation; `storedBody` is what replays get when it differs from the live body. */
export type MerchantIdempotent = (
  operation: string,
  opts?: { storedBody?: (body: unknown) => unknown; claimAtCommit?: boolean },
) => Middleware<AppState>;

/**
 * Idempotency in the /proof dialect (kept forever, at most `retainedResponsesPerAccount` per merchant), keyed by
 * the request's merchant: tenant-wide across `/proof/v1` keys, the dashboard session and every operation.
 */
export function merchantIdempotency(deps: {
  db: Db;
  logger: Logger;
  retainedResponsesPerAccount: number;
  now: () => Date;
}): MerchantIdempotent {
  return (operation, opts = {}) =>
    idempotent({
      db: deps.db,
      logger: deps.logger,
      dialect: 'proof',
      operation,
      tenantOf: (ctx) => merchantOf(ctx).id,
      retainedLimit: deps.retainedResponsesPerAccount,
      ...(opts.storedBody ? { storedBody: opts.storedBody } : {}),
      ...(opts.claimAtCommit ? { claimAtCommit: true } : {}),
      now: deps.now,
    });
}

/** What a replay of a response that showed a secret once stores and returns: the same body with `secret: null`. */
export const withoutSecret = (body: unknown) => ({ ...(body as Record<string, unknown>), secret: null });

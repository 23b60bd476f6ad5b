import type { Middleware } from 'koa';
import type { Logger } from '../../adapters/logging/logger.js';
import type { Db } from '../../db/connection.js';
import type { AppState } from './context.js';
import { merchantOf } from './context.js';
import { idempotent, type IdempotentHandler } from './idempotency.js';

export interface MerchantIdempotentOptions {
  /** What replays get when it differs from the live body (a secret shown once). */
  storedBody?: (body: unknown) => unknown;
  /** See IdempotentOptions.claimAtCommit: the handler gets `work.claim`. */
  claimAtCommit?: boolean;
}

/** The Idempotency-Key guard of one operation around its handler, which writes through `work.transaction`. */
export interface MerchantIdempotent {
  (operation: string, handler: IdempotentHandler): Middleware<AppState>;
  (operation: string, opts: MerchantIdempotentOptions, handler: IdempotentHandler): Middleware<AppState>;
}

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
  return (operation: string, a: MerchantIdempotentOptions | IdempotentHandler, b?: IdempotentHandler) => {
    const [opts, handler] = typeof a === 'function' ? [{}, a] : [a, b!];
    return idempotent(
      {
        db: deps.db,
        logger: deps.logger,
        dialect: 'proof',
        operation,
        tenantOf: (ctx) => merchantOf(ctx).id,
        retainedLimit: deps.retainedResponsesPerAccount,
        ...(opts.storedBody ? { storedBody: opts.storedBody } : {}),
        ...(opts.claimAtCommit ? { claimAtCommit: true } : {}),
        now: deps.now,
      },
      handler,
    );
  };
}

/** What a replay of a response that showed a secret once stores and returns: the same body with `secret: null`. */
export const withoutSecret = (body: unknown) => ({ ...(body as Record<string, unknown>), secret: null });

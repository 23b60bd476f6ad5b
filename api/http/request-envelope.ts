import type { Middleware } from 'koa';
import type { Logger } from '../../adapters/logging/logger.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';
import type { AppState } from './context.js';
import { assignRequestId } from './request-id.js';
import { requestLogLine } from './request-log.js';
import { requestMetrics } from './metrics.js';

/**
 * What every request gets around it, outermost, in one middleware: its id (request-id.ts) first, then, once it is
 * answered (after the error middleware rendered it, so the status is final, errors included), its metrics (metrics.ts)
 * and its log line (request-log.ts), both with the time it took.
 */
export function requestEnvelope(deps: { logger: Logger; metrics: PlatformMetrics }): Middleware<AppState> {
  const logLine = requestLogLine(deps.logger);
  const record = requestMetrics(deps.metrics);
  return async (ctx, next) => {
    assignRequestId(ctx);
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      record(ctx, ms / 1000);
      logLine(ctx, ms);
    }
  };
}

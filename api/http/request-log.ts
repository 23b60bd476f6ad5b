import type { Middleware } from 'koa';
import type { Logger } from '../../adapters/logging/logger.js';
import type { AppState } from './context.js';

/**
 * One line per request: id, interface, method, path (never the query string, which could hold a secret
 * pasted by mistake), status, duration, key id. Never headers, never bodies.
 */
export function requestLogMiddleware(logger: Logger): Middleware<AppState> {
  // The line's fields are fixed and none is a redacted path (adapters/logging/logger.ts REDACT_PATHS), so its
  // lines skip the redaction walk, which cost about as much as the rest of the line on the unpaid x402 path.
  const lines = logger.child({}, { redact: [] });
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      if (lines.isLevelEnabled('info')) {
        lines.info(
          {
            requestId: ctx.state.requestId,
            iface: ctx.state.iface,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round((performance.now() - started) * 10) / 10,
            ...(ctx.state.apiKey ? { keyId: ctx.state.apiKey.id } : {}),
          },
          'request',
        );
      }
    }
  };
}

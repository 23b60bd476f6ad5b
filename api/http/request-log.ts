import type { Logger } from '../../adapters/logging/logger.js';
import type { AppContext } from './context.js';

/**
 * One line per request: id, interface, method, path (never the query string, which could hold a secret
 * pasted by mistake), status, duration, key id. Never headers, never bodies. Written once the request is answered
 * (api/http/request-envelope.ts), with the milliseconds it took.
 */
export function requestLogLine(logger: Logger): (ctx: AppContext, ms: number) => void {
  // The line's fields are fixed and none is a redacted path (adapters/logging/logger.ts REDACT_PATHS), so its
  // lines skip the redaction walk, which cost about as much as the rest of the line on the unpaid x402 path.
  const lines = logger.child({}, { redact: [] });
  return (ctx, ms) => {
    if (!lines.isLevelEnabled('info')) return;
    lines.info(
      {
        requestId: ctx.state.requestId,
        iface: ctx.state.iface,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
        ...(ctx.state.apiKey ? { keyId: ctx.state.apiKey.id } : {}),
      },
      'request',
    );
  };
}

import { randomUUID } from 'node:crypto';
import { interfaceOf, type AppContext } from './context.js';

/** A well-formed X-Request-Id: a client's is kept when it matches, and a generated UUID matches too. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Accepts a well-formed incoming X-Request-Id (else makes one) and echoes it on the response; names the request's
 * interface. The first thing done to every request (api/http/request-envelope.ts).
 */
export function assignRequestId(ctx: AppContext): void {
  const incoming = ctx.get('X-Request-Id');
  ctx.state.requestId = REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
  ctx.state.iface = interfaceOf(ctx.path);
  ctx.set('X-Request-Id', ctx.state.requestId);
}

import type { Middleware } from 'koa';
import type { AppState } from '../http/context.js';

/**
 * Where a /v1 resource created by a 202 is read: the one place these paths are written for `Location`.
 */
export const RESOURCE_PATHS = {
  job: (id: string) => `/v1/jobs/${id}`,
  batch: (id: string) => `/v1/batches/${id}`,
} as const;

/**
 * Every 202 of the route carries `Location` (a path relative to this server, RFC 9110 section 10.2.2): the resource
 * to poll. Mounted before `idempotent(...)`, so a replayed answer carries it too: the handler names the resource in
 * `ctx.state.resourceId`, and a replay restores the id stored with the answer.
 */
export function acceptedLocation(pathOf: (id: string) => string): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (ctx.status === 202 && ctx.state.resourceId) ctx.set('Location', pathOf(ctx.state.resourceId));
  };
}

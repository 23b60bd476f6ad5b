import cors from '@koa/cors';
import type { Middleware } from 'koa';
import type { AppState } from './context.js';

export interface PublicCorsOptions {
  /** Exact paths (case-sensitive; one trailing slash ignored, as the routers ignore it) that any origin may use. */
  paths: readonly string[];
  allowMethods: readonly string[];
  /** Request headers a preflight allows beyond the CORS-safelisted ones. */
  allowHeaders: readonly string[];
  /** Response headers a browser script may read. */
  exposeHeaders: readonly string[];
  /** How long a browser may cache a preflight answer. */
  maxAgeSeconds: number;
}

/**
 * CORS for public, credential-free routes (@koa/cors): `Access-Control-Allow-Origin: *` on every answer of the
 * listed paths, errors included (the headers are set before the route runs and the error middleware keeps them),
 * and a 204 to a preflight (`OPTIONS` with `Access-Control-Request-Method`) before any router or rate limit.
 * Never `Access-Control-Allow-Credentials`: these routes take no cookie and no key. Other paths are untouched, so
 * the session and API-key interfaces keep answering cross-origin requests without any CORS header.
 *
 * Several interfaces' sets are served by one middleware (one look at the path per request); a path belongs to one set.
 */
export function publicCors(...sets: PublicCorsOptions[]): Middleware<AppState> {
  const byPath = new Map<string, Middleware<AppState>>();
  for (const opts of sets) {
    const inner = cors({
      origin: '*',
      credentials: false,
      allowMethods: [...opts.allowMethods],
      allowHeaders: [...opts.allowHeaders],
      exposeHeaders: [...opts.exposeHeaders],
      maxAge: opts.maxAgeSeconds,
      keepHeadersOnError: true,
    }) as unknown as Middleware<AppState>;
    for (const path of opts.paths) {
      if (byPath.has(path)) throw new Error(`publicCors: ${path} is in two sets`);
      byPath.set(path, inner);
    }
  }
  return (ctx, next) => {
    const path = ctx.path;
    const inner = byPath.get(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
    return inner ? inner(ctx, next) : next();
  };
}

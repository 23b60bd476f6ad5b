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
 */
export function publicCors(opts: PublicCorsOptions): Middleware<AppState> {
  const paths = new Set(opts.paths);
  const inner = cors({
    origin: '*',
    credentials: false,
    allowMethods: [...opts.allowMethods],
    allowHeaders: [...opts.allowHeaders],
    exposeHeaders: [...opts.exposeHeaders],
    maxAge: opts.maxAgeSeconds,
    keepHeadersOnError: true,
  }) as unknown as Middleware<AppState>;
  return (ctx, next) =>
    paths.has(ctx.path.length > 1 ? ctx.path.replace(/\/$/, '') : ctx.path) ? inner(ctx, next) : next();
}

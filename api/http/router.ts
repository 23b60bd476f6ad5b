import Router from '@koa/router';
import type Koa from 'koa';
import { DomainError } from '../../domain/errors.js';
import { isObjectId } from '../../domain/ids.js';
import { interfaceOf, type AppState, type InterfaceName } from './context.js';

/**
 * The only way the app makes a router (a lint rule forbids `new Router` elsewhere in api/).
 *
 * - Case-sensitive matching. @koa/router matches routes case-insensitively by default but runs a path-less
 *   `router.use(guard)` only on paths of the exact case, so `/V1/jobs/x` used to reach a handler without its
 *   API-key check, rate limits or suspension check. With every layer case-sensitive, a path either matches a
 *   route and everything mounted before it, or nothing (404).
 * - Object ids in paths (`:id`) are checked against the id alphabet where they are parsed, once for every
 *   route: an id that cannot exist (a NUL byte, a slash, 300 characters) is a 404 before any query.
 */
export function createRouter(opts: { prefix?: string } = {}): Router<AppState> {
  const router = new Router<AppState>({ ...opts, sensitive: true });
  router.param('id', async (id, ctx, next) => {
    if (!isObjectId(id)) throw new DomainError('not_found', 'Not found');
    await next();
  });
  return router;
}

/**
 * The router's 405 and OPTIONS answers, counting only the routes a path matches with a possible object id: a path
 * that matches a route only through an `:id` that cannot be an id (e.g. `POST /v1/batches/ESTIMATE` against
 * `GET /v1/batches/:id`) gets the 404 the `:id` check gives on every route, and `Allow` never lists a method of such
 * a route (`OPTIONS /v1/batches/estimate` allows POST, not GET). So an odd spelling of a literal path never gets an
 * answer the real path would not give.
 */
export function allowedMethods(router: Router<AppState>): Koa.Middleware<AppState> {
  const inner = router.allowedMethods() as unknown as Koa.Middleware<AppState>;
  return async (ctx, next) => {
    await inner(ctx, next);
    if (ctx.status !== 405 && !(ctx.method === 'OPTIONS' && ctx.response.get('Allow'))) return;
    type Layer = {
      methods: string[];
      params(path: string, captures: string[], params: object): Record<string, string>;
      captures(path: string): string[];
    };
    const matched = ((ctx as unknown as { matched?: Layer[] }).matched ?? []).filter((l) => l.methods.length > 0);
    const possible = matched.filter((l) => {
      const id = l.params(ctx.path, l.captures(ctx.path), {})['id'];
      return id === undefined || isObjectId(id);
    });
    const allow = [...new Set(possible.flatMap((l) => l.methods))];
    if (allow.length === 0) {
      ctx.remove('Allow');
      ctx.body = undefined;
      ctx.status = 404;
      return;
    }
    if (ctx.method !== 'OPTIONS' && allow.includes(ctx.method)) return;
    ctx.set('Allow', allow.join(', '));
  };
}

/** One route of the app: a method, its path pattern (`/v1/jobs/:id`), the interface it belongs to, its name if any. */
export interface RouteInfo {
  method: string;
  path: string;
  iface: InterfaceName;
  name: string | null;
}

const mounted = new WeakMap<object, RouteInfo[]>();

/** Records the routes of the routers an app mounts (called by buildApp). */
export function recordRoutes(app: Koa<AppState>, routers: ReadonlyArray<Router<AppState>>): void {
  const routes: RouteInfo[] = [];
  for (const router of routers) {
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) {
        if (method === 'HEAD') continue; // automatic for GET
        routes.push({ method, path: layer.path, iface: interfaceOf(layer.path), name: layer.name ?? null });
      }
    }
  }
  mounted.set(app, routes);
}

/** Every route an app built by buildApp serves (used by the tests that probe each route with hostile input). */
export function routesOf(app: object): RouteInfo[] {
  return mounted.get(app) ?? [];
}

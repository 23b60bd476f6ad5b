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

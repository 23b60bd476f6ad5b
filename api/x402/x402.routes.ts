import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from '../http/context.js';

export function x402Router(deps: { rateLimit: Middleware<AppState> }): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/x402' });
  router.use(deps.rateLimit);
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', service: 'x402' };
  });
  return router;
}

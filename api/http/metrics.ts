import type { Middleware } from 'koa';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';
import { bearerMatches } from '../../adapters/metrics/server.js';
import type { AppContext, AppState } from './context.js';
import { nameRequestSpan } from '../../adapters/tracing/tracing.js';

/**
 * Counts every request once it is answered (after the error middleware rendered it, so the status is final): by
 * interface, the route template the router matched (`/v1/jobs/:id`; `unmatched` when none did, never the raw path),
 * method and status, with its duration (and names the request's trace span by that template); and a paid /x402 call's
 * outcome, which the payment middleware leaves in `ctx.state.x402Outcome`. Called by api/http/request-envelope.ts
 * with the seconds the request took.
 */
export function requestMetrics(metrics: PlatformMetrics): (ctx: AppContext, seconds: number) => void {
  // The request counter and the duration histogram of each label set, looked up once (prom-client hashes and checks a
  // labels object on every call otherwise). Label sets are bounded: the route templates, methods and statuses served.
  const series = onceByKey<{ requests: { inc(): void }; duration: { observe(v: number): void } }>();
  const seriesOf = (iface: string, route: string, method: string, status: number) =>
    series(`${iface} ${method} ${status} ${route}`, () => {
      const labels = { interface: iface, route, method, status: String(status) };
      return { requests: metrics.httpRequests.labels(labels), duration: metrics.httpDuration.labels(labels) };
    });
  const payments = onceByKey<{ inc(): void }>();
  const paymentsOf = (route: string, outcome: string) =>
    payments(`${outcome} ${route}`, () => metrics.x402Payments.labels({ route, outcome }));
  return (ctx, seconds) => {
    const matched = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
    const route = typeof matched === 'string' ? matched : (ctx.state.route ?? 'unmatched');
    nameRequestSpan(ctx.method, route);
    const { requests, duration } = seriesOf(ctx.state.iface ?? 'root', route, ctx.method, ctx.status);
    requests.inc();
    duration.observe(seconds);
    if (ctx.state.x402Outcome) paymentsOf(route, ctx.state.x402Outcome).inc();
  };
}

/** A value made once per key and kept (the label sets' series: bounded by the routes, methods and statuses served). */
function onceByKey<T>(): (key: string, make: () => T) => T {
  const made = new Map<string, T>();
  return (key, make) => {
    let found = made.get(key);
    if (found === undefined) made.set(key, (found = make()));
    return found;
  };
}

/**
 * `GET /metrics` on the API's own listener, only when METRICS_TOKEN is set and presented as a bearer token (401
 * otherwise); without a token the path is not served here (404 like any unknown path; METRICS_PORT serves it apart).
 */
export function metricsEndpoint(metrics: PlatformMetrics, token: string | undefined): Middleware<AppState> {
  return async (ctx, next) => {
    if (token === undefined || ctx.path !== '/metrics' || ctx.method !== 'GET') return next();
    ctx.state.route = '/metrics';
    if (!bearerMatches(ctx.get('Authorization') || undefined, token)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'unauthorized\n';
      return;
    }
    ctx.type = metrics.contentType;
    ctx.body = await metrics.render();
  };
}

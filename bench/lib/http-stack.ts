/**
 * The one module of bench/ that imports api/ (eslint.config.js, rule 5a): the app's own HTTP stack, composed as the
 * HTTP benches measure it. Issue 31 item 5 compares the product's routes with that stack itself (the same app, router,
 * authentication, rate limits and idempotency middleware doing one INSERT), so a bench must be able to build the app
 * and mount a route behind its guards; it gets exactly that here and nothing else of api/. A bench that needs a
 * business operation (a job, a workflow start, a worker) takes it from services/ or workers/.
 */
import type Koa from 'koa';
import type { Knex } from 'knex';
import { buildApp, type AppDeps } from '../../api/server.js';
import { buildChainReader } from '../../api/deps.js';
import { listen } from '../../api/http/lifecycle.js';
import { merchantOf } from '../../api/http/context.js';
import { publicBase } from '../../api/http/public-origin.js';
import type { ProofMount } from '../../api/proof/proof.routes.js';
import type { RunLifecycle } from './lifecycle.js';

/** The x402 payment gate of the /x402 routes (the middleware the app mounts before a paid route's handler). */
export { createX402Payments } from '../../api/x402/payment.middleware.js';

/** What a route mounted beside `POST /proof/v1/requests` is given: the parsed JSON body and the guards' results. */
export interface ProofRouteInput {
  body: unknown;
  /** The merchant of the request's key (the merchant guard's result). */
  merchantId: string;
  /** The public base URL the app answers links with (PUBLIC_BASE_URL, or the request's origin). */
  publicBase: string;
  /** The transaction the idempotency middleware claims the key in; the route writes through it. */
  transaction: Knex.Transaction;
}

/** A bench's own /proof route: behind the same key check, rate limits, merchant guard, JSON body and idempotency. */
export interface ProofBenchRoute {
  /** Under `/proof`, e.g. `/v1/bench/requests`. */
  path: string;
  /** The idempotency operation name (part of the key's conflict check). */
  operation: string;
  handle(input: ProofRouteInput): Promise<{ status: number; body: unknown; resourceId: string }>;
}

/** `route` as a mount of the /proof router: a POST with the key claimed with its answer at commit, as a creation's. */
function proofMount(route: ProofBenchRoute, publicBaseUrl: string | null | undefined): ProofMount {
  return (router, idempotent) => {
    router.post(
      route.path,
      idempotent(route.operation, { claimAtCommit: true }, async (ctx, { transaction }) => {
        const answer = await route.handle({
          body: ctx.request.body,
          merchantId: merchantOf(ctx).id,
          publicBase: publicBase(publicBaseUrl, ctx),
          transaction,
        });
        ctx.state.resourceId = answer.resourceId;
        ctx.status = answer.status;
        ctx.body = answer.body;
      }),
    );
  };
}

/** The app's dependencies as a bench gives them: the chain reader of the config, no payments and no Temporal unless given. */
export type BenchAppDeps = Omit<AppDeps, 'chainReader' | 'payments' | 'workflows'> &
  Partial<Pick<AppDeps, 'chainReader' | 'payments' | 'workflows'>>;

/**
 * The real app (buildApp, as api/main.ts builds it, with `proofRoutes` mounted on its /proof router after the
 * product's) listening on a free port of 127.0.0.1, drained by the run's clean-up; its URL.
 */
export async function serveApp(
  run: RunLifecycle,
  deps: BenchAppDeps,
  extra: { proofRoutes?: readonly ProofBenchRoute[] } = {},
): Promise<string> {
  const app = buildApp(
    {
      ...deps,
      chainReader: deps.chainReader ?? buildChainReader(deps.config),
      payments: deps.payments ?? null,
      workflows: deps.workflows ?? null,
    },
    { proofMounts: (extra.proofRoutes ?? []).map((r) => proofMount(r, deps.config.http.publicBaseUrl)) },
  );
  return serve(run, app, 'stop the app');
}

/** Any Koa app (a bench's bare baseline) on the same server setup as the app (`listen` of api/main.ts); its URL. */
export function serveKoa(run: RunLifecycle, app: Koa, what: string): Promise<string> {
  return serve(run, app, what);
}

async function serve(run: RunLifecycle, app: Koa<never, never> | Koa, what: string): Promise<string> {
  const server = await listen(app, '127.0.0.1', 0);
  run.defer(what, () => server.drain(1000));
  return server.url;
}

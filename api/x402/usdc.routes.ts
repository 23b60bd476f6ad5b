import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import type { Parsed } from '../../domain/validation/x402-query.js';
import type { AppContext, AppState } from '../http/context.js';
import type { OperationResult, PaidOperation, PaidOperations, RawArgs } from '../../services/x402/paid-operations.js';
import type { PaidRoute } from '../../services/x402/route-table.js';
import type { PaidCalls } from '../../services/x402/paid-call.js';

/** Puts a payment in front of a paid route: 402 until a valid x402 payment verifies; settles after success. */
export interface PaymentGate {
  require(route: PaidRoute): Middleware<AppState>;
  /** The transport-neutral payment flow, for the MCP server's paid tools (api/x402/payment.middleware.ts has it). */
  calls?: PaidCalls | null;
  /** The base64 PAYMENT-REQUIRED challenge of a route (its `accepts` go into the discovery manifest), if the gate has one. */
  paymentRequiredHeader?(route: PaidRoute, resourceUrl: string): Promise<string>;
}

/** Validates the query first, so invalid input gets 422 before any payment is asked. */
function validated<T>(parse: (q: RawArgs) => Parsed<T>): Middleware<AppState> {
  return async (ctx, next) => {
    const parsed = parse(ctx.query as RawArgs);
    if (!parsed.ok) {
      throw new DomainError('validation_failed', 'Invalid query parameters; see issues', { issues: parsed.issues });
    }
    ctx.state.paidQuery = parsed.value;
    await next();
  };
}

/** Renders an operation's result as the HTTP answer. */
function respond(ctx: AppContext, result: OperationResult): void {
  if (result.kind === 'json') {
    ctx.body = result.value;
    return;
  }
  ctx.type = 'application/pdf';
  ctx.set('Content-Disposition', `inline; filename="${result.filename}"`);
  ctx.set('X-Evidence-SHA256', result.evidenceSha256);
  ctx.body = Buffer.from(result.pdf);
}

/** GET /x402/v1/usdc/verify, /match and /evidence.pdf: validate, then pay, then read the chain. */
export function mountUsdcRoutes(
  router: Router<AppState>,
  deps: { operations: PaidOperations; payments: PaymentGate },
): void {
  const mount = (op: PaidOperation, route: PaidRoute) =>
    router.get(route.path, validated(op.parse), deps.payments.require(route), async (ctx) => {
      respond(ctx, await op.execute(ctx.state.paidQuery));
    });
  for (const op of Object.values(deps.operations) as PaidOperation[]) if (op.http) mount(op, op.http);
}

/** The gate used when payments are not configured: paid routes answer 503, never run for free. */
export const paymentsNotConfigured: PaymentGate = {
  require: () => async () => {
    throw new DomainError(
      'payments_not_configured',
      'Payments are not configured on this server (X402_PAY_TO and a facilitator are required)',
    );
  },
};

import type { Middleware } from 'koa';
import type { FacilitatorClient } from '@x402/core/server';
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import type { Db } from '../../db/connection.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { AuthorizationStateReader } from '../../adapters/x402/authorization-state.js';
import type { RequestView } from '../../adapters/x402/payment-server.js';
import type { AppContext, AppState } from '../http/context.js';
import type { PaidRouteSpec } from '../../services/x402/paid-route.js';
import {
  createPaidCalls,
  type KeptAnswer,
  type PaidCallsDeps,
  type PaidCalls,
  type PresentedPayment,
  paymentOutcome,
} from '../../services/x402/paid-call.js';
import { publicBase } from '../http/public-origin.js';

export interface X402PaymentsDeps {
  db: Db;
  logger: Logger;
  /** Payee of every fee; undefined -> paid routes answer 503 payments_not_configured. */
  payTo: `0x${string}` | undefined;
  /** From adapters/x402/facilitator.ts (createFacilitator(...)?.client); null -> 503 payments_not_configured. */
  facilitator: FacilitatorClient | null;
  /** EIP-3009 state on Base (adapters/x402/authorization-state.ts), used to reconcile unclear settlements. */
  authorizationState: AuthorizationStateReader | null;
  /** x402 maxTimeoutSeconds of every requirement (X402_PAYMENT_TIMEOUT_SECONDS). */
  paymentTimeoutSeconds: number;
  /** Public origin of resource URLs (PUBLIC_BASE_URL); else the request's own origin. */
  publicBaseUrl?: string | undefined;
  /** The API's metrics: settlements decided after a 503 settlement_uncertain. */
  metrics?: PaidCallsDeps['metrics'];
  /** How long a request waits for its settlement before answering 503 (X402_SETTLEMENT_WAIT_SECONDS). Default 15 s. */
  settlementWaitMs?: number;
  /** How long an unclear settlement is watched on chain before it is recorded `uncertain`. Default 12 s. */
  settlementReconcileMs?: number;
  reconcilePollMs?: number;
}

export interface X402Payments {
  /** The payment gate of one paid route: mount it right before the route's handler. */
  require(route: PaidRouteSpec): Middleware<AppState>;
  /** The base64 PAYMENT-REQUIRED header value of a route (e.g. for discovery documents). */
  paymentRequiredHeader(route: PaidRouteSpec, resourceUrl: string): Promise<string>;
  /** The transport-neutral payment flow (paid-call.ts), shared with the MCP server's paid tools. Null when not configured. */
  calls: PaidCalls | null;
}

/** Codes of the responses this layer renders itself (beyond domain/errors.ts ErrorCode). */
export type X402PaymentErrorCode =
  | 'payment_required'
  | 'payment_invalid'
  | 'payment_replayed'
  | 'payments_not_configured'
  | 'payment_settlement_uncertain';

/** Response headers of a handler's answer that are kept and sent again with it. */
const KEPT_HEADERS = ['Content-Disposition', 'X-Evidence-SHA256'] as const;

/**
 * x402 v2 payment gate of the paid GET routes of /x402 over the HTTP transport (`specs/transports-v2/http.md`):
 * the payment flow itself is paid-call.ts; this renders it.
 *
 * - No PAYMENT-SIGNATURE (or a HEAD) -> 402 `payment_required`, header PAYMENT-REQUIRED (base64 PaymentRequired v2:
 *   exact, eip155:8453, native USDC, the route's fee, payTo, maxTimeoutSeconds, extra {name: 'USD Coin',
 *   version: '2'}, resource, bazaar input/output schemas and examples). Body `{error, code, request_id}`.
 * - Invalid payment -> 402 `payment_invalid` (PaymentRequired.error carries the reason); an authorization used
 *   before -> 402 `payment_replayed`.
 * - Handler not 2xx -> its own answer, nothing settled or charged.
 * - Settled -> the answer + PAYMENT-RESPONSE. Refused at settlement -> 402 `payment_invalid` with PAYMENT-REQUIRED
 *   and PAYMENT-RESPONSE `{success: false, errorReason}`, the answer withheld, not charged.
 * - Not decided within the wait -> 503 `payment_settlement_uncertain` with Retry-After; the answer is kept, and
 *   presenting the same PAYMENT-SIGNATURE for the same request fetches it once the fee is settled.
 * Facilitator unreachable -> 503 `service_unavailable`. No facilitator or no payTo -> 503 `payments_not_configured`.
 */
export function createX402Payments(deps: X402PaymentsDeps): X402Payments {
  const calls =
    deps.facilitator && deps.payTo
      ? createPaidCalls({
          db: deps.db,
          logger: deps.logger,
          payTo: deps.payTo,
          facilitator: deps.facilitator,
          authorizationState: deps.authorizationState,
          paymentTimeoutSeconds: deps.paymentTimeoutSeconds,
          ...(deps.settlementWaitMs !== undefined ? { settlementWaitMs: deps.settlementWaitMs } : {}),
          ...(deps.settlementReconcileMs !== undefined ? { settlementReconcileMs: deps.settlementReconcileMs } : {}),
          ...(deps.reconcilePollMs !== undefined ? { reconcilePollMs: deps.reconcilePollMs } : {}),
          metrics: deps.metrics,
        })
      : null;

  // The challenge of a route rarely changes, but @x402/core's base64 encoder walks the 3-4 KB header byte by
  // byte: encoding it once per distinct challenge keeps the unpaid 402 path cheap. Bounded, oldest evicted.
  // The unpaid 402 hands over the same (shared, never modified) challenge object each time: its encoding is found by
  // identity, without serialising it to look it up.
  const encodedByObject = new WeakMap<PaymentRequired, string>();
  const encodedChallenges = new Map<string, string>();
  const encodeChallenge = (challenge: PaymentRequired): string => {
    const known = encodedByObject.get(challenge);
    if (known !== undefined) return known;
    const json = JSON.stringify(challenge);
    let encoded = encodedChallenges.get(json);
    if (encoded === undefined) {
      encoded = encodePaymentRequiredHeader(challenge);
      if (encodedChallenges.size >= 256) encodedChallenges.delete(encodedChallenges.keys().next().value!);
      encodedChallenges.set(json, encoded);
    }
    encodedByObject.set(challenge, encoded);
    return encoded;
  };

  return {
    calls,
    async paymentRequiredHeader(route, resourceUrl) {
      if (!calls) throw new Error('x402 payments are not configured');
      return encodePaymentRequiredHeader(await calls.challenge(route, resourceUrl));
    },

    require(route) {
      if (!/^[1-9]\d*$/.test(route.priceAtomic))
        throw new Error(`x402 route ${route.path}: priceAtomic must be a positive integer`);
      return async (ctx, next) => {
        if (!calls) {
          return render(
            ctx,
            503,
            'payments_not_configured',
            'Paid routes are unavailable: payments are not configured on this server',
          );
        }
        // Whether the handler ran: only then can its answer (body, headers) have to be dropped.
        let ran = false;
        const outcome = await calls.process({
          route,
          resourceUrl: `${publicBase(deps.publicBaseUrl, ctx)}${ctx.path}`,
          // The validated query when the route has one (api/x402/usdc.routes.ts), else the raw query.
          args: ctx.state.paidQuery ?? ctx.query,
          payment: presentedPayment(ctx),
          requestId: ctx.state.requestId,
          request: viewOf(ctx),
          run: async () => {
            ran = true;
            await next();
            return ctx.status >= 200 && ctx.status < 300
              ? { ok: true, answer: answerOf(ctx) }
              : { ok: false, status: ctx.status };
          },
        });
        ctx.state.x402Outcome = paymentOutcome(outcome, ctx.get('payment-signature') !== '');
        if (outcome.kind === 'not_run') return;
        if (outcome.kind === 'delivered') {
          if (ran) discardBody(ctx);
          ctx.status = outcome.answer.status;
          ctx.type = outcome.answer.contentType;
          ctx.set(outcome.answer.headers);
          ctx.set('PAYMENT-RESPONSE', encodePaymentResponseHeader(outcome.settlement));
          ctx.body = outcome.answer.body;
          return;
        }
        if (ran) discardBody(ctx);
        if (outcome.kind === 'pending') {
          ctx.set('Retry-After', String(outcome.retryAfterSeconds));
          return render(ctx, 503, 'payment_settlement_uncertain', outcome.message);
        }
        ctx.set('PAYMENT-REQUIRED', encodeChallenge(outcome.paymentRequired));
        if (outcome.settlement) ctx.set('PAYMENT-RESPONSE', encodePaymentResponseHeader(outcome.settlement));
        render(ctx, 402, outcome.code, outcome.message);
      };
    },
  };
}

/** The payment a request presents: none (a HEAD never pays: it would settle a fee for a response without a body). */
function presentedPayment(ctx: AppContext): PresentedPayment {
  const header = ctx.get('payment-signature');
  if (!header || ctx.method === 'HEAD') return { kind: 'none' };
  try {
    return { kind: 'payload', payload: decodePaymentSignatureHeader(header) };
  } catch {
    return { kind: 'undecodable', reason: 'invalid_payment_signature_header' };
  }
}

/** The handler's successful answer as bytes, with the headers that go with it. */
function answerOf(ctx: AppContext): KeptAnswer {
  const body: unknown = ctx.body;
  const bytes = Buffer.isBuffer(body)
    ? body
    : typeof body === 'string'
      ? Buffer.from(body)
      : Buffer.from(JSON.stringify(body ?? null));
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = ctx.response.get(name);
    if (value) headers[name] = value;
  }
  return {
    status: ctx.status,
    contentType: ctx.response.get('Content-Type') || 'application/json; charset=utf-8',
    headers,
    body: bytes,
  };
}

function render(ctx: AppContext, status: number, code: X402PaymentErrorCode, message: string): void {
  ctx.status = status;
  ctx.body = { error: message, code, request_id: ctx.state.requestId };
}

/** Drops a handler's result that must not be delivered (settlement did not succeed). */
function discardBody(ctx: AppContext): void {
  const body = ctx.body as { destroy?: () => void } | undefined;
  if (body && typeof body === 'object' && typeof body.destroy === 'function') body.destroy();
  ctx.body = null;
  for (const name of ['Content-Disposition', 'Content-Length', 'Content-Type', 'PAYMENT-RESPONSE', 'X-Evidence-SHA256'])
    ctx.remove(name);
}

function viewOf(ctx: AppContext): RequestView {
  return {
    method: ctx.method,
    url: ctx.href,
    path: ctx.path,
    header: (name) => ctx.get(name) || undefined,
    query: ctx.query as Record<string, string | string[]>,
  };
}

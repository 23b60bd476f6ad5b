import type { Middleware } from 'koa';
import type { FacilitatorClient } from '@x402/core/server';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import type { Db } from '../../db/connection.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { AuthorizationStateReader } from '../../adapters/x402/authorization-state.js';
import { createX402PaymentServer, eip3009AuthorizationOf, type RequestView } from '../../adapters/x402/payment-server.js';
import { authorizationId, claimAuthorization, isAuthorizationRecorded, transitionPayment } from '../../db/repositories/x402-payments.repo.js';
import { DomainError } from '../../domain/errors.js';
import type { AppContext, AppState } from '../http/context.js';
import type { PaidRouteSpec } from './paid-route.js';
import { errorSummary, settleOnce } from './payment-settlement.js';
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
  /** How long an unclear settlement is reconciled from chain state before answering 503. Default 12 s. */
  settlementReconcileMs?: number;
  reconcilePollMs?: number;
}

export interface X402Payments {
  /** The payment gate of one paid route: mount it right before the route's handler. */
  require(route: PaidRouteSpec): Middleware<AppState>;
  /** The base64 PAYMENT-REQUIRED header value of a route (e.g. for discovery documents or MCP). */
  paymentRequiredHeader(route: PaidRouteSpec, resourceUrl: string): Promise<string>;
}

/** Codes of the responses this layer renders itself (beyond domain/errors.ts ErrorCode). */
export type X402PaymentErrorCode = 'payment_required' | 'payment_invalid' | 'payment_replayed' | 'payments_not_configured' | 'payment_settlement_uncertain';

/**
 * x402 v2 payment gate of the paid GET routes of /x402 (@x402/core resource server, @x402/evm `exact` on Base,
 * @x402/extensions bazaar). Per request:
 *
 * 1. No PAYMENT-SIGNATURE -> 402 `payment_required`, header PAYMENT-REQUIRED (base64 PaymentRequired v2: exact,
 *    eip155:8453, native USDC, the route's fee, payTo, maxTimeoutSeconds, extra {name: 'USD Coin', version: '2'},
 *    resource url/description/mimeType, bazaar input/output schemas). Body `{error, code, request_id}` (the
 *    x402 HTTP transport itself puts nothing in a v2 402 body; its default is `{}`).
 * 2. Undecodable, unmatched or non-EIP-3009 payload, or a facilitator `isValid: false` -> 402 `payment_invalid`
 *    (PaymentRequired.error carries the reason). An authorization already recorded -> 402 `payment_replayed`.
 * 3. Verified -> recorded in x402_payments (unique payer+nonce) BEFORE the handler runs; losing that insert
 *    (concurrent or later replay, whatever happened to the first) -> 402 `payment_replayed`. The handler never
 *    runs before this point.
 * 4. Handler not 2xx (404, 422, 503, a throw...) -> the payment is never settled, no PAYMENT-RESPONSE; the
 *    authorization stays spent here (a new request needs a new authorization; the caller was not charged).
 * 5. Handler 2xx -> settled at most once (payment-settlement.ts). Settled -> the result + PAYMENT-RESPONSE
 *    (base64 SettleResponse). Definitely not paid -> 402 `payment_invalid`, result withheld, not charged.
 *    Unknown after reconciling from chain state -> 503 `payment_settlement_uncertain`, result withheld: the
 *    authorization may still execute until its validBefore, so the caller must not sign another one blindly
 *    (it can wait for validBefore, watch authorizationState(from, nonce), or cancel it with EIP-3009
 *    cancelAuthorization); presenting the same one again is a replay (402).
 * Facilitator unreachable while challenging or verifying -> 503 `service_unavailable` (nothing recorded, the
 * same authorization may be presented again). No facilitator or no payTo -> 503 `payments_not_configured`.
 */
export function createX402Payments(deps: X402PaymentsDeps): X402Payments {
  const { db, logger } = deps;
  const server =
    deps.facilitator && deps.payTo
      ? createX402PaymentServer({ facilitator: deps.facilitator, payTo: deps.payTo, maxTimeoutSeconds: deps.paymentTimeoutSeconds })
      : null;
  const settlementDeps = server && {
    db, logger, server, authorizationState: deps.authorizationState,
    reconcileWindowMs: deps.settlementReconcileMs ?? 12_000, reconcilePollMs: deps.reconcilePollMs ?? 1_000,
  };

  // The challenge of a route rarely changes, but @x402/core's base64 encoder walks the 3-4 KB header byte by
  // byte: encoding it once per distinct challenge keeps the unpaid 402 path cheap. Bounded, oldest evicted.
  const encodedChallenges = new Map<string, string>();
  const encodeChallenge = (challenge: PaymentRequired): string => {
    const json = JSON.stringify(challenge);
    let encoded = encodedChallenges.get(json);
    if (encoded === undefined) {
      encoded = encodePaymentRequiredHeader(challenge);
      if (encodedChallenges.size >= 256) encodedChallenges.delete(encodedChallenges.keys().next().value!);
      encodedChallenges.set(json, encoded);
    }
    return encoded;
  };

  const challengeFor = async (route: PaidRouteSpec, resourceUrl: string, request?: RequestView): Promise<PaymentRequired> => {
    if (!server) throw new Error('x402 payments are not configured');
    try {
      return await server.paymentRequired(route, resourceUrl, 'Payment required', request);
    } catch (err) {
      logger.warn({ error: errorSummary(err) }, 'x402 challenge unavailable (facilitator not ready)');
      throw new DomainError('service_unavailable', 'The payment facilitator is unavailable; try again later', { retryAfterSeconds: 5 });
    }
  };

  return {
    async paymentRequiredHeader(route, resourceUrl) {
      return encodePaymentRequiredHeader(await challengeFor(route, resourceUrl));
    },

    require(route) {
      if (!/^[1-9]\d*$/.test(route.priceAtomic)) throw new Error(`x402 route ${route.path}: priceAtomic must be a positive integer`);
      return async (ctx, next) => {
        if (!server || !settlementDeps) {
          return render(ctx, 503, 'payments_not_configured', 'Paid routes are unavailable: payments are not configured on this server');
        }
        const request = viewOf(ctx);
        const resourceUrl = `${publicBase(deps.publicBaseUrl, ctx)}${ctx.path}`;
        const challenge = await challengeFor(route, resourceUrl, request);
        const reject = (code: X402PaymentErrorCode, message: string, reason?: string) => {
          ctx.set('PAYMENT-REQUIRED', encodeChallenge(reason ? { ...challenge, error: reason } : challenge));
          render(ctx, 402, code, message);
        };

        const header = ctx.get('payment-signature');
        // A HEAD would settle a fee for a response without a body: it only ever gets the challenge.
        if (!header || ctx.method === 'HEAD') return reject('payment_required', 'Payment required: pay this fee with x402 v2 and repeat the request with a PAYMENT-SIGNATURE header');
        let payload: PaymentPayload;
        try {
          payload = decodePaymentSignatureHeader(header);
        } catch {
          return reject('payment_invalid', 'PAYMENT-SIGNATURE is not a base64 x402 payment payload', 'invalid_payment_signature_header');
        }
        const match = server.match(challenge, payload);
        if (!match.ok) return reject('payment_invalid', 'The payment does not match this resource\'s payment requirements', match.reason);
        const authorization = eip3009AuthorizationOf(payload);
        if (!authorization) return reject('payment_invalid', 'Only EIP-3009 transferWithAuthorization payments are accepted', 'unsupported_payload_type');
        const { requirements } = match;
        const ref = { network: requirements.network, asset: requirements.asset, payer: authorization.from, nonce: authorization.nonce };
        const replayed = () => reject('payment_replayed', 'This payment authorization was already used; sign a new one', 'payment_replayed');
        if (await isAuthorizationRecorded(db, ref)) return replayed();

        const verifyStarted = performance.now();
        let verify;
        try {
          verify = await server.verify(payload, requirements, challenge, request);
        } catch (err) {
          logger.warn({ requestId: ctx.state.requestId, error: errorSummary(err) }, 'x402 verify call failed');
          throw new DomainError('service_unavailable', 'The payment facilitator is unavailable; try again later', { retryAfterSeconds: 5 });
        }
        const verifyMs = Math.round(performance.now() - verifyStarted);
        if (!verify.isValid) {
          // The loser of a race may find the nonce already spent on chain: that is a replay, not a bad payment.
          if (await isAuthorizationRecorded(db, ref)) return replayed();
          return reject('payment_invalid', 'The payment was rejected by the facilitator', verify.invalidReason ?? 'invalid_payment');
        }
        const claimed = await claimAuthorization(db, {
          ...ref, payTo: requirements.payTo, amountAtomic: requirements.amount,
          validBefore: new Date(Math.min(Number(authorization.validBefore), MAX_TIMESTAMP_SECONDS) * 1000), operation: route.operation, resource: resourceUrl,
        });
        if (!claimed) return replayed();
        const paymentId = authorizationId(ref);

        const notSettled = (facts: { reason: string; handlerStatus?: number }) =>
          transitionPayment(db, paymentId, ['verified'], 'not_settled', facts).catch((err: unknown) => {
            logger.error({ requestId: ctx.state.requestId, paymentId, error: errorSummary(err) }, 'x402 could not record an unsettled payment');
          });
        try {
          await next();
        } catch (err) {
          await notSettled({ reason: `handler_threw:${err instanceof DomainError ? err.code : 'error'}` });
          throw err;
        }
        if (ctx.status < 200 || ctx.status >= 300) {
          await notSettled({ reason: 'handler_not_2xx', handlerStatus: ctx.status });
          return;
        }

        const outcome = await settleOnce(settlementDeps, {
          paymentId, requestId: ctx.state.requestId, payload, requirements, paymentRequired: challenge, authorization, request,
        });
        const facts = { requestId: ctx.state.requestId, paymentId, operation: route.operation, payer: authorization.from, verifyMs, settleMs: outcome.settleMs };
        if (outcome.kind === 'settled') {
          ctx.set('PAYMENT-RESPONSE', encodePaymentResponseHeader(outcome.response));
          logger.info({ ...facts, transaction: outcome.response.transaction, via: outcome.via }, 'x402 payment settled');
          return;
        }
        discardBody(ctx);
        if (outcome.kind === 'refused') {
          logger.warn({ ...facts, reason: outcome.reason }, 'x402 payment refused at settlement');
          return reject('payment_invalid', 'Settlement of the payment failed; you were not charged. Sign a new authorization to retry', outcome.reason);
        }
        render(ctx, 503, 'payment_settlement_uncertain',
          'The payment settlement could not be confirmed; the result is withheld. Do not sign a new authorization until this one has ' +
          'expired (validBefore) or been canceled; presenting it again is refused');
      };
    },
  };
}

/** 9999-12-31T23:59:59Z: a validBefore beyond it (e.g. 2^256-1, "never expires") is stored as this. */
const MAX_TIMESTAMP_SECONDS = 253_402_300_799;

function render(ctx: AppContext, status: number, code: X402PaymentErrorCode, message: string): void {
  ctx.status = status;
  ctx.body = { error: message, code, request_id: ctx.state.requestId };
}

/** Drops a handler's result that must not be delivered (settlement did not succeed). */
function discardBody(ctx: AppContext): void {
  const body = ctx.body as { destroy?: () => void } | undefined;
  if (body && typeof body === 'object' && typeof body.destroy === 'function') body.destroy();
  ctx.body = null;
  for (const name of ['Content-Disposition', 'Content-Length', 'Content-Type', 'PAYMENT-RESPONSE']) ctx.remove(name);
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

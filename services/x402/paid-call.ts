import { createHash } from 'node:crypto';
import type { FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types';
import type { Db } from '../../db/connection.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { AuthorizationStateReader } from '../../adapters/x402/authorization-state.js';
import { SETTLEMENT_NOT_BROADCAST } from '../../adapters/x402/facilitator.js';
import {
  createX402PaymentServer,
  eip3009AuthorizationOf,
  type Eip3009Authorization,
  type RequestView,
} from '../../adapters/x402/payment-server.js';
import {
  authorizationId,
  claimAuthorization,
  findPayment,
  loadKeptAnswer,
  markAnswerDelivered,
  markAnswerWithheld,
  transitionPayment,
  type AuthorizationRef,
  type KeptAnswer,
  type X402PaymentRecord,
} from '../../db/repositories/x402-payments.repo.js';
import { canonicalJson } from '../../domain/canonical-json.js';
import { DomainError } from '../../domain/errors.js';
import type { PaidRouteSpec } from './paid-route.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';
import {
  errorSummary,
  inspectAuthorization,
  refuseSettlement,
  settleOnce,
  type SettlementDeps,
} from './payment-settlement.js';

export type { KeptAnswer } from '../../db/repositories/x402-payments.repo.js';

/** How the caller presented a payment. */
export type PresentedPayment =
  | { kind: 'none' }
  /** Present but not an x402 payment payload; `reason` is the x402 error reason to report. */
  | { kind: 'undecodable'; reason: string }
  | { kind: 'payload'; payload: PaymentPayload };

/** What the handler of a paid call came to: an answer to deliver (and settle for), or a failure that is never charged. */
export type HandlerResult = { ok: true; answer: KeptAnswer } | { ok: false; status: number };

/** One paid call, whatever transport carries it (HTTP PAYMENT-SIGNATURE header, MCP `_meta["x402/payment"]`). */
export interface PaidCall {
  route: PaidRouteSpec;
  /** The x402 resource URL of the challenge (HTTP: the route URL; MCP: the tool's URL). */
  resourceUrl: string;
  /** The request's validated arguments: a re-presentation of the same authorization must carry the same ones. */
  args: unknown;
  payment: PresentedPayment;
  requestId: string;
  /** The HTTP request, for the x402 extensions that read it; absent for MCP tool calls. */
  request?: RequestView;
  /** Runs the paid handler; called at most once, only after the payment verified and was recorded. A throw is not charged. */
  run(): Promise<HandlerResult>;
}

export type PaymentRefusalCode = 'payment_required' | 'payment_invalid' | 'payment_replayed';

/**
 * What a paid call came to; the transport renders it:
 * - `refused`    402: PAYMENT-REQUIRED (`paymentRequired`, its `error` set to the x402 reason) and, when a
 *                settlement was attempted and refused, PAYMENT-RESPONSE `{success: false}` (`settlement`).
 * - `not_run`    the handler did not succeed (404, 422, 503...): its own answer stands, nothing is charged.
 * - `delivered`  the fee is settled: the answer with PAYMENT-RESPONSE (`settlement`).
 * - `pending`    the settlement is not decided within the wait: 503 payment_settlement_uncertain with
 *                Retry-After; the answer is kept and re-presenting the same authorization fetches it.
 */
export type PaidCallOutcome =
  | {
      kind: 'refused';
      code: PaymentRefusalCode;
      message: string;
      paymentRequired: PaymentRequired;
      settlement?: SettleResponse;
    }
  | { kind: 'not_run' }
  | { kind: 'delivered'; answer: KeptAnswer; settlement: SettleResponse; replayed: boolean }
  | { kind: 'pending'; message: string; retryAfterSeconds: number };

/** What a paid call came to, as the metrics label it (an /x402 route's or an MCP tool's; docs/operations.md "Metrics"). */
export type PaymentOutcome =
  'unpaid' | 'paid' | 'redelivered' | 'replayed' | 'refused' | 'settlement_uncertain' | 'not_charged';

/** The metrics label of an outcome; `presented`: the call carried a payment (refused vs unpaid). */
export function paymentOutcome(outcome: PaidCallOutcome, presented: boolean): PaymentOutcome {
  if (outcome.kind === 'delivered') return outcome.replayed ? 'redelivered' : 'paid';
  if (outcome.kind === 'pending') return 'settlement_uncertain';
  if (outcome.kind === 'not_run') return 'not_charged';
  if (outcome.code === 'payment_replayed') return 'replayed';
  return presented ? 'refused' : 'unpaid';
}

export interface PaidCallsDeps {
  db: Db;
  logger: Logger;
  payTo: `0x${string}`;
  facilitator: FacilitatorClient;
  /** EIP-3009 state on Base, used to decide unclear settlements; null -> they stay uncertain until maintenance. */
  authorizationState: AuthorizationStateReader | null;
  /** x402 maxTimeoutSeconds of every requirement. */
  paymentTimeoutSeconds: number;
  /** How long a request waits for its settlement before answering `pending` (the settlement goes on). Default 15 s. */
  settlementWaitMs?: number;
  /** How long an unclear settlement is watched on chain before it is recorded `uncertain`. Default 12 s. */
  settlementReconcileMs?: number;
  reconcilePollMs?: number;
  /** The API's metrics: settlements decided after a 503 settlement_uncertain (`x402LateSettlements`). */
  metrics?: Pick<PlatformMetrics, 'x402LateSettlements'> | undefined;
}

export interface PaidCalls {
  /** The PaymentRequired challenge of a route at a resource URL (facilitator down -> DomainError service_unavailable). */
  challenge(route: PaidRouteSpec, resourceUrl: string, request?: RequestView): Promise<PaymentRequired>;
  process(call: PaidCall): Promise<PaidCallOutcome>;
  /** Resolves when every settlement started by this process has ended (for tests and graceful shutdown). */
  idle(): Promise<void>;
}

/** Seconds a caller is asked to wait before re-presenting an authorization whose settlement is undecided. */
export const SETTLEMENT_RETRY_AFTER_SECONDS = 5;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** sha256 of a paid request: the operation and its validated arguments (big integers as digits), in canonical JSON. */
export const requestFingerprint = (operation: string, args: unknown) =>
  sha256(
    `${operation}\n${canonicalJson(JSON.parse(JSON.stringify(args ?? null, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))))}`,
  );

/**
 * The x402 v2 payment flow of one paid call, transport-neutral (api/x402/payment.middleware.ts renders it for
 * HTTP, api/mcp for MCP tool calls):
 *
 * 1. No payment -> `refused` payment_required with the challenge. The handler never runs unpaid.
 * 2. Undecodable, unmatched, non-EIP-3009 or facilitator-rejected payment -> `refused` payment_invalid.
 * 3. An authorization already recorded here is a re-presentation (below). Otherwise it is verified and recorded
 *    (unique payer+nonce) BEFORE the handler runs; losing that insert makes it a re-presentation too.
 * 4. Handler not 2xx or throwing -> never settled, nothing charged; the authorization stays spent here.
 * 5. Handler 2xx -> its answer is stored with the move to `settling`, then settled at most once
 *    (payment-settlement.ts). The request waits up to `settlementWaitMs`: settled -> `delivered`; definitely not
 *    paid -> `refused` with PAYMENT-RESPONSE success:false; undecided -> `pending` (the settlement goes on in the
 *    background and the answer stays kept).
 *
 * Re-presenting an authorization (same payment payload, same request): while its settlement is undecided the
 * chain is read once (paid -> the kept answer is delivered; used elsewhere or expired unused -> refused; else
 * `pending` again); once settled, the kept answer is delivered exactly as the first time if it never was.
 * Anything else (another request, another payload with the same nonce, an answer already delivered, a call
 * whose handler failed, a first presentation still running) is `refused` payment_replayed.
 */
export function createPaidCalls(deps: PaidCallsDeps): PaidCalls {
  const { db, logger } = deps;
  const server = createX402PaymentServer({
    facilitator: deps.facilitator,
    payTo: deps.payTo,
    maxTimeoutSeconds: deps.paymentTimeoutSeconds,
  });
  const settlement: SettlementDeps = {
    db,
    logger,
    server,
    authorizationState: deps.authorizationState,
    reconcileWindowMs: deps.settlementReconcileMs ?? 12_000,
    reconcilePollMs: deps.reconcilePollMs ?? 1_000,
  };
  const waitMs = deps.settlementWaitMs ?? 15_000;
  const running = new Set<Promise<unknown>>();
  /** A settlement decided after its caller was answered 503 settlement_uncertain (docs/operations.md "Metrics"). */
  const countLate = (outcome: 'settled' | 'failed', decidedBy: 'call' | 'representation') =>
    deps.metrics?.x402LateSettlements.inc({ outcome, decided_by: decidedBy });

  // A route's challenge is a function of the route, the resource URL and the request's method (the bazaar declaration
  // names it; nothing else of the request goes into it): built once per combination, not per request. Bounded per
  // route (without PUBLIC_BASE_URL the URL follows the Host header), oldest evicted; failures are not kept.
  const challenges = new WeakMap<PaidRouteSpec, Map<string, Promise<PaymentRequired>>>();
  const cachedChallenge = (
    route: PaidRouteSpec,
    resourceUrl: string,
    request?: RequestView,
  ): Promise<PaymentRequired> => {
    let byKey = challenges.get(route);
    if (!byKey) challenges.set(route, (byKey = new Map()));
    const key = `${request ? (request.method === 'HEAD' ? 'GET' : request.method) : '-'} ${resourceUrl}`;
    let built = byKey.get(key);
    if (!built) {
      if (byKey.size >= CHALLENGES_PER_ROUTE) byKey.delete(byKey.keys().next().value!);
      const map = byKey;
      built = server.paymentRequired(route, resourceUrl, 'Payment required', request);
      map.set(key, built);
      built.catch(() => map.delete(key));
    }
    return built;
  };

  const challenge = async (
    route: PaidRouteSpec,
    resourceUrl: string,
    request?: RequestView,
  ): Promise<PaymentRequired> => {
    try {
      // Callers get their own copy (the paid path hands it to @x402/core); the unpaid 402 reads the shared one.
      return structuredClone(await cachedChallenge(route, resourceUrl, request));
    } catch (err) {
      logger.warn({ error: errorSummary(err) }, 'x402 challenge unavailable (facilitator not ready)');
      throw new DomainError('service_unavailable', 'The payment facilitator is unavailable; try again later', {
        retryAfterSeconds: 5,
      });
    }
  };

  const refused = (
    paymentRequired: PaymentRequired,
    code: PaymentRefusalCode,
    message: string,
    reason?: string,
    settlement?: SettleResponse,
  ): PaidCallOutcome => ({
    kind: 'refused',
    code,
    message,
    paymentRequired: reason ? { ...paymentRequired, error: reason } : paymentRequired,
    ...(settlement ? { settlement } : {}),
  });
  const replayed = (pr: PaymentRequired, message = 'This payment authorization was already used; sign a new one') =>
    refused(pr, 'payment_replayed', message, 'payment_replayed');
  const pending = (): PaidCallOutcome => ({
    kind: 'pending',
    retryAfterSeconds: SETTLEMENT_RETRY_AFTER_SECONDS,
    message:
      'The payment settlement is not decided yet; the result is kept. Present the same payment authorization again ' +
      'to receive it once the fee is settled (you are charged at most once). Do not sign a new authorization meanwhile',
  });
  const settlementRefused = (
    pr: PaymentRequired,
    a: Eip3009Authorization,
    network: string,
    reason: string,
  ): PaidCallOutcome =>
    refused(
      pr,
      'payment_invalid',
      'Settlement of the payment failed; you were not charged. Sign a new authorization to retry',
      reason,
      {
        success: false,
        errorReason: reason.split(':')[0]!,
        transaction: '',
        network: network as SettleResponse['network'],
        payer: a.from,
      },
    );
  const delivered = async (
    row: Pick<X402PaymentRecord, 'id' | 'network' | 'transaction'>,
    a: Eip3009Authorization,
    answer: KeptAnswer,
    replay: boolean,
  ): Promise<PaidCallOutcome> => {
    await markAnswerDelivered(db, row.id);
    const settlementResponse: SettleResponse = {
      success: true,
      transaction: row.transaction ?? '',
      network: row.network as SettleResponse['network'],
      payer: a.from,
    };
    return { kind: 'delivered', answer, settlement: settlementResponse, replayed: replay };
  };

  /** A payment payload that was recorded before: deliver what it paid for, wait, or refuse. */
  const represented = async (
    pr: PaymentRequired,
    ref: AuthorizationRef,
    a: Eip3009Authorization,
    payloadSha256: string,
    fingerprint: string,
    requestId: string,
  ): Promise<PaidCallOutcome> => {
    const row = await findPayment(db, ref);
    if (!row || row.payloadSha256 !== payloadSha256 || row.requestFingerprint !== fingerprint) return replayed(pr);
    if (row.status === 'not_settled') {
      return replayed(
        pr,
        'The call paid with this authorization did not succeed and was not charged, but the authorization is used here; sign a new one',
      );
    }
    if (row.status === 'failed') return settlementRefused(pr, a, row.network, row.reason ?? 'settlement_failed');
    if (!row.answerKept || row.deliveredAt) return replayed(pr);
    // The first request is still waiting for the settlement and delivers the answer itself (unless it died: then,
    // well past its wait, the caller may fetch it here).
    if (!row.withheldAt && Date.now() - row.createdAt.getTime() < waitMs + FIRST_REQUEST_GRACE_MS) return replayed(pr);
    if (row.status === 'settled') {
      const answer = await loadKeptAnswer(db, row.id);
      return answer ? delivered(row, a, answer, true) : replayed(pr);
    }
    if (row.status !== 'settling' && row.status !== 'uncertain') return replayed(pr);
    // Undecided: one look at the chain decides it when the authorization was executed (or can no longer be).
    const decision = await inspectAuthorization(
      settlement,
      { paymentId: row.id, requestId, requirements: { asset: row.asset, network: row.network }, authorization: a },
      row.transaction ?? undefined,
    );
    if (decision.kind === 'paid') {
      if (
        await transitionPayment(db, row.id, ['settling', 'uncertain'], 'settled', {
          transaction: decision.transaction,
          reason: 'reconciled_on_representation',
        })
      )
        countLate('settled', 'representation');
      const answer = await loadKeptAnswer(db, row.id);
      return answer ? delivered({ ...row, transaction: decision.transaction }, a, answer, true) : replayed(pr);
    }
    if (decision.kind === 'refused') {
      if (await refuseSettlement(db, row.id, ['settling', 'uncertain'], decision.reason))
        countLate('failed', 'representation');
      return settlementRefused(pr, a, row.network, decision.reason);
    }
    return pending();
  };

  return {
    challenge,
    idle: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },

    async process(call) {
      const { route } = call;
      if (call.payment.kind === 'none') {
        // The shared challenge as is: the refusal only reads it (the transport encodes it once, payment.middleware.ts).
        let shared: PaymentRequired;
        try {
          shared = await cachedChallenge(route, call.resourceUrl, call.request);
        } catch {
          return refused(
            await challenge(route, call.resourceUrl, call.request),
            'payment_required',
            PAYMENT_REQUIRED_MESSAGE,
          );
        }
        return refused(shared, 'payment_required', PAYMENT_REQUIRED_MESSAGE);
      }
      const pr = await challenge(route, call.resourceUrl, call.request);
      if (call.payment.kind === 'undecodable')
        return refused(pr, 'payment_invalid', 'The payment is not an x402 payment payload', call.payment.reason);
      const { payload } = call.payment;
      const match = server.match(pr, payload);
      if (!match.ok)
        return refused(
          pr,
          'payment_invalid',
          "The payment does not match this resource's payment requirements",
          match.reason,
        );
      const authorization = eip3009AuthorizationOf(payload);
      if (!authorization)
        return refused(
          pr,
          'payment_invalid',
          'Only EIP-3009 transferWithAuthorization payments are accepted',
          'unsupported_payload_type',
        );
      const { requirements } = match;
      const ref = {
        network: requirements.network,
        asset: requirements.asset,
        payer: authorization.from,
        nonce: authorization.nonce,
      };
      const payloadSha256 = sha256(canonicalJson(payload.payload));
      const fingerprint = requestFingerprint(route.operation, call.args);
      const again = () => represented(pr, ref, authorization, payloadSha256, fingerprint, call.requestId);
      if (await findPayment(db, ref)) return again();

      const verifyStarted = performance.now();
      let verify;
      try {
        verify = await server.verify(payload, requirements, pr, call.request);
      } catch (err) {
        logger.warn({ requestId: call.requestId, error: errorSummary(err) }, 'x402 verify call failed');
        throw new DomainError('service_unavailable', 'The payment facilitator is unavailable; try again later', {
          retryAfterSeconds: 5,
        });
      }
      const verifyMs = Math.round(performance.now() - verifyStarted);
      if (!verify.isValid) {
        // The loser of a race may find the nonce already spent on chain: that is a re-presentation, not a bad payment.
        if (await findPayment(db, ref)) return again();
        return refused(
          pr,
          'payment_invalid',
          'The payment was rejected by the facilitator',
          verify.invalidReason ?? 'invalid_payment',
        );
      }
      const claimed = await claimAuthorization(db, {
        ...ref,
        payTo: requirements.payTo,
        amountAtomic: requirements.amount,
        requestFingerprint: fingerprint,
        payloadSha256,
        validBefore: new Date(Math.min(Number(authorization.validBefore), MAX_TIMESTAMP_SECONDS) * 1000),
        operation: route.operation,
        resource: call.resourceUrl,
      });
      if (!claimed) return again();
      const paymentId = authorizationId(ref);

      const notSettled = (facts: { reason: string; handlerStatus?: number }) =>
        transitionPayment(db, paymentId, ['verified'], 'not_settled', facts).catch((err: unknown) => {
          logger.error(
            { requestId: call.requestId, paymentId, error: errorSummary(err) },
            'x402 could not record an unsettled payment',
          );
        });
      let result: HandlerResult;
      try {
        result = await call.run();
      } catch (err) {
        await notSettled({ reason: `handler_threw:${err instanceof DomainError ? err.code : 'error'}` });
        throw err;
      }
      if (!result.ok) {
        await notSettled({ reason: 'handler_not_2xx', handlerStatus: result.status });
        return { kind: 'not_run' };
      }

      const facts = {
        requestId: call.requestId,
        paymentId,
        operation: route.operation,
        payer: authorization.from,
        verifyMs,
      };
      const settling = settleOnce(settlement, {
        paymentId,
        requestId: call.requestId,
        payload,
        requirements,
        paymentRequired: pr,
        authorization,
        request: call.request,
        answer: result.answer,
      }).catch((err: unknown): null => {
        logger.error(
          { ...facts, error: errorSummary(err) },
          'x402 settlement crashed; the payment is left to reconciliation',
        );
        return null;
      });
      running.add(settling);
      void settling.finally(() => running.delete(settling));
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        settling,
        new Promise<'waiting'>((resolve) => (timer = setTimeout(() => resolve('waiting'), waitMs))),
      ]);
      clearTimeout(timer);
      if (outcome === 'waiting' || outcome === null || outcome.kind === 'uncertain') {
        await markAnswerWithheld(db, paymentId);
        logger.warn(facts, 'x402 settlement not decided within the wait; the answer is kept for a re-presentation');
        void settling.then((late) => {
          if (!late) return;
          logger.info(
            { ...facts, outcome: late.kind, settleMs: late.settleMs },
            'x402 settlement decided after the answer',
          );
          // Decided by this settlement's own transition (not a re-presentation's meanwhile): counted once.
          if (late.kind !== 'uncertain' && late.recorded)
            countLate(late.kind === 'settled' ? 'settled' : 'failed', 'call');
        });
        return pending();
      }
      if (outcome.kind === 'settled') {
        logger.info(
          { ...facts, settleMs: outcome.settleMs, transaction: outcome.response.transaction, via: outcome.via },
          'x402 payment settled',
        );
        await markAnswerDelivered(db, paymentId);
        return { kind: 'delivered', answer: result.answer, settlement: outcome.response, replayed: false };
      }
      if (outcome.kind === 'refused') {
        if (outcome.reason === SETTLEMENT_NOT_BROADCAST) {
          // Not the payer's doing: the facilitator could not broadcast (its key's gas, its RPC). Every payer is refused until fixed.
          logger.error(
            { ...facts, settleMs: outcome.settleMs, reason: outcome.reason },
            'x402 settlement transaction not broadcast; the payer was refused, uncharged',
          );
        } else {
          logger.warn(
            { ...facts, settleMs: outcome.settleMs, reason: outcome.reason },
            'x402 payment refused at settlement',
          );
        }
        return settlementRefused(pr, authorization, requirements.network, outcome.reason);
      }
      throw new Error('unreachable settlement outcome');
    },
  };
}

const PAYMENT_REQUIRED_MESSAGE = 'Payment required: pay this fee with x402 v2 and repeat the call with the payment';

/** Distinct challenges kept per paid route (resource URL x method). */
const CHALLENGES_PER_ROUTE = 64;

/** After its wait, a first request that has not answered within this margin is taken as gone (process died). */
const FIRST_REQUEST_GRACE_MS = 5 * 60_000;

/** 9999-12-31T23:59:59Z: a validBefore beyond it (e.g. 2^256-1, "never expires") is stored as this. */
const MAX_TIMESTAMP_SECONDS = 253_402_300_799;

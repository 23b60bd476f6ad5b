import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { Db } from '../../db/connection.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { AuthorizationOnChain, AuthorizationStateReader } from '../../adapters/x402/authorization-state.js';
import type { Eip3009Authorization, RequestView, X402PaymentServer } from '../../adapters/x402/payment-server.js';
import {
  transitionPayment,
  type KeptAnswer,
  type X402PaymentStatus,
} from '../../db/repositories/x402-payments.repo.js';

/**
 * What settling one authorization came to, and what the caller receives:
 * - `settled`   the fee is paid (the facilitator said so, or Base shows the authorization executed and paying
 *               payTo exactly the fee): 2xx with the handler's result and PAYMENT-RESPONSE.
 * - `refused`   the fee is definitely NOT paid (the facilitator refused before broadcasting and Base shows the
 *               authorization unused, or it expired unused, or its nonce was used/canceled elsewhere): 402
 *               payment_invalid, the result is withheld, nothing was charged.
 * - `uncertain` the outcome is unknown within the reconciliation window (facilitator timeout/error and Base
 *               does not show the authorization executed yet): 503 payment_settlement_uncertain, the result is
 *               withheld; the row stays `uncertain` for a later reconciliation from chain state.
 */
export type SettlementOutcome =
  | { kind: 'settled'; response: SettleResponse; via: 'facilitator' | 'chain'; settleMs: number; recorded: boolean }
  | { kind: 'refused'; reason: string; settleMs: number; recorded?: boolean }
  | { kind: 'uncertain'; reason: string; settleMs: number };

export interface SettlementDeps {
  db: Db;
  logger: Logger;
  server: X402PaymentServer;
  /** Reads EIP-3009 state on Base; null means no reconciliation (an unclear outcome stays uncertain). */
  authorizationState: AuthorizationStateReader | null;
  /** How long to watch the chain after an unclear outcome before answering `uncertain`. */
  reconcileWindowMs: number;
  reconcilePollMs: number;
}

export interface SettlementRequest {
  paymentId: string;
  requestId: string;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  paymentRequired: PaymentRequired;
  authorization: Eip3009Authorization;
  request?: RequestView | undefined;
  /** The handler's answer, stored with the move to `settling` and kept until it is delivered or refused. */
  answer: KeptAnswer;
}

/** What one read of the chain says about an authorization whose settlement is open. */
export type ChainDecision =
  { kind: 'paid'; transaction: string } | { kind: 'refused'; reason: string } | { kind: 'open'; state: string };

/** The authorization's state on Base, or undefined when it cannot be read (no reader, RPC failure). */
async function readChain(
  deps: Pick<SettlementDeps, 'authorizationState' | 'logger'>,
  s: { requirements: { asset: string }; authorization: Eip3009Authorization },
  hintTx: string | undefined,
): Promise<AuthorizationOnChain | undefined> {
  if (!deps.authorizationState) return undefined;
  try {
    return await deps.authorizationState.inspect(
      {
        asset: s.requirements.asset as `0x${string}`,
        from: s.authorization.from,
        to: s.authorization.to,
        value: BigInt(s.authorization.value),
        nonce: s.authorization.nonce,
      },
      hintTx,
    );
  } catch (err) {
    deps.logger.warn({ error: errorSummary(err) }, 'x402 authorization state read failed');
    return undefined;
  }
}

/** Chain time runs close to wall time; a margin keeps a late block from executing what we call expired. */
const EXPIRY_MARGIN_MS = 30_000;
const expiredUnused = (chain: AuthorizationOnChain | undefined, a: Eip3009Authorization) =>
  chain?.state === 'unused' && Date.now() > Number(a.validBefore) * 1000 + EXPIRY_MARGIN_MS;

/**
 * One look at the chain for an open settlement (a caller re-presenting its authorization): paid, definitely
 * not paid (used or canceled elsewhere, expired unused), or still open.
 */
export async function inspectAuthorization(
  deps: Pick<SettlementDeps, 'authorizationState' | 'logger'>,
  s: {
    paymentId: string;
    requestId: string;
    requirements: { asset: string; network: string };
    authorization: Eip3009Authorization;
  },
  hintTx?: string,
): Promise<ChainDecision> {
  const chain = await readChain(
    { ...deps, logger: deps.logger.child({ requestId: s.requestId, paymentId: s.paymentId }) },
    s,
    hintTx,
  );
  if (chain?.state === 'paid') return { kind: 'paid', transaction: chain.transaction };
  if (chain?.state === 'used_otherwise') return { kind: 'refused', reason: 'authorization_used_or_canceled_elsewhere' };
  if (expiredUnused(chain, s.authorization)) return { kind: 'refused', reason: 'expired_unused' };
  return { kind: 'open', state: chain?.state ?? 'unread' };
}

/** Records a definite refusal: the fee was not paid, and the kept answer is dropped (it is never delivered). */
export async function refuseSettlement(
  db: Db,
  paymentId: string,
  from: readonly X402PaymentStatus[],
  reason: string,
): Promise<boolean> {
  return transitionPayment(db, paymentId, from, 'failed', { reason, answer: null });
}

/**
 * Facilitator answers that leave open whether a transaction was broadcast (timeouts, broadcast errors, a
 * pending receipt). Any other refusal without a transaction hash was decided before broadcasting.
 */
const AMBIGUOUS_REASONS = new Set([
  'settlement_pending',
  'invalid_exact_evm_transaction_failed',
  'invalid_transaction_state',
  'unexpected_settle_error',
]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Settles a verified authorization AT MOST ONCE. The row moves verified -> settling in one conditional UPDATE,
 * and only the request that made that move calls the facilitator, exactly once (@x402/core's own single retry
 * of a `settlement_pending` answer re-uses the already-broadcast transaction). When the facilitator does not
 * report a success, the chain decides instead of a second settle: EIP-3009 authorizationState(from, nonce) on
 * Base, then the transaction that used the nonce must have moved exactly the fee from the payer to payTo.
 * A definite refusal is checked once (it stands unless the chain shows the fee paid); an unclear outcome is
 * watched for `reconcileWindowMs` (stopping early once the authorization's validBefore has passed unused,
 * which makes the refusal definite).
 */
export async function settleOnce(deps: SettlementDeps, s: SettlementRequest): Promise<SettlementOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const log = deps.logger.child({ requestId: s.requestId, paymentId: s.paymentId });
  if (!(await transitionPayment(deps.db, s.paymentId, ['verified'], 'settling', { answer: s.answer }))) {
    // Someone else moved this payment: never settle it from here.
    return { kind: 'uncertain', reason: 'payment_not_in_verified_state', settleMs: elapsed() };
  }

  let result: SettleResponse | undefined;
  let failure: string;
  try {
    result = await deps.server.settle(s.payload, s.requirements, s.paymentRequired, s.request);
    failure = result.errorReason ?? 'settlement_failed';
  } catch (err) {
    // No answer (timeout, network, malformed reply): the settlement may or may not have been executed.
    failure = `facilitator_error:${(err as Error).name || 'Error'}`;
    log.warn({ error: errorSummary(err) }, 'x402 settle call failed; reconciling from chain state');
  }
  if (result?.success) {
    const recorded = await transitionPayment(deps.db, s.paymentId, ['settling'], 'settled', {
      transaction: result.transaction || null,
    });
    return { kind: 'settled', response: result, via: 'facilitator', settleMs: elapsed(), recorded };
  }
  const definite =
    result !== undefined &&
    (!AMBIGUOUS_REASONS.has(failure) || (failure === 'invalid_exact_evm_transaction_failed' && !!result.transaction));
  if (result)
    log.warn(
      { errorReason: failure, transaction: result.transaction || undefined, definite },
      'x402 settlement not successful; reconciling from chain state',
    );

  const deadline = Date.now() + deps.reconcileWindowMs;
  let chain: AuthorizationOnChain | undefined;
  for (;;) {
    chain = await readChain({ authorizationState: deps.authorizationState, logger: log }, s, result?.transaction);
    if (chain?.state === 'paid') {
      const recorded = await transitionPayment(deps.db, s.paymentId, ['settling'], 'settled', {
        transaction: chain.transaction,
        reason: `reconciled_after:${failure}`,
      });
      const response: SettleResponse = {
        success: true,
        transaction: chain.transaction,
        network: s.requirements.network,
        payer: s.authorization.from,
      };
      return { kind: 'settled', response, via: 'chain', settleMs: elapsed(), recorded };
    }
    if (chain?.state === 'used_otherwise')
      return refuse(deps, s, 'authorization_used_or_canceled_elsewhere', elapsed());
    // A refusal decided before broadcasting stands unless the chain shows the fee paid.
    if (definite) return refuse(deps, s, failure, elapsed());
    if (expiredUnused(chain, s.authorization)) return refuse(deps, s, `expired_unused_after:${failure}`, elapsed());
    if (!deps.authorizationState || chain?.state === 'unknown' || Date.now() + deps.reconcilePollMs > deadline) break;
    await sleep(deps.reconcilePollMs);
  }
  const reason = `${failure};chain:${chain?.state ?? 'unread'}`;
  await transitionPayment(deps.db, s.paymentId, ['settling'], 'uncertain', {
    reason,
    transaction: result?.transaction || null,
  });
  log.error({ reason }, 'x402 settlement outcome uncertain; the result was withheld');
  return { kind: 'uncertain', reason, settleMs: elapsed() };
}

async function refuse(
  deps: SettlementDeps,
  s: SettlementRequest,
  reason: string,
  settleMs: number,
): Promise<SettlementOutcome> {
  const recorded = await refuseSettlement(deps.db, s.paymentId, ['settling'], reason);
  return { kind: 'refused', reason, settleMs, recorded };
}

/** A log-safe description of an error: its class and viem's short message, never details that echo URLs. */
export function errorSummary(err: unknown): { type: string; message: string } {
  if (!(err instanceof Error)) return { type: typeof err, message: 'non-error thrown' };
  const short = (err as Error & { shortMessage?: unknown }).shortMessage;
  const message = typeof short === 'string' ? short : err.message;
  return { type: err.name, message: message.replace(/https?:\/\/\S+/g, '[url]').slice(0, 300) };
}

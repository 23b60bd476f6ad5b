import pLimit, { type LimitFunction } from 'p-limit';
import { BaseError, RpcRequestError, keccak256, type Hex } from 'viem';

/** Whose nonces a turn is for: one key on one chain. */
export interface SenderKey {
  chainId: number;
  address: `0x${string}`;
}

/** The nonce after the last transaction a turn recorded as accepted, and how long ago it was recorded. */
export interface RecordedNonce {
  next: bigint;
  ageMs: number;
}

/**
 * Turns for sending with one key: at most one sender of the key (in any process) prepares, signs and broadcasts at a
 * time, and each turn may record the nonce it used, for the next turn. `send` returns what the turn produced and the
 * nonce it used (null when nothing was broadcast: nothing is recorded then).
 */
export interface SendingTurns {
  take<T>(
    key: SenderKey,
    send: (recorded: RecordedNonce | null) => Promise<{ value: T; used: bigint | null }>,
  ): Promise<T>;
}

/** Turns within this process only (a process that settles alone with its key): one at a time per key, the recorded nonce in memory. */
export function inProcessTurns(): SendingTurns {
  const keys = new Map<string, { turn: LimitFunction; next?: bigint; at?: number }>();
  return {
    take(key, send) {
      const id = `${key.chainId}:${key.address.toLowerCase()}`;
      let entry = keys.get(id);
      if (!entry) keys.set(id, (entry = { turn: pLimit(1) }));
      const k = entry;
      return k.turn(async () => {
        const { value, used } = await send(k.next !== undefined ? { next: k.next, ageMs: Date.now() - k.at! } : null);
        if (used !== null) Object.assign(k, { next: used + 1n, at: Date.now() });
        return value;
      });
    },
  };
}

/** A settlement transaction that was never broadcast: the node refused it, or it could not be prepared. Nothing was spent. */
export class SettlementNotBroadcastError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SettlementNotBroadcastError';
  }
}

/** A transaction to send from the key (calldata to a contract). */
export interface OutgoingTransaction {
  to: `0x${string}`;
  data: Hex;
  gas?: bigint | undefined;
}

export interface SettlementSender {
  /** Broadcasts one transaction from the key with a nonce of its own; resolves with its hash once it is sent (or may be). */
  send(tx: OutgoingTransaction): Promise<Hex>;
}

/** The node and the key, as the sender uses them (adapters/x402/facilitator.ts binds them to a viem wallet client). */
export interface SenderNode {
  key: SenderKey;
  /** The key's transaction count including the node's pending transactions. */
  pendingNonce(): Promise<bigint>;
  /**
   * Fills in gas and fees (outside the turn: the estimate does not depend on the nonce) and returns what signs the
   * transaction locally with a nonce, giving the serialized signed transaction. Nothing is sent.
   */
  prepare(tx: OutgoingTransaction): Promise<(nonce: bigint) => Promise<Hex>>;
  /** eth_sendRawTransaction. */
  sendRaw(serialized: Hex): Promise<unknown>;
  /** Whether the node knows the transaction (pending or mined); false when it cannot tell. */
  knows(hash: Hex): Promise<boolean>;
}

/** Fresh signatures tried when the nonce read was taken meanwhile (someone else sending with the key, a lagging node). */
const NONCE_ATTEMPTS = 4;
/** Identical re-sends of one signed transaction whose broadcast got no answer (harmless: same hash, same nonce). */
const RESENDS = 2;
/** A recorded nonce is trusted over the node's pending count this long; after that a transaction the node still does not know was dropped. */
const RECORDED_NONCE_TRUST_MS = 60_000;

/** Node answers meaning: this very transaction is already in its pool. */
const ALREADY_KNOWN = /already known|known transaction|already imported|transaction already exists/i;
/** Node answers meaning: another transaction of the key holds this nonce (sent meanwhile, or still pending). */
const NONCE_TAKEN =
  /nonce too low|nonce has already been used|replacement transaction underpriced|replacement fee too low|transaction underpriced.*replace|nonce.*already.*used/i;

/**
 * Broadcasts settlement transactions of one facilitator key so that concurrent settlements never share a nonce:
 * each send happens in the key's turn (`turns`: in PostgreSQL when several processes settle with the key), reads
 * the node's pending transaction count there (never lower than the nonce the previous turn recorded, for a node
 * that lags behind a load balancer), signs locally (so the hash is known before anything leaves), and broadcasts.
 *
 * Outcomes:
 * - accepted, or the node already knows the transaction -> its hash; the nonce is recorded.
 * - the node refuses because the nonce is taken -> signed again with a fresh nonce (a transaction refused for its
 *   nonce can never be mined, so this pays nothing twice), a few times.
 * - any other refusal by the node, or a failure before broadcasting (gas estimate, fees, signing) ->
 *   SettlementNotBroadcastError: the caller knows at once the settlement did not happen.
 * - no answer (timeout, connection lost) -> the same signed bytes are sent again; still no answer -> its hash: it may
 *   be out, and waiting for its receipt (then the chain) decides.
 */
export function createSettlementSender(opts: { node: SenderNode; turns: SendingTurns }): SettlementSender {
  const { node } = opts;
  // One turn asked for at a time from this process: the others wait here, not on a database connection each.
  const queue = pLimit(1);

  type Broadcast = 'accepted' | 'nonce_taken' | { unanswered: unknown };
  const broadcast = async (serializedTransaction: Hex, hash: Hex): Promise<Broadcast> => {
    let unanswered: unknown;
    for (let attempt = 0; attempt <= RESENDS; attempt++) {
      try {
        await node.sendRaw(serializedTransaction);
        return 'accepted';
      } catch (err) {
        const text = errorText(err);
        if (ALREADY_KNOWN.test(text)) return 'accepted';
        if (!answeredByNode(err)) {
          unanswered = err;
          continue;
        }
        if (!NONCE_TAKEN.test(text)) {
          if (unanswered !== undefined) return { unanswered }; // an earlier unanswered send may still be out
          throw new SettlementNotBroadcastError(`the node refused the settlement transaction: ${fullMessage(err)}`, {
            cause: err,
          });
        }
        // The nonce is taken: by this very transaction (an earlier send whose answer was lost, ours or the transport's
        // retry, landed) or by another one.
        return (await node.knows(hash)) ? 'accepted' : 'nonce_taken';
      }
    }
    return { unanswered };
  };

  const nonceFor = async (recorded: RecordedNonce | null, refused: bigint | null): Promise<bigint> => {
    let nonce = await node.pendingNonce();
    if (recorded && recorded.ageMs < RECORDED_NONCE_TRUST_MS && recorded.next > nonce) nonce = recorded.next;
    if (refused !== null && refused >= nonce) nonce = refused + 1n;
    return nonce;
  };

  const sendInTurn = async (sign: (nonce: bigint) => Promise<Hex>, recorded: RecordedNonce | null) => {
    let refused: bigint | null = null;
    for (let attempt = 1; ; attempt++) {
      let nonce: bigint, serialized: Hex;
      try {
        nonce = await nonceFor(recorded, refused);
        serialized = await sign(nonce);
      } catch (err) {
        throw notPrepared(err);
      }
      const hash = keccak256(serialized);
      const outcome = await broadcast(serialized, hash);
      if (outcome === 'accepted') return { value: hash, used: nonce };
      if (outcome !== 'nonce_taken') return { value: hash, used: null }; // may be out: not recorded, the chain decides
      if (attempt >= NONCE_ATTEMPTS)
        throw new SettlementNotBroadcastError(
          `every nonce tried for the settlement transaction was taken (last ${nonce})`,
        );
      refused = nonce;
    }
  };

  return {
    async send(tx) {
      let sign: (nonce: bigint) => Promise<Hex>;
      try {
        sign = await node.prepare(tx);
      } catch (err) {
        throw notPrepared(err);
      }
      return queue(async () => {
        // A hash broadcast in the turn is returned even if recording the nonce fails afterwards (the database, at commit).
        let sent: Hex | undefined;
        try {
          return await opts.turns.take(node.key, async (recorded) => {
            const result = await sendInTurn(sign, recorded);
            sent = result.value;
            return result;
          });
        } catch (err) {
          if (sent) return sent;
          throw err instanceof SettlementNotBroadcastError
            ? err
            : new SettlementNotBroadcastError(`no sending turn for the settlement transaction: ${fullMessage(err)}`, {
                cause: err,
              });
        }
      });
    },
  };
}

const notPrepared = (err: unknown) =>
  err instanceof SettlementNotBroadcastError
    ? err
    : new SettlementNotBroadcastError(`the settlement transaction could not be prepared: ${fullMessage(err)}`, {
        cause: err,
      });

/** Whether a JSON-RPC node answered the request (with an error), as opposed to no answer (timeout, connection, HTTP failure). */
function answeredByNode(err: unknown): boolean {
  return err instanceof BaseError && err.walk((e) => e instanceof RpcRequestError) instanceof RpcRequestError;
}

function errorText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    parts.push(e.message, String((e as { details?: unknown }).details ?? ''));
  }
  return parts.join('\n');
}

/**
 * The cause's whole message (viem's carries the revert reason on a line of its own): @x402/evm reads the reason of a
 * failed settlement from it (insufficient balance, authorization used or expired...).
 */
function fullMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

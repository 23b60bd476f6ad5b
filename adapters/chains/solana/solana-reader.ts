import { DomainError } from '../../../domain/errors.js';
import type { Network } from '../../../domain/networks.js';
import { SOLANA } from '../../../domain/networks.js';
import { ChainError, type ChainReader, type TxEvidence } from '../types.js';
import { createSolanaRpc, type SolanaRpcOptions } from './solana-rpc.js';
import {
  decodeParsedTransaction,
  isSolanaSignature,
  parseGetTransactionResult,
  type SolanaTransactionResult,
} from './decode.js';

/** Endpoints, per-call timeout and retries: see solana-rpc.ts. */
export type SolanaReaderOptions = SolanaRpcOptions;

type Commitment = 'finalized' | 'confirmed';

/**
 * Reads Solana evidence with raw JSON-RPC `getTransaction` (encoding `json`, maxSupportedTransactionVersion 0) over
 * `fetch`: that is exactly the shape of the recorded fixtures, one decoder serves both, and each call gets a hard
 * timeout. (@solana/web3.js's Connection.getTransaction turns the result into MessageV0/PublicKey objects, has no
 * per-call timeout and retries HTTP 429 on its own schedule.)
 *
 * Status: found at `finalized` -> `confirmed`; else found at `confirmed` -> `waiting_confirmations`; found at neither
 * -> ChainError('not_found'). A found transaction with `meta.err` set -> ChainError('failed'), at either commitment.
 *
 * Failover rule (each call on its own): endpoints are tried in order; a call to one endpoint is attempted
 * 1 + `retries` times (each bounded by `timeoutMs`), then the next endpoint is tried. The first healthy answer is
 * used — `null` (not found) is a healthy answer — and a later endpoint is consulted only when the earlier ones failed,
 * so answers of different endpoints are never put to a vote. Failures are: network errors, timeouts, HTTP status other
 * than 2xx, a body that is not JSON, a JSON-RPC error, a `result` that is not a `getTransaction` result. When every
 * endpoint fails -> ChainError('unavailable'). Worst case per getEvidence: 2 calls x endpoints x (1 + retries) x timeoutMs.
 *
 * Inconsistency: an answer that contradicts the request or itself is never retried elsewhere but reported as
 * ChainError('inconsistent'): a result for another signature, a USDC transfer whose owner cannot be established,
 * USDC balance changes the decoded instructions do not explain, indexes out of range (see decode.ts).
 */
export function createSolanaReader(options: SolanaReaderOptions): ChainReader {
  const rpc = createSolanaRpc(options, 'the Solana reader');

  /** The first healthy answer, trying endpoints in order and each 1 + retries times (solana-rpc.ts). */
  const getTransaction = (signature: string, commitment: Commitment): Promise<SolanaTransactionResult | null> =>
    rpc.request(
      'getTransaction',
      [signature, { encoding: 'json', commitment, maxSupportedTransactionVersion: 0 }],
      (result) => (result === null ? null : parseGetTransactionResult(result)),
      `getTransaction at ${commitment} commitment`,
    );

  return {
    async getEvidence(network: Network, txHash: string): Promise<TxEvidence> {
      if (network !== 'solana') throw new Error(`the Solana reader reads only network 'solana', not '${network}'`);
      if (!isSolanaSignature(txHash)) {
        throw new DomainError('validation_failed', 'tx_hash must be a Solana signature: 64 to 88 base58 characters', {
          field: 'tx_hash',
        });
      }
      let status: TxEvidence['status'] = 'confirmed';
      let result = await getTransaction(txHash, 'finalized');
      if (result === null) {
        status = 'waiting_confirmations';
        result = await getTransaction(txHash, 'confirmed');
      }
      if (result === null)
        throw new ChainError('not_found', 'transaction not found on Solana at confirmed or finalized commitment');
      if (result.transaction.signatures[0] !== txHash) {
        throw new ChainError(
          'inconsistent',
          'the RPC answered with a transaction whose signature is not the one requested',
        );
      }
      const decoded = decodeParsedTransaction(result, SOLANA.usdcMint);
      if (decoded.failed)
        throw new ChainError('failed', `transaction failed on chain: ${JSON.stringify(decoded.err).slice(0, 200)}`);
      return {
        network: 'solana',
        chainId: SOLANA.chainId,
        txHash,
        status,
        confirmations: null,
        requiredConfirmations: null,
        blockNumber: decoded.slot,
        blockTimestamp: decoded.blockTime,
        tokenContract: SOLANA.usdcMint,
        transfers: decoded.transfers.map(({ from, to, amountAtomic, instructionIndex }) => ({
          from,
          to,
          amountAtomic,
          instructionIndex,
        })),
      };
    },
  };
}

import type { Network } from '../../domain/networks.js';

/** One native-USDC movement inside a transaction. */
export interface Transfer {
  /** EVM: sender address (checksummed). Solana: owner wallet of the source token account. */
  from: string;
  /** EVM: recipient address (checksummed). Solana: owner wallet of the destination token account. */
  to: string;
  amountAtomic: bigint;
  /** EVM: log index of the Transfer event in the block. */
  logIndex?: number;
  /** Solana: index of the instruction (outer index; inner instructions use their outer instruction's index). */
  instructionIndex?: number;
}

/** What a chain says about a transaction, read fresh. */
export interface TxEvidence {
  network: Network;
  chainId: number | string;
  txHash: string;
  /** `confirmed` once the required finality is reached; never before. */
  status: 'confirmed' | 'waiting_confirmations';
  /** EVM: head - block + 1. Solana: null (finality is a commitment level, not a count). */
  confirmations: number | null;
  /** EVM: the per-chain threshold. Solana: null (finalized commitment required). */
  requiredConfirmations: number | null;
  /** EVM block number; Solana slot. */
  blockNumber: number;
  /** Unix seconds, when the chain reports it. */
  blockTimestamp: number | null;
  /** Token contract (EVM) or mint (Solana) whose transfers are listed. */
  tokenContract: string;
  transfers: Transfer[];
}

/**
 * Why evidence could not be given. Each maps to one HTTP status: not_found 404, failed 422 (the transaction
 * reverted or failed), unavailable / reorg / inconsistent 503. A reader never guesses: when in doubt it throws.
 */
export type ChainErrorKind = 'not_found' | 'failed' | 'unavailable' | 'reorg' | 'inconsistent';

export class ChainError extends Error {
  constructor(
    readonly kind: ChainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ChainError';
  }
}

/** Reads evidence of one transaction on one network. Implementations: evm/, solana/. */
export interface ChainReader {
  getEvidence(network: Network, txHash: string): Promise<TxEvidence>;
}

/** RPC endpoints of a network in failover order. */
export type RpcEndpoints = readonly string[];

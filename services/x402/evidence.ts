import { DomainError } from '../../domain/errors.js';
import type { Network } from '../../domain/networks.js';
import { ChainError, type ChainReader, type TxEvidence } from '../../adapters/chains/types.js';
import type { Db } from '../../db/connection.js';
import { findConfirmedEvidence, storeConfirmedEvidence } from '../../db/repositories/x402-evidence.repo.js';

export interface EvidenceResult {
  evidence: TxEvidence;
  checkedAt: Date;
  /** True when served from the immutable store of confirmed evidence. */
  stored: boolean;
}

const CHAIN_ERRORS: Record<
  ChainError['kind'],
  { code: ConstructorParameters<typeof DomainError>[0]; message: string }
> = {
  not_found: { code: 'transaction_not_found', message: 'Transaction not found on the selected network' },
  failed: { code: 'transaction_failed', message: 'The transaction failed (reverted) on chain; it moved no USDC' },
  unavailable: { code: 'chain_unavailable', message: 'The network RPC is unavailable or timed out; retry later' },
  reorg: { code: 'chain_reorganization', message: 'The chain reorganised around this transaction; retry later' },
  inconsistent: { code: 'chain_inconsistent', message: 'The chain evidence is inconsistent; retry later' },
};

/** Maps a reader's refusal to the interface's error (404, 422 or 503); anything unexpected is a 503 too. */
export function chainFailure(e: unknown): DomainError {
  if (e instanceof ChainError) {
    const m = CHAIN_ERRORS[e.kind];
    return new DomainError(m.code, m.message);
  }
  return new DomainError('chain_unavailable', CHAIN_ERRORS.unavailable.message);
}

/**
 * Evidence of one transaction: confirmed evidence is immutable, so it is served from PostgreSQL once stored;
 * otherwise the chain is read and a `confirmed` answer is stored. A `waiting_confirmations` answer is never
 * stored: the next call reads the chain again.
 */
export function createEvidenceService(deps: { db: Db; reader: ChainReader; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    async getEvidence(network: Network, txHash: string): Promise<EvidenceResult> {
      const stored = await findConfirmedEvidence(deps.db, network, txHash);
      if (stored) return { evidence: stored, checkedAt: now(), stored: true };
      let evidence: TxEvidence;
      try {
        evidence = await deps.reader.getEvidence(network, txHash);
      } catch (e) {
        throw chainFailure(e);
      }
      if (evidence.status === 'confirmed') await storeConfirmedEvidence(deps.db, evidence);
      return { evidence, checkedAt: now(), stored: false };
    },
  };
}

export type EvidenceService = ReturnType<typeof createEvidenceService>;

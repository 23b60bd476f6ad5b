import type { Network } from '../../domain/networks.js';
import type { TxEvidence } from '../../adapters/chains/types.js';
import type { Db } from '../connection.js';

/** Key of a transaction: EVM hashes are case-insensitive (stored lower-case); Solana signatures are not. */
export function evidenceKey(network: Network, txHash: string): string {
  return network === 'solana' ? txHash : txHash.toLowerCase();
}

type StoredTransfer = Omit<TxEvidence['transfers'][number], 'amountAtomic'> & { amountAtomic: string };
type StoredEvidence = Omit<TxEvidence, 'transfers'> & { transfers: StoredTransfer[] };

const toStored = (e: TxEvidence): StoredEvidence => ({
  ...e,
  transfers: e.transfers.map((t) => ({ ...t, amountAtomic: t.amountAtomic.toString() })),
});
const fromStored = (e: StoredEvidence): TxEvidence => ({
  ...e,
  transfers: e.transfers.map((t) => ({ ...t, amountAtomic: BigInt(t.amountAtomic) })),
});

export async function findConfirmedEvidence(db: Db, network: Network, txHash: string): Promise<TxEvidence | null> {
  const row = await db('x402_evidence')
    .where({ network, tx_hash: evidenceKey(network, txHash) })
    .first();
  return row ? fromStored(row.evidence as StoredEvidence) : null;
}

/** Stores confirmed evidence once; it never changes afterwards. Anything not confirmed is refused. */
export async function storeConfirmedEvidence(db: Db, evidence: TxEvidence): Promise<void> {
  if (evidence.status !== 'confirmed') throw new Error('only confirmed evidence is final');
  await db('x402_evidence')
    .insert({
      network: evidence.network,
      tx_hash: evidenceKey(evidence.network, evidence.txHash),
      evidence: JSON.stringify(toStored(evidence)),
    })
    .onConflict(['network', 'tx_hash'])
    .ignore();
}

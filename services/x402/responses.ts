import { formatUsdc } from '../../domain/money.js';
import type { Transfer, TxEvidence } from '../../adapters/chains/types.js';
import type { EvidencePdfInput } from '../../adapters/media/pdf/evidence-pdf.js';
import type { EvidenceResult } from './evidence.js';

/** A transfer as the interface shows it (spec section 2, Transfer object). */
export function transferJson(t: Transfer): Record<string, unknown> {
  return {
    from: t.from,
    to: t.to,
    amount_usdc: formatUsdc(t.amountAtomic),
    amount_atomic: t.amountAtomic.toString(),
    ...(t.logIndex !== undefined ? { log_index: t.logIndex } : {}),
    ...(t.instructionIndex !== undefined ? { instruction_index: t.instructionIndex } : {}),
  };
}

/** Solana finality is a commitment level, reported as a string; EVM chains report counts. */
function confirmationFields(e: TxEvidence): {
  confirmations: number | string;
  required_confirmations: number | string;
} {
  if (e.network === 'solana') {
    return { confirmations: e.status === 'confirmed' ? 'finalized' : 'confirmed', required_confirmations: 'finalized' };
  }
  return { confirmations: e.confirmations ?? 0, required_confirmations: e.requiredConfirmations ?? 0 };
}

/** The fields Verify and Match share (everything of Verify except transfers). */
function commonFields(r: EvidenceResult): Record<string, unknown> {
  const e = r.evidence;
  return {
    network: e.network,
    chain_id: e.chainId,
    tx_hash: e.txHash,
    asset: 'USDC',
    token_contract: e.tokenContract,
    status: e.status,
    ...confirmationFields(e),
    block_number: e.blockNumber,
    ...(e.blockTimestamp !== null ? { block_timestamp: e.blockTimestamp } : {}),
    checked_at: r.checkedAt.toISOString(),
  };
}

export function verifyJson(r: EvidenceResult): Record<string, unknown> {
  return { ...commonFields(r), transfers: r.evidence.transfers.map(transferJson) };
}

/**
 * Match: every transfer to the recipient (EVM addresses compared case-insensitively, Solana owner wallets
 * exactly) of exactly the requested atomic amount is listed; `matched` is true only when there is exactly
 * one such transfer and the status is `confirmed`.
 */
export function matchJson(
  r: EvidenceResult,
  query: { recipient: string; amount: string; amountAtomic: bigint },
): Record<string, unknown> {
  const sameRecipient =
    r.evidence.network === 'solana'
      ? (to: string) => to === query.recipient
      : (to: string) => to.toLowerCase() === query.recipient.toLowerCase();
  const matching = r.evidence.transfers.filter((t) => sameRecipient(t.to) && t.amountAtomic === query.amountAtomic);
  return {
    ...commonFields(r),
    matched: matching.length === 1 && r.evidence.status === 'confirmed',
    recipient: query.recipient,
    amount_usdc: query.amount,
    matching_transfers: matching.map(transferJson),
  };
}

/** What the evidence PDF shows; its attachment is the Verify JSON, byte for byte. */
export function evidencePdfInput(r: EvidenceResult): EvidencePdfInput {
  const json = verifyJson(r);
  const e = r.evidence;
  const c = confirmationFields(e);
  return {
    network: e.network,
    chainId: String(e.chainId),
    txHash: e.txHash,
    status: e.status,
    confirmations: String(c.confirmations),
    requiredConfirmations: String(c.required_confirmations),
    blockNumber: String(e.blockNumber),
    blockTime:
      e.blockTimestamp !== null ? new Date(e.blockTimestamp * 1000).toISOString() : 'not reported by the chain',
    tokenContract: e.tokenContract,
    checkedAt: r.checkedAt.toISOString(),
    transfers: e.transfers.map((t) => ({
      from: t.from,
      to: t.to,
      amountUsdc: formatUsdc(t.amountAtomic),
      amountAtomic: t.amountAtomic.toString(),
      index:
        t.logIndex !== undefined
          ? `log ${t.logIndex}`
          : t.instructionIndex !== undefined
            ? `instruction ${t.instructionIndex}`
            : '-',
    })),
    json: Buffer.from(JSON.stringify(json, null, 2), 'utf8'),
  };
}

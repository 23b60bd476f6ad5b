import type { Network } from '../domain/networks.js';
import type { ObservedTransfer } from '../domain/proof/matching.js';
import type { Db } from '../db/connection.js';
import { applyTransfer, type EvidenceOutcome } from '../db/repositories/payment-evidence.repo.js';

/** What one scan of a network's payment watcher did (EVM and Solana alike). */
export interface ScanResult {
  network: Network;
  /** EVM: the block range scanned. Solana: the slots the network's progress moved over (see solana-watcher). */
  fromBlock: number;
  toBlock: number;
  /** EVM: the final height. Solana: the finalized slot. */
  finalHeight: number;
  recipients: number;
  transfers: number;
  outcomes: Partial<Record<EvidenceOutcome['outcome'], number>>;
  /** Webhook deliveries of the events this scan recorded: the workflow starts `delivery:<id>` for each. */
  deliveryIds: string[];
  /** Invoices this scan marked paid: the workflow signals their `invoice:<id>` lifecycle workflows. */
  paidInvoiceIds: string[];
  /** Nothing final is left to scan (or, on Solana, an account failed and is retried later): the workflow waits. */
  caughtUp: boolean;
  /** Solana: transaction signatures processed this scan. */
  signatures?: number;
  /** Solana: accounts whose scan failed this time (RPC trouble), with a caller-safe reason; retried next scan. */
  accountErrors?: string[];
}

/** Applies one transfer (PAID, REVIEW or kept as evidence, each exactly once) and counts it into the result. */
export async function applyInto(db: Db, result: ScanResult, t: ObservedTransfer, now: Date): Promise<void> {
  const applied = await applyTransfer(db, t, now);
  result.transfers++;
  result.outcomes[applied.outcome] = (result.outcomes[applied.outcome] ?? 0) + 1;
  if (applied.outcome === 'paid') {
    result.deliveryIds.push(...applied.deliveryIds);
    if (applied.invoiceId) result.paidInvoiceIds.push(applied.invoiceId);
  }
}

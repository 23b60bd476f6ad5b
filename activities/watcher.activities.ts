import type { EvmNetwork } from '../domain/networks.js';
import type { EvmTransferScanner } from '../adapters/chains/evm/evm-transfer-scanner.js';
import type { Db } from '../db/connection.js';
import { applyTransfer, type EvidenceOutcome } from '../db/repositories/payment-evidence.repo.js';
import { advanceWatcherProgress, readWatcherProgress, watchedRecipients } from '../db/repositories/watcher.repo.js';

export interface WatcherActivityDeps {
  db: Db;
  evm: EvmTransferScanner;
  now?: () => Date;
}

export interface ScanResult {
  network: EvmNetwork;
  fromBlock: number;
  toBlock: number;
  finalHeight: number;
  recipients: number;
  transfers: number;
  outcomes: Partial<Record<EvidenceOutcome['outcome'], number>>;
  /** Webhook deliveries of the events this scan recorded: the workflow starts `delivery:<id>` for each. */
  deliveryIds: string[];
  /** Invoices this scan marked paid: the workflow signals their `invoice:<id>` lifecycle workflows. */
  paidInvoiceIds: string[];
  /** Nothing final is left to scan: the workflow waits before the next scan. */
  caughtUp: boolean;
}

export function createWatcherActivities(deps: WatcherActivityDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    /**
     * Scans the next range of final blocks (at most `maxBlocks`) for native USDC sent to the network's
     * verified merchant wallets, applies every transfer (PAID, REVIEW or kept as evidence, each exactly once),
     * then records the range as scanned. A crash before the record repeats the range: every transfer is
     * found again and recognised as a duplicate, so nothing is missed and nothing is doubled.
     */
    async scanNetwork(input: { network: EvmNetwork; maxBlocks: number }): Promise<ScanResult> {
      const finalHeight = await deps.evm.finalHeight(input.network);
      const last = await readWatcherProgress(deps.db, input.network, Math.max(0, finalHeight - 1));
      const fromBlock = last + 1;
      const toBlock = Math.min(finalHeight, last + input.maxBlocks);
      const result: ScanResult = { network: input.network, fromBlock, toBlock, finalHeight, recipients: 0, transfers: 0, outcomes: {}, deliveryIds: [], paidInvoiceIds: [], caughtUp: toBlock >= finalHeight };
      if (toBlock < fromBlock) return { ...result, caughtUp: true };
      const recipients = await watchedRecipients(deps.db, input.network);
      result.recipients = recipients.length;
      const transfers = await deps.evm.scan(input.network, fromBlock, toBlock, recipients);
      result.transfers = transfers.length;
      for (const t of transfers) {
        const applied = await applyTransfer(deps.db, t, now());
        result.outcomes[applied.outcome] = (result.outcomes[applied.outcome] ?? 0) + 1;
        if (applied.outcome === 'paid') result.deliveryIds.push(...applied.deliveryIds);
        if (applied.outcome === 'paid' && applied.invoiceId) result.paidInvoiceIds.push(applied.invoiceId);
      }
      await advanceWatcherProgress(deps.db, input.network, toBlock);
      return result;
    },
  };
}

export type WatcherActivities = ReturnType<typeof createWatcherActivities>;

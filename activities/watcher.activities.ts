import { isEvmNetwork, type EvmNetwork, type Network } from '../domain/networks.js';
import type { ObservedTransfer } from '../domain/proof/matching.js';
import type { EvmTransferScanner } from '../adapters/chains/evm/evm-transfer-scanner.js';
import type { SolanaTransferScanner } from '../adapters/chains/solana/solana-transfer-scanner.js';
import type { Db } from '../db/connection.js';
import { applyTransfer, type EvidenceOutcome } from '../db/repositories/payment-evidence.repo.js';
import { advanceWatcherProgress, readWatcherProgress, watchedRecipients } from '../db/repositories/watcher.repo.js';
import { scanSolana, type SolanaScanLimits } from './solana-watcher.activities.js';

export interface WatcherActivityDeps {
  db: Db;
  /** The scanners of the networks this worker watches (deps.ts wires both). */
  evm?: EvmTransferScanner | undefined;
  solana?: SolanaTransferScanner | undefined;
  now?: () => Date;
}

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
  /** Nothing final is left to scan (or, on Solana, an account failed and is retried later): the workflow waits. */
  caughtUp: boolean;
  /** Solana: transaction signatures processed this scan. */
  signatures?: number;
  /** Solana: accounts whose scan failed this time (RPC trouble), with a caller-safe reason; retried next scan. */
  accountErrors?: string[];
}

export interface ScanInput extends Partial<SolanaScanLimits> {
  network: Network;
  /** EVM: blocks per eth_getLogs range. */
  maxBlocks: number;
}

/** Applies one transfer (PAID, REVIEW or kept as evidence, each exactly once) and counts it into the result. */
async function applyInto(db: Db, result: ScanResult, t: ObservedTransfer, now: Date): Promise<void> {
  const applied = await applyTransfer(db, t, now);
  result.transfers++;
  result.outcomes[applied.outcome] = (result.outcomes[applied.outcome] ?? 0) + 1;
  if (applied.outcome === 'paid') result.deliveryIds.push(...applied.deliveryIds);
}

export function createWatcherActivities(deps: WatcherActivityDeps) {
  const now = deps.now ?? (() => new Date());

  /**
   * Scans the next range of final blocks (at most `maxBlocks`) for native USDC sent to the network's
   * verified merchant wallets, applies every transfer, then records the range as scanned. A crash before the
   * record repeats the range: every transfer is found again and recognised as a duplicate, so nothing is missed
   * and nothing is doubled.
   */
  async function scanEvm(evm: EvmTransferScanner, network: EvmNetwork, maxBlocks: number): Promise<ScanResult> {
    const finalHeight = await evm.finalHeight(network);
    const last = await readWatcherProgress(deps.db, network, Math.max(0, finalHeight - 1));
    const fromBlock = last + 1;
    const toBlock = Math.min(finalHeight, last + maxBlocks);
    const result: ScanResult = { network, fromBlock, toBlock, finalHeight, recipients: 0, transfers: 0, outcomes: {}, deliveryIds: [], caughtUp: toBlock >= finalHeight };
    if (toBlock < fromBlock) return { ...result, caughtUp: true };
    const recipients = await watchedRecipients(deps.db, network);
    result.recipients = recipients.length;
    const transfers = await evm.scan(network, fromBlock, toBlock, recipients);
    for (const t of transfers) await applyInto(deps.db, result, t, now());
    await advanceWatcherProgress(deps.db, network, toBlock);
    return result;
  }

  return {
    /** One scan of a network's watcher: EVM by block range, Solana by watched token account (solana-watcher). */
    async scanNetwork(input: ScanInput): Promise<ScanResult> {
      if (isEvmNetwork(input.network)) {
        // Thrown (retried): a worker without the scanner leaves the task to one that has it.
        if (!deps.evm) throw new Error('this worker has no EVM transfer scanner');
        return scanEvm(deps.evm, input.network, input.maxBlocks);
      }
      if (!deps.solana) throw new Error('this worker has no Solana transfer scanner');
      return scanSolana({ db: deps.db, solana: deps.solana, now }, input);
    },
  };
}

export type WatcherActivities = ReturnType<typeof createWatcherActivities>;

import { isEvmNetwork, type EvmNetwork, type Network } from '../domain/networks.js';
import type { EvmTransferScanner } from '../adapters/chains/evm/evm-transfer-scanner.js';
import type { SolanaTransferScanner } from '../adapters/chains/solana/solana-transfer-scanner.js';
import type { Db } from '../db/connection.js';
import { applyInto, type ScanResult } from './scan-result.js';
import { heartbeatWhileWaiting } from './heartbeat.js';
import {
  advanceWatcherProgress,
  readWatcherProgress,
  recordWatcherHead,
  watchedRecipients,
} from '../db/repositories/watcher.repo.js';
import { scanSolana, type SolanaScanLimits } from './solana-watcher.activities.js';

export interface WatcherActivityDeps {
  db: Db;
  /** The scanners of the networks this worker watches (deps.ts wires both). */
  evm?: EvmTransferScanner | undefined;
  solana?: SolanaTransferScanner | undefined;
  now?: () => Date;
}

export type { ScanResult } from './scan-result.js';

export interface ScanInput extends Partial<SolanaScanLimits> {
  network: Network;
  /** EVM: blocks per eth_getLogs range. */
  maxBlocks: number;
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
    const result: ScanResult = {
      network,
      fromBlock,
      toBlock,
      finalHeight,
      recipients: 0,
      transfers: 0,
      outcomes: {},
      deliveryIds: [],
      paidInvoiceIds: [],
      caughtUp: toBlock >= finalHeight,
    };
    if (toBlock < fromBlock) return { ...result, caughtUp: true };
    const recipients = await watchedRecipients(deps.db, network);
    result.recipients = recipients.length;
    const transfers = await evm.scan(network, fromBlock, toBlock, recipients);
    for (const t of transfers) await applyInto(deps.db, result, t, now());
    await advanceWatcherProgress(deps.db, network, toBlock);
    return result;
  }

  /** One scan, then the head it saw recorded beside the progress (the lag gauges, read when the API is scraped). */
  async function scanAndRecord(input: ScanInput): Promise<ScanResult> {
    let result: ScanResult;
    if (isEvmNetwork(input.network)) {
      // Thrown (retried): a worker without the scanner leaves the task to one that has it.
      if (!deps.evm) throw new Error('this worker has no EVM transfer scanner');
      result = await scanEvm(deps.evm, input.network, input.maxBlocks);
    } else {
      if (!deps.solana) throw new Error('this worker has no Solana transfer scanner');
      result = await scanSolana({ db: deps.db, solana: deps.solana, now }, input);
    }
    await recordWatcherHead(deps.db, input.network, result.finalHeight);
    return result;
  }

  return {
    /** One scan of a network's watcher: EVM by block range, Solana by watched token account (solana-watcher). */
    async scanNetwork(input: ScanInput): Promise<ScanResult> {
      // Heartbeats while it runs: a worker killed mid-scan is noticed in seconds and the scan repeated elsewhere.
      return heartbeatWhileWaiting(scanAndRecord(input));
    },
  };
}

export type WatcherActivities = ReturnType<typeof createWatcherActivities>;

import { numberToHex } from 'viem';
import { EVM, EVM_NETWORKS, type EvmNetwork } from '../../../domain/networks.js';
import type { ObservedTransfer } from '../../../domain/proof/matching.js';
import { ChainError } from '../types.js';
import { parseBlock, parseLogs, parseQuantity } from './evm-json.js';
import { ERC20_TRANSFER_TOPIC, nativeUsdcTransfers } from './evm-reader.js';
import { createRpcPool, type RpcPool } from './evm-rpc.js';

export interface EvmScannerOptions {
  rpcUrls: Readonly<Partial<Record<EvmNetwork, readonly string[]>>>;
  requiredConfirmations: Readonly<Record<EvmNetwork, number>>;
  timeoutMs: number;
  retries: number;
  onRpcCall?: ((method: string, info: { network: EvmNetwork; endpoint: number }) => void) | undefined;
}

/**
 * Finds incoming native USDC transfers to a set of wallets on an EVM network, for the payment watcher.
 * - `finalHeight`: the highest block with the network's required confirmations (head - required + 1). Only
 *   blocks up to it are scanned, so a reorganisation before finality can never mark anything paid.
 * - `scan`: ONE eth_getLogs per block range on the USDC contract, filtered by the Transfer topic and the
 *   recipients (topic 2), so its cost grows with blocks scanned and transfers found, not with open requests;
 *   plus one eth_getBlockByNumber per block that holds a matching transfer, for its timestamp.
 */
export interface EvmTransferScanner {
  finalHeight(network: EvmNetwork): Promise<number>;
  scan(
    network: EvmNetwork,
    fromBlock: number,
    toBlock: number,
    recipients: readonly string[],
  ): Promise<ObservedTransfer[]>;
}

const padAddress = (a: string) => `0x${'0'.repeat(24)}${a.slice(2).toLowerCase()}`;

export function createEvmTransferScanner(opts: EvmScannerOptions): EvmTransferScanner {
  const pools = new Map<EvmNetwork, RpcPool>();
  const pool = (network: EvmNetwork): RpcPool => {
    let p = pools.get(network);
    if (!p) {
      const urls = opts.rpcUrls[network];
      if (!urls?.length) throw new ChainError('unavailable', `no RPC endpoint is configured for ${network}`);
      const onRpcCall = opts.onRpcCall;
      p = createRpcPool(urls, {
        chainId: EVM[network].chainId,
        timeoutMs: opts.timeoutMs,
        retries: opts.retries,
        onRpcCall: onRpcCall && ((method, endpoint) => onRpcCall(method, { network, endpoint })),
      });
      pools.set(network, p);
    }
    return p;
  };

  return {
    async finalHeight(network) {
      if (!EVM_NETWORKS.includes(network)) throw new TypeError(`not an EVM network: ${String(network)}`);
      const head = await pool(network).run(async (s) => {
        await s.checkChainId();
        return s.call('eth_blockNumber', [], (r) => parseQuantity(r, 'block number'));
      });
      return head - opts.requiredConfirmations[network] + 1;
    },

    async scan(network, fromBlock, toBlock, recipients) {
      if (recipients.length === 0 || toBlock < fromBlock) return [];
      const usdc = EVM[network].usdc.toLowerCase();
      return pool(network).run(async (s) => {
        await s.checkChainId();
        const logs = await s.call(
          'eth_getLogs',
          [
            {
              address: usdc,
              fromBlock: numberToHex(fromBlock),
              toBlock: numberToHex(toBlock),
              topics: [ERC20_TRANSFER_TOPIC, null, recipients.map(padAddress)],
            },
          ],
          parseLogs,
        );
        const live = logs.filter((l) => !l.removed && l.blockNumber >= fromBlock && l.blockNumber <= toBlock);
        const times = new Map<number, Date>();
        for (const block of new Set(live.map((l) => l.blockNumber))) {
          const raw = await s.call('eth_getBlockByNumber', [numberToHex(block), false], parseBlock);
          if (!raw) throw new ChainError('inconsistent', `block ${block} of a log is unknown to the node`);
          times.set(block, new Date(raw.timestamp * 1000));
        }
        const out: ObservedTransfer[] = [];
        for (const log of live) {
          for (const t of nativeUsdcTransfers([log], usdc)) {
            out.push({
              network,
              txHash: log.transactionHash,
              logIndex: log.logIndex,
              from: t.from,
              to: t.to,
              amountAtomic: t.amountAtomic,
              blockNumber: log.blockNumber,
              blockTime: times.get(log.blockNumber)!,
            });
          }
        }
        return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
      });
    },
  };
}

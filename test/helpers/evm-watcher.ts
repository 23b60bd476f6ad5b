import { EVM_NETWORKS, type EvmNetwork } from '../../domain/networks.js';
import { createEvmTransferScanner } from '../../adapters/chains/evm/evm-transfer-scanner.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { Logger } from '../../adapters/logging/logger.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import type { Db } from '../../db/connection.js';
import type { EvmNode } from './evm-node.js';
import { startTestWorker } from './temporal.js';

/**
 * A real worker on `taskQueue` whose payment watcher reads Base from the local Hardhat `node`, with `confirmations`
 * required on every EVM network (the activities of every other area too, webhook delivery included).
 */
export function startEvmWatcherWorker(
  taskQueue: string,
  deps: { db: Db; logger: Logger; secretBox: SecretBox },
  node: EvmNode,
  confirmations: number,
  onRpcCall?: (method: string) => void,
): ReturnType<typeof startTestWorker> {
  return startTestWorker(taskQueue, {
    ...deps, resolver: createSystemResolver(), allowLoopbackForTests: true,
    watcher: {
      evm: createEvmTransferScanner({
        rpcUrls: { base: [node.url] },
        requiredConfirmations: Object.fromEntries(EVM_NETWORKS.map((n) => [n, confirmations])) as Record<EvmNetwork, number>,
        timeoutMs: 30_000,
        retries: 1,
        ...(onRpcCall ? { onRpcCall } : {}),
      }),
    },
  });
}

import { EVM_NETWORKS, type EvmNetwork } from '../../domain/networks.js';
import { createEvmTransferScanner } from '../../adapters/chains/evm/evm-transfer-scanner.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { Logger } from '../../adapters/logging/logger.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import type { Db } from '../../db/connection.js';
import type { EvmNode } from '../../support/evm-node.js';
import type { ProofHarness } from './proof.js';
import { startTestWorker } from './temporal.js';
import { until } from './until.js';

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
    ...deps,
    resolver: createSystemResolver(),
    allowLoopbackForTests: true,
    watcher: {
      evm: createEvmTransferScanner({
        rpcUrls: { base: [node.url] },
        requiredConfirmations: Object.fromEntries(EVM_NETWORKS.map((n) => [n, confirmations])) as Record<
          EvmNetwork,
          number
        >,
        timeoutMs: 30_000,
        retries: 1,
        ...(onRpcCall ? { onRpcCall } : {}),
      }),
    },
  });
}

/**
 * The payment watcher of Base running for `h` (a ProofHarness started with workflows): a real worker on its task queue
 * reading `node` with `confirmations` required, and the `watch:base:<task queue>` workflow polling every 150 ms, once
 * its first scan has recorded where it starts. `stop` ends both.
 */
export async function watchBase(
  h: ProofHarness,
  node: EvmNode,
  confirmations: number,
): Promise<{ stop: () => Promise<void> }> {
  const worker = await startEvmWatcherWorker(
    h.taskQueue,
    { db: h.tdb.db, logger: h.logs.logger, secretBox: h.secretBox },
    node,
    confirmations,
  );
  const workflowId = `watch:base:${h.taskQueue}`;
  await h.gateway!.client.workflow.start('paymentWatcherWorkflow', {
    workflowId,
    taskQueue: h.taskQueue,
    args: [{ network: 'base', pollIntervalMs: 150, maxBlocks: 50, scansPerRun: 200 }],
  });
  // A first scan starts from the final height it sees (activities/watcher.activities.ts): a transfer made final before
  // it would lie behind its starting point and never be seen. Ready means that point is recorded.
  await until(
    'the Base watcher to record where it starts',
    async () => (await h.tdb.db('watcher_progress').where({ network: 'base' }).first('last_block')) ?? undefined,
  );
  return {
    stop: async () => {
      await h.gateway?.client.workflow
        .getHandle(workflowId)
        .terminate('test finished')
        .catch(() => undefined);
      await worker.stop();
    },
  };
}

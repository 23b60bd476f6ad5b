import { continueAsNew, patched, proxyActivities, sleep } from '@temporalio/workflow';
import { startIfAbsent } from '../start-if-absent.js';
import { workflowIds } from '../task-queues.js';
import { webhookDeliveryWorkflow } from '../webhooks/delivery.workflow.js';
import { signalInvoicePaid } from './invoice-lifecycle.workflow.js';
import type { Network } from '../../domain/networks.js';
import type { WatcherActivities } from '../../activities/watcher.activities.js';

export interface PaymentWatcherInput {
  network: Network;
  /** Wait between scans once caught up with the final height. */
  pollIntervalMs?: number;
  /** EVM: blocks per eth_getLogs range. */
  maxBlocks?: number;
  /** Solana: watched token accounts read per scan (default in activities/solana-watcher.activities.ts). */
  maxAccounts?: number;
  /** Solana: transactions read per scan, over all accounts. */
  maxTransactions?: number;
  /** Scans per run before continuing as new (keeps the history short). */
  scansPerRun?: number;
}

const { scanNetwork } = proxyActivities<WatcherActivities>({
  startToCloseTimeout: '2 minutes',
  // The scan heartbeats every second: a worker that dies mid-scan is noticed within 10 s and the scan repeated
  // on another worker (a repeat recognises every transfer already applied).
  heartbeatTimeout: '10 seconds',
  // RPC outages are retried for as long as they last; progress stays where it was.
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export const DEFAULT_WATCHER = { pollIntervalMs: 5_000, maxBlocks: 500, scansPerRun: 500 } as const;

/**
 * The payment watcher of one network (workflow id `watch:<network>`): scans final blocks (EVM) or the finalized
 * signatures of the wallets' USDC token accounts (Solana) for USDC sent to merchant wallets, scan after scan, and
 * waits when caught up. Its progress lives in PostgreSQL, so a new run (after continue-as-new, a restart or a
 * termination) goes on from the last applied block or signature.
 */
export async function paymentWatcherWorkflow(input: PaymentWatcherInput): Promise<never> {
  const pollIntervalMs = input.pollIntervalMs ?? DEFAULT_WATCHER.pollIntervalMs;
  const maxBlocks = input.maxBlocks ?? DEFAULT_WATCHER.maxBlocks;
  const scansPerRun = input.scansPerRun ?? DEFAULT_WATCHER.scansPerRun;
  for (let scan = 0; scan < scansPerRun; scan++) {
    const result = await scanNetwork({
      network: input.network,
      maxBlocks,
      ...(input.maxAccounts !== undefined ? { maxAccounts: input.maxAccounts } : {}),
      ...(input.maxTransactions !== undefined ? { maxTransactions: input.maxTransactions } : {}),
    });
    // The worker's dispatcher sends deliveries recorded since patch `webhook-dispatcher`; runs from before start their
    // workflows here (a start lost to a crash right here is made by the maintenance run after its grace period).
    if (!patched('webhook-dispatcher')) {
      for (const deliveryId of result.deliveryIds)
        await startIfAbsent(webhookDeliveryWorkflow, workflowIds.delivery(deliveryId), {
          deliveryId,
          interface: 'proof' as const,
        });
    }
    // Absent from results recorded before it existed (`?? []` keeps their replay unchanged).
    for (const invoiceId of result.paidInvoiceIds ?? []) await signalInvoicePaid(invoiceId);
    if (result.caughtUp) await sleep(pollIntervalMs);
  }
  return continueAsNew<typeof paymentWatcherWorkflow>(input);
}

import type { Address, Hex } from 'viem';
import type { AuthorizationStateReader } from '../adapters/x402/authorization-state.js';
import type { Db } from '../db/connection.js';
import type { PlatformMetrics } from '../adapters/metrics/metrics.js';
import { listPaymentsToReconcile, purgeKeptAnswers, transitionPayment } from '../db/repositories/x402-payments.repo.js';

export interface X402ActivityDeps {
  db: Db;
  /** Null when no Base RPC is configured for x402: nothing can be reconciled. */
  authorizationState: AuthorizationStateReader | null;
  now?: () => Date;
  /** The worker's metrics: each open settlement this reconciliation decided, as a late settlement (`maintenance`). */
  metrics?: Pick<PlatformMetrics, 'x402LateSettlements'> | undefined;
}

/** A settle call that has been running this long is taken as interrupted. */
const SETTLING_STALE_MS = 10 * 60_000;
/** A settled call's answer nobody came back for is kept this long for a re-presentation of its authorization. */
export const KEPT_ANSWER_RETENTION_MS = 7 * 24 * 3_600_000;

export function createX402Activities(deps: X402ActivityDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    /**
     * Decides open settlements from the chain, never by settling again: paid → `settled` (with the transaction),
     * used otherwise or expired unused → `failed` (its kept answer dropped); still open → left for the next run.
     * Then drops the kept answers of settled calls older than KEPT_ANSWER_RETENTION_MS.
     */
    async reconcileX402Payments(input: {
      limit: number;
    }): Promise<{ settled: number; failed: number; open: number; purgedAnswers: number }> {
      const at = now();
      const result = {
        settled: 0,
        failed: 0,
        open: 0,
        purgedAnswers: await purgeKeptAnswers(deps.db, new Date(at.getTime() - KEPT_ANSWER_RETENTION_MS), input.limit),
      };
      if (!deps.authorizationState) return result;
      for (const p of await listPaymentsToReconcile(deps.db, new Date(at.getTime() - SETTLING_STALE_MS), input.limit)) {
        const state = await deps.authorizationState.inspect(
          {
            asset: p.asset as Address,
            from: p.payer as Address,
            to: p.payTo as Address,
            value: BigInt(p.amountAtomic),
            nonce: p.nonce as Hex,
          },
          p.transaction ?? undefined,
        );
        const open = ['uncertain', 'settling'] as const;
        if (state.state === 'paid') {
          if (
            await transitionPayment(deps.db, p.id, open, 'settled', {
              reason: 'reconciled_by_maintenance',
              transaction: state.transaction,
            })
          ) {
            result.settled++;
            deps.metrics?.x402LateSettlements.inc({ outcome: 'settled', decided_by: 'maintenance' });
          }
        } else if (
          state.state === 'used_otherwise' ||
          (state.state === 'unused' && p.validBefore.getTime() < at.getTime())
        ) {
          if (
            await transitionPayment(deps.db, p.id, open, 'failed', {
              reason: `reconciled_by_maintenance:${state.state}`,
              answer: null,
            })
          ) {
            result.failed++;
            deps.metrics?.x402LateSettlements.inc({ outcome: 'failed', decided_by: 'maintenance' });
          }
        } else {
          result.open++;
        }
      }
      return result;
    },
  };
}

export type X402Activities = ReturnType<typeof createX402Activities>;

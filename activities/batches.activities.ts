import { ApplicationFailure } from '@temporalio/activity';
import type { BatchCounts, BatchStatus } from '../domain/batches.js';
import type { Logger } from '../adapters/logging/logger.js';
import type { PlatformMetrics } from '../adapters/metrics/metrics.js';
import type { Db } from '../db/connection.js';
import * as batches from '../db/repositories/batches.repo.js';
import { listBatchChildren } from '../db/repositories/jobs.repo.js';

export interface BatchActivityDeps {
  db: Db;
  logger: Logger;
  now?: () => Date;
  /** This process's metrics: batches ended, by outcome. */
  metrics?: PlatformMetrics;
}

export type BatchStart =
  { outcome: 'missing' } | { outcome: 'started'; companyId: string; operation: string; jobIds: string[] };

export interface BatchEnd {
  status: BatchStatus;
  counts: BatchCounts;
  /** True for the call that ended the batch (false on a repeat after a crash). */
  changed: boolean;
}

export function createBatchActivities(deps: BatchActivityDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    /** The batch's children in item order; the batch goes queued → processing (its children start now). */
    async startBatch(input: { batchId: string }): Promise<BatchStart> {
      const batch = await batches.getBatchById(deps.db, input.batchId);
      if (!batch) return { outcome: 'missing' };
      const children = await listBatchChildren(deps.db, input.batchId);
      await batches.markBatchProcessing(deps.db, input.batchId, now());
      return {
        outcome: 'started',
        companyId: batch.companyId,
        operation: batch.operation,
        jobIds: children.map((j) => j.id),
      };
    },

    /**
     * Ends the batch from its children (completed, partial or failed), exactly once; the children settled their own
     * reservations (failures released, successes charged). The batch terminal hook: batch events (`batch.completed`,
     * `batch.partial`, `batch.failed`) are emitted from here when `changed` is true, in the same way the job
     * activities emit job events, so a repeated call after a crash emits nothing twice.
     */
    async finishBatch(input: { batchId: string }): Promise<BatchEnd> {
      const end = await batches.finishBatch(deps.db, input.batchId, now());
      // Every child workflow has returned, so every child is terminal; anything else is retried until it is.
      if (!end)
        throw ApplicationFailure.retryable(`batch ${input.batchId} has unfinished children`, 'batch_unfinished');
      if (end.changed) {
        deps.logger.info({ batchId: input.batchId, status: end.status, counts: end.counts }, 'batch finished');
        deps.metrics?.batchesFinished.inc({ outcome: end.status });
      }
      return end;
    },
  };
}

export type BatchActivities = ReturnType<typeof createBatchActivities>;

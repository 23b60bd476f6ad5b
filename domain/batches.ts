import type { JobStatus } from './jobs.js';

/**
 * Batches of the processing interface (spec section 3, batch table): queued → processing → completed | partial |
 * failed. Every item is an ordinary child job with its own reservation; the batch only aggregates them.
 */
export const TERMINAL_BATCH_STATUSES = ['completed', 'partial', 'failed'] as const;
export type TerminalBatchStatus = (typeof TERMINAL_BATCH_STATUSES)[number];
export type BatchStatus = 'queued' | 'processing' | TerminalBatchStatus;
export const isBatchTerminal = (s: BatchStatus): s is TerminalBatchStatus =>
  (TERMINAL_BATCH_STATUSES as readonly BatchStatus[]).includes(s);

/**
 * `webhook_mode` of a batch (spec section 2): `batch` (default) sends one `batch.*` event when the batch ends; `items`
 * sends the `job.*` event of every child and no batch event; `both` sends both (domain/processing-events.ts).
 */
export const WEBHOOK_MODES = ['batch', 'items', 'both'] as const;
export type WebhookMode = (typeof WEBHOOK_MODES)[number];
export const DEFAULT_WEBHOOK_MODE: WebhookMode = 'batch';

export const BATCH_LIMITS = {
  /** Items (child jobs) per batch (spec section 8). */
  maxItems: 100,
  /** The combined results ZIP (spec section 8: 1 GB). */
  zipMaxBytes: 1024 ** 3,
  /** Children per page of `GET /v1/batches/{id}`. */
  childrenPageDefault: 100,
} as const;

/** Children per state, the aggregate progress of a batch. */
export type BatchCounts = Record<JobStatus, number> & { total: number };

export function countChildren(statuses: readonly JobStatus[]): BatchCounts {
  const counts: BatchCounts = {
    total: statuses.length,
    queued: 0,
    processing: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
  };
  for (const s of statuses) counts[s]++;
  return counts;
}

/**
 * The state a batch ends in once every child has ended (spec: all completed → completed; at least one of each →
 * partial; all failed → failed). A child cancelled while queued (`POST /v1/jobs/{id}/cancel`) ran nothing and
 * released its reservation: it counts as not completed, like a failed one. Null while a child is unfinished.
 */
export function finalBatchStatus(counts: BatchCounts): TerminalBatchStatus | null {
  if (counts.queued + counts.processing > 0 || counts.total === 0) return null;
  if (counts.failed + counts.cancelled === 0) return 'completed';
  if (counts.completed === 0) return 'failed';
  return 'partial';
}

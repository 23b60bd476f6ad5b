import {
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  condition,
  defineSignal,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { OUTAGE_RETRY, outageDelayMs, SLOT_WAIT, type JobErrorCode, type JobStatus } from '../../domain/jobs.js';
import { searchAttributesOf } from '../../domain/search-attributes.js';
import { isSpeechOperation } from '../../domain/speech.js';
import { workflowIds } from '../../domain/workflow-ids.js';
import { speechJobWorkflow } from './speech.workflow.js';
import type { ClaimResult, ProcessingActivities } from '../../activities/processing.activities.js';

export interface JobWorkflowInput {
  jobId: string;
  /**
   * Test-only override of the waits after provider outages, in milliseconds. Production starters never set
   * it, so OUTAGE_RETRY applies.
   */
  outageDelaysMs?: number[];
}

export interface JobWorkflowResult {
  status: JobStatus | 'missing';
  /** Provider outages this job waited out. */
  outages: number;
  /** The operation's own run time, for the overhead benchmark. */
  operationMs: number | null;
  /** A failed job's error code and client-safe message (as `GET /v1/jobs/{id}` shows them); absent otherwise. */
  error?: { code: string; message: string } | null;
}

/**
 * Runs started from the batches release on keep the search attributes current (domain/search-attributes.ts:
 * company, operation, batch and status). Behind a patch: the upserts are commands, which runs recorded before had not.
 */
const SEARCH_ATTRIBUTES_PATCH = 'job-search-attributes';

/**
 * Waiting for a slot is a retrying activity: each busy answer is a BENIGN failure Temporal retries every
 * 0.5 to 2 seconds, which adds nothing to the history however long the queue is.
 */
const { claimJobSlot } = proxyActivities<ProcessingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 1.5, maximumInterval: '2 seconds' },
});

/**
 * The operation heartbeats every 2 s: a worker that dies mid-job is noticed within 15 s and the operation
 * runs again on another worker, writing the same result ids. Unexpected errors are retried 4 more times.
 */
const { runJobOperation } = proxyActivities<ProcessingActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '15 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 5,
    nonRetryableErrorTypes: ['invalid_source', 'source_missing', 'processing_error'],
  },
});

/**
 * The first claim of a run, as a local activity tried once (patch `job-claim-local-first`): with a free slot (the usual
 * case) the job goes from queued to processing inside the first workflow task, without an activity task's round trip
 * through the server and a second workflow task. Busy or any error: the retrying activity above takes over, so a long
 * wait still adds nothing to the history.
 */
const CLAIM_LOCAL_PATCH = 'job-claim-local-first';
const { claimJobSlot: claimJobSlotOnce } = proxyLocalActivities<ProcessingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 1 },
});

/**
 * Waiting for a slot without polling (patch `job-slot-wake`, docs/processing.md "Scheduling"): one claim as a local
 * activity; when busy, the workflow sleeps until `slotFreed` (sent by the workflow of a job that left its slot, or by a
 * cancel) or its fallback timer (SLOT_WAIT), then claims again. A job leaving its slot wakes the queued jobs that could
 * take it (queuedJobsToWake). Before this patch every waiting job retried its claim every 0.5 to 2 s under the
 * scheduler's one lock, which with a queue of a hundred jobs kept the worker's pool and the Temporal server busy.
 */
const SLOT_WAKE_PATCH = 'job-slot-wake';
export const slotFreedSignal = defineSignal(SLOT_WAIT.signal);
const { tryClaimJobSlot, queuedJobsToWake } = proxyLocalActivities<ProcessingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Claims a slot, waiting for a wake (or the fallback timer) while it is busy. */
async function claimWhenFree(jobId: string, wake: { woken: boolean }): Promise<ClaimResult> {
  let fallbackMs: number = SLOT_WAIT.firstMs;
  for (;;) {
    // A wake that arrives during the claim is kept for the wait below, so none is lost.
    wake.woken = false;
    const claim = await tryClaimJobSlot({ jobId });
    if (claim.outcome !== 'busy') return claim;
    if (!(await condition(() => wake.woken, fallbackMs))) fallbackMs = Math.min(fallbackMs * 2, SLOT_WAIT.maxMs);
  }
}

/** After this job left its slot: wakes the queued jobs that could take it (one that has ended meanwhile is skipped). */
async function wakeQueuedJobs(jobId: string): Promise<void> {
  if (!patched(SLOT_WAKE_PATCH)) return;
  const ids = await queuedJobsToWake({ jobId });
  await Promise.all(
    ids.map((id) =>
      getExternalWorkflowHandle(workflowIds.job(id))
        .signal(slotFreedSignal)
        .catch(() => undefined),
    ),
  );
}

/** Busy, or the local try failed in any other way: null, so the retrying activity takes over. Cancellation stays. */
function busyOrFailed(e: unknown): null {
  if (isCancellation(e)) throw e;
  return null;
}

const { completeJob, failJob, requeueJob } = proxyLocalActivities<ProcessingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * Failure types whose message is the client's (the others' text may be internal). `processing_timeout` (an engine run
 * past its time limit, thrown non-retryable by the activity) is new with issue 28; no run before it could fail so.
 */
const KNOWN: readonly JobErrorCode[] = ['invalid_source', 'source_missing', 'processing_error', 'processing_timeout'];

function failureOf(e: unknown): { code: JobErrorCode; message: string } {
  let cause = e instanceof ChildWorkflowFailure ? e.cause : e;
  if (cause instanceof ActivityFailure) cause = cause.cause;
  if (cause instanceof ApplicationFailure && KNOWN.includes(cause.type as JobErrorCode)) {
    return { code: cause.type as JobErrorCode, message: cause.message };
  }
  // Retries exhausted on an unexpected error: its text may be internal, so the client gets a generic one.
  return {
    code: 'processing_error',
    message: 'The operation failed repeatedly; the reservation was released. Submit a new job to retry.',
  };
}

/**
 * One job (workflow id `job:<id>`): wait for a slot (queued → processing), run the operation, then
 * completed (quote charged once) or failed (reservation released). A provider outage puts the job back to
 * queued with its reservation held and tries again after a durable wait, surviving worker restarts.
 */
export async function processingJobWorkflow(input: JobWorkflowInput): Promise<JobWorkflowResult> {
  let outages = 0;
  let firstOutageAt: number | null = null;
  let tagged = false;
  const status = (value: JobStatus) => {
    if (tagged) upsertSearchAttributes(searchAttributesOf({ status: value }));
  };
  const wake = { woken: false };
  setHandler(slotFreedSignal, () => {
    wake.woken = true;
  });
  for (;;) {
    const claim = patched(SLOT_WAKE_PATCH)
      ? await claimWhenFree(input.jobId, wake)
      : ((outages === 0 && patched(CLAIM_LOCAL_PATCH)
          ? await claimJobSlotOnce({ jobId: input.jobId }).catch(busyOrFailed)
          : null) ?? (await claimJobSlot({ jobId: input.jobId })));
    if (claim.outcome === 'missing') return { status: 'missing', outages, operationMs: null };
    if (claim.outcome === 'finished')
      return { status: claim.status, outages, operationMs: null, ...(claim.error ? { error: claim.error } : {}) };
    if (outages === 0 && patched(SEARCH_ATTRIBUTES_PATCH)) {
      tagged = true;
      upsertSearchAttributes(
        searchAttributesOf({
          companyId: claim.companyId,
          operation: claim.operation,
          batchId: claim.batchId ?? null,
          status: 'processing',
        }),
      );
    } else status('processing');

    let run;
    try {
      // The speech operations run chunk by chunk in a child workflow (one per run between outages); the others in one
      // activity. No patch: jobs of these operations did not exist before this branch.
      run =
        claim.operation !== undefined && isSpeechOperation(claim.operation)
          ? await executeChild(speechJobWorkflow, {
              workflowId: workflowIds.speech(input.jobId, outages),
              args: [{ jobId: input.jobId }],
            })
          : await runJobOperation({ jobId: input.jobId });
    } catch (e) {
      const error = failureOf(e);
      await failJob({ jobId: input.jobId, ...error });
      status('failed');
      await wakeQueuedJobs(input.jobId);
      return { status: 'failed', outages, operationMs: null, error };
    }
    if (run.outcome === 'not_processing') return { status: run.status ?? 'missing', outages, operationMs: null };
    if (run.outcome === 'done') {
      await completeJob({ jobId: input.jobId, files: run.files });
      status('completed');
      await wakeQueuedJobs(input.jobId);
      return { status: 'completed', outages, operationMs: run.operationMs };
    }

    outages++;
    firstOutageAt ??= Date.now();
    if (Date.now() - firstOutageAt >= OUTAGE_RETRY.giveUpHours * 3_600_000) {
      const error = {
        code: 'provider_unavailable' as const,
        message: `The processing provider stayed unavailable for ${OUTAGE_RETRY.giveUpHours} hours; the reservation was released.`,
      };
      await failJob({ jobId: input.jobId, ...error });
      status('failed');
      await wakeQueuedJobs(input.jobId);
      return { status: 'failed', outages, operationMs: null, error };
    }
    const wait =
      input.outageDelaysMs?.[outages - 1] ??
      input.outageDelaysMs?.at(-1) ??
      Math.max(outageDelayMs(outages), run.retryAfterMs ?? 0);
    await requeueJob({ jobId: input.jobId, retryAfterMs: wait });
    status('queued');
    await wakeQueuedJobs(input.jobId);
    await sleep(wait);
  }
}

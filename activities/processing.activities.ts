import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { ApplicationFailureCategory } from '@temporalio/common';
import { LIMITS } from '../domain/accounts.js';
import { MAX_RESULT_FILES, resultFileName, type JobErrorCode, type JobStatus } from '../domain/jobs.js';
import type { SecretBox } from '../adapters/crypto/secret-box.js';
import { sha256Hex } from '../adapters/crypto/tokens.js';
import type { Logger } from '../adapters/logging/logger.js';
import type { PlatformMetrics } from '../adapters/metrics/metrics.js';
import { CONTENT_TYPES } from '../adapters/media/operation-runners.js';
import type {
  OperationRunners,
  RunnerInput,
  RunnerOperation,
  RunnerOutput,
  RunnerProgress,
  RunnerSource,
} from '../adapters/media/runner-contract.js';
import {
  InvalidSourceError,
  ProviderUnavailableError,
  ProviderUnusableError,
  WorkTimeoutError,
} from '../adapters/providers/provider-errors.js';
import type { FileStore } from '../adapters/storage/file-store.js';
import type { Db } from '../db/connection.js';
import * as jobs from '../db/repositories/jobs.repo.js';
import { getUpload } from '../db/repositories/uploads.repo.js';

export interface ProcessingActivityDeps {
  db: Db;
  store: FileStore;
  secretBox: SecretBox;
  runners: OperationRunners;
  logger: Logger;
  now?: () => Date;
  /** This process's metrics: jobs ended, their queue wait and processing time (adapters/metrics/metrics.ts). */
  metrics?: PlatformMetrics;
}

/**
 * `claimed` and `finished` name the job's company, operation and batch (the workflow's search attributes), and a
 * failed job's error (its result).
 */
export type ClaimResult =
  | { outcome: 'claimed'; companyId?: string; operation?: string; batchId?: string | null }
  | { outcome: 'finished'; status: JobStatus; error?: { code: string; message: string } | null }
  | { outcome: 'missing' };

export type RunResult =
  | { outcome: 'done'; files: jobs.ResultFile[]; operationMs: number }
  | { outcome: 'provider_unavailable'; message: string; retryAfterMs: number | null }
  | { outcome: 'not_processing'; status: JobStatus | null };

/** Failure types the job workflow turns into a failed job at once (no activity retry). */
export const PERMANENT_FAILURES: readonly JobErrorCode[] = ['invalid_source', 'source_missing'];

/**
 * The storage id of result `index` of a job, derived from the job id: a retried run after a crash writes the
 * same files again (atomically replacing them) instead of leaving a second set behind.
 */
export function resultStorageId(jobId: string, index: number): string {
  const digits = BigInt(`0x${sha256Hex(`${jobId}:result:${index}`)}`)
    .toString(36)
    .replace(/[^a-z0-9]/g, '');
  return `res_${digits.slice(0, 20).padEnd(20, '0')}`;
}

/** A failure of the client's input: final for the job, and logged by the worker at DEBUG, not WARN. */
export const permanent = (type: JobErrorCode, message: string) =>
  ApplicationFailure.create({ type, message, nonRetryable: true, category: ApplicationFailureCategory.BENIGN });

/**
 * A source the engine could not process (InvalidSourceError) → the job's failure as the client sees it: code
 * `invalid_source` and the error's message, which is this service's own stable wording (never an engine's text, see
 * provider-errors.ts). What the engine said (`detail`) is logged here with the job's id, for an operator, and goes
 * nowhere else: not to the job's `error`, its `job.failed` event, the workflow's history or a batch's ZIP manifest.
 * Every activity that runs a job's operation turns source failures into job failures through this one function.
 */
export function sourceFailure(logger: Logger, jobId: string, e: InvalidSourceError): ApplicationFailure {
  logger.info(
    { jobId, reason: e.message, ...(e.detail ? { engine: e.detail } : {}) },
    "the job's source could not be processed; the job fails as invalid_source",
  );
  return permanent('invalid_source', e.message);
}

/**
 * A provider this server cannot use (ProviderUnusableError): logged for an operator with its cause, and the job fails at
 * once as `processing_error` with a message that names no setting (`what` says which service, e.g. "Transcription").
 */
export function unusableProvider(
  logger: Logger,
  jobId: string,
  e: ProviderUnusableError,
  what = 'This operation',
): ApplicationFailure {
  logger.error(
    { jobId, err: e },
    'a processing provider cannot be used as configured; the job fails and its reservation is released',
  );
  return ApplicationFailure.nonRetryable(
    `${what} is not available on this server right now; the reservation was released. Retry later.`,
    'processing_error',
  );
}

/**
 * Runs an operation heartbeating every 2 s, and at once whenever it reports progress: the heartbeat details are
 * its latest RunnerProgress (visible in the Temporal UI), and a retry gets the last checkpoint back as `resume`.
 */
export function heartbeating<T>(
  work: (hooks: Pick<RunnerInput, 'progress' | 'resume' | 'signal'>) => Promise<T>,
): Promise<T> {
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    return work({}); // outside an activity (unit tests)
  }
  const activity = ctx;
  let latest: RunnerProgress | undefined = activity.info.heartbeatDetails as RunnerProgress | undefined;
  const beat = () => activity.heartbeat(latest);
  const timer = setInterval(beat, 2000);
  const progress = (p: RunnerProgress) => {
    // A progress without a checkpoint keeps the last one: a retry resumes from what was last saved.
    latest = {
      ...p,
      ...(p.checkpoint === undefined && latest?.checkpoint !== undefined ? { checkpoint: latest.checkpoint } : {}),
    };
    beat();
  };
  return work({ progress, resume: latest?.checkpoint, signal: activity.cancellationSignal }).finally(() =>
    clearInterval(timer),
  );
}

/** The folder of a job's checkpointed partial results, kept across attempts (RunnerInput.checkpointDir). */
export const checkpointDirOf = (root: string, jobId: string) => join(root, 'tmp', `ckpt-${jobId}`);

/** The job's sources in the store; a source purged since the quote fails the job (`source_missing`). */
export async function jobSources(
  deps: Pick<ProcessingActivityDeps, 'db' | 'store'>,
  job: Pick<jobs.Job, 'companyId' | 'uploadIds'>,
): Promise<RunnerSource[]> {
  const sources: RunnerSource[] = [];
  for (const id of job.uploadIds) {
    const upload = await getUpload(deps.db, job.companyId, id);
    if (!upload || upload.purgedAt) throw permanent('source_missing', `the source ${id} is no longer available`);
    sources.push({
      path: deps.store.pathOf(upload.id),
      filename: upload.filename,
      uploadId: upload.id,
      pages: upload.pages,
    });
  }
  return sources;
}

/**
 * Puts an operation's outputs in the store under ids derived from the job id (so a retried run replaces them) and
 * describes them as the job's result files, named after the first source.
 */
export async function storeResults(
  store: FileStore,
  job: Pick<jobs.Job, 'id' | 'operation'>,
  sourceName: string,
  outputs: readonly RunnerOutput[],
): Promise<jobs.ResultFile[]> {
  if (outputs.length > MAX_RESULT_FILES)
    throw new Error(`${job.operation} produced ${outputs.length} files; at most ${MAX_RESULT_FILES} are kept`);
  const files: jobs.ResultFile[] = [];
  for (const [index, out] of outputs.entries()) {
    const storageId = resultStorageId(job.id, index);
    let bytes: number;
    if ('path' in out) {
      // A file the runner wrote in its scratch folder (same disk as the store): moved into place, not copied.
      bytes = (await stat(out.path)).size;
      await store.commit(out.path, storageId);
    } else {
      bytes = out.data.byteLength;
      await store.put(storageId, out.data);
    }
    files.push({
      name: resultFileName(job.operation, sourceName, out.format),
      storageId,
      bytes,
      contentType: CONTENT_TYPES[out.format] ?? 'application/octet-stream',
      ...(out.warnings?.length ? { warnings: out.warnings } : {}),
    });
  }
  return files;
}

export function createProcessingActivities(deps: ProcessingActivityDeps) {
  const now = deps.now ?? (() => new Date());
  /** The scheduler's claim (jobs.claimJobSlot) as the workflow sees it. */
  const claimOnce = async (jobId: string): Promise<ClaimResult | { outcome: 'busy'; reason: string }> => {
    const claim = await jobs.claimJobSlot(deps.db, jobId, now());
    if (claim.outcome === 'busy' || claim.outcome === 'missing') return claim;
    const { job } = claim;
    if (claim.outcome === 'finished')
      return {
        outcome: 'finished',
        status: job.status,
        error:
          job.status === 'failed' && job.errorCode ? { code: job.errorCode, message: job.errorMessage ?? '' } : null,
      };
    return { outcome: 'claimed', companyId: job.companyId, operation: job.operation, batchId: job.batchId };
  };
  /** A job this activity just ended (once: only the transition that changed it counts): its outcome, credits and times. */
  const countFinished = async (jobId: string, outcome: 'completed' | 'failed') => {
    const metrics = deps.metrics;
    const job = metrics ? await jobs.getJobById(deps.db, jobId) : null;
    if (!metrics || !job) return;
    metrics.jobsFinished.inc({ operation: job.operation, outcome });
    // The transition settled the job's reservation: its quote charged when completed, released when failed.
    metrics.credits.inc({ movement: outcome === 'completed' ? 'charged' : 'released' }, job.quotedCredits);
    if (job.startedAt)
      metrics.jobQueueWait.observe({ operation: job.operation }, seconds(job.createdAt, job.startedAt));
    if (job.startedAt && job.finishedAt)
      metrics.jobProcessing.observe({ operation: job.operation, outcome }, seconds(job.startedAt, job.finishedAt));
  };
  return {
    /**
     * Takes a processing slot for the job (spec: one active job per company, three on the platform), or
     * fails with a BENIGN retryable `slot_busy` so Temporal tries again shortly without growing the history.
     * Runs recorded before patch `job-slot-wake` wait so; newer runs use tryClaimJobSlot and wait for a wake.
     */
    async claimJobSlot(input: { jobId: string }): Promise<ClaimResult> {
      const claim = await claimOnce(input.jobId);
      if (claim.outcome === 'busy') {
        throw ApplicationFailure.create({
          type: 'slot_busy',
          message: `waiting for a processing slot: ${claim.reason}`,
          category: ApplicationFailureCategory.BENIGN,
        });
      }
      return claim;
    },

    /** One try at a processing slot: the claim, or `busy` as a value (the workflow then waits for a wake or its timer). */
    async tryClaimJobSlot(input: { jobId: string }): Promise<ClaimResult | { outcome: 'busy'; reason: string }> {
      return claimOnce(input.jobId);
    },

    /**
     * After a job left its slot (completed, failed, or back to queued after an outage): the queued jobs whose workflows
     * the job's workflow wakes, because the freed slot could now be theirs (jobs.queuedJobsToWake).
     */
    async queuedJobsToWake(_input: { jobId: string }): Promise<string[]> {
      return jobs.queuedJobsToWake(deps.db, now());
    },

    /**
     * Runs the job's operation on its sources and stores the outputs under ids derived from the job id. The
     * password (if any) is opened from its sealed form in memory and handed to the runner only.
     */
    async runJobOperation(input: { jobId: string }): Promise<RunResult> {
      const job = await jobs.getJobById(deps.db, input.jobId);
      if (!job || job.status !== 'processing') return { outcome: 'not_processing', status: job?.status ?? null };
      const sources = await jobSources(deps, job);
      const options = {
        ...job.options,
        ...(job.secretSealed ? (JSON.parse(deps.secretBox.open(job.secretSealed)) as Record<string, unknown>) : {}),
        // flow-extract: what it reads, as quoted (docs/processing.md, "Field extraction").
        ...(job.extraction
          ? {
              fields: job.extraction.fields,
              ...(job.extraction.instructions ? { instructions: job.extraction.instructions } : {}),
            }
          : {}),
      };
      const runner = deps.runners[job.operation as RunnerOperation];
      if (!runner)
        throw ApplicationFailure.nonRetryable(
          `operation ${job.operation} is not available on this worker`,
          'processing_error',
        );
      // One scratch folder per job, emptied first: what a killed worker left behind is removed on the retry.
      const workDir = join(deps.store.root, 'tmp', `work-${job.id}`);
      await rm(workDir, { recursive: true, force: true });
      await mkdir(workDir, { recursive: true, mode: 0o700 });
      const checkpointDir = checkpointDirOf(deps.store.root, job.id);
      await mkdir(checkpointDir, { recursive: true, mode: 0o700 });
      const started = performance.now();
      try {
        const outputs = await heartbeating((hooks) => runner({ sources, options, workDir, checkpointDir, ...hooks }));
        const operationMs = performance.now() - started;
        const files = await storeResults(deps.store, job, sources[0]!.filename, outputs);
        await rm(checkpointDir, { recursive: true, force: true });
        return { outcome: 'done', files, operationMs };
      } catch (e) {
        if (e instanceof ProviderUnavailableError)
          return { outcome: 'provider_unavailable', message: e.message, retryAfterMs: e.retryAfterMs ?? null };
        if (e instanceof InvalidSourceError) throw sourceFailure(deps.logger, job.id, e);
        if (e instanceof WorkTimeoutError) {
          deps.logger.warn(
            { jobId: job.id, operation: job.operation, limitMs: e.limitMs },
            "the job's engine run passed its time limit; the job fails as processing_timeout, not retried",
          );
          throw ApplicationFailure.create({ type: 'processing_timeout', message: e.message, nonRetryable: true });
        }
        if (e instanceof ProviderUnusableError) throw unusableProvider(deps.logger, job.id, e);
        deps.logger.warn(
          { jobId: job.id, operation: job.operation, err: e },
          'job operation failed unexpectedly; Temporal retries it',
        );
        throw e;
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },

    /** processing → completed, charging the quote once (and recording its `job.completed` event); results are kept for the retention period. */
    async completeJob(input: { jobId: string; files: jobs.ResultFile[] }): Promise<boolean> {
      const at = now();
      const changed = await jobs.completeJob(
        deps.db,
        input.jobId,
        input.files,
        at,
        new Date(at.getTime() + LIMITS.retentionDays * 86_400_000),
      );
      // The speech operations keep their chunk transcripts until here (their last activity may run again).
      await rm(checkpointDirOf(deps.store.root, input.jobId), { recursive: true, force: true });
      if (changed) await countFinished(input.jobId, 'completed');
      return changed;
    },

    /** → failed with a client-safe error, releasing the reservation once (and recording its `job.failed` event); partial outputs are removed. */
    async failJob(input: { jobId: string; code: JobErrorCode; message: string }): Promise<boolean> {
      const changed = await jobs.failJob(
        deps.db,
        input.jobId,
        { code: input.code, message: input.message.slice(0, 500) },
        now(),
      );
      for (let i = 0; i < MAX_RESULT_FILES; i++) await deps.store.remove(resultStorageId(input.jobId, i));
      await rm(checkpointDirOf(deps.store.root, input.jobId), { recursive: true, force: true });
      if (changed) await countFinished(input.jobId, 'failed');
      return changed;
    },

    /** After a provider outage: back to queued (reservation kept) until `retryAfterMs` has passed. */
    async requeueJob(input: { jobId: string; retryAfterMs: number }): Promise<boolean> {
      return jobs.requeueJob(deps.db, input.jobId, new Date(now().getTime() + input.retryAfterMs));
    },
  };
}

export type ProcessingActivities = ReturnType<typeof createProcessingActivities>;

const seconds = (from: Date, to: Date) => Math.max(0, (to.getTime() - from.getTime()) / 1000);

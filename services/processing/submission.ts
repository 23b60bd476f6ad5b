import { DomainError } from '../../domain/errors.js';
import { JOB_LIMITS } from '../../domain/jobs.js';
import { isBatchTerminal, type WebhookMode } from '../../domain/batches.js';
import type {
  AvailableOperation,
  BodyIssue,
  ExtractionSpec,
  JobRequest,
} from '../../domain/validation/processing-request.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import { findRunningRetry, insertBatch, listRetriesOf, type Batch } from '../../db/repositories/batches.repo.js';
import { lockCompany } from '../company/company-lock.js';
import { insertJob, listBatchChildren, type Job, type Submitter } from '../../db/repositories/jobs.repo.js';
import type { WorkflowGateway } from '../workflows/workflow-client.js';
import { startAfterCommit, type AfterCommit } from '../workflows/workflow-starts.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';
import { extractionResolver, quoteRequest, sourceGone, type Quote, type QuoteDeps } from './estimate.js';
import { refuseNonPositiveReservations, reserveJobCredits } from './credits.js';
import { findUsableV1Webhook } from '../../db/repositories/v1-events.repo.js';
import { bodyIdNotFound } from '../../domain/body-ids.js';
import { childWebhookId } from '../../domain/processing-events.js';

/**
 * Submitting a job and submitting a batch are one act, done here for both routes: quote every child on
 * server-measured sources and check the `max_credits` of the whole, queue the workflow start, then under the company
 * lock re-check the sources, check the queue limit and the wallet, reserve each child's quote and record the children
 * (and the batch); the workflow starts once the transaction commits. Any refusal throws before anything is committed:
 * a batch is created whole or not at all.
 */

/** The options a job keeps and shows: everything but secrets. */
export const SECRET_OPTIONS = ['password'] as const;

export function splitSecrets(options: Record<string, unknown>): {
  visible: Record<string, unknown>;
  secrets: Record<string, unknown> | null;
} {
  const visible = { ...options };
  const secrets: Record<string, unknown> = {};
  for (const k of SECRET_OPTIONS) {
    if (k in visible) {
      secrets[k] = visible[k];
      delete visible[k];
    }
  }
  return { visible, secrets: Object.keys(secrets).length ? secrets : null };
}

/** One child job to submit: its request (operation, sources, options) and where its sources sit in the body. */
export interface ChildSpec {
  request: Omit<JobRequest, 'maxCredits'>;
  /** Body path of source i (e.g. `upload_ids.0`, `items.3.upload_ids.0`). */
  sourcePath: (i: number) => string;
  /** retry-failed: the failed job this child runs again. */
  retryOf?: string;
}

export interface BatchSpec {
  webhookId: string | null;
  webhookMode: WebhookMode;
  retryOf: string | null;
  /** A retry's rule against other retries of the same batch, decided under the company lock (RetryRule). */
  retryRule?: RetryRule;
}

/**
 * How a retry of a batch's failed items stands with other retries of it, decided under the company lock so that two
 * at once cannot both pass:
 * - `one-at-a-time`: refused (409 `batch_retry_in_progress`) while an earlier retry is queued or processing: the
 *   dashboard's double click makes one retry batch (it has no Idempotency-Key);
 * - `once`: refused (409 `conflict`, naming it) when the batch was ever retried: the operator's repeated
 *   `batches:retry-failed` command does not run (and charge) the items twice.
 */
export type RetryRule = 'one-at-a-time' | 'once';

/**
 * Quotes every child; the problems of all children are reported together (422 naming each path, e.g.
 * `items.3.upload_ids.0`); an unknown or foreign upload is 404 naming its path. `max_credits` applies to the sum.
 */
export async function quoteChildren(
  deps: QuoteDeps,
  companyId: string,
  children: readonly ChildSpec[],
  maxCredits: number | undefined,
  webhookId: string | null = null,
): Promise<{ quotes: Quote[]; total: number }> {
  const quotes: Quote[] = [];
  const issues: BodyIssue[] = [];
  const resolve = extractionResolver(deps, companyId);
  for (const child of children) {
    try {
      quotes.push(
        await quoteRequest(deps, companyId, { ...child.request, maxCredits: undefined }, child.sourcePath, resolve),
      );
    } catch (e) {
      if (!(e instanceof DomainError) || e.code !== 'validation_failed') throw e;
      for (const issue of (e.details['issues'] as BodyIssue[] | undefined) ?? []) {
        if (!issues.some((x) => x.path === issue.path && x.message === issue.message)) issues.push(issue);
      }
    }
  }
  if (issues.length)
    throw new DomainError(
      'validation_failed',
      `Invalid request: ${issues.map((x) => `${x.path}: ${x.message}`).join('; ')}`,
      { issues },
    );
  // The batch's `webhook_id` comes after its sources in body order (docs/platform.md, "Ids").
  if (webhookId !== null && !(await findUsableV1Webhook(deps.db, companyId, webhookId))) {
    throw bodyIdNotFound('webhook_id', 'no enabled webhook with this id in your company');
  }
  const total = quotes.reduce((sum, q) => sum + q.credits, 0);
  if (maxCredits !== undefined && total > maxCredits) {
    throw new DomainError(
      'max_credits_exceeded',
      `The quote of ${total} credits exceeds max_credits (${maxCredits}); send max_credits of at least ${total} to accept it`,
      { fields: { estimated_credits: total, max_credits: maxCredits } },
    );
  }
  return { quotes, total };
}

export interface SubmitDeps extends QuoteDeps {
  secretBox: SecretBox;
  workflows: WorkflowGateway;
  /** Counts jobs submitted and credits reserved once the submission commits (the API's metrics). */
  metrics?: Pick<PlatformMetrics, 'jobsSubmitted' | 'credits'>;
}

export interface Submitted {
  jobs: Job[];
  batch: Batch | null;
}

/**
 * Quote, reserve, insert, start — for one job (`batch` absent) or every child of a batch, inside the caller's
 * transaction `trx` (the Idempotency-Key's). The company lock serialises the submissions of a company, so only what
 * must be decided under it runs after it is taken (issue 32 item 5): the sources' re-check, the queue-limit count, the
 * reservations and the rows; the quote and the outbox row come before it. The workflow (`job:<id>`, or `batch:<id>` which starts its children)
 * is queued in the start outbox in `trx` and tried by `afterCommit`, once the rows exist; a start that fails then is
 * made by the starters as soon as Temporal answers (services/workflows/workflow-starts.ts).
 */
export async function submitJobs(
  deps: SubmitDeps,
  trx: Db,
  afterCommit: AfterCommit,
  input: {
    companyId: string;
    submitter: Submitter;
    children: readonly ChildSpec[];
    maxCredits: number | undefined;
    batch?: BatchSpec;
    /**
     * Run with the rows written, just before the company lock: POST /v1/jobs stores its answer with the
     * Idempotency-Key there, so the lock is held only for the statement that decides and the commit.
     */
    beforeLock?: (submitted: Submitted) => Promise<void>;
  },
): Promise<Submitted> {
  const now = (deps.now ?? (() => new Date()))();
  const { companyId, children } = input;
  const { quotes, total } = await quoteChildren(
    { ...deps, db: trx },
    companyId,
    children,
    input.maxCredits,
    input.batch?.webhookId ?? null,
  );
  // The ids are chosen now, so the workflow start is queued in the outbox before the lock too: its row exists only if
  // this transaction commits, whatever happens under the lock.
  const operation = children[0]!.request.operation;
  const batchId = input.batch ? newId('bat') : null;
  const jobIds = children.map(() => newId('job'));
  await startAfterCommit(
    trx,
    afterCommit,
    deps.workflows,
    batchId !== null
      ? { kind: 'batch', input: { batchId, companyId, operation } }
      : { kind: 'job', input: { jobId: jobIds[0]!, companyId, operation } },
    { answerFirst: true },
  );
  // The rows are written before the lock too (each job names the reservation it will hold; that reference is checked
  // at the commit). Under the lock, only what another transaction may change: a source deleted (DELETE
  // /v1/uploads/{id} holds this lock) or purged, the queue limit and the wallet, decided in one statement
  // (reserveForJobs, through reserveJobCredits) whose outcome is checked in the order the answers always had
  // (docs/processing.md, "Jobs"): the sources and the queue here, then the wallet in services/processing/credits.ts.
  const batch =
    input.batch && batchId !== null
      ? await insertBatch(trx, {
          id: batchId,
          companyId,
          submitter: input.submitter,
          operation,
          options: splitSecrets(children[0]!.request.options).visible,
          itemCount: children.length,
          quotedCredits: total,
          webhookId: input.batch.webhookId,
          webhookMode: input.batch.webhookMode,
          retryOf: input.batch.retryOf,
          createdAt: now,
        })
      : null;
  const reservations = children.map((_, i) => ({
    id: newId('res'),
    jobId: jobIds[i]!,
    amount: BigInt(quotes[i]!.credits),
  }));
  refuseNonPositiveReservations(reservations);
  const jobs: Job[] = [];
  for (const [i, child] of children.entries()) {
    const { visible, secrets } = splitSecrets(child.request.options);
    jobs.push(
      await insertJob(trx, {
        id: jobIds[i]!,
        companyId,
        submitter: input.submitter,
        operation: child.request.operation,
        uploadIds: child.request.uploadIds,
        options: visible,
        secretSealed: secrets ? deps.secretBox.seal(JSON.stringify(secrets)) : null,
        quotedCredits: quotes[i]!.credits,
        reservationId: reservations[i]!.id,
        createdAt: now,
        webhookId: batch ? childWebhookId(batch.webhookId, batch.webhookMode) : (child.request.webhookId ?? null),
        batchId: batch?.id ?? null,
        itemIndex: batch ? i : null,
        retryOf: child.retryOf ?? null,
        extraction: quotes[i]!.extraction,
      }),
    );
  }
  if (input.beforeLock) await input.beforeLock({ jobs, batch });
  // reserveForJobs takes the company lock itself (one round trip); a retry of a batch's failed items takes it first,
  // to look for another retry of the same batch under it.
  if (input.batch?.retryRule && input.batch.retryOf !== null && batchId !== null) {
    await lockCompany(trx, companyId);
    await assertRetryRule(trx, input.batch.retryRule, input.batch.retryOf, batchId);
  }
  // The sources and the queue limit are answered before the wallet (reserveJobCredits judges it last).
  await reserveJobCredits(
    trx,
    companyId,
    children.flatMap((c) => c.request.uploadIds),
    reservations,
    (outcome) => {
      assertSourcesStillThere(outcome.sources, children);
      if (outcome.unfinished > JOB_LIMITS.pendingPerCompany) {
        const pending = outcome.unfinished - children.length;
        const why = input.batch
          ? `${pending} are pending and this batch's ${children.length} jobs would make ${outcome.unfinished}`
          : 'wait for some to finish';
        throw new DomainError(
          'queue_full',
          `A company can have at most ${JOB_LIMITS.pendingPerCompany} pending jobs; ${why}`,
          { retryAfterSeconds: 10 },
        );
      }
    },
  );
  const metrics = deps.metrics;
  if (metrics) {
    // After the commit only: a submission rolled back (an error, a lost Idempotency-Key race) reserved nothing.
    afterCommit.push(async () => {
      for (const job of jobs) metrics.jobsSubmitted.inc({ operation: job.operation });
      metrics.credits.inc({ movement: 'reserved' }, total);
    });
  }
  return { jobs, batch };
}

/**
 * Under the company lock, after the quote: every source is still there (404 naming its body path, as the quote answers
 * for a deleted upload; 410 once retention purged it), as `reserveForJobs` read them.
 */
function assertSourcesStillThere(found: Map<string, { purged: boolean }>, children: readonly ChildSpec[]): void {
  for (const child of children) {
    for (const [i, id] of child.request.uploadIds.entries()) {
      const upload = found.get(id);
      if (!upload) throw bodyIdNotFound(child.sourcePath(i), 'no upload with this id in your company');
      if (upload.purged) throw sourceGone(id);
    }
  }
}

/** A failed extraction child's fields and instructions as it ran them, for retry-failed. */
function extractionAsRan(j: Job): ExtractionSpec | null {
  if (!j.extraction) return null;
  return { fields: j.extraction.fields, instructions: j.extraction.instructions ?? undefined, workflowId: undefined };
}

/** Operations whose options carry a secret (not kept once a job ends, so their failed items cannot be re-run as they were). */
const NEEDS_SECRET: ReadonlySet<string> = new Set(['pdf-protect', 'pdf-unlock']);

/** RetryRule, checked under the company lock `trx` holds; `batchId` is this retry's own batch (already inserted). */
async function assertRetryRule(trx: Db, rule: RetryRule, originalId: string, batchId: string): Promise<void> {
  if (rule === 'one-at-a-time') {
    const running = await findRunningRetry(trx, originalId, batchId);
    if (running !== null) {
      throw new DomainError(
        'batch_retry_in_progress',
        `This batch's failed items are already being retried in batch ${running}; wait for it to end`,
      );
    }
    return;
  }
  const earlier = (await listRetriesOf(trx, originalId)).find((r) => r.id !== batchId);
  if (earlier) {
    throw new DomainError(
      'conflict',
      `batch ${originalId} was already retried as ${earlier.id}; retry that one, or pass --again to re-run these failed items once more`,
    );
  }
}

/**
 * retry-failed: a new batch (`retry_of` the original, same operation, options and webhook) of the original's failed
 * children, each quoted and reserved anew through submitJobs. Used by `POST /v1/batches/{id}/retry-failed` and the
 * operator command `batches:retry-failed`. A source problem names the original item (`items.<item_index>.upload_ids.<j>`).
 */
export async function retryFailedItems(
  deps: SubmitDeps,
  trx: Db,
  afterCommit: AfterCommit,
  input: { original: Batch; submitter: Submitter; retryRule?: RetryRule },
): Promise<Submitted> {
  const { original } = input;
  if (!isBatchTerminal(original.status)) {
    throw new DomainError(
      'batch_not_terminal',
      `The batch is ${original.status}; failed items can be retried once it has ended`,
    );
  }
  // Cancelled children ran nothing either: they are re-run with the failed ones.
  const failed = (await listBatchChildren(trx, original.id)).filter(
    (j) => j.status === 'failed' || j.status === 'cancelled',
  );
  if (failed.length === 0)
    throw new DomainError('batch_has_no_failed_items', 'No item of this batch failed; there is nothing to retry');
  if (NEEDS_SECRET.has(original.operation)) {
    throw new DomainError(
      'batch_retry_needs_password',
      `${original.operation} needs the password, which is not kept once a job ends; submit a new batch of the failed items with it`,
    );
  }
  const children: ChildSpec[] = failed.map((j) => ({
    // As it ran: the fields it read (not the saved workflow's current revision).
    request: {
      operation: j.operation as AvailableOperation,
      uploadIds: j.uploadIds,
      options: j.options,
      extraction: extractionAsRan(j),
      webhookId: undefined,
    },
    sourcePath: (s) => `items.${j.itemIndex!}.upload_ids.${s}`,
    retryOf: j.id,
  }));
  return submitJobs(deps, trx, afterCommit, {
    companyId: original.companyId,
    submitter: input.submitter,
    children,
    maxCredits: undefined,
    batch: {
      webhookId: original.webhookId,
      webhookMode: original.webhookMode,
      retryOf: original.id,
      ...(input.retryRule ? { retryRule: input.retryRule } : {}),
    },
  });
}

/** retry-failed takes no body (or an empty JSON object): every field is refused, naming it. */
export const RETRY_BODY = {
  field: 'retry-failed takes no fields: the new batch repeats the failed items as they were',
  body: 'retry-failed takes no body, or an empty JSON object',
};

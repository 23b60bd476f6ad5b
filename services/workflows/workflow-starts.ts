import { randomUUID } from 'node:crypto';
import type { Logger } from '../../adapters/logging/logger.js';
import type { Db } from '../../db/connection.js';
import { createQueueLoop } from '../../db/listener.js';
import {
  claimWorkflowStarts,
  finishWorkflowStart,
  queueWorkflowStart,
  releaseWorkflowStart,
  WORKFLOW_STARTS_CHANNEL,
  type QueuedStartRow,
} from '../../db/repositories/workflow-starts.repo.js';
import {
  isTemporalUnavailable,
  performStart,
  withinDeadline,
  workflowIdOf,
  type WorkflowGateway,
  type WorkflowStart,
} from './workflow-client.js';

/**
 * Workflow starts after a commit (docs/operations.md, "Workflow starts after a commit"). A start a transaction decides
 * on (a job, a batch, an invoice's lifecycle or e-mail, a delivery retried by hand, the nudge of a voided invoice) is a
 * row of the outbox `workflow_starts` written in that transaction, so it exists if and only if the transaction
 * committed. The request tries it once right after the commit; whatever that could not start (Temporal unreachable,
 * the process killed) the starters in the worker processes start as soon as Temporal answers again, woken by the
 * insert's notification and a poll, as the webhook dispatcher drains deliveries. Every start is by business id and
 * harmless when repeated, so a start that reached Temporal but whose answer was lost is at most made twice, never run
 * twice.
 */

/**
 * What runs after a transaction committed: its hooks, given the database (not the finished transaction) and where to
 * report a failure that comes after the hook returned (a start tried while the answer is sent, `answerFirst`).
 */
export type AfterCommit = Array<(db: Db, late?: LateFailure) => Promise<void>>;
/** Reports a failure of work a hook left running when it returned (the runner logs it as a failed hook). */
export type LateFailure = (err: unknown) => void;

/**
 * Runs a committed transaction's hooks in order on `db`. The effect is committed: a hook's failure, now or later (a
 * start left running), goes to `failed` and never stops the others; a workflow start that failed stays in the outbox
 * for the starters.
 */
export async function runAfterCommit(afterCommit: AfterCommit, db: Db, failed: LateFailure): Promise<void> {
  for (const hook of afterCommit) await hook(db, failed).catch(failed);
}

/** How long the request (or a starter) holds a row while trying it; an expired claim is taken over. */
export const START_LEASE_MS = 30_000;
/** One try of a start: the client retries an unreachable server until then, then the row waits for a starter. */
export const START_TRY_MS = 5_000;
/** After a request found Temporal unreachable, the requests of the next seconds leave their starts to the starters at once. */
const SKIP_AFTER_OUTAGE_MS = 10_000;
/** The longest wait before a refused start (not an outage) is tried again. */
const MAX_RETRY_AFTER_MS = 300_000;

const lastOutage = new WeakMap<WorkflowGateway, number>();
/** The starts an `answerFirst` hook left running, per gateway: settled before the gateway closes (startsInFlight). */
const inFlight = new WeakMap<WorkflowGateway, Set<Promise<void>>>();

/**
 * Writes `start` into the outbox in `trx` and adds the hook that tries it after the commit: on success the row goes;
 * with Temporal unreachable the row is released to the starters at once (and the request answers without waiting for
 * Temporal); a start refused for another reason waits and is reported as the hook's failure.
 *
 * `answerFirst` (a /v1 job or batch submission, issue 32 item 5): the hook returns at once and the try runs while the
 * answer is sent, so the 202 waits for the commit (the job, its reservation and this outbox row are durable) and not
 * for Temporal. The workflow then exists a moment after the answer rather than before it; nothing a client does
 * depends on it (reads, cancels and deletes go to the database; a cancel's wake-up of a workflow not started yet is a
 * no-op, and the workflow finds the job cancelled when it starts). A refused start is reported through `late`.
 */
export async function startAfterCommit(
  trx: Db,
  afterCommit: AfterCommit,
  gw: WorkflowGateway,
  start: WorkflowStart,
  opts: { answerFirst?: boolean } = {},
): Promise<void> {
  const claim = randomUUID();
  const row = await queueWorkflowStart(
    trx,
    { kind: start.kind, workflowId: workflowIdOf(start), taskQueue: gw.taskQueue, input: { ...start.input } },
    { claim, leaseMs: START_LEASE_MS },
  );
  afterCommit.push(async (db, late) => {
    if (Date.now() - (lastOutage.get(gw) ?? -Infinity) < SKIP_AFTER_OUTAGE_MS) {
      await releaseWorkflowStart(db, row, {
        error: 'Temporal unreachable a moment ago; left to the starters',
        retryAfterMs: 0,
      });
      return;
    }
    const attempt = tryStart(db, gw, row).then((outcome) => {
      if (outcome === 'unavailable') lastOutage.set(gw, Date.now());
      else if (outcome instanceof Error) throw outcome;
    });
    if (!opts.answerFirst) return attempt;
    let running = inFlight.get(gw);
    if (!running) inFlight.set(gw, (running = new Set()));
    const tracked = attempt.catch((err: unknown) => late?.(err));
    running.add(tracked);
    void tracked.finally(() => running.delete(tracked));
  });
}

/**
 * Settles the starts `answerFirst` hooks left running on `gw` (each is bounded by START_TRY_MS): called before the
 * gateway closes, so a draining API does not cut them off (a start cut off is made by the starters once its claim
 * lapses, START_LEASE_MS later).
 */
export async function startsInFlight(gw: WorkflowGateway): Promise<void> {
  const running = inFlight.get(gw);
  if (running) await Promise.allSettled([...running]);
}

/** One try of a claimed row: started (the row goes), Temporal unreachable, or refused (the error). Never throws. */
async function tryStart(db: Db, gw: WorkflowGateway, row: QueuedStartRow): Promise<'started' | 'unavailable' | Error> {
  try {
    await withinDeadline(gw, START_TRY_MS, () =>
      performStart({ ...gw, taskQueue: row.taskQueue }, { kind: row.kind, input: row.input } as WorkflowStart),
    );
  } catch (err) {
    const unavailable = isTemporalUnavailable(err);
    const retryAfterMs = unavailable ? 0 : Math.min(MAX_RETRY_AFTER_MS, 5_000 * 2 ** Math.min(row.attempts, 10));
    await releaseWorkflowStart(db, row, {
      error: err instanceof Error ? err.message : String(err),
      retryAfterMs,
    }).catch(() => undefined);
    return unavailable ? 'unavailable' : err instanceof Error ? err : new Error(String(err));
  }
  // Started. A row that cannot be deleted now (the database away) is tried again when its claim lapses: harmless.
  await finishWorkflowStart(db, row).catch(() => undefined);
  return 'started';
}

export interface StarterOptions {
  /** Starts tried at once while Temporal answers (one at a time while it does not). */
  concurrency?: number;
  /** How often the outbox is read without a notification (a missed one, a lapsed claim, Temporal back). */
  pollMs?: number;
}

export interface WorkflowStarter {
  start(): void;
  /** Stops claiming and lets the tries in flight end. */
  stop(): Promise<void>;
}

/**
 * A starter: drains the outbox while it runs (one per worker process, beside the webhook dispatcher). While Temporal
 * is unreachable it tries one row per poll (the oldest), so an outage costs one failed call a second, and drains the
 * rest as soon as one succeeds. It warns once per outage and says when Temporal answers again.
 */
export function createWorkflowStarter(
  deps: { db: Db; gateway: WorkflowGateway; logger: Logger },
  opts: StarterOptions = {},
): WorkflowStarter {
  const concurrency = opts.concurrency ?? 16;
  const pollMs = opts.pollMs ?? 1000;
  const claim = randomUUID();
  let temporalDown = false;
  let queueDown = false;

  /** Claims and tries one round; true when more rows may be waiting at once. */
  async function round(): Promise<boolean> {
    let rows: QueuedStartRow[];
    try {
      rows = await claimWorkflowStarts(deps.db, {
        claim,
        limit: temporalDown ? 1 : concurrency,
        leaseMs: START_LEASE_MS,
      });
      if (queueDown) deps.logger.info('workflow starter: reading the outbox again');
      queueDown = false;
    } catch (err) {
      if (!queueDown)
        deps.logger.warn({ err }, 'workflow starter: could not read the outbox; trying again every second');
      queueDown = true;
      return false;
    }
    const outcomes = await Promise.all(rows.map((row) => tryStart(deps.db, deps.gateway, row)));
    for (const [i, outcome] of outcomes.entries()) {
      const row = rows[i]!;
      if (outcome === 'started' && row.attempts > 0)
        deps.logger.info(
          {
            workflowId: row.workflowId,
            kind: row.kind,
            attempts: row.attempts + 1,
            waitedMs: Date.now() - row.createdAt.getTime(),
          },
          'workflow started from the outbox',
        );
      if (outcome instanceof Error)
        deps.logger.error(
          { err: outcome, workflowId: row.workflowId, kind: row.kind, attempts: row.attempts + 1 },
          'workflow start refused; tried again later',
        );
    }
    if (outcomes.includes('unavailable')) {
      if (!temporalDown)
        deps.logger.warn(
          { workflowId: rows[outcomes.indexOf('unavailable')]!.workflowId },
          'workflow starter: Temporal is unreachable; starts wait in the outbox and are made as soon as it answers',
        );
      temporalDown = true;
      return false;
    }
    // Temporal answered (a start, or a refusal): the rest need not wait one at a time any more.
    if (temporalDown && outcomes.length > 0) {
      deps.logger.info('workflow starter: Temporal answers again; starting what waited');
      temporalDown = false;
      return true;
    }
    return rows.length > 0 && rows.length === concurrency;
  }

  const queue = createQueueLoop(deps.db, {
    channel: WORKFLOW_STARTS_CHANNEL,
    what: 'workflow starter',
    logger: deps.logger,
    pollMs,
    round,
  });
  return { start: () => queue.start(), stop: () => queue.stop() };
}

import type { Db } from '../connection.js';

/** The channel every insert into `workflow_starts` notifies at commit (migration 20261127140000). */
export const WORKFLOW_STARTS_CHANNEL = 'workflow_starts';

/** A row of the workflow start outbox: what to start, where, and under whose claim it is being tried. */
export interface QueuedStartRow {
  id: string;
  kind: string;
  workflowId: string;
  taskQueue: string;
  input: Record<string, unknown>;
  attempts: number;
  claim: string;
  createdAt: Date;
}

const toRow = (r: Record<string, unknown>): QueuedStartRow => ({
  id: String(r['id']),
  kind: r['kind'] as string,
  workflowId: r['workflow_id'] as string,
  taskQueue: r['task_queue'] as string,
  input: r['input'] as Record<string, unknown>,
  attempts: Number(r['attempts']),
  claim: r['claim'] as string,
  createdAt: r['created_at'] as Date,
});

/**
 * Writes a start into the outbox inside the caller's transaction, already claimed by `claim` for `leaseMs` (the
 * request tries it itself right after its commit; the starters take it over only if that claim lapses or is released).
 */
export async function queueWorkflowStart(
  trx: Db,
  start: { kind: string; workflowId: string; taskQueue: string; input: Record<string, unknown> },
  claim: { claim: string; leaseMs: number },
): Promise<QueuedStartRow> {
  const [row] = await trx('workflow_starts')
    .insert({
      kind: start.kind,
      workflow_id: start.workflowId,
      task_queue: start.taskQueue,
      input: JSON.stringify(start.input),
      claim: claim.claim,
      claim_until: trx.raw('now() + make_interval(secs => ?::int / 1000.0)', [claim.leaseMs]),
    })
    .returning('*');
  return toRow(row as Record<string, unknown>);
}

/**
 * Claims up to `limit` starts that are due (no live claim, not waiting after a refusal), oldest first, skipping rows
 * another starter is claiming at this moment; one statement.
 */
export async function claimWorkflowStarts(
  db: Db,
  opts: { claim: string; limit: number; leaseMs: number },
): Promise<QueuedStartRow[]> {
  const { rows } = await db.raw(
    `UPDATE workflow_starts s SET claim = ?, claim_until = now() + make_interval(secs => ?::int / 1000.0)
      WHERE s.id IN (
        SELECT id FROM workflow_starts
         WHERE (claim_until IS NULL OR claim_until < now()) AND (next_attempt_at IS NULL OR next_attempt_at <= now())
         ORDER BY created_at, id
         LIMIT ?
         FOR UPDATE SKIP LOCKED)
     RETURNING s.*`,
    [opts.claim, opts.leaseMs, opts.limit],
  );
  return (rows as Array<Record<string, unknown>>)
    .map(toRow)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || Number(a.id) - Number(b.id));
}

/** Temporal accepted the start: the row goes (only under the claim that tried it). */
export async function finishWorkflowStart(db: Db, row: Pick<QueuedStartRow, 'id' | 'claim'>): Promise<void> {
  await db('workflow_starts').where({ id: row.id, claim: row.claim }).delete();
}

/**
 * The start failed: the row is free again for any starter, at once (`retryAfterMs` 0: Temporal was unreachable, so
 * the next try is the first after it answers) or after a wait (it was refused for another reason).
 */
export async function releaseWorkflowStart(
  db: Db,
  row: Pick<QueuedStartRow, 'id' | 'claim'>,
  failure: { error: string; retryAfterMs: number },
): Promise<void> {
  await db('workflow_starts')
    .where({ id: row.id, claim: row.claim })
    .update({
      claim: null,
      claim_until: null,
      attempts: db.raw('attempts + 1'),
      last_error: failure.error.slice(0, 500),
      next_attempt_at:
        failure.retryAfterMs > 0
          ? db.raw('now() + make_interval(secs => ?::int / 1000.0)', [failure.retryAfterMs])
          : null,
    });
}

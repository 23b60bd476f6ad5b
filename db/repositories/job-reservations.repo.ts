import type { Db } from '../connection.js';
import { UNFINISHED_JOB_STATUSES } from '../../domain/jobs.js';

/** What `reserveForJobs` saw and did, for the submission to decide its answer (services/processing/submission.ts). */
export interface JobReservationOutcome {
  /** The sources among those asked that are not deleted, each with whether retention purged its bytes. */
  sources: Map<string, { purged: boolean }>;
  /** The company's queued and processing jobs, this transaction's own new rows included. */
  unfinished: number;
  /** True when the wallet covered the total and every reservation (and its ledger row) was written. */
  reserved: boolean;
  /** The wallet's available credits as the statement saw them (before its own reservation); null: no wallet. */
  available: bigint | null;
}

/**
 * The part of a submission made under the company lock, in one statement (issue 32 item 5: every round trip under the
 * lock is one every other submission of the company waits for). Taken after the lock, the statement's snapshot sees
 * every submission that held the lock before. It reads the sources still there, counts the company's unfinished jobs
 * (the caller's job rows, written before the lock, included), and moves the wallet by the total when `available`
 * covers it (PostgreSQL re-checks that on the newest row when a concurrent movement held it), writing each reservation
 * and its ledger row from that answer. The caller decides from the outcome and rolls back on a refusal, so nothing
 * written here outlives one. The job rows' references to these reservations are checked at the commit (deferred).
 */
export async function reserveForJobs(
  trx: Db,
  companyId: string,
  sourceIds: readonly string[],
  reservations: ReadonlyArray<{ id: string; jobId: string; amount: bigint }>,
): Promise<JobReservationOutcome> {
  const total = reservations.reduce((sum, r) => sum + r.amount, 0n).toString();
  const { rows } = (await trx.raw(
    `WITH src AS (
       SELECT coalesce(json_agg(json_build_object('id', id, 'purged', purged_at IS NOT NULL)), '[]'::json) AS found
         FROM uploads WHERE company_id = ? AND id = ANY(?::text[]) AND deleted_at IS NULL),
     unfinished AS (
       SELECT count(*)::int AS n FROM jobs WHERE company_id = ? AND status = ANY(?::text[])),
     before AS (SELECT available FROM wallets WHERE company_id = ?),
     w AS (
       UPDATE wallets SET available = available - ?::bigint, reserved = reserved + ?::bigint, updated_at = now()
        WHERE company_id = ? AND available >= ?::bigint
        RETURNING 1),
     need AS (
       SELECT * FROM unnest(?::text[], ?::text[], ?::bigint[]) AS t(id, job_id, amount)),
     r AS (
       INSERT INTO credit_reservations (id, company_id, job_id, amount)
       SELECT need.id, ?, need.job_id, need.amount FROM need, w
       RETURNING id, amount),
     l AS (
       INSERT INTO credit_ledger (company_id, kind, amount, reservation_id)
       SELECT ?, 'reserve', r.amount, r.id FROM r)
     SELECT (SELECT found FROM src) AS found, (SELECT n FROM unfinished) AS unfinished,
            (SELECT count(*) FROM w)::int AS reserved, (SELECT available FROM before) AS available`,
    [
      companyId,
      [...new Set(sourceIds)],
      companyId,
      [...UNFINISHED_JOB_STATUSES],
      companyId,
      total,
      total,
      companyId,
      total,
      reservations.map((r) => r.id),
      reservations.map((r) => r.jobId),
      reservations.map((r) => r.amount.toString()),
      companyId,
      companyId,
    ],
  )) as {
    rows: Array<{
      found: Array<{ id: string; purged: boolean }>;
      unfinished: number;
      reserved: number;
      available: string | null;
    }>;
  };
  const row = rows[0]!;
  return {
    sources: new Map(row.found.map((s) => [s.id, { purged: s.purged }])),
    unfinished: row.unfinished,
    reserved: row.reserved === 1,
    available: row.available === null ? null : BigInt(row.available),
  };
}

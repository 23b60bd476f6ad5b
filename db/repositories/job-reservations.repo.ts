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

/** One credit reservation to write: its id (the job row names it), its job (null: a hold without one) and amount. */
export interface JobReservation {
  id: string;
  jobId: string | null;
  amount: bigint;
}

/**
 * The part of a submission made under the company lock, in one round trip (issue 32 item 5: every round trip under the
 * lock is one every other submission of the company waits for): the function `paycore_reserve_for_jobs` (migration
 * 20261204120000) takes the company lock, then in a statement of its own, whose snapshot sees every submission that
 * held the lock before, reads the sources still there, counts the company's unfinished jobs (the caller's job rows,
 * written before, included), and moves the wallet by the total when `available` covers it, writing each reservation
 * and its ledger row from that answer. The lock is held until the caller's transaction ends. The caller decides from
 * the outcome and rolls back on a refusal, so nothing written here outlives one. The job rows' references to these
 * reservations are checked at the commit (deferred).
 */
export async function reserveForJobs(
  trx: Db,
  companyId: string,
  sourceIds: readonly string[],
  reservations: readonly JobReservation[],
): Promise<JobReservationOutcome> {
  const total = reservations.reduce((sum, r) => sum + r.amount, 0n).toString();
  const { rows } = (await trx.raw(
    `SELECT found, unfinished, reserved, available
       FROM paycore_reserve_for_jobs(?, ?::text[], ?::text[], ?::bigint, ?::text[], ?::text[], ?::bigint[])`,
    [
      companyId,
      [...new Set(sourceIds)],
      [...UNFINISHED_JOB_STATUSES],
      total,
      reservations.map((r) => r.id),
      reservations.map((r) => r.jobId) as string[], // knex types no null in an array; pg sends it as NULL
      reservations.map((r) => r.amount.toString()),
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

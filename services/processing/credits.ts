import { DomainError } from '../../domain/errors.js';
import type { Db } from '../../db/connection.js';
import * as wallets from '../../db/repositories/credits.repo.js';
import type { WalletBalance } from '../../db/repositories/credits.repo.js';
import {
  reserveForJobs,
  type JobReservation,
  type JobReservationOutcome,
} from '../../db/repositories/job-reservations.repo.js';

/*
 * The credits wallet's refusals (rule 5b): credits.repo.ts and job-reservations.repo.ts move the balances (the
 * reservation's guard that never takes `available` below zero stays their one statement) and answer with data;
 * these functions turn a missing wallet into 404 `not_found`, a non-positive amount into 422 `validation_failed` and a
 * reservation the wallet cannot cover into 402 `insufficient_credits`. Every entry point (the /v1 routes, the company
 * session, the CLI, the benches) reaches the wallet through here.
 */

export type { WalletBalance };

const companyNotFound = () => new DomainError('not_found', 'Company not found');

/** The company's balances; 404 when it has no wallet. */
export async function getCredits(db: Db, companyId: string): Promise<WalletBalance> {
  const balance = await wallets.getBalance(db, companyId);
  if (!balance) throw companyNotFound();
  return balance;
}

/**
 * The wallet's balance and its ledger entries with an id greater than `after` (at most `limit`, oldest first), read in
 * one snapshot (REPEATABLE READ, read only) so the two agree.
 */
export async function getCreditsWithLedger(
  db: Db,
  companyId: string,
  after: number,
  limit: number,
): Promise<{ balance: WalletBalance; entries: wallets.LedgerFeedEntry[] }> {
  return db.transaction(
    async (trx) => ({
      balance: await getCredits(trx, companyId),
      entries: await wallets.ledgerFeed(trx, companyId, after, limit),
    }),
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

/** Adds `amount` credits (positive, else 422) with its ledger row; 404 when the company has no wallet. */
export async function grantCredits(db: Db, companyId: string, amount: bigint, reason: string): Promise<WalletBalance> {
  if (amount <= 0n) throw new DomainError('validation_failed', 'a grant must be a positive number of credits');
  const balance = await wallets.grantCredits(db, companyId, amount, reason);
  if (!balance) throw companyNotFound();
  return balance;
}

/** Every reservation is of a positive number of credits (422 otherwise); the tables' CHECKs would refuse it too. */
export function refuseNonPositiveReservations(reservations: ReadonlyArray<{ amount: bigint }>): void {
  if (reservations.some((r) => r.amount <= 0n))
    throw new DomainError('validation_failed', 'a reservation must be a positive number of credits');
}

/**
 * Reserves the credits of a submission's jobs through `reserveForJobs` (the company lock, the sources' and queue's
 * reads and the wallet's conditional move, one round trip), in `trx`. `refuseFirst` sees the outcome before the
 * wallet is judged, for the refusals a submission answers first (a source gone, the queue full); then a wallet that
 * could not cover the total is 402 `insufficient_credits` (naming what was needed and what was available), and a
 * company without a wallet 404. On a refusal the caller's transaction rolls back whatever the statement wrote.
 */
export async function reserveJobCredits(
  trx: Db,
  companyId: string,
  sourceIds: readonly string[],
  reservations: readonly JobReservation[],
  refuseFirst?: (outcome: JobReservationOutcome) => void,
): Promise<JobReservationOutcome> {
  refuseNonPositiveReservations(reservations);
  const outcome = await reserveForJobs(trx, companyId, sourceIds, reservations);
  refuseFirst?.(outcome);
  if (!outcome.reserved) {
    if (outcome.available === null) throw companyNotFound();
    const total = reservations.reduce((sum, r) => sum + r.amount, 0n);
    throw new DomainError(
      'insufficient_credits',
      `Not enough credits: ${total} needed, ${outcome.available} available`,
    );
  }
  return outcome;
}

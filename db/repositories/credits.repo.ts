import { DomainError } from '../../domain/errors.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';

/**
 * The credits wallet of a company. Every movement locks the company's `wallets` row (SELECT … FOR UPDATE, or the
 * reservation's conditional UPDATE), so movements of one company are serialised across all processes; CHECK
 * constraints keep both balances >= 0; each movement appends one row to the append-only `credit_ledger` in the same transaction.
 *
 * - grant: available += n
 * - reserve (at submission, the quote): available -= q, reserved += q; not enough available → 402
 * - charge (on success): reserved -= q; at most once per reservation
 * - release (on failure): reserved -= q, available += q; at most once per reservation
 */
export interface WalletBalance {
  companyId: string;
  available: bigint;
  reserved: bigint;
}

type Trx = Db;

async function lockWallet(trx: Trx, companyId: string): Promise<WalletBalance> {
  const row = await trx('wallets').where({ company_id: companyId }).forUpdate().first();
  if (!row) throw new DomainError('not_found', 'Company not found');
  return { companyId, available: BigInt(row.available), reserved: BigInt(row.reserved) };
}

async function write(trx: Trx, w: WalletBalance): Promise<void> {
  await trx('wallets').where({ company_id: w.companyId }).update({
    available: w.available.toString(),
    reserved: w.reserved.toString(),
    updated_at: trx.fn.now(),
  });
}

const inTransaction = <T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction((trx) => work(trx));

export async function createWallet(db: Db, companyId: string): Promise<void> {
  await db('wallets').insert({ company_id: companyId }).onConflict('company_id').ignore();
}

export async function getBalance(db: Db, companyId: string): Promise<WalletBalance> {
  const row = await db('wallets').where({ company_id: companyId }).first();
  if (!row) throw new DomainError('not_found', 'Company not found');
  return { companyId, available: BigInt(row.available), reserved: BigInt(row.reserved) };
}

export async function grantCredits(db: Db, companyId: string, amount: bigint, reason: string): Promise<WalletBalance> {
  if (amount <= 0n) throw new DomainError('validation_failed', 'a grant must be a positive number of credits');
  return inTransaction(db, async (trx) => {
    const w = await lockWallet(trx, companyId);
    const next = { ...w, available: w.available + amount };
    await write(trx, next);
    await trx('credit_ledger').insert({ company_id: companyId, kind: 'grant', amount: amount.toString(), reason });
    return next;
  });
}

/**
 * Holds `amount` credits for a job (or another purpose). Not enough available credits → 402 insufficient
 * credits. Pass the caller's transaction to make the hold part of it. (A /v1 submission reserves through
 * `reserveForJobs` in job-reservations.repo.ts instead, together with its checks under the company lock.)
 *
 * One statement: the wallet's UPDATE takes its row lock and moves the balances only when
 * `available` covers the amount, re-checked on the newest row by PostgreSQL when a concurrent movement held the lock,
 * and the reservation and its ledger row are written from its answer. No row: not enough (or no wallet).
 */
export async function reserveCredits(
  db: Db,
  companyId: string,
  amount: bigint,
  jobId: string | null,
): Promise<{ reservationId: string; balance: WalletBalance }> {
  if (amount <= 0n) throw new DomainError('validation_failed', 'a reservation must be a positive number of credits');
  const reservationId = newId('res');
  const n = amount.toString();
  const { rows } = (await db.raw(
    `WITH w AS (
       UPDATE wallets SET available = available - ?::bigint, reserved = reserved + ?::bigint, updated_at = now()
        WHERE company_id = ? AND available >= ?::bigint
        RETURNING available, reserved),
     r AS (
       INSERT INTO credit_reservations (id, company_id, job_id, amount)
       SELECT ?, ?, ?, ?::bigint FROM w
       RETURNING id),
     l AS (
       INSERT INTO credit_ledger (company_id, kind, amount, reservation_id)
       SELECT ?, 'reserve', ?::bigint, r.id FROM r)
     SELECT available, reserved FROM w`,
    [n, n, companyId, n, reservationId, companyId, jobId, n, companyId, n],
  )) as { rows: Array<{ available: string; reserved: string }> };
  const row = rows[0];
  if (!row) {
    const w = await getBalance(db, companyId); // no wallet: 404
    throw new DomainError('insufficient_credits', `Not enough credits: ${amount} needed, ${w.available} available`);
  }
  return { reservationId, balance: { companyId, available: BigInt(row.available), reserved: BigInt(row.reserved) } };
}

/**
 * Settles a held reservation: `charge` on success, `release` on failure. Exactly once: a reservation already
 * settled (either way) is left alone and `false` is returned, so a repeated call after a crash is harmless.
 */
export async function settleReservation(
  db: Db,
  reservationId: string,
  outcome: 'charge' | 'release',
  reason: string | null = null,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const held = await trx('credit_reservations').where({ id: reservationId }).first();
    if (!held) throw new DomainError('not_found', 'Reservation not found');
    const w = await lockWallet(trx, held.company_id);
    const updated = await trx('credit_reservations')
      .where({ id: reservationId, status: 'held' })
      .update({ status: outcome === 'charge' ? 'charged' : 'released', settled_at: trx.fn.now() });
    if (updated === 0) return false;
    const amount = BigInt(held.amount);
    await write(trx, {
      ...w,
      reserved: w.reserved - amount,
      available: outcome === 'release' ? w.available + amount : w.available,
    });
    await trx('credit_ledger').insert({
      company_id: held.company_id,
      kind: outcome,
      amount: amount.toString(),
      reservation_id: reservationId,
      reason,
    });
    return true;
  });
}

export type LedgerKind = 'grant' | 'reserve' | 'charge' | 'release';

export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  amount: bigint;
  reservationId: string | null;
  reason: string | null;
  createdAt: Date;
}

/** A ledger entry with the job its reservation was made for (null for grants and holds without a job). */
export interface LedgerFeedEntry extends LedgerEntry {
  jobId: string | null;
}

/**
 * The company's ledger as a feed: entries with an id greater than `after`, oldest first, at most `limit`. Ids
 * only grow (a bigserial), so a client that keeps the last id it saw reads each entry exactly once.
 */
export async function ledgerFeed(db: Db, companyId: string, after: number, limit: number): Promise<LedgerFeedEntry[]> {
  const rows = await db('credit_ledger as l')
    .leftJoin('credit_reservations as r', 'r.id', 'l.reservation_id')
    .where('l.company_id', companyId)
    .where('l.id', '>', after)
    .orderBy('l.id', 'asc')
    .limit(limit)
    .select('l.id', 'l.kind', 'l.amount', 'l.reservation_id', 'l.reason', 'l.created_at', 'r.job_id');
  return rows.map((r) => ({ ...toLedgerEntry(r), jobId: r.job_id ?? null }));
}

export async function listLedger(db: Db, companyId: string, limit = 100): Promise<LedgerEntry[]> {
  const rows = await db('credit_ledger').where({ company_id: companyId }).orderBy('id', 'desc').limit(limit);
  return rows.map(toLedgerEntry);
}

interface LedgerRow {
  id: string | number;
  kind: LedgerKind;
  amount: string | number;
  reservation_id: string | null;
  reason: string | null;
  created_at: Date;
}

function toLedgerEntry(r: LedgerRow): LedgerEntry {
  return {
    id: Number(r.id),
    kind: r.kind,
    amount: BigInt(r.amount),
    reservationId: r.reservation_id,
    reason: r.reason,
    createdAt: r.created_at,
  };
}

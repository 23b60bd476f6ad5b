import type { Db } from '../connection.js';

/**
 * The credits wallet of a company. Every movement locks the company's `wallets` row (SELECT … FOR UPDATE, or the
 * reservation's conditional UPDATE), so movements of one company are serialised across all processes; CHECK
 * constraints keep both balances >= 0; each movement appends one row to the append-only `credit_ledger` in the same transaction.
 *
 * - grant: available += n
 * - reserve (at submission, the quote): available -= q, reserved += q, only when available covers q; made by
 *   `reserveForJobs` (job-reservations.repo.ts, one statement under the company lock)
 * - charge (on success): reserved -= q; at most once per reservation
 * - release (on failure): reserved -= q, available += q; at most once per reservation
 *
 * Data access only (rule 5b): a missing wallet comes back as null; services/processing/credits.ts answers it (404),
 * refuses non-positive amounts (422) and a reservation the wallet cannot cover (402 `insufficient_credits`).
 */
export interface WalletBalance {
  companyId: string;
  available: bigint;
  reserved: bigint;
}

type Trx = Db;

async function lockWallet(trx: Trx, companyId: string): Promise<WalletBalance | null> {
  const row = await trx('wallets').where({ company_id: companyId }).forUpdate().first();
  return row ? { companyId, available: BigInt(row.available), reserved: BigInt(row.reserved) } : null;
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

/** The company's balances; null when it has no wallet. */
export async function getBalance(db: Db, companyId: string): Promise<WalletBalance | null> {
  const row = await db('wallets').where({ company_id: companyId }).first();
  return row ? { companyId, available: BigInt(row.available), reserved: BigInt(row.reserved) } : null;
}

/** Adds `amount` (positive: the caller checks) to the available credits, with its ledger row; null: no wallet, nothing written. */
export async function grantCredits(
  db: Db,
  companyId: string,
  amount: bigint,
  reason: string,
): Promise<WalletBalance | null> {
  return inTransaction(db, async (trx) => {
    const w = await lockWallet(trx, companyId);
    if (!w) return null;
    const next = { ...w, available: w.available + amount };
    await write(trx, next);
    await trx('credit_ledger').insert({ company_id: companyId, kind: 'grant', amount: amount.toString(), reason });
    return next;
  });
}

/**
 * Settles a held reservation: `charge` on success, `release` on failure. Exactly once: a reservation already
 * settled (either way) is left alone and `false` is returned, so a repeated call after a crash is harmless. Its callers
 * settle the reservation a job row names (a foreign key), whose company has had a wallet since its creation: a missing
 * reservation or wallet is broken data, an Error (not a refusal).
 */
export async function settleReservation(
  db: Db,
  reservationId: string,
  outcome: 'charge' | 'release',
  reason: string | null = null,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const held = await trx('credit_reservations').where({ id: reservationId }).first();
    if (!held) throw new Error(`reservation ${reservationId} does not exist`);
    const w = await lockWallet(trx, held.company_id);
    if (!w) throw new Error(`reservation ${reservationId} is of company ${held.company_id}, which has no wallet`);
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

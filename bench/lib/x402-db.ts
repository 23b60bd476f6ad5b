import type { Db } from '../../db/connection.js';

/**
 * Rows of this run: x402 payments recorded for `resource` since `since`, and evidence stored for `txHashes` on
 * base. `since` comes from the database clock (dbNow), like the rows' own timestamps.
 */
export interface X402RunRows {
  resource: string;
  since: Date;
  txHashes: readonly string[];
}

/** What the database recorded about this run's paid calls. */
export async function x402RunStats(
  db: Db,
  rows: X402RunRows,
): Promise<{ payments: Record<string, number>; evidence: number }> {
  const byStatus = await db('x402_payments')
    .where({ resource: rows.resource })
    .andWhere('created_at', '>=', rows.since)
    .select('status')
    .count<Array<{ status: string; count: string }>>('* as count')
    .groupBy('status');
  const evidence = await db('x402_evidence')
    .where({ network: 'base' })
    .whereIn(
      'tx_hash',
      rows.txHashes.map((h) => h.toLowerCase()),
    )
    .count<Array<{ count: string }>>('* as count');
  return {
    payments: Object.fromEntries(byStatus.map((r) => [r.status, Number(r.count)])),
    evidence: Number(evidence[0]?.count ?? 0),
  };
}

/**
 * On a shared database (DATABASE_URL): deletes the payment and evidence rows this run wrote. Rate-limit
 * counters are left to expire with their one-minute window (the maintenance sweep purges them).
 */
export async function deleteX402RunRows(db: Db, rows: X402RunRows): Promise<void> {
  await db('x402_payments').where({ resource: rows.resource }).andWhere('created_at', '>=', rows.since).delete();
  await db('x402_evidence')
    .where({ network: 'base' })
    .whereIn(
      'tx_hash',
      rows.txHashes.map((h) => h.toLowerCase()),
    )
    .andWhere('confirmed_at', '>=', rows.since)
    .delete();
}

/** The database's clock, for comparing with the timestamps it writes. */
export async function dbNow(db: Db): Promise<Date> {
  const result = await db.raw<{ rows: Array<{ now: Date }> }>('select now() as now');
  return result.rows[0]!.now;
}

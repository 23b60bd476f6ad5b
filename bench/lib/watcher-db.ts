import type { Db } from '../../db/connection.js';
import { getVerifiedWallet } from '../../db/repositories/merchants.repo.js';
import { insertPaymentRequest } from '../../db/repositories/payment-requests.repo.js';
import { runPool } from './measure.js';
import type { BenchMerchant } from './proof-db.js';

/** An open request the benchmark may pay: where to and exactly how much. */
export interface OpenRequest {
  id: string;
  payTo: `0x${string}`;
  amountAtomic: bigint;
}

/**
 * Creates `perWallet[i]` AWAITING requests on merchant i's wallet the way the API does inside its transaction
 * (the wallet row locked, then `insertPaymentRequest` choosing the smallest free matching delta), without HTTP:
 * one transaction per request, the wallets in parallel, each wallet's requests one after another.
 */
export async function createOpenRequests(
  db: Db,
  merchants: readonly BenchMerchant[],
  perWallet: readonly number[],
  opts: { quotedAtomic: bigint; description: string; validHours: number },
  signal: AbortSignal,
): Promise<OpenRequest[]> {
  const out: OpenRequest[] = [];
  await runPool(
    merchants.length,
    merchants.length,
    async (i) => {
      const m = merchants[i]!;
      for (let k = 0; k < (perWallet[i] ?? 0); k++) {
        signal.throwIfAborted();
        const r = await db.transaction(async (trx) => {
          const wallet = await getVerifiedWallet(trx, m.id, m.wallet.id, { lock: true });
          if (!wallet) throw new Error(`wallet ${m.wallet.id} is not verified`);
          return insertPaymentRequest(
            trx,
            {
              merchantId: m.id,
              wallet,
              quotedAtomic: opts.quotedAtomic,
              description: opts.description,
              customerLabel: null,
              expectedPayer: null,
              validHours: opts.validHours,
            },
            new Date(),
          );
        });
        if (!r) throw new Error('bench: no free matching amount next to the quote (too many open requests)');
        out.push({ id: r.id, payTo: r.payTo as `0x${string}`, amountAtomic: r.amountAtomic });
      }
    },
    signal,
  );
  return out;
}

/** AWAITING or REVIEW requests of the merchants (what the watcher could match), per wallet. */
export async function openRequestsPerWallet(db: Db, merchants: readonly BenchMerchant[]): Promise<number[]> {
  const rows = await db('payment_requests')
    .whereIn(
      'wallet_id',
      merchants.map((m) => m.wallet.id),
    )
    .whereIn('status', ['AWAITING', 'REVIEW'])
    .groupBy('wallet_id')
    .select('wallet_id', db.raw('count(*) as count'));
  return merchants.map((m) => Number(rows.find((r) => r.wallet_id === m.wallet.id)?.count ?? 0));
}

/** Which of `ids` are PAID, with the transaction that paid them. */
export async function paidAmong(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db('payment_requests').whereIn('id', ids).where({ status: 'PAID' }).select('id', 'tx_hash');
  return new Map(rows.map((r) => [r.id as string, r.tx_hash as string]));
}

/** Evidence rows per (transaction, log index) of these transactions: each should be exactly 1. */
export async function evidenceCounts(
  db: Db,
  txHashes: readonly string[],
): Promise<{ rows: number; distinct: number; paid: number }> {
  if (txHashes.length === 0) return { rows: 0, distinct: 0, paid: 0 };
  const row = await db('payment_evidence')
    .whereIn('tx_hash', txHashes)
    .first(
      db.raw('count(*) as n_rows'),
      db.raw("count(distinct tx_hash || ':' || log_index) as distinct_logs"),
      db.raw("count(*) filter (where decision = 'paid') as paid"),
    );
  return { rows: Number(row?.n_rows ?? 0), distinct: Number(row?.distinct_logs ?? 0), paid: Number(row?.paid ?? 0) };
}

export async function watcherProgress(db: Db, network: string): Promise<number> {
  const row = await db('watcher_progress').where({ network }).first('last_block');
  return row ? Number(row.last_block) : -1;
}

/** The most recent AWAITING request of each of these merchants' wallets (one per wallet), to be paid. */
export async function oneOpenPerWallet(db: Db, merchants: readonly BenchMerchant[]): Promise<OpenRequest[]> {
  const out: OpenRequest[] = [];
  for (const m of merchants) {
    const r = await db('payment_requests')
      .where({ wallet_id: m.wallet.id, status: 'AWAITING' })
      .orderBy('created_at', 'desc')
      .first('id', 'pay_to', 'amount_atomic');
    if (!r) throw new Error(`wallet ${m.wallet.id} has no open request`);
    out.push({ id: r.id, payTo: r.pay_to, amountAtomic: BigInt(r.amount_atomic) });
  }
  return out;
}

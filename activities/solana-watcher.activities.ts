import { ChainError } from '../adapters/chains/types.js';
import type { SolanaTransferScanner } from '../adapters/chains/solana/solana-transfer-scanner.js';
import type { Db } from '../db/connection.js';
import {
  advanceWatchedAccount,
  leastCheckedSlot,
  readWatchedAccounts,
  registerWatchedAccounts,
  type WatchedAccount,
} from '../db/repositories/watcher-accounts.repo.js';
import { advanceWatcherProgress, readWatcherProgress, watchedRecipients } from '../db/repositories/watcher.repo.js';
import { applyInto, type ScanResult } from './scan-result.js';

export interface SolanaScanLimits {
  /** Watched accounts read per scan (least recently completed first). */
  maxAccounts: number;
  /** Transactions read (getTransaction) per scan, over all accounts. */
  maxTransactions: number;
}

export const DEFAULT_SOLANA_SCAN: SolanaScanLimits = { maxAccounts: 100, maxTransactions: 100 };

interface Deps {
  db: Db;
  solana: SolanaTransferScanner;
  now: () => Date;
}

/**
 * One scan of the Solana watcher (docs/proof.md, "Solana"):
 * 1. the finalized slot S; the network's progress P (`watcher_progress`, a first run starts at S: no history);
 * 2. every verified wallet's USDC token account is watched; an account seen for the first time starts at P — the
 *    slot up to which every account watched before was complete — so a wallet verified while the watcher was
 *    behind or down is still read from then, never its older history;
 * 3. per account, least recently completed first: its new finalized signatures oldest first, the transfers into it
 *    of each successful one applied (failed ones are skipped), then its cursor advanced to the last signature done
 *    (a crash before that repeats them, and applyTransfer recognises every transfer as a duplicate); an account
 *    with nothing left is complete up to S;
 * 4. P becomes the least completed slot of the watched accounts.
 * An RPC failure on one account is reported and retried next scan without holding up the others; when every
 * account read failed the activity fails, so Temporal retries it with backoff.
 */
export async function scanSolana(deps: Deps, input: Partial<SolanaScanLimits>): Promise<ScanResult> {
  const { db, solana } = deps;
  const maxAccounts = input.maxAccounts ?? DEFAULT_SOLANA_SCAN.maxAccounts;
  let budget = input.maxTransactions ?? DEFAULT_SOLANA_SCAN.maxTransactions;
  const finalized = await solana.finalizedSlot();
  const progress = await readWatcherProgress(db, 'solana', finalized);
  const owners = await watchedRecipients(db, 'solana');
  const watched = owners.map((owner) => ({ owner, account: solana.tokenAccountOf(owner) }));
  await registerWatchedAccounts(db, 'solana', watched, progress);
  const accounts = await readWatchedAccounts(
    db,
    'solana',
    watched.map((w) => w.account),
  );

  const result: ScanResult = {
    network: 'solana',
    fromBlock: progress + 1,
    toBlock: progress,
    finalHeight: finalized,
    recipients: owners.length,
    transfers: 0,
    outcomes: {},
    deliveryIds: [],
    paidInvoiceIds: [],
    caughtUp: false,
    signatures: 0,
    accountErrors: [],
  };
  let complete = 0;
  let attempted = 0;
  const failures: ChainError[] = [];
  for (const account of accounts.slice(0, maxAccounts)) {
    if (budget <= 0) break;
    attempted++;
    try {
      const done = await scanAccount(deps, account, finalized, budget, result);
      budget -= done.read;
      if (done.complete) complete++;
    } catch (err) {
      if (!(err instanceof ChainError)) throw err;
      failures.push(err);
      result.accountErrors!.push(`${account.account}: ${err.kind}: ${err.message}`.slice(0, 500));
    }
  }
  if (failures.length > 0 && failures.length === attempted && result.signatures === 0) throw failures[0]!;

  const least = await leastCheckedSlot(
    db,
    'solana',
    accounts.map((a) => a.account),
  );
  const next = least ?? finalized;
  await advanceWatcherProgress(db, 'solana', next);
  result.toBlock = Math.max(progress, next);
  result.caughtUp = complete === accounts.length || failures.length > 0;
  return result;
}

/** Reads and applies up to `budget` new transactions of one account, then moves its cursor. */
async function scanAccount(
  deps: Deps,
  account: WatchedAccount,
  finalized: number,
  budget: number,
  result: ScanResult,
): Promise<{ read: number; complete: boolean }> {
  const pending = await deps.solana.newSignatures(account.account, {
    signature: account.lastSignature,
    minSlot: account.lastSlot,
  });
  const batch = pending.slice(0, budget);
  let last: { signature: string; slot: number } | null = null;
  try {
    for (const entry of batch) {
      const transfers = entry.failed ? [] : await deps.solana.transfersInto(entry, account.account, account.owner);
      for (const t of transfers) {
        await applyInto(deps.db, result, t, deps.now());
      }
      last = { signature: entry.signature, slot: entry.slot };
      result.signatures!++;
    }
  } finally {
    // What was applied is recorded even when a later transaction of the batch could not be read.
    const complete = last?.signature === pending.at(-1)?.signature && batch.length === pending.length;
    await advanceWatchedAccount(deps.db, 'solana', account.account, last, complete ? finalized : null);
  }
  return { read: batch.length, complete: batch.length === pending.length };
}

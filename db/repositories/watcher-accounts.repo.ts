import type { Network } from '../../domain/networks.js';
import type { Db } from '../connection.js';

/** A watched token account and where its progress stands (table `watcher_accounts`). */
export interface WatchedAccount {
  account: string;
  owner: string;
  /** The last signature whose transfers were all applied; null: none yet, start at `lastSlot`. */
  lastSignature: string | null;
  lastSlot: number;
  /** The finalized slot up to which every transaction of the account was applied. */
  checkedSlot: number;
}

/**
 * Adds the accounts not watched yet, starting at `fromSlot` (their history before it is not read). Existing rows
 * keep their progress.
 */
export async function registerWatchedAccounts(
  db: Db,
  network: Network,
  accounts: ReadonlyArray<{ account: string; owner: string }>,
  fromSlot: number,
): Promise<void> {
  if (accounts.length === 0) return;
  const rows = accounts.map((a) => ({
    network,
    account: a.account,
    owner: a.owner,
    last_signature: null,
    last_slot: fromSlot,
    checked_slot: fromSlot,
  }));
  await db('watcher_accounts').insert(rows).onConflict(['network', 'account']).ignore();
}

/** The given accounts' progress, least recently completed first (they are scanned in that order). */
export async function readWatchedAccounts(
  db: Db,
  network: Network,
  accounts: readonly string[],
): Promise<WatchedAccount[]> {
  if (accounts.length === 0) return [];
  const rows: Array<{
    account: string;
    owner: string;
    last_signature: string | null;
    last_slot: string;
    checked_slot: string;
  }> = await db('watcher_accounts')
    .where({ network })
    .whereIn('account', accounts)
    .orderBy([{ column: 'checked_slot' }, { column: 'account' }])
    .select('account', 'owner', 'last_signature', 'last_slot', 'checked_slot');
  return rows.map((r) => ({
    account: r.account,
    owner: r.owner,
    lastSignature: r.last_signature,
    lastSlot: Number(r.last_slot),
    checkedSlot: Number(r.checked_slot),
  }));
}

/**
 * Records an account's progress after the transfers up to `last` were applied, and `checkedSlot` once nothing
 * newer was left. Neither moves back: a late, overlapping attempt can at most make a later scan repeat work.
 */
export async function advanceWatchedAccount(
  db: Db,
  network: Network,
  account: string,
  last: { signature: string; slot: number } | null,
  checkedSlot: number | null,
): Promise<void> {
  if (last) {
    await db('watcher_accounts')
      .where({ network, account })
      .where('last_slot', '<=', last.slot)
      .update({ last_signature: last.signature, last_slot: last.slot, updated_at: db.fn.now() });
  }
  if (checkedSlot !== null) {
    await db('watcher_accounts')
      .where({ network, account })
      .where('checked_slot', '<', checkedSlot)
      .update({ checked_slot: checkedSlot, updated_at: db.fn.now() });
  }
}

/** The least `checked_slot` of the given accounts (null when there are none): every one is complete up to it. */
export async function leastCheckedSlot(db: Db, network: Network, accounts: readonly string[]): Promise<number | null> {
  if (accounts.length === 0) return null;
  const row = await db('watcher_accounts')
    .where({ network })
    .whereIn('account', accounts)
    .min({ least: 'checked_slot' })
    .first();
  return row?.least === null || row?.least === undefined ? null : Number(row.least);
}

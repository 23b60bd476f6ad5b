import type { Network } from '../../domain/networks.js';
import type { Db } from '../connection.js';

/**
 * The payment watcher's durable progress: the last block of each network whose transfers were all applied.
 * A network seen for the first time starts at `initial` (the watcher does not scan history).
 */
export async function readWatcherProgress(db: Db, network: Network, initial: number): Promise<number> {
  await db('watcher_progress').insert({ network, last_block: initial }).onConflict('network').ignore();
  const row = await db('watcher_progress').where({ network }).first('last_block');
  return Number(row.last_block);
}

/** Moves the progress to `to`; a repeated or out-of-order advance never moves it back. */
export async function advanceWatcherProgress(db: Db, network: Network, to: number): Promise<void> {
  await db('watcher_progress')
    .where({ network })
    .where('last_block', '<', to)
    .update({ last_block: to, updated_at: db.fn.now() });
}

/**
 * After a scan: the head it saw (EVM: the final height; Solana: the finalized slot), never moved back, and, when the
 * progress stands at that head, the time it did (`caught_up_at`): what the lag gauges read (`watcherLag`).
 */
export async function recordWatcherHead(db: Db, network: Network, head: number): Promise<void> {
  await db('watcher_progress')
    .where({ network })
    .update({
      head_block: db.raw('GREATEST(COALESCE(head_block, 0), ?::bigint)', [head]),
      caught_up_at: db.raw('CASE WHEN last_block >= ?::bigint THEN now() ELSE caught_up_at END', [head]),
    });
}

/**
 * Distinct verified merchant wallet addresses on a network (`address_key`: EVM lower-cased): the watcher's recipients.
 * Wallets on hold are watched too, so a transfer to them is recorded as evidence (it pays nothing).
 */
export async function watchedRecipients(db: Db, network: Network): Promise<string[]> {
  const rows = await db('merchant_wallets').where({ network }).whereNotNull('verified_at').distinct('address_key');
  return rows.map((r: { address_key: string }) => r.address_key);
}

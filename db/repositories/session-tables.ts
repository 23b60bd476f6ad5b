import type { Knex } from 'knex';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { deleteInBatches } from '../batches.js';

/**
 * The storage every browser-session table shares (`merchant_sessions`, `company_sessions`): a row per sign-in
 * holding only the SHA-256 of its cookie token, an absolute end (`expires_at`), an idle clock (`last_seen_at`)
 * and `ended_at` once signed out.
 */

/** last_seen_at is written at most once a minute per session. */
const TOUCH_INTERVAL_MS = 60_000;

/** Inserts a session row (`owner` holds the table's own columns: user, tenant). */
export async function insertSessionRow(
  db: Db,
  table: string,
  input: { tokenHash: string; expiresAt: Date; owner: Record<string, string> },
  now: Date,
): Promise<{ id: string }> {
  const id = newId('ses');
  await db(table).insert({
    id,
    token_hash: input.tokenHash,
    ...input.owner,
    created_at: now,
    last_seen_at: now,
    expires_at: input.expiresAt,
  });
  return { id };
}

/** Narrows a query over the session table aliased `s` to the live session of a token digest. */
export function whereLiveSession(
  q: Knex.QueryBuilder,
  tokenHash: string,
  now: Date,
  idleMs: number,
): Knex.QueryBuilder {
  return q
    .where('s.token_hash', tokenHash)
    .whereNull('s.ended_at')
    .where('s.expires_at', '>', now)
    .where('s.last_seen_at', '>', new Date(now.getTime() - idleMs));
}

/** Refreshes the idle clock of a session seen at `now` (at most once a minute). */
export async function touchSessionRow(
  db: Db,
  table: string,
  row: { id: string; last_seen_at: Date },
  now: Date,
): Promise<void> {
  if (now.getTime() - new Date(row.last_seen_at).getTime() >= TOUCH_INTERVAL_MS) {
    await db(table).where({ id: row.id }).update({ last_seen_at: now });
  }
}

export async function endSessionRow(db: Db, table: string, id: string, now: Date): Promise<void> {
  await db(table).where({ id }).whereNull('ended_at').update({ ended_at: now });
}

/** Deletes sessions that ended or expired before `before` (the maintenance run keeps the tables small). */
export async function purgeSessionRows(db: Db, table: string, before: Date): Promise<number> {
  return deleteInBatches(db, table, (q) =>
    q.where((w) => w.where('expires_at', '<', before).orWhere('ended_at', '<', before)),
  );
}

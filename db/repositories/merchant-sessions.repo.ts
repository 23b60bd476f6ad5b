import type { Db } from '../connection.js';
import {
  endSessionRow,
  insertSessionRow,
  purgeSessionRows,
  touchSessionRow,
  whereLiveSession,
} from './session-tables.js';

/** A signed-in dashboard session. Only the SHA-256 of its cookie token is stored. */
export interface MerchantSession {
  id: string;
  userId: string;
  merchantId: string;
  email: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

const TABLE = 'merchant_sessions';

export async function createSession(
  db: Db,
  input: { tokenHash: string; userId: string; merchantId: string; expiresAt: Date },
  now: Date,
): Promise<{ id: string }> {
  return insertSessionRow(
    db,
    TABLE,
    {
      tokenHash: input.tokenHash,
      expiresAt: input.expiresAt,
      owner: { user_id: input.userId, merchant_id: input.merchantId },
    },
    now,
  );
}

/**
 * The live session of a token digest: not ended, not past its absolute end, not idle for longer than
 * `idleMs`, and its user not disabled. Seeing it refreshes its idle clock (at most once a minute).
 */
export async function findLiveSession(
  db: Db,
  tokenHash: string,
  now: Date,
  idleMs: number,
): Promise<MerchantSession | null> {
  const row = await whereLiveSession(
    db(`${TABLE} as s`).join('merchant_users as u', 'u.id', 's.user_id'),
    tokenHash,
    now,
    idleMs,
  )
    .whereNull('u.disabled_at')
    .first('s.id', 's.user_id', 's.merchant_id', 'u.email', 's.created_at', 's.last_seen_at', 's.expires_at');
  if (!row) return null;
  await touchSessionRow(db, TABLE, row, now);
  return {
    id: row.id,
    userId: row.user_id,
    merchantId: row.merchant_id,
    email: row.email,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

export async function endSession(db: Db, id: string, now: Date): Promise<void> {
  await endSessionRow(db, TABLE, id, now);
}

/** Deletes sessions that ended or expired before `before` (the maintenance run keeps the table small). */
export async function purgeSessions(db: Db, before: Date): Promise<number> {
  return purgeSessionRows(db, TABLE, before);
}

import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { deleteInBatches } from '../batches.js';

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

/** last_seen_at is written at most once a minute per session. */
const TOUCH_INTERVAL_MS = 60_000;

export async function createSession(
  db: Db,
  input: { tokenHash: string; userId: string; merchantId: string; expiresAt: Date },
  now: Date,
): Promise<{ id: string }> {
  const id = newId('ses');
  await db('merchant_sessions').insert({
    id,
    token_hash: input.tokenHash,
    user_id: input.userId,
    merchant_id: input.merchantId,
    created_at: now,
    last_seen_at: now,
    expires_at: input.expiresAt,
  });
  return { id };
}

/**
 * The live session of a token digest: not ended, not past its absolute end, not idle for longer than
 * `idleMs`, and its user not disabled. Seeing it refreshes its idle clock (at most once a minute).
 */
export async function findLiveSession(db: Db, tokenHash: string, now: Date, idleMs: number): Promise<MerchantSession | null> {
  const row = await db('merchant_sessions as s')
    .join('merchant_users as u', 'u.id', 's.user_id')
    .where('s.token_hash', tokenHash)
    .whereNull('s.ended_at')
    .whereNull('u.disabled_at')
    .where('s.expires_at', '>', now)
    .where('s.last_seen_at', '>', new Date(now.getTime() - idleMs))
    .first('s.id', 's.user_id', 's.merchant_id', 'u.email', 's.created_at', 's.last_seen_at', 's.expires_at');
  if (!row) return null;
  if (now.getTime() - new Date(row.last_seen_at).getTime() >= TOUCH_INTERVAL_MS) {
    await db('merchant_sessions').where({ id: row.id }).update({ last_seen_at: now });
  }
  return { id: row.id, userId: row.user_id, merchantId: row.merchant_id, email: row.email, createdAt: row.created_at, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
}

export async function endSession(db: Db, id: string, now: Date): Promise<void> {
  await db('merchant_sessions').where({ id }).whereNull('ended_at').update({ ended_at: now });
}

/** Deletes sessions that ended or expired before `before` (the maintenance run keeps the table small). */
export async function purgeSessions(db: Db, before: Date): Promise<number> {
  return deleteInBatches(db, 'merchant_sessions', (q) => q.where((w) => w.where('expires_at', '<', before).orWhere('ended_at', '<', before)));
}

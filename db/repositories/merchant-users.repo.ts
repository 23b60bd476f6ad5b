import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';

/** A dashboard user of a merchant. The password hash never leaves this module's callers' hands. */
export interface MerchantUser {
  id: string;
  merchantId: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
  disabledAt: Date | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const toUser = (r: any): MerchantUser => ({
  id: r.id,
  merchantId: r.merchant_id,
  email: r.email,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
  disabledAt: r.disabled_at,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * Creates a user; the e-mail address (already normalised) is one account across all merchants: `taken` when a user
 * has it already, and nothing is written.
 */
export async function createMerchantUser(
  db: Db,
  input: { merchantId: string; email: string; passwordHash: string },
  now: Date,
): Promise<MerchantUser | 'taken'> {
  const inserted = await db('merchant_users')
    .insert({
      id: newId('usr'),
      merchant_id: input.merchantId,
      email: input.email,
      password_hash: input.passwordHash,
      created_at: now,
      password_changed_at: now,
    })
    .onConflict('email')
    .ignore()
    .returning('*');
  return inserted[0] ? toUser(inserted[0]) : 'taken';
}

export async function findUserByEmail(db: Db, email: string): Promise<MerchantUser | null> {
  const row = await db('merchant_users').where({ email }).first();
  return row ? toUser(row) : null;
}

/** Replaces the password hash and ends every session of the user (a reset signs out everywhere). */
export async function setUserPassword(db: Db, userId: string, passwordHash: string, now: Date): Promise<boolean> {
  return db.transaction(async (trx) => {
    const n = await trx('merchant_users')
      .where({ id: userId })
      .update({ password_hash: passwordHash, password_changed_at: now });
    await trx('merchant_sessions').where({ user_id: userId }).whereNull('ended_at').update({ ended_at: now });
    return n > 0;
  });
}

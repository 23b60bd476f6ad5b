import type { MemberRole } from '../../domain/accounts.js';
import type { Db } from '../connection.js';
import {
  endSessionRow,
  insertSessionRow,
  purgeSessionRows,
  touchSessionRow,
  whereLiveSession,
} from './session-tables.js';

/**
 * Sign-in of company members (`/api/company`): the password is the account's (one company per account); a session
 * belongs to the member row, so removing the member ends it. Only the SHA-256 of a session token is stored.
 */
export interface CompanyMemberIdentity {
  memberId: string;
  companyId: string;
  accountId: string;
  email: string;
  role: MemberRole;
}

export interface CompanySession extends CompanyMemberIdentity {
  id: string;
  companyName: string;
  companyStatus: 'active' | 'suspended';
}

const TABLE = 'company_sessions';

/** The active membership of an address and its account's password hash (null when none is set yet). */
export async function findMemberCredential(
  db: Db,
  email: string,
): Promise<{ member: CompanyMemberIdentity; passwordHash: string | null } | null> {
  const row = await db('accounts as a')
    .join('members as m', 'm.account_id', 'a.id')
    .where('a.email', email)
    .whereNull('m.removed_at')
    .first('m.id as member_id', 'm.company_id', 'm.role', 'a.id as account_id', 'a.email', 'a.password_hash');
  if (!row) return null;
  return {
    member: {
      memberId: row.member_id,
      companyId: row.company_id,
      accountId: row.account_id,
      email: row.email,
      role: row.role,
    },
    passwordHash: row.password_hash,
  };
}

export async function createCompanySession(
  db: Db,
  input: { tokenHash: string; memberId: string; companyId: string; expiresAt: Date },
  now: Date,
): Promise<{ id: string }> {
  return insertSessionRow(
    db,
    TABLE,
    {
      tokenHash: input.tokenHash,
      expiresAt: input.expiresAt,
      owner: { member_id: input.memberId, company_id: input.companyId },
    },
    now,
  );
}

/**
 * The live session of a token digest: not ended, not past its absolute end, not idle past `idleMs`, and its member
 * not removed. Seeing it refreshes its idle clock (at most once a minute).
 */
export async function findLiveCompanySession(
  db: Db,
  tokenHash: string,
  now: Date,
  idleMs: number,
): Promise<CompanySession | null> {
  const row = await whereLiveSession(
    db(`${TABLE} as s`)
      .join('members as m', 'm.id', 's.member_id')
      .join('accounts as a', 'a.id', 'm.account_id')
      .join('companies as c', 'c.id', 's.company_id'),
    tokenHash,
    now,
    idleMs,
  )
    .whereNull('m.removed_at')
    .first(
      's.id',
      's.last_seen_at',
      's.member_id',
      's.company_id',
      'm.role',
      'a.id as account_id',
      'a.email',
      'c.name as company_name',
      'c.status as company_status',
    );
  if (!row) return null;
  await touchSessionRow(db, TABLE, row, now);
  return {
    id: row.id,
    memberId: row.member_id,
    companyId: row.company_id,
    accountId: row.account_id,
    email: row.email,
    role: row.role,
    companyName: row.company_name,
    companyStatus: row.company_status,
  };
}

export async function endCompanySession(db: Db, id: string, now: Date): Promise<void> {
  await endSessionRow(db, TABLE, id, now);
}

export async function purgeCompanySessions(db: Db, before: Date): Promise<number> {
  return purgeSessionRows(db, TABLE, before);
}

/** Sets an account's password and ends every session of its memberships (a new password signs out everywhere). */
export async function setAccountPassword(db: Db, accountId: string, passwordHash: string, now: Date): Promise<void> {
  await db('accounts').where({ id: accountId }).update({ password_hash: passwordHash, password_changed_at: now });
  await db(TABLE)
    .whereIn('member_id', db('members').select('id').where({ account_id: accountId }))
    .whereNull('ended_at')
    .update({ ended_at: now });
}

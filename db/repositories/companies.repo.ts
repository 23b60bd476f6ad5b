import type { MemberRole } from '../../domain/accounts.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { verifyApiKeyWith, type VerifyOutcome } from './api-keys.repo.js';

export interface Company {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  createdAt: Date;
}

export interface Member {
  id: string;
  companyId: string;
  accountId: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
  removedAt: Date | null;
}

const toCompany = (r: { id: string; name: string; status: Company['status']; created_at: Date }): Company => ({
  id: r.id,
  name: r.name,
  status: r.status,
  createdAt: r.created_at,
});

/**
 * Locks the company row so limit checks and the inserts they guard are serialised per company. FOR NO KEY UPDATE, not
 * FOR UPDATE: lockers still wait for each other, but rows that merely reference the company (a ledger entry appended
 * by a worker settling a job, which takes KEY SHARE on the company) do not wait for the lock, so a submission holding
 * it while it reserves from the wallet cannot deadlock with a settlement holding the wallet. Null when there is no such
 * company (nothing is locked then); services/company/company-lock.ts refuses that.
 */
export async function lockCompany(trx: Db, companyId: string): Promise<Company | null> {
  const row = await trx('companies').where({ id: companyId }).forNoKeyUpdate().first();
  return row ? toCompany(row) : null;
}

/** The account of an e-mail address, created when there is none. */
export async function findOrCreateAccount(trx: Db, email: string): Promise<string> {
  const existing = await trx('accounts').where({ email }).first();
  if (existing) return existing.id as string;
  const id = newId('acc');
  await trx('accounts').insert({ id, email }).onConflict('email').ignore();
  return ((await trx('accounts').where({ email }).first()) as { id: string }).id;
}

/** Whether the account is an active member of any company. */
export async function hasActiveMembership(trx: Db, accountId: string): Promise<boolean> {
  return Boolean(await trx('members').where({ account_id: accountId }).whereNull('removed_at').first());
}

export async function insertCompany(trx: Db, name: string): Promise<Company> {
  const [row] = await trx('companies')
    .insert({ id: newId('co'), name })
    .returning('*');
  return toCompany(row);
}

export async function insertMember(
  trx: Db,
  input: { companyId: string; accountId: string; email: string; role: MemberRole },
): Promise<Member> {
  const id = newId('mem');
  const [row] = await trx('members')
    .insert({ id, company_id: input.companyId, account_id: input.accountId, role: input.role })
    .returning('*');
  return { id, ...input, createdAt: row.created_at, removedAt: null };
}

export async function getCompany(db: Db, companyId: string): Promise<Company | null> {
  const row = await db('companies').where({ id: companyId }).first();
  return row ? toCompany(row) : null;
}

export async function countActiveMembers(trx: Db, companyId: string): Promise<number> {
  const [row] = await trx('members')
    .where({ company_id: companyId })
    .whereNull('removed_at')
    .count<{ count: string }[]>('* as count');
  return Number(row?.count ?? 0);
}

/** The ids of the company's active billing administrators. */
export async function activeBillingAdmins(trx: Db, companyId: string): Promise<string[]> {
  return trx('members').where({ company_id: companyId, role: 'billing_admin' }).whereNull('removed_at').pluck('id');
}

/** Whether the member is active in the company. */
export async function isActiveMember(trx: Db, companyId: string, memberId: string): Promise<boolean> {
  return Boolean(await trx('members').where({ id: memberId, company_id: companyId }).whereNull('removed_at').first());
}

/**
 * Ends a membership and, in the same statement sequence, revokes every API key the member created and every
 * invitation they issued that is still open. Null when there was no such active member.
 */
export async function endMembership(
  trx: Db,
  companyId: string,
  memberId: string,
  now: Date,
): Promise<{ revokedKeys: number; revokedInvitations: number } | null> {
  const removed = await trx('members')
    .where({ id: memberId, company_id: companyId })
    .whereNull('removed_at')
    .update({ removed_at: now });
  if (removed === 0) return null;
  const revokedKeys = await trx('api_keys')
    .where({ interface: 'v1', tenant_id: companyId, owner_id: memberId })
    .whereNull('revoked_at')
    .update({ revoked_at: now });
  const revokedInvitations = await trx('company_invitations')
    .where({ company_id: companyId, invited_by: memberId })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .where('expires_at', '>', now)
    .update({ revoked_at: now });
  return { revokedKeys, revokedInvitations };
}

export async function listMembers(db: Db, companyId: string): Promise<Member[]> {
  const rows = await db('members as m')
    .join('accounts as a', 'a.id', 'm.account_id')
    .where('m.company_id', companyId)
    .whereNull('m.removed_at')
    .select('m.*', 'a.email')
    .orderBy('m.created_at');
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    accountId: r.account_id,
    email: r.email,
    role: r.role,
    createdAt: r.created_at,
    removedAt: r.removed_at,
  }));
}

/**
 * A /v1 key's verdict (verifyApiKey) and, in the same statement, the status of the company it belongs to (null: no
 * such company), for the suspension guard: one statement per /v1 request instead of two.
 */
export async function verifyCompanyKey(
  db: Db,
  token: string,
  now: Date,
): Promise<{ outcome: VerifyOutcome; companyStatus: Company['status'] | null }> {
  const { outcome, extra } = await verifyApiKeyWith<{ c_status: Company['status'] | null }>(db, 'v1', token, now, {
    columns: 'c.status AS c_status',
    joins: 'LEFT JOIN companies c ON c.id = k.tenant_id',
    bindings: [],
  });
  return { outcome, companyStatus: extra?.c_status ?? null };
}

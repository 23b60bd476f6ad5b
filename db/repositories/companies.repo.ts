import { LIMITS, type MemberRole } from '../../domain/accounts.js';
import { DomainError } from '../../domain/errors.js';
import type { KeyScope } from '../../domain/api-keys.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { countActiveApiKeys, issueApiKey, type ApiKeyRecord } from './api-keys.repo.js';
import { createWallet, grantCredits } from './credits.repo.js';

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

async function findOrCreateAccount(trx: Db, email: string): Promise<string> {
  const existing = await trx('accounts').where({ email }).first();
  if (existing) return existing.id as string;
  const id = newId('acc');
  await trx('accounts').insert({ id, email }).onConflict('email').ignore();
  return ((await trx('accounts').where({ email }).first()) as { id: string }).id;
}

/**
 * Locks the company row so limit checks and the inserts they guard are serialised per company. FOR NO KEY UPDATE, not
 * FOR UPDATE: lockers still wait for each other, but rows that merely reference the company (a ledger entry appended
 * by a worker settling a job, which takes KEY SHARE on the company) do not wait for the lock, so a submission holding
 * it while it reserves from the wallet cannot deadlock with a settlement holding the wallet.
 */
export async function lockCompany(trx: Db, companyId: string): Promise<Company> {
  const row = await trx('companies').where({ id: companyId }).forNoKeyUpdate().first();
  if (!row) throw new DomainError('not_found', 'Company not found');
  return toCompany(row);
}

async function insertMember(trx: Db, companyId: string, email: string, role: MemberRole): Promise<Member> {
  const accountId = await findOrCreateAccount(trx, email);
  const elsewhere = await trx('members').where({ account_id: accountId }).whereNull('removed_at').first();
  if (elsewhere)
    throw new DomainError('conflict', 'This account already belongs to a company (one company per account)');
  const id = newId('mem');
  const [row] = await trx('members').insert({ id, company_id: companyId, account_id: accountId, role }).returning('*');
  return { id, companyId, accountId, email, role, createdAt: row.created_at, removedAt: null };
}

/**
 * A new company with its first member (a billing administrator), an empty wallet and the one-time trial
 * grant, in one transaction.
 */
export async function createCompany(
  db: Db,
  input: { name: string; ownerEmail: string },
): Promise<{ company: Company; owner: Member }> {
  return db.transaction(async (trx) => {
    const id = newId('co');
    const [row] = await trx('companies').insert({ id, name: input.name }).returning('*');
    const owner = await insertMember(trx, id, input.ownerEmail, 'billing_admin');
    await createWallet(trx, id);
    await grantCredits(trx, id, LIMITS.trialCredits, 'trial');
    return { company: toCompany(row), owner };
  });
}

export async function getCompany(db: Db, companyId: string): Promise<Company | null> {
  const row = await db('companies').where({ id: companyId }).first();
  return row ? toCompany(row) : null;
}

export async function addMember(db: Db, companyId: string, email: string, role: MemberRole): Promise<Member> {
  return db.transaction(async (trx) => {
    await lockCompany(trx, companyId);
    const [row] = await trx('members')
      .where({ company_id: companyId })
      .whereNull('removed_at')
      .count<{ count: string }[]>('* as count');
    if (Number(row?.count ?? 0) >= LIMITS.membersPerCompany) {
      throw new DomainError('limit_reached', `A company has at most ${LIMITS.membersPerCompany} members`);
    }
    return insertMember(trx, companyId, email, role);
  });
}

/**
 * Removes a member and, in the same transaction, revokes every API key that member created and every invitation they
 * issued that is still open (their sessions end with the membership), so nothing they left behind lets them, or anyone
 * they chose, act for the company again. `keepABillingAdmin` refuses to remove the last billing administrator.
 */
export async function removeMember(
  db: Db,
  companyId: string,
  memberId: string,
  now: Date,
  opts: { keepABillingAdmin?: boolean } = {},
): Promise<{ revokedKeys: number; revokedInvitations: number }> {
  return db.transaction(async (trx) => {
    await lockCompany(trx, companyId);
    if (opts.keepABillingAdmin) {
      const admins = await trx('members')
        .where({ company_id: companyId, role: 'billing_admin' })
        .whereNull('removed_at')
        .pluck('id');
      if (admins.length === 1 && admins[0] === memberId) {
        throw new DomainError(
          'last_billing_admin',
          "This is the company's last billing administrator; invite another one before removing this one",
        );
      }
    }
    const removed = await trx('members')
      .where({ id: memberId, company_id: companyId })
      .whereNull('removed_at')
      .update({ removed_at: now });
    if (removed === 0) throw new DomainError('not_found', 'Member not found');
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
  });
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
 * An `sk_live_` key of a company, owned by the active member who creates it; at most 20 active keys per
 * company (neither revoked nor expired).
 */
export async function issueCompanyKey(
  db: Db,
  input: { companyId: string; memberId: string; name: string; scopes: KeyScope[]; expiresAt?: Date | null },
  now: Date,
): Promise<{ key: ApiKeyRecord; secret: string }> {
  return db.transaction(async (trx) => {
    await lockCompany(trx, input.companyId);
    const member = await trx('members')
      .where({ id: input.memberId, company_id: input.companyId })
      .whereNull('removed_at')
      .first();
    if (!member) throw new DomainError('not_found', 'Member not found in this company');
    if ((await countActiveApiKeys(trx, 'v1', input.companyId, now)) >= LIMITS.activeKeysPerCompany) {
      throw new DomainError('limit_reached', `A company has at most ${LIMITS.activeKeysPerCompany} active API keys`);
    }
    return issueApiKey(trx, {
      interface: 'v1',
      tenantId: input.companyId,
      ownerId: input.memberId,
      name: input.name,
      scopes: input.scopes,
      expiresAt: input.expiresAt ?? null,
    });
  });
}

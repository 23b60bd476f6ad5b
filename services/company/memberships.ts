import { LIMITS, type MemberRole } from '../../domain/accounts.js';
import type { KeyScope } from '../../domain/api-keys.js';
import { DomainError } from '../../domain/errors.js';
import type { Db } from '../../db/connection.js';
import { countActiveApiKeys, issueApiKey, type ApiKeyRecord } from '../../db/repositories/api-keys.repo.js';
import {
  activeBillingAdmins,
  countActiveMembers,
  endMembership,
  findOrCreateAccount,
  hasActiveMembership,
  insertCompany,
  insertMember,
  isActiveMember,
  type Company,
  type Member,
} from '../../db/repositories/companies.repo.js';
import { lockCompany } from './company-lock.js';
import { createWallet } from '../../db/repositories/credits.repo.js';
import { grantCredits } from '../processing/credits.js';

/*
 * A processing company's memberships and keys: the rules (one company per account, the member and key limits, a
 * company always keeps a billing administrator), each decided under the company lock.
 */

/** The account of `email` joins the company; one company per account (409 otherwise). */
async function join(trx: Db, companyId: string, email: string, role: MemberRole): Promise<Member> {
  const accountId = await findOrCreateAccount(trx, email);
  if (await hasActiveMembership(trx, accountId))
    throw new DomainError('conflict', 'This account already belongs to a company (one company per account)');
  return insertMember(trx, { companyId, accountId, email, role });
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
    const company = await insertCompany(trx, input.name);
    const owner = await join(trx, company.id, input.ownerEmail, 'billing_admin');
    await createWallet(trx, company.id);
    await grantCredits(trx, company.id, LIMITS.trialCredits, 'trial');
    return { company, owner };
  });
}

/** Adds a member, within the company's member limit. */
export async function addMember(db: Db, companyId: string, email: string, role: MemberRole): Promise<Member> {
  return db.transaction(async (trx) => {
    await lockCompany(trx, companyId);
    if ((await countActiveMembers(trx, companyId)) >= LIMITS.membersPerCompany) {
      throw new DomainError('limit_reached', `A company has at most ${LIMITS.membersPerCompany} members`);
    }
    return join(trx, companyId, email, role);
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
      const admins = await activeBillingAdmins(trx, companyId);
      if (admins.length === 1 && admins[0] === memberId) {
        throw new DomainError(
          'last_billing_admin',
          "This is the company's last billing administrator; invite another one before removing this one",
        );
      }
    }
    const ended = await endMembership(trx, companyId, memberId, now);
    if (!ended) throw new DomainError('not_found', 'Member not found');
    return ended;
  });
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
    if (!(await isActiveMember(trx, input.companyId, input.memberId)))
      throw new DomainError('not_found', 'Member not found in this company');
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

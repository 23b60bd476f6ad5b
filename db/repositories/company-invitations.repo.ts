import { LIMITS, MEMBER_ROLES, mayGrantRole, type MemberRole } from '../../domain/accounts.js';
import { DomainError } from '../../domain/errors.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { addMember, lockCompany, type Member } from './companies.repo.js';
import { setAccountPassword } from './company-sessions.repo.js';

/**
 * Invitations of company members (`/api/company/invitations`): single use, with an absolute expiry, stored by the
 * SHA-256 of their token (the token is shown once, to the billing administrator who invites). Accepting one creates
 * the membership and sets the account's password in one transaction.
 */
export interface Invitation {
  id: string;
  companyId: string;
  email: string;
  role: MemberRole;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const toInvitation = (r: any): Invitation => ({
  id: r.id,
  companyId: r.company_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * `mayGrantRole` in SQL, for a row of `company_invitations`: its issuer is still a member of the company whose role ranks
 * at least the invited one (ranks: the order of MEMBER_ROLES). Removing a member revokes their invitations outright;
 * this also keeps an invitation from outliving a lowering of its issuer's role, whatever lowered it.
 */
const RANKS = `ARRAY[${MEMBER_ROLES.map(() => '?').join(', ')}]::text[]`;
const issuerMayGrant = (db: Db) =>
  db.raw(
    `EXISTS (SELECT 1 FROM members m WHERE m.id = company_invitations.invited_by AND m.company_id = company_invitations.company_id
       AND m.removed_at IS NULL AND array_position(${RANKS}, company_invitations.role) <= array_position(${RANKS}, m.role))`,
    [...MEMBER_ROLES, ...MEMBER_ROLES],
  );

/** Open invitations of a company: neither accepted, revoked nor expired, and their issuer may still grant them. */
const open = (db: Db, companyId: string, now: Date) =>
  db('company_invitations')
    .where({ company_id: companyId })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .where('expires_at', '>', now)
    .whereRaw(issuerMayGrant(db));

async function countActiveMembers(db: Db, companyId: string): Promise<number> {
  const [row] = await db('members')
    .where({ company_id: companyId })
    .whereNull('removed_at')
    .count<{ n: string }[]>({ n: '*' });
  return Number(row?.n ?? 0);
}

/** An address that is an active member of any company cannot be invited (one company per account). */
async function refuseMemberAddress(db: Db, email: string): Promise<void> {
  const taken = await db('members as m')
    .join('accounts as a', 'a.id', 'm.account_id')
    .where('a.email', email)
    .whereNull('m.removed_at')
    .first('m.company_id');
  if (taken)
    throw new DomainError(
      'account_in_other_company',
      'This address already belongs to a company (one company per account)',
    );
}

/**
 * A new invitation. Active members and open invitations together stay within the member limit; one open invitation
 * per address (an expired one is closed first).
 */
export async function createInvitation(
  db: Db,
  input: { companyId: string; email: string; role: MemberRole; invitedBy: string; tokenHash: string; expiresAt: Date },
  now: Date,
): Promise<Invitation> {
  return db.transaction(async (trx) => {
    await lockCompany(trx, input.companyId);
    await refuseMemberAddress(trx, input.email);
    // An invitation to this address that is no longer open (expired, or its issuer may no longer grant it) is closed
    // first, so it does not hold the address's one open invitation.
    await trx('company_invitations')
      .where({ company_id: input.companyId, email: input.email })
      .whereNull('accepted_at')
      .whereNull('revoked_at')
      .where((q) => q.where('expires_at', '<=', now).orWhereNot(issuerMayGrant(trx)))
      .update({ revoked_at: now });
    const [pending] = await open(trx, input.companyId, now).count<{ n: string }[]>({ n: '*' });
    if ((await countActiveMembers(trx, input.companyId)) + Number(pending?.n ?? 0) >= LIMITS.membersPerCompany) {
      throw new DomainError(
        'limit_reached',
        `A company has at most ${LIMITS.membersPerCompany} members, open invitations included`,
      );
    }
    const inserted = await trx('company_invitations')
      .insert({
        id: newId('cin'),
        company_id: input.companyId,
        email: input.email,
        role: input.role,
        token_hash: input.tokenHash,
        invited_by: input.invitedBy,
        created_at: now,
        expires_at: input.expiresAt,
      })
      .onConflict(trx.raw('(company_id, email) WHERE accepted_at IS NULL AND revoked_at IS NULL'))
      .ignore()
      .returning('*');
    if (!inserted[0])
      throw new DomainError(
        'invitation_pending',
        'This address has an open invitation already; revoke it to invite again',
      );
    return toInvitation(inserted[0]);
  });
}

/** Open (neither accepted, revoked nor expired) invitations, newest first. */
export async function listOpenInvitations(db: Db, companyId: string, now: Date): Promise<Invitation[]> {
  return (
    await open(db, companyId, now).orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
  ).map(toInvitation);
}

export async function revokeInvitation(db: Db, companyId: string, id: string, now: Date): Promise<Invitation> {
  const [row] = await open(db, companyId, now).where({ id }).update({ revoked_at: now }).returning('*');
  if (!row) throw new DomainError('not_found', 'Invitation not found (or no longer open)');
  return toInvitation(row);
}

const INVALID =
  'This invitation does not exist, was used or revoked, or has expired; ask a billing administrator for a new one';

/**
 * Accepts an invitation by its token digest: once, before it expires, while its issuer is still a member of the company
 * whose role may grant the invited one (removing a member revokes their open invitations; a lowered role makes those
 * granting more than it unusable). Creates the member (within the member limit, one company per account) and sets the
 * account's password, in one transaction. Every refusal is the same `invitation_invalid`.
 */
export async function acceptInvitation(
  db: Db,
  tokenHash: string,
  passwordHash: string,
  now: Date,
): Promise<{ member: Member; companyId: string }> {
  return db.transaction(async (trx) => {
    const row = await trx('company_invitations').where({ token_hash: tokenHash }).forUpdate().first();
    if (!row || row.accepted_at || row.revoked_at || new Date(row.expires_at).getTime() <= now.getTime()) {
      throw new DomainError('invitation_invalid', INVALID);
    }
    const invitation = toInvitation(row);
    await lockCompany(trx, invitation.companyId);
    // Under the company lock, which removing a member takes too: the issuer's membership and role as they stand.
    const issuer = await trx('members')
      .where({ id: invitation.invitedBy, company_id: invitation.companyId })
      .whereNull('removed_at')
      .first('role');
    if (!issuer || !mayGrantRole(issuer.role, invitation.role)) throw new DomainError('invitation_invalid', INVALID);
    await refuseMemberAddress(trx, invitation.email);
    const member = await addMember(trx, invitation.companyId, invitation.email, invitation.role);
    await setAccountPassword(trx, member.accountId, passwordHash, now);
    await trx('company_invitations').where({ id: invitation.id }).update({ accepted_at: now, member_id: member.id });
    return { member, companyId: invitation.companyId };
  });
}

import { LIMITS, mayGrantRole, type MemberRole } from '../../domain/accounts.js';
import { DomainError } from '../../domain/errors.js';
import type { Db } from '../../db/connection.js';
import { countActiveMembers, type Member } from '../../db/repositories/companies.repo.js';
import { lockCompany } from './company-lock.js';
import {
  activeMemberRole,
  addressIsMember,
  closeStaleInvitations,
  countOpenInvitations,
  insertInvitation,
  lockInvitationByToken,
  markInvitationAccepted,
  revokeOpenInvitation,
  type Invitation,
} from '../../db/repositories/company-invitations.repo.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { addMember } from './memberships.js';

/*
 * Invitations of company members: the member limit counts open invitations, one open invitation per address, an
 * address already in a company cannot be invited or join, and an invitation is only as good as its issuer's role.
 */

/** An address that is an active member of any company cannot be invited (one company per account). */
async function refuseMemberAddress(db: Db, email: string): Promise<void> {
  if (await addressIsMember(db, email))
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
    await closeStaleInvitations(trx, input.companyId, input.email, now);
    const taken =
      (await countActiveMembers(trx, input.companyId)) + (await countOpenInvitations(trx, input.companyId, now));
    if (taken >= LIMITS.membersPerCompany) {
      throw new DomainError(
        'limit_reached',
        `A company has at most ${LIMITS.membersPerCompany} members, open invitations included`,
      );
    }
    const invitation = await insertInvitation(trx, input, now);
    if (!invitation)
      throw new DomainError(
        'invitation_pending',
        'This address has an open invitation already; revoke it to invite again',
      );
    return invitation;
  });
}

export async function revokeInvitation(db: Db, companyId: string, id: string, now: Date): Promise<Invitation> {
  const invitation = await revokeOpenInvitation(db, companyId, id, now);
  if (!invitation) throw new DomainError('not_found', 'Invitation not found (or no longer open)');
  return invitation;
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
    const found = await lockInvitationByToken(trx, tokenHash);
    if (!found || found.closed || found.invitation.expiresAt.getTime() <= now.getTime()) {
      throw new DomainError('invitation_invalid', INVALID);
    }
    const { invitation } = found;
    await lockCompany(trx, invitation.companyId);
    // Under the company lock, which removing a member takes too: the issuer's membership and role as they stand.
    const issuerRole = await activeMemberRole(trx, invitation.companyId, invitation.invitedBy);
    if (!issuerRole || !mayGrantRole(issuerRole, invitation.role)) throw new DomainError('invitation_invalid', INVALID);
    await refuseMemberAddress(trx, invitation.email);
    const member = await addMember(trx, invitation.companyId, invitation.email, invitation.role);
    await setAccountPassword(trx, member.accountId, passwordHash, now);
    await markInvitationAccepted(trx, invitation.id, member.id, now);
    return { member, companyId: invitation.companyId };
  });
}

import { MEMBER_ROLES, type MemberRole } from '../../domain/accounts.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';

/**
 * Invitations of company members (`/api/company/invitations`; the rules: services/company/invitations.ts): single use,
 * with an absolute expiry, stored by the SHA-256 of their token (the token is shown once, to the billing administrator
 * who invites).
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

/** Whether the address is an active member of any company. */
export async function addressIsMember(db: Db, email: string): Promise<boolean> {
  const taken = await db('members as m')
    .join('accounts as a', 'a.id', 'm.account_id')
    .where('a.email', email)
    .whereNull('m.removed_at')
    .first('m.company_id');
  return Boolean(taken);
}

/**
 * Closes the invitations to this address that are no longer open (expired, or their issuer may no longer grant them),
 * so they do not hold the address's one open invitation.
 */
export async function closeStaleInvitations(trx: Db, companyId: string, email: string, now: Date): Promise<void> {
  await trx('company_invitations')
    .where({ company_id: companyId, email })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .where((q) => q.where('expires_at', '<=', now).orWhereNot(issuerMayGrant(trx)))
    .update({ revoked_at: now });
}

export async function countOpenInvitations(db: Db, companyId: string, now: Date): Promise<number> {
  const [pending] = await open(db, companyId, now).count<{ n: string }[]>({ n: '*' });
  return Number(pending?.n ?? 0);
}

/** Inserts an invitation; null when the address has an open one already (one per address and company). */
export async function insertInvitation(
  trx: Db,
  input: { companyId: string; email: string; role: MemberRole; invitedBy: string; tokenHash: string; expiresAt: Date },
  now: Date,
): Promise<Invitation | null> {
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
  return inserted[0] ? toInvitation(inserted[0]) : null;
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

/** Revokes an open invitation; null when there is no such open invitation. */
export async function revokeOpenInvitation(
  db: Db,
  companyId: string,
  id: string,
  now: Date,
): Promise<Invitation | null> {
  const [row] = await open(db, companyId, now).where({ id }).update({ revoked_at: now }).returning('*');
  return row ? toInvitation(row) : null;
}

/** The invitation of a token digest, its row locked, with whether it was accepted or revoked already; null if none. */
export async function lockInvitationByToken(
  trx: Db,
  tokenHash: string,
): Promise<{ invitation: Invitation; closed: boolean } | null> {
  const row = await trx('company_invitations').where({ token_hash: tokenHash }).forUpdate().first();
  return row ? { invitation: toInvitation(row), closed: Boolean(row.accepted_at || row.revoked_at) } : null;
}

/** The role of an active member of the company, or null. */
export async function activeMemberRole(trx: Db, companyId: string, memberId: string): Promise<MemberRole | null> {
  const row = await trx('members').where({ id: memberId, company_id: companyId }).whereNull('removed_at').first('role');
  return row ? (row.role as MemberRole) : null;
}

export async function markInvitationAccepted(trx: Db, id: string, memberId: string, now: Date): Promise<void> {
  await trx('company_invitations').where({ id }).update({ accepted_at: now, member_id: memberId });
}

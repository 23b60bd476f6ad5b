import { DomainError } from './errors.js';

/** Processing-interface account rules (spec sections 5 and 8). */
export type MemberRole = 'member' | 'billing_admin';
/** Every role, from the one that may do least to the one that may do most (the order is their rank). */
export const MEMBER_ROLES: readonly MemberRole[] = ['member', 'billing_admin'];

export const LIMITS = {
  activeKeysPerCompany: 20,
  membersPerCompany: 20,
  /** /v1 webhooks per company, disabled ones included (deleted ones do not count); not in the spec, chosen to bound the list. */
  webhooksPerCompany: 20,
  /** Saved workflows per company, deleted ones not counted; not in the spec, chosen to bound the list. */
  savedWorkflowsPerCompany: 50,
  /** Credits granted once to every new company. */
  trialCredits: 1000n,
  /** Sources and results are kept this long (accounting records stay). */
  retentionDays: 7,
} as const;

/**
 * Whether a member holding `issuerRole` may grant `role` (by an invitation): never a role above their own (by their
 * rank in MEMBER_ROLES). An invitation is open only while its issuer is a member who may grant its role, so it outlives
 * neither its issuer's membership nor a lowering of their role.
 */
export const mayGrantRole = (issuerRole: MemberRole, role: MemberRole): boolean =>
  MEMBER_ROLES.indexOf(role) <= MEMBER_ROLES.indexOf(issuerRole);

export function parseRole(raw: string | undefined): MemberRole {
  if (raw === 'member' || raw === 'billing_admin') return raw;
  throw new DomainError('validation_failed', 'role must be member or billing_admin');
}

/** A normalised e-mail address (trimmed, lower-case), or a validation error. */
export function normalizeEmail(raw: string | undefined): string {
  const email = (raw ?? '').trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new DomainError('validation_failed', 'a valid e-mail address is required');
  return email;
}

export function companyName(raw: string | undefined): string {
  const name = (raw ?? '').trim();
  if (name.length < 1 || name.length > 120)
    throw new DomainError('validation_failed', 'company name must be 1 to 120 characters');
  return name;
}

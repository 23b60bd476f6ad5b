import { randomBytes } from 'node:crypto';
import { DomainError } from '../domain/errors.js';
import { emailSchema, passwordIssue } from '../domain/validation/integrations.js';
import { hashPassword } from '../adapters/crypto/password.js';
import type { Db } from '../db/connection.js';
import { findUserByEmail, setUserPassword } from '../db/repositories/merchant-users.repo.js';
import { createDashboardUser } from '../services/proof/account.js';
import { getCompany } from '../db/repositories/companies.repo.js';
import { addMember } from '../services/company/memberships.js';
import { findMemberCredential, setAccountPassword } from '../db/repositories/company-sessions.repo.js';
import { required } from './admin-commands.js';

type Flags = Record<string, string | undefined>;

/**
 * The password of a dashboard user: read from standard input (`--password-stdin`, never a command-line
 * argument, which other users of the machine can see), or generated and shown once.
 */
async function passwordFrom(
  flags: Flags,
  stdin: () => Promise<string>,
): Promise<{ password: string; generated: boolean }> {
  if (flags['password-stdin'] !== 'true') return { password: randomBytes(18).toString('base64url'), generated: true };
  const password = (await stdin()).replace(/\r?\n$/, '');
  const issue = passwordIssue(password);
  if (issue) throw new DomainError('validation_failed', issue);
  return { password, generated: false };
}

function emailOf(flags: Flags): string {
  const parsed = emailSchema.safeParse(required(flags['email'], '--email'));
  if (!parsed.success) throw new DomainError('validation_failed', '--email must be a valid e-mail address');
  return parsed.data;
}

/** `users:create`: a dashboard user of a merchant, who signs in at POST /api/integrations/session. */
export async function usersCreate(db: Db, flags: Flags, now: Date, stdin: () => Promise<string>) {
  const merchantId = required(flags['merchant'], '--merchant');
  const email = emailOf(flags);
  const { password, generated } = await passwordFrom(flags, stdin);
  const user = await createDashboardUser(db, { merchantId, email, passwordHash: await hashPassword(password) }, now);
  return {
    user: { id: user.id, merchant_id: user.merchantId, email: user.email, created_at: user.createdAt },
    ...(generated ? { password, notice: 'The generated password is shown once.' } : {}),
  };
}

/** `users:password`: sets a new password (ends every session of the user). */
export async function usersPassword(db: Db, flags: Flags, now: Date, stdin: () => Promise<string>) {
  const user = await findUserByEmail(db, emailOf(flags));
  if (!user) throw new DomainError('not_found', 'no such user');
  const { password, generated } = await passwordFrom(flags, stdin);
  await setUserPassword(db, user.id, await hashPassword(password), now);
  return {
    user: { id: user.id, email: user.email },
    sessions_ended: true,
    ...(generated ? { password, notice: 'The generated password is shown once.' } : {}),
  };
}

/**
 * `company-admins:create`: a billing administrator of a processing company who signs in at POST /api/company/session.
 * The address joins the company as a billing administrator (within the member limit) unless it is one already (the
 * owner `companies:create` made has no password until this command gives one); the password is generated and shown
 * once, or read from standard input.
 */
export async function companyAdminsCreate(db: Db, flags: Flags, now: Date, stdin: () => Promise<string>) {
  const company = await getCompany(db, required(flags['company'], '--company'));
  if (!company) throw new DomainError('not_found', 'no such company');
  const email = emailOf(flags);
  const { password, generated } = await passwordFrom(flags, stdin);
  const existing = await findMemberCredential(db, email);
  if (existing && existing.member.companyId !== company.id)
    throw new DomainError(
      'account_in_other_company',
      'this address belongs to another company (one company per account)',
    );
  if (existing && existing.member.role !== 'billing_admin')
    throw new DomainError(
      'validation_failed',
      'this address is an ordinary member of the company, not a billing administrator',
    );
  const member = existing
    ? { id: existing.member.memberId, accountId: existing.member.accountId }
    : await addMember(db, company.id, email, 'billing_admin');
  await setAccountPassword(db, member.accountId, await hashPassword(password), now);
  return {
    member: { id: member.id, company_id: company.id, email, role: 'billing_admin' },
    ...(generated ? { password, notice: 'The generated password is shown once.' } : {}),
  };
}

/** All of standard input as text (for `--password-stdin`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

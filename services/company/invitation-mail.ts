import { DomainError } from '../../domain/errors.js';
import type { Logger } from '../../adapters/logging/logger.js';
import { invitationMailContent } from '../../adapters/mail/invitation-message.js';
import { classifySmtpError, MailSendError, type Mailer } from '../../adapters/mail/smtp-mailer.js';
import type { Db } from '../../db/connection.js';
import type { Invitation } from '../../db/repositories/company-invitations.repo.js';
import { newSessionToken, sha256Hex } from '../../adapters/crypto/tokens.js';
import type { MemberRole } from '../../domain/accounts.js';
import { createInvitation, revokeInvitation } from './invitations.js';

/** The mail the API sends invitations with (SMTP_URL, MAIL_FROM); null when none is configured. */
export interface InvitationMail {
  mailer: Mailer;
  /** MAIL_FROM as configured. */
  from: string;
}

/** Seconds an administrator is told to wait after the mail server could not take an invitation. */
const MAIL_RETRY_AFTER_SECONDS = 60;

/** No mail configured: an invitation would have no way to its invitee but through the administrator. */
export function requireInvitationMail(mail: InvitationMail | null): InvitationMail {
  if (!mail) {
    throw new DomainError(
      'mail_unavailable',
      'Invitations are sent to the invited address by e-mail, and this server sends no e-mail (SMTP_URL is not set); ask the operator',
    );
  }
  return mail;
}

/**
 * POST /api/company/invitations: an invitation of `email` to the company, made under the company lock
 * (createInvitation: the member limit, an address already a member or invited) with a new token whose SHA-256 only is
 * stored, then e-mailed to the invited address (mailInvitation) and to nowhere else, not even the administrator.
 * Refused at once (503 `mail_unavailable`) when this server sends no e-mail.
 */
export async function inviteMember(
  deps: {
    db: Db;
    logger: Logger;
    mail: InvitationMail | null;
    now: Date;
    requestId: string | undefined;
    invitationTtlMs: number;
  },
  input: {
    companyId: string;
    email: string;
    role: MemberRole;
    inviter: { id: string; email: string };
    companyName: string;
    dashboardOrigin: string;
  },
): Promise<Invitation> {
  const mail = requireInvitationMail(deps.mail);
  const token = newSessionToken();
  const invitation = await createInvitation(
    deps.db,
    {
      companyId: input.companyId,
      email: input.email,
      role: input.role,
      invitedBy: input.inviter.id,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(deps.now.getTime() + deps.invitationTtlMs),
    },
    deps.now,
  );
  await mailInvitation(
    { ...deps, mail },
    {
      invitation,
      token,
      companyName: input.companyName,
      inviterEmail: input.inviter.email,
      dashboardOrigin: input.dashboardOrigin,
    },
  );
  return invitation;
}

/**
 * Sends a new invitation's token to the invited address: the e-mail is the only place the token is ever written, so
 * accepting the invitation proves control of the address. Sent while the request waits, so the administrator learns at
 * once whether the mail server took it. If it did not, the invitation is revoked (nobody holds its token) and the
 * request fails: 422 `invitation_undeliverable` when the server refused the address for good, else 503
 * `mail_unavailable` with Retry-After. Logs name the invitation and the SMTP outcome, never the address or the token.
 */
export async function mailInvitation(
  deps: { db: Db; logger: Logger; mail: InvitationMail; now: Date; requestId: string | undefined },
  input: { invitation: Invitation; token: string; companyName: string; inviterEmail: string; dashboardOrigin: string },
): Promise<void> {
  const { invitation } = input;
  const content = invitationMailContent({
    companyName: input.companyName,
    inviterEmail: input.inviterEmail,
    role: invitation.role,
    token: input.token,
    dashboardOrigin: input.dashboardOrigin,
    expiresAt: invitation.expiresAt,
  });
  try {
    const sent = await deps.mail.mailer.send({
      from: deps.mail.from,
      to: invitation.email,
      subject: content.subject,
      text: content.text,
      attachments: [],
    });
    deps.logger.info(
      { requestId: deps.requestId, invitationId: invitation.id, messageId: sent.messageId },
      'company invitation e-mailed',
    );
  } catch (e) {
    const failure = e instanceof MailSendError ? e : classifySmtpError(e);
    deps.logger.warn(
      {
        requestId: deps.requestId,
        invitationId: invitation.id,
        kind: failure.kind,
        code: failure.code,
        reason: failure.message,
      },
      'company invitation not e-mailed; revoked',
    );
    await revokeInvitation(deps.db, invitation.companyId, invitation.id, deps.now);
    if (failure.kind === 'permanent') {
      const message = `the mail server refused this address (${failure.code}); check it and invite again`;
      throw new DomainError('invitation_undeliverable', `The invitation could not be delivered: ${message}`, {
        issues: [{ path: 'email', message }],
      });
    }
    throw new DomainError(
      'mail_unavailable',
      `The invitation e-mail could not be sent right now (${failure.code}), so no invitation was made; try again later`,
      {
        retryAfterSeconds: MAIL_RETRY_AFTER_SECONDS,
      },
    );
  }
}

export interface InvitationMailFacts {
  companyName: string;
  /** The billing administrator who invited (their sign-in address). */
  inviterEmail: string;
  role: 'member' | 'billing_admin';
  /** The single-use token: this message is the only place it is ever written. */
  token: string;
  /** Origin of the dashboard (`https://app.example.com`): the link opens its acceptance page. */
  dashboardOrigin: string;
  expiresAt: Date;
}

/** Header values and interpolated names never carry line breaks or other control characters (no header injection). */
const oneLine = (s: string) =>
  s
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const ROLE_NAMES = { member: 'member', billing_admin: 'billing administrator' } as const;

/**
 * The dashboard page that accepts an invitation, with its token in the fragment: a browser never sends the fragment to
 * a server, so the token is in no request line, access log or Referer.
 */
export const acceptInvitationUrl = (dashboardOrigin: string, token: string) =>
  `${dashboardOrigin}/dashboard/accept-invitation#token=${token}`;

/** Subject and plain-text body of a company invitation: who invites to what, the link, and when it ends. */
export function invitationMailContent(f: InvitationMailFacts): { subject: string; text: string } {
  const company = oneLine(f.companyName).slice(0, 120);
  const lines = [
    'Hello,',
    '',
    `${oneLine(f.inviterEmail)} invited you to join ${company} as ${ROLE_NAMES[f.role]}.`,
    '',
    'To accept, open this link and choose a password:',
    acceptInvitationUrl(f.dashboardOrigin, f.token),
    '',
    `Invitation code: ${f.token}`,
    '(for POST /api/company/invitations/accept with a password, if you accept without the dashboard)',
    '',
    `The invitation can be used once, until ${f.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    'If you did not expect it, ignore this message: nothing happens unless the invitation is accepted.',
  ];
  return { subject: `You are invited to join ${company} on Paycore`, text: `${lines.join('\n')}\n` };
}

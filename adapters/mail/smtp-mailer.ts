import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';

/**
 * Outgoing e-mail behind a small interface. The real one speaks SMTP through nodemailer; failures come back as
 * a MailSendError that says whether trying again later may help (`temporary`) or not (`permanent`), and whose
 * message never holds the SMTP password or an e-mail address.
 */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; content: Buffer; contentType: string }[];
  /** Message-ID without brackets; stable per outbox row, so a rare re-send after a crash can be recognized. */
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string }>;
}

export type MailFailureKind = 'temporary' | 'permanent';

export class MailSendError extends Error {
  constructor(
    readonly kind: MailFailureKind,
    /** Stable and short: `smtp_550`, `smtp_451`, `connection_failed`, `timeout`, `auth_failed`, … */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MailSendError';
  }
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (smtps://); otherwise STARTTLS when offered (required off loopback with credentials). */
  secure: boolean;
  user?: string | undefined;
  password?: string | undefined;
  timeoutMs: number;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);
const isLoopback = (host: string) => LOOPBACK.has(host.toLowerCase()) || (isIP(host) === 4 && host.startsWith('127.'));

/**
 * The SMTP mailer: one connection per message (invoice mail is rare; no pool to hold open). Credentials never
 * cross a network in clear text: with a user on a non-loopback smtp:// host, STARTTLS is required. The
 * settings (and so the password) stay in this closure; nodemailer's own logger stays off.
 */
export function createSmtpMailer(settings: SmtpSettings): Mailer {
  // The password as sent by AUTH PLAIN and AUTH LOGIN, so it can be cut from any reply text that echoes it.
  const secrets = settings.password
    ? [
        settings.password,
        Buffer.from(settings.password).toString('base64'),
        Buffer.from(`\u0000${settings.user ?? ''}\u0000${settings.password}`).toString('base64'),
      ]
    : [];
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: !settings.secure && settings.user !== undefined && !isLoopback(settings.host),
    ...(settings.user !== undefined ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
    dnsTimeout: settings.timeoutMs,
    logger: false,
    debug: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(message) {
      try {
        const info = await transport.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          attachments: message.attachments.map((a) => ({
            filename: a.filename,
            content: a.content,
            contentType: a.contentType,
          })),
          ...(message.messageId ? { messageId: `<${message.messageId}>` } : {}),
        });
        return { messageId: String(info.messageId ?? '').replace(/^<|>$/g, '') };
      } catch (e) {
        throw classifySmtpError(e, secrets);
      }
    },
  };
}

const TEMPORARY_CODES: Record<string, string> = {
  ECONNECTION: 'connection_failed',
  ESOCKET: 'connection_failed',
  ECONNREFUSED: 'connection_failed',
  ECONNRESET: 'connection_failed',
  EHOSTUNREACH: 'connection_failed',
  ENETUNREACH: 'connection_failed',
  EDNS: 'dns_failed',
  ENOTFOUND: 'dns_failed',
  EAI_AGAIN: 'dns_failed',
  ETIMEDOUT: 'timeout',
  ETLS: 'tls_failed',
  EREQUIRETLS: 'tls_failed',
  EAUTH: 'auth_failed',
  ENOAUTH: 'auth_failed',
  EPROTOCOL: 'protocol_error',
};

/**
 * temporary: no SMTP reply (connection refused or reset, DNS, timeouts, TLS), a 4xx reply, 503, or a rejected
 * login (a configuration problem of ours, not of the message: it is fixed by the operator and the message
 * then goes out). permanent: a 5xx reply to the envelope or the message, e.g. 550 mailbox unavailable.
 */
export function classifySmtpError(e: unknown, secrets: readonly string[] = []): MailSendError {
  const err = (e ?? {}) as { code?: unknown; responseCode?: unknown; response?: unknown; message?: unknown };
  const code = typeof err.code === 'string' ? err.code : undefined;
  const reply = typeof err.responseCode === 'number' ? err.responseCode : undefined;
  const text = scrub(
    typeof err.response === 'string' ? err.response : typeof err.message === 'string' ? err.message : 'unknown error',
    secrets,
  );
  if (code === 'EAUTH' || code === 'ENOAUTH') {
    return new MailSendError(
      'temporary',
      'auth_failed',
      `SMTP login rejected${reply ? ` (${reply})` : ''}: check SMTP_URL`,
    );
  }
  if (reply !== undefined && reply >= 400) {
    const permanent = reply >= 500 && reply !== 503;
    return new MailSendError(permanent ? 'permanent' : 'temporary', `smtp_${reply}`, `SMTP server replied ${text}`);
  }
  const mapped = code ? TEMPORARY_CODES[code] : undefined;
  return new MailSendError(
    'temporary',
    mapped ?? 'send_failed',
    `SMTP send failed${code ? ` (${code})` : ''}: ${text}`,
  );
}

/** One line, at most 200 characters, without the secrets or any e-mail address (the buyer's stays private). */
function scrub(text: string, secrets: readonly string[]): string {
  let out = text.split(/\r?\n/)[0] ?? '';
  for (const s of secrets) out = out.split(s).join('[redacted]');
  out = out.replace(/[^\s<>"'@]+@[^\s<>"']+/g, '[address]');
  return out.length > 200 ? `${out.slice(0, 200)}…` : out;
}

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** One message the test SMTP server accepted. */
export interface ReceivedMail {
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/**
 * A real SMTP server on loopback (smtp-server) with a login, on an ephemeral port, keeping every message it accepts.
 * Recipients steer it: `temp-once+…@` answers 451 to the first DATA and accepts the next; `busy+…@` always answers
 * 451; `gone+…@` is refused at RCPT with 550. Everything else is accepted. `env` is what the app's configuration needs
 * to send through it (SMTP_URL with the login, MAIL_FROM).
 */
export async function startSmtpServer() {
  const user = 'mailer';
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const received: ReceivedMail[] = [];
  const dataAttempts = new Map<string, number>();
  const reply = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });
  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === password) cb(null, { user });
      else cb(reply(535, 'Authentication credentials invalid'));
    },
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith('gone+')) cb(reply(550, `5.1.1 <${address.address}>: mailbox unavailable`));
      else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const n = (dataAttempts.get(to[0]!) ?? 0) + 1;
        dataAttempts.set(to[0]!, n);
        if (to[0]!.startsWith('busy+') || (to[0]!.startsWith('temp-once+') && n === 1)) {
          cb(reply(451, '4.3.0 Temporary local problem, try again later'));
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            received.push({ to, raw, parsed });
            cb();
          })
          .catch((e: Error) => cb(e));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    user,
    password,
    received,
    dataAttempts,
    /** The configuration that sends through this server. */
    env: {
      SMTP_URL: `smtp://${user}:${password}@127.0.0.1:${port}`,
      MAIL_FROM: 'Paycore <no-reply@paycore.example>',
    } as Record<string, string>,
    to: (address: string) => received.filter((r) => r.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The invitation token of the newest message to `address` (the link's `#token=…`, or its "Invitation code" line):
 * what the invitee reads in their mailbox.
 */
export function invitationTokenIn(smtp: Pick<TestSmtpServer, 'to'>, address: string): string {
  const mail = smtp.to(address).at(-1);
  if (!mail) throw new Error(`no mail to ${address}`);
  const token =
    /#token=([A-Za-z0-9_-]{43})\b/.exec(mail.parsed.text ?? '')?.[1] ??
    /Invitation code: ([A-Za-z0-9_-]{43})\b/.exec(mail.parsed.text ?? '')?.[1];
  if (!token) throw new Error(`no invitation token in the mail to ${address}`);
  return token;
}

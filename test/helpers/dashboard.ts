import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../adapters/crypto/password.js';
import type { Db } from '../../db/connection.js';
import { createDashboardUser as createUser } from '../../services/proof/account.js';
import { createCompany } from '../../services/company/memberships.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { newIdem } from './proof.js';
import { invitationTokenIn, type TestSmtpServer } from './smtp-server.js';

export interface DashboardOptions {
  /** Origin header; null sends none. Default: the app's own origin. */
  origin?: string | null;
  /** X-CSRF-Token; null sends none. Default: the token of this client's session. */
  csrf?: string | null;
  /** Idempotency-Key; null sends none. Default: a fresh key on POST. */
  idem?: string | null;
  /** Cookie header; null sends none. Default: this client's session cookie. */
  cookie?: string | null;
  authorization?: string;
  headers?: Record<string, string>;
}

/** A dashboard user of a merchant, with a password of the platform's rule. */
export async function createDashboardUser(
  db: Db,
  merchantId: string,
): Promise<{ email: string; password: string; id: string }> {
  const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const user = await createUser(db, { merchantId, email, passwordHash: await hashPassword(password) }, new Date());
  return { email, password, id: user.id };
}

/** A processing company whose owner (a billing administrator) has a password: signs in at /api/company/session. */
export async function createCompanyAdmin(
  db: Db,
  name = 'Session Co',
): Promise<{ companyId: string; memberId: string; email: string; password: string }> {
  const email = `admin-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const { company, owner } = await createCompany(db, { name, ownerEmail: email });
  await setAccountPassword(db, owner.accountId, await hashPassword(password), new Date());
  return { companyId: company.id, memberId: owner.id, email, password };
}

/**
 * A browser-like client of a session interface (`/api/integrations` by default, `/api/company` with that prefix): it
 * keeps the session cookie and the CSRF token. `request` takes paths under the prefix, `requestAt` full paths.
 */
export class DashboardClient {
  cookie: string | null = null;
  csrf: string | null = null;
  readonly origin: string;

  constructor(
    readonly baseUrl: string,
    readonly prefix = '/api/integrations',
  ) {
    this.origin = new URL(baseUrl).origin;
  }

  async signIn(email: string, password: string, opts: DashboardOptions = {}): Promise<Response> {
    const res = await this.request('POST', '/session', { email, password }, { idem: null, csrf: null, ...opts });
    if (res.status === 201) {
      const setCookie = res.headers.get('set-cookie') ?? '';
      this.cookie = setCookie.split(';')[0]!;
      this.csrf = ((await res.clone().json()) as { csrf_token: string }).csrf_token;
    }
    return res;
  }

  request(method: string, path: string, body?: unknown, opts: DashboardOptions = {}): Promise<Response> {
    return this.requestAt(method, `${this.prefix}${path}`, body, opts);
  }

  requestAt(method: string, fullPath: string, body?: unknown, opts: DashboardOptions = {}): Promise<Response> {
    const origin = opts.origin === undefined ? this.origin : opts.origin;
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf;
    const idem = opts.idem === undefined ? (method === 'POST' ? newIdem() : null) : opts.idem;
    const cookie = opts.cookie === undefined ? this.cookie : opts.cookie;
    return fetch(`${this.baseUrl}${fullPath}`, {
      method,
      headers: {
        ...(origin ? { Origin: origin } : {}),
        ...(csrf ? { 'X-CSRF-Token': csrf } : {}),
        ...(idem ? { 'Idempotency-Key': idem } : {}),
        ...(cookie ? { Cookie: cookie } : {}),
        ...(opts.authorization ? { Authorization: opts.authorization } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }
}

/**
 * `admin` (a signed-in billing administrator's client) invites `email`; the invitee reads the token in the mail the app
 * sent to `smtp` and accepts it with `password`, as they would from the link. Returns the acceptance's answer.
 */
export async function inviteAndAccept(
  admin: DashboardClient,
  smtp: Pick<TestSmtpServer, 'to'>,
  email: string,
  password: string,
  role: 'member' | 'billing_admin' = 'member',
): Promise<Response> {
  const invited = await admin.request('POST', '/invitations', { email, role });
  if (invited.status !== 201)
    throw new Error(`invitation of ${email} refused: ${invited.status} ${await invited.text()}`);
  const token = invitationTokenIn(smtp, email);
  return new DashboardClient(admin.baseUrl, '/api/company').request(
    'POST',
    '/invitations/accept',
    { token, password },
    { csrf: null, idem: null, cookie: null },
  );
}

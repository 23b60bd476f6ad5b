import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksSendTest } from '../../cli/admin-commands.js';
import { createCompanyAdmin, createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { ProofHarness } from '../helpers/proof.js';

/**
 * Webhook destination URLs are normalised before the destination policy is checked, and stored as normalised, on every
 * path that takes one (docs/webhooks.md "Destination policy"): the merchant's `/api/integrations/webhooks`, the company's
 * `POST /v1/webhooks` and the operator's `webhooks:test` (either interface). Numeric host forms (hexadecimal, octal,
 * a decimal integer, short dotted forms, IPv4-mapped IPv6) all name one address; the stored URL names it once, the way
 * a delivery reaches it. With the loopback test flag the loopback receiver is accepted in any of its forms and stored as
 * `127.0.0.1`; without it every one of them is refused as an IP literal.
 */
const h = new ProofHarness();
let strict: Awaited<ReturnType<ProofHarness['startApp']>>;

beforeAll(async () => {
  await h.start();
  strict = await h.startApp({ WEBHOOK_TEST_ALLOW_LOOPBACK: 'false' });
});
afterAll(async () => {
  await strict?.close();
  await h.stop();
});

/** Forms of 127.0.0.1 port 9301 path /x, and what each must be stored as. */
const LOOPBACK_FORMS = [
  'http://0x7f000001:9301/x',
  'http://2130706433:9301/x',
  'http://0177.0.0.1:9301/x',
  'http://0x7f.1:9301/x',
  'http://127.1:9301/x',
  'http://%31%32%37.0.0.1:9301/x',
  'http://[::ffff:127.0.0.1]:9301/x',
  'http://[::ffff:7f00:1]:9301/x',
  'http://[0:0:0:0:0:ffff:7f00:1]:9301/x',
];
const STORED = 'http://127.0.0.1:9301/x';

/** Public-address forms that the strict policy must refuse as IP literals, whatever their spelling. */
const PUBLIC_IP_FORMS = [
  'https://0x08080808/x',
  'https://134744072/x',
  'https://010.010.010.010/x',
  'https://8.526344/x',
  'https://[::ffff:8.8.8.8]/x',
  'https://[::ffff:808:808]/x',
];

async function merchantDashboard(app = h.app): Promise<DashboardClient> {
  const m = await h.merchant({ plan: 'pro' });
  const u = await createDashboardUser(h.tdb.db, m.id);
  const dash = new DashboardClient(app.url);
  expect((await dash.signIn(u.email, u.password)).status).toBe(201);
  return dash;
}

async function companyDashboard(app = h.app): Promise<DashboardClient> {
  const admin = await createCompanyAdmin(h.tdb.db, `Hooks Co ${Math.random().toString(36).slice(2, 8)}`);
  const dash = new DashboardClient(app.url, '/api/company');
  expect((await dash.signIn(admin.email, admin.password, { idem: null })).status).toBe(201);
  return dash;
}

async function json<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const storedUrl = async (id: string) => (await h.tdb.db('webhook_endpoints').where({ id }).first('url')).url as string;

describe('numeric host forms are normalised before the policy check and stored normalised', () => {
  it('/api/integrations/webhooks (a merchant)', async () => {
    const dash = await merchantDashboard();
    for (const url of LOOPBACK_FORMS) {
      const created = await json<{ id: string; url: string }>(
        await dash.request('POST', '/webhooks', { url, events: ['payment.confirmed'] }),
        201,
      );
      expect({ url, answered: created.url, stored: await storedUrl(created.id) }).toEqual({
        url,
        answered: STORED,
        stored: STORED,
      });
      await json(await dash.request('POST', `/webhooks/${created.id}/delete`, {}), 200);
    }
    const strictDash = await merchantDashboard(strict);
    for (const url of [...LOOPBACK_FORMS, ...PUBLIC_IP_FORMS]) {
      const refused = await json<{ code: string; issues: Array<{ path: string; message: string }> }>(
        await strictDash.request('POST', '/webhooks', { url, events: ['payment.confirmed'] }),
        422,
      );
      expect({ url, code: refused.code, path: refused.issues[0]?.path }).toEqual({
        url,
        code: 'validation_failed',
        path: 'url',
      });
    }
  });

  it("POST /v1/webhooks (a company's billing administrator)", async () => {
    const dash = await companyDashboard();
    for (const url of LOOPBACK_FORMS.slice(0, 2).concat(LOOPBACK_FORMS.slice(-2))) {
      const created = await json<{ id: string; url: string }>(
        await dash.requestAt('POST', '/v1/webhooks', { url }),
        201,
      );
      expect({ url, answered: created.url, stored: await storedUrl(created.id) }).toEqual({
        url,
        answered: STORED,
        stored: STORED,
      });
    }
    const strictDash = await companyDashboard(strict);
    for (const url of [LOOPBACK_FORMS[0]!, LOOPBACK_FORMS[6]!, ...PUBLIC_IP_FORMS]) {
      const refused = await json<{ code: string; detail: string }>(
        await strictDash.requestAt('POST', '/v1/webhooks', { url }),
        422,
      );
      expect({ url, code: refused.code }).toEqual({ url, code: 'validation_failed' });
    }
  });

  it("the operator's webhooks:test, for /proof and /v1 destinations", async () => {
    for (const iface of ['proof', 'v1']) {
      for (const url of [LOOPBACK_FORMS[0]!, LOOPBACK_FORMS[7]!]) {
        const sent = await webhooksSendTest(
          h.tdb.db,
          h.secretBox,
          { interface: iface, url, tenant: 'operator' },
          new Date(),
          { allowLoopbackForTests: true },
        );
        expect({ iface, url, stored: await storedUrl(sent.endpoint_id) }).toEqual({ iface, url, stored: STORED });
      }
      for (const url of ['https://0x7f000001/x', 'https://[::ffff:7f00:1]/x', PUBLIC_IP_FORMS[4]!]) {
        await expect(
          webhooksSendTest(h.tdb.db, h.secretBox, { interface: iface, url }, new Date(), {
            allowLoopbackForTests: false,
          }),
        ).rejects.toThrow(/IP address/);
      }
    }
  });

  it('a DNS name is stored in its canonical form too (lower case, punycode, the path that is sent)', async () => {
    const dash = await merchantDashboard();
    const created = await json<{ id: string; url: string }>(
      await dash.request('POST', '/webhooks', {
        url: 'https://Hooks.EXAMPLE.com:443/Proof',
        events: ['payment.confirmed'],
      }),
      201,
    );
    expect(created.url).toBe('https://hooks.example.com/Proof');
    expect(await storedUrl(created.id)).toBe('https://hooks.example.com/Proof');
  });
});

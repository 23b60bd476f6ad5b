import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/schema.js';
import { postWithPolicy, type DnsResolver } from '../../adapters/webhooks/http-delivery.js';
import { createCompanyAdmin, createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { ProofHarness } from '../helpers/proof.js';
import { startReceiver } from '../helpers/receiver.js';

/**
 * WEBHOOK_PRIVATE_DESTINATIONS (docs/webhooks.md "Private destinations"): an operator names the exact origins of
 * on-premise receivers (scheme, private IP address, port) that deliveries may reach beside the public destination
 * policy. Off by default: the default policy still refuses every private destination. With the list set, only the
 * origins it names are admitted (at registration on every path, and on every delivery attempt); the same address on
 * another port or scheme, another private address, and a DNS name that resolves to the named address are all still
 * refused. Against the real app with a real receiver on this machine, the loopback test flag off.
 */
const h = new ProofHarness();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let origin: string;
let port: number;
let strict: Awaited<ReturnType<ProofHarness['startApp']>>;
let onPremise: Awaited<ReturnType<ProofHarness['startApp']>>;

beforeAll(async () => {
  await h.start();
  receiver = await startReceiver();
  origin = new URL(receiver.url).origin;
  port = Number(new URL(receiver.url).port);
  strict = await h.startApp({ WEBHOOK_TEST_ALLOW_LOOPBACK: 'false' });
  onPremise = await h.startApp({ WEBHOOK_TEST_ALLOW_LOOPBACK: 'false', WEBHOOK_PRIVATE_DESTINATIONS: origin });
});
afterAll(async () => {
  await strict?.close();
  await onPremise?.close();
  await receiver?.close();
  await h.stop();
});

async function merchantDashboard(url: string): Promise<DashboardClient> {
  const m = await h.merchant({ plan: 'pro' });
  const u = await createDashboardUser(h.tdb.db, m.id);
  const dash = new DashboardClient(url);
  expect((await dash.signIn(u.email, u.password)).status).toBe(201);
  return dash;
}

async function companyDashboard(url: string): Promise<DashboardClient> {
  const admin = await createCompanyAdmin(h.tdb.db, `Hooks Co ${Math.random().toString(36).slice(2, 8)}`);
  const dash = new DashboardClient(url, '/api/company');
  expect((await dash.signIn(admin.email, admin.password, { idem: null })).status).toBe(201);
  return dash;
}

const register = (dash: DashboardClient, url: string) =>
  dash.request('POST', '/webhooks', { url, events: ['payment.confirmed'] });
const registerV1 = (dash: DashboardClient, url: string) => dash.requestAt('POST', '/v1/webhooks', { url });

/** URLs near the named origin that the list does not name. */
const notNamed = () => [
  `http://127.0.0.1:${port + 1}/hooks`,
  `https://127.0.0.1:${port}/hooks`,
  `http://127.0.0.2:${port}/hooks`,
  `http://10.0.0.1:${port}/hooks`,
  `http://localhost:${port}/hooks`,
];

describe('registration', () => {
  it('the default policy refuses the on-premise receiver on both interfaces', async () => {
    const merchant = await merchantDashboard(strict.url);
    const company = await companyDashboard(strict.url);
    const a = await register(merchant, receiver.url);
    expect(a.status, await a.text()).toBe(422);
    const b = await registerV1(company, receiver.url);
    expect(b.status, await b.text()).toBe(422);
  });

  it('with the list, the named origin is admitted on both interfaces, any path, and nothing else is', async () => {
    const merchant = await merchantDashboard(onPremise.url);
    const company = await companyDashboard(onPremise.url);
    for (const url of [receiver.url, `${origin}/other/path`]) {
      const a = await register(merchant, url);
      expect(a.status, `${url}: ${await a.text()}`).toBe(201);
      const b = await registerV1(company, url);
      expect(b.status, `${url}: ${await b.text()}`).toBe(201);
    }
    for (const url of notNamed()) {
      const a = await register(merchant, url);
      expect(a.status, `${url}: ${await a.text()}`).toBe(422);
      const b = await registerV1(company, url);
      expect(b.status, `${url}: ${await b.text()}`).toBe(422);
    }
    // The public policy is unchanged beside it.
    const pub = await register(merchant, 'https://hooks.example.com/paycore');
    expect(pub.status, await pub.text()).toBe(201);
  });
});

describe('delivery attempts', () => {
  const resolver: DnsResolver = { resolveAll: () => Promise.resolve(['127.0.0.1']) };
  const send = (url: string, privateDestinations?: string[]) =>
    postWithPolicy(url, { 'content-type': 'application/json' }, Buffer.from('{"n":1}'), {
      resolver,
      allowLoopbackForTests: false,
      ...(privateDestinations ? { privateDestinations } : {}),
    });

  it('reach the named origin only when the list names it', async () => {
    const before = receiver.requests.length;
    const refused = await send(receiver.url);
    expect(refused.errorClass).toBe('policy_rejected');
    expect(receiver.requests.length).toBe(before);

    const sent = await send(receiver.url, [origin]);
    expect(sent).toMatchObject({ statusCode: 200, errorClass: null, address: '127.0.0.1' });
    expect(receiver.requests.length).toBe(before + 1);
  });

  it('refuse what the list does not name, and a DNS name resolving to the named address', async () => {
    const before = receiver.requests.length;
    for (const url of notNamed()) expect((await send(url, [origin])).errorClass, url).toBe('policy_rejected');
    expect((await send('https://hooks.example.com/hooks', [origin])).errorClass).toBe('policy_dns_non_public');
    expect(receiver.requests.length).toBe(before);
  });
});

describe('the setting', () => {
  const production = {
    NODE_ENV: 'production',
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    PUBLIC_BASE_URL: 'https://pay.example.com',
  };

  it('is empty by default and accepted in production, normalised to origins', () => {
    expect(loadConfig(production).webhooks.privateDestinations).toEqual([]);
    const config = loadConfig({
      ...production,
      WEBHOOK_PRIVATE_DESTINATIONS: ' https://10.20.0.5:8443 , http://[fd00::5]:8080/ ,http://192.168.1.9 ',
    });
    expect(config.webhooks.privateDestinations).toEqual([
      'https://10.20.0.5:8443',
      'http://[fd00::5]:8080',
      'http://192.168.1.9',
    ]);
  });

  it('refuses anything but the origin of a private address', () => {
    for (const entry of [
      'https://8.8.8.8', // public: a public receiver uses a DNS name
      'http://169.254.169.254', // link-local: cloud metadata
      'http://0.0.0.0:80',
      'http://[fe80::1]:80',
      'http://hooks.corp.internal:8080', // a name: its answers can change
      'http://10.0.0.5:8080/hooks', // a path: the entry is an origin
      'http://user@10.0.0.5:8080',
      'ftp://10.0.0.5',
      '10.0.0.0/8',
    ])
      expect(() => loadConfig({ ...production, WEBHOOK_PRIVATE_DESTINATIONS: entry }), entry).toThrow(
        /WEBHOOK_PRIVATE_DESTINATIONS/,
      );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { routesOf } from '../../api/http/router.js';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { Conformance, expectSoundDocument, expectSoundOperations, type Obj } from '../helpers/openapi-conformance.js';
import { newIdem, ProofHarness, type TestMerchant } from '../helpers/proof.js';

/**
 * The OpenAPI document of the merchant dashboard's session routes (`/api/integrations/openapi.json`): sound, its
 * operations exactly the routes the app serves under /api/integrations, and real answers of every operation (and the
 * usual refusals) conform to it. schemathesis fuzzes it with the others (openapi-fuzz.test.ts).
 */
const h = new ProofHarness();
const PLATFORM = '0x52908400098527886E0F7030069857D2E4169EE7';
let doc: Obj;
let c: Conformance;
let m: TestMerchant;
let dash: DashboardClient;

beforeAll(async () => {
  await h.start({ PLATFORM_RECEIVING_WALLETS: `base:${PLATFORM}` }, { workflows: true });
  await h.startMailWorker();
  doc = (await (await fetch(`${h.app.url}/api/integrations/openapi.json`)).json()) as Obj;
  c = new Conformance(doc);
  m = await h.merchant({ plan: 'business', webhook: true });
  const u = await createDashboardUser(h.tdb.db, m.id);
  dash = new DashboardClient(h.app.url);
  await c.check('POST /api/integrations/session', await dash.signIn(u.email, u.password));
});
afterAll(() => h.stop());

const documented = () =>
  Object.entries(doc['paths'] as Record<string, Obj>).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('the /api/integrations OpenAPI document', () => {
  it('is sound, with a page, and documents exactly the routes the app serves there', async () => {
    expectSoundDocument(c, doc, 40);
    expect(
      expectSoundOperations(c, doc, [
        { section: 'paths', keyPattern: /^\/api\/integrations/, statusPattern: /^[1-5]\d\d$/ },
      ]),
    ).toBeGreaterThan(25);
    const page = await fetch(`${h.app.url}/api/integrations/docs`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('/wallets/verify');
    const served = routesOf(h.app.app)
      .filter((r) => r.iface === 'integrations')
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\/$/, '')}`);
    expect([...new Set(served)].sort()).toEqual(documented().sort());
  });

  it('real answers of every operation conform to it', async () => {
    const get = (path: string) => dash.request('GET', path);
    const post = (path: string, body: unknown = {}, opts = {}) => dash.request('POST', path, body, opts);
    await c.check('GET /api/integrations/session', await get('/session'));
    await c.check('GET /api/integrations', await get(''));
    await c.check('GET /api/integrations/plan', await get('/plan'));
    const purchase = (await c.check(
      'POST /api/integrations/plan/purchases',
      await post('/plan/purchases', {
        plan: 'business',
        network: 'base',
        payer: privateKeyToAccount(generatePrivateKey()).address,
      }),
    )) as { id: string };
    await c.check(
      'POST /api/integrations/plan/purchases',
      await post('/plan/purchases', {
        plan: 'pro',
        network: 'solana',
        payer: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
      }),
    );
    await c.check('POST /api/integrations/plan/purchases', await post('/plan/purchases', { plan: 'pro' }));
    await c.check('GET /api/integrations/plan/purchases', await get('/plan/purchases?limit=1'));
    await c.check('GET /api/integrations/plan/purchases/{id}', await get(`/plan/purchases/${purchase.id}`));
    await c.check('GET /api/integrations/plan/purchases/{id}', await get('/plan/purchases/pur_AAAAAAAAAAAAAAAAAAAA'));

    const account = privateKeyToAccount(generatePrivateKey());
    const challenge = (await c.check(
      'POST /api/integrations/wallets/challenges',
      await post('/wallets/challenges', { network: 'base', address: account.address, label: 'Main' }),
    )) as { id: string; message: string };
    await c.check(
      'POST /api/integrations/wallets/verify',
      await post('/wallets/verify', { challenge_id: challenge.id, signature: '0x12' }),
    );
    await c.check(
      'POST /api/integrations/wallets/verify',
      await post('/wallets/verify', {
        challenge_id: challenge.id,
        signature: await account.signMessage({ message: challenge.message }),
      }),
    );
    await c.check(
      'POST /api/integrations/wallets/verify',
      await post('/wallets/verify', {
        challenge_id: challenge.id,
        signature: await account.signMessage({ message: challenge.message }),
      }),
    );
    await c.check('GET /api/integrations/wallets', await get('/wallets'));

    const key = (await c.check(
      'POST /api/integrations/keys',
      await post('/keys', { name: 'doc test', scopes: ['read'] }),
    )) as { id: string };
    await c.check('POST /api/integrations/keys/{id}/revoke', await post(`/keys/${key.id}/revoke`));
    const hook = (await c.check(
      'POST /api/integrations/webhooks',
      await post('/webhooks', { url: 'https://hooks.example.com/doc', events: ['payment.confirmed'] }),
    )) as { id: string };
    await c.check('POST /api/integrations/webhooks/{id}/rotate', await post(`/webhooks/${hook.id}/rotate`));
    await c.check('POST /api/integrations/webhooks/{id}/disable', await post(`/webhooks/${hook.id}/disable`));
    await c.check('POST /api/integrations/webhooks/{id}/delete', await post(`/webhooks/${hook.id}/delete`));

    const request = (await c.check(
      'POST /api/integrations/requests',
      await post('/requests', { wallet_id: m.wallets['base'], amount_usdc: '3', description: 'Documented request' }),
    )) as { id: string };
    await c.check(
      'POST /api/integrations/requests',
      await post('/requests', {
        wallet_id: 'wal_AAAAAAAAAAAAAAAAAAAA',
        amount_usdc: '3',
        description: 'Unknown wallet',
      }),
    );
    await c.check('GET /api/integrations/requests', await get('/requests?status=AWAITING&limit=1'));
    await c.check('GET /api/integrations/requests', await get('/requests?status=nope'));
    await c.check('GET /api/integrations/requests/{id}', await get(`/requests/${request.id}`));
    await c.check('GET /api/integrations/reviews', await get('/reviews'));
    const contact = (await c.check(
      'POST /api/integrations/contacts',
      await post('/contacts', { legal_name: 'Doc Buyer', email: 'doc@buyer.example' }),
    )) as { id: string };
    await c.check('GET /api/integrations/contacts', await get('/contacts'));
    await c.check('GET /api/integrations/contacts/{id}', await get(`/contacts/${contact.id}`));
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const invoice = (await c.check(
      'POST /api/integrations/invoices',
      await post('/invoices', {
        customer_id: contact.id,
        wallet_id: m.wallets['base'],
        due_date: due,
        items: [{ description: 'Work', quantity: '1', unit_usdc: '5' }],
      }),
    )) as { id: string };
    await c.check('GET /api/integrations/invoices', await get('/invoices'));
    await c.check('GET /api/integrations/invoices/{id}', await get(`/invoices/${invoice.id}`));
    await c.check('GET /api/integrations/invoices/{id}/document', await get(`/invoices/${invoice.id}/document`));
    await c.check(
      'GET /api/integrations/invoices/{id}/document',
      await get('/invoices/inv_AAAAAAAAAAAAAAAAAAAA/document'),
    );
    await c.check(
      'POST /api/integrations/invoices/{id}/void',
      await post(`/invoices/${invoice.id}/void`, { reason: 'x'.repeat(501) }),
    );
    await c.check(
      'POST /api/integrations/invoices/{id}/void',
      await post(`/invoices/${invoice.id}/void`, { reason: 'Wrong buyer' }),
    );
    await c.check('GET /api/integrations/events', await get('/events?after=0'));
    await c.check('GET /api/integrations/events', await get('/events?after=-1'));
    await c.check('GET /api/integrations/deliveries', await get('/deliveries?limit=1'));
    const [delivery] = await h.tdb.db('webhook_deliveries').where({ tenant_id: m.id }).select('id');
    await c.check('GET /api/integrations/deliveries/{id}', await get(`/deliveries/${delivery.id}`));
    await c.check('POST /api/integrations/deliveries/{id}/retry', await post(`/deliveries/${delivery.id}/retry`));
    // Refusals: no session, no CSRF token, an Authorization header, no Idempotency-Key, a replay, a key conflict.
    await c.check('GET /api/integrations/plan', await dash.request('GET', '/plan', undefined, { cookie: null }));
    await c.check('POST /api/integrations/keys', await post('/keys', { name: 'x', scopes: ['read'] }, { csrf: null }));
    await c.check(
      'GET /api/integrations/wallets',
      await dash.request('GET', '/wallets', undefined, { authorization: 'Bearer skp_x' }),
    );
    await c.check(
      'POST /api/integrations/contacts',
      await post('/contacts', { legal_name: 'No key', email: 'n@k.example' }, { idem: null }),
    );
    const idem = newIdem();
    await c.check(
      'POST /api/integrations/contacts',
      await post('/contacts', { legal_name: 'Once', email: 'o@k.example' }, { idem }),
    );
    await c.check(
      'POST /api/integrations/contacts',
      await post('/contacts', { legal_name: 'Once', email: 'o@k.example' }, { idem }),
    );
    await c.check(
      'POST /api/integrations/contacts',
      await post('/contacts', { legal_name: 'Twice', email: 'o@k.example' }, { idem }),
    );
    await c.check('GET /api/integrations/openapi.json', await fetch(`${h.app.url}/api/integrations/openapi.json`));
    await c.check('GET /api/integrations/docs', await fetch(`${h.app.url}/api/integrations/docs`));
    await c.check('DELETE /api/integrations/session', await dash.request('DELETE', '/session'));
    // Every operation answered at least once.
    const answered = new Set([...c.covered].map((k) => k.split(' ').slice(0, 2).join(' ')));
    expect(documented().filter((op) => !answered.has(op))).toEqual([]);
  });
});

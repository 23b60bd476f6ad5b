import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMerchantStatus } from '../../db/repositories/merchants.repo.js';
import { Conformance, type Obj } from '../helpers/openapi-conformance.js';
import { ADDRESSES, ProofHarness, type TestMerchant } from '../helpers/proof.js';

/**
 * Validation of /proof/v1 bodies as a client meets it (issue 12, section 1): invoice due dates against the
 * plan's longest payment window, the largest amounts, `expected_payer` as a real wallet address, `null` where
 * responses show `null`, and the payment page of a suspended account. The real app on real PostgreSQL.
 */

const h = new ProofHarness();
let c: Conformance;
/** One instant for the whole file: the app's clock stands still on it, so due dates and windows cannot drift. */
const NOW = new Date();
const HOUR = 3_600_000;
type App = typeof h.app;
let app: App;

type Issues = { code: string; issues?: Array<{ path: string; message: string }> };

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const nextDay = (date: string) => dateOf(Date.parse(`${date}T00:00:00Z`) + 24 * HOUR);
/** The last due date whose end (23:59:59 UTC) lies within `hours` of NOW. */
const latestDue = (hours: number) => dateOf(NOW.getTime() + hours * HOUR - 86_399_000);

const post = (m: TestMerchant, path: string, body: unknown) => h.call(m.key, 'POST', path, body, undefined, app);
async function refused(res: Response | Promise<Response>, path: string): Promise<Issues> {
  const r = await res;
  const json = (await r.json()) as Issues;
  expect(r.status, JSON.stringify(json)).toBe(422);
  expect(json.code).toBe('validation_failed');
  expect(
    json.issues?.map((i) => i.path),
    JSON.stringify(json),
  ).toContain(path);
  return json;
}
const contact = async (m: TestMerchant) =>
  (await h.ok<{ id: string }>(post(m, '/v1/contacts', { legal_name: 'Buyer GmbH', email: 'ap@buyer.example' }), 201))
    .id;
const requestBody = (m: TestMerchant, extra: Obj = {}) => ({
  wallet_id: m.wallets['base'],
  amount_usdc: '12.5',
  description: 'Consulting, November',
  ...extra,
});

beforeAll(async () => {
  await h.start();
  app = await h.startApp({}, { now: () => NOW });
  c = new Conformance((await (await fetch(`${h.app.url}/proof/openapi.json`)).json()) as Obj);
});
afterAll(async () => {
  await app?.close();
  await h.stop();
});

describe("an invoice's due date and its payment request", () => {
  for (const [plan, hours] of [
    ['trial', 72],
    ['business', 720],
  ] as const) {
    it(`${plan}: the request stays open to the end of the due date; a due date past ${hours} hours is 422 naming due_date`, async () => {
      const m = plan === 'trial' ? await h.merchant() : await h.merchant({ plan });
      const customer = await contact(m);
      const invoice = (due: string) => ({
        customer_id: customer,
        wallet_id: m.wallets['base'],
        due_date: due,
        items: [{ description: 'Work', quantity: '1', unit_usdc: '10' }],
      });

      const last = latestDue(hours);
      const inv = await h.ok<{ request_id: string; due_date: string }>(post(m, '/v1/invoices', invoice(last)), 201);
      const req = await h.ok<{ expires_at: string; valid_hours: number }>(
        h.call(m.key, 'GET', `/v1/requests/${inv.request_id}`, undefined, null, app),
      );
      expect(Date.parse(req.expires_at)).toBeGreaterThanOrEqual(Date.parse(`${last}T23:59:59Z`));
      expect(req.valid_hours).toBeLessThanOrEqual(hours);

      const today = await h.ok<{ request_id: string }>(post(m, '/v1/invoices', invoice(dateOf(NOW.getTime()))), 201);
      const short = await h.ok<{ expires_at: string }>(
        h.call(m.key, 'GET', `/v1/requests/${today.request_id}`, undefined, null, app),
      );
      expect(Date.parse(short.expires_at)).toBeGreaterThanOrEqual(Date.parse(`${dateOf(NOW.getTime())}T23:59:59Z`));

      const before = await h.tdb.db('invoices').where({ merchant_id: m.id }).count<[{ count: string }]>('* as count');
      const tooLate = await refused(post(m, '/v1/invoices', invoice(nextDay(last))), 'due_date');
      expect(tooLate.issues!.find((i) => i.path === 'due_date')!.message).toContain(last);
      expect(await h.tdb.db('invoices').where({ merchant_id: m.id }).count<[{ count: string }]>('* as count')).toEqual(
        before,
      );
    });
  }
});

describe('the largest amounts', () => {
  const MAX = '10000000000000000';
  const usdcPattern = /^[0-9]{1,17}\.[0-9]{6}$/;

  it('a payment request of the maximum is answered within the documented grammar; one atomic unit more is 422 naming amount_usdc', async () => {
    const m = await h.merchant({ plan: 'pro' });
    for (const amount of [MAX, `${MAX}.000000`]) {
      const res = await post(m, '/v1/requests', requestBody(m, { amount_usdc: amount }));
      const r = await created('POST /proof/v1/requests', res);
      expect(r['quoted_amount_atomic']).toBe(`${MAX}000000`);
      expect(String(r['amount_usdc'])).toMatch(usdcPattern);
    }
    for (const amount of [`${MAX}.000001`, '10000000000000001', '99999999999999999.999999']) {
      await refused(post(m, '/v1/requests', requestBody(m, { amount_usdc: amount })), 'amount_usdc');
    }
    // The whole list still conforms to the document (a request beyond the grammar once broke it).
    await c.check('GET /proof/v1/requests', await h.call(m.key, 'GET', '/v1/requests', undefined, null, app));
  });

  it('invoices: unit prices, fixed tax and the total are bounded by the same maximum, each named', async () => {
    const m = await h.merchant({ plan: 'pro' });
    const customer = await contact(m);
    const invoice = (extra: Obj) => ({
      customer_id: customer,
      wallet_id: m.wallets['base'],
      due_date: dateOf(NOW.getTime() + 24 * HOUR),
      items: [{ description: 'Work', quantity: '1', unit_usdc: MAX }],
      ...extra,
    });
    const inv = await created('POST /proof/v1/invoices', await post(m, '/v1/invoices', invoice({})));
    expect(inv).toMatchObject({ total_usdc: `${MAX}.000000`, total_atomic: `${MAX}000000` });
    const half = '5000000000000000';
    await created(
      'POST /proof/v1/invoices',
      await post(
        m,
        '/v1/invoices',
        invoice({ items: [{ description: 'a', quantity: '1', unit_usdc: half }], tax_mode: 'fixed', tax_usdc: half }),
      ),
    );

    await refused(
      post(
        m,
        '/v1/invoices',
        invoice({ items: [{ description: 'Work', quantity: '0.5', unit_usdc: `${MAX}.000001` }] }),
      ),
      'items.0.unit_usdc',
    );
    await refused(post(m, '/v1/invoices', invoice({ tax_mode: 'fixed', tax_usdc: `${MAX}.000001` })), 'tax_usdc');
    await refused(
      post(
        m,
        '/v1/invoices',
        invoice({
          items: [
            { description: 'a', quantity: '1', unit_usdc: MAX },
            { description: 'b', quantity: '1', unit_usdc: '0.000001' },
          ],
        }),
      ),
      'items',
    );
    await refused(
      post(
        m,
        '/v1/invoices',
        invoice({
          items: [{ description: 'a', quantity: '2', unit_usdc: half }],
          tax_mode: 'exclusive',
          tax_rate: '0.0001',
        }),
      ),
      'items',
    );
    await refused(post(m, '/v1/invoices', invoice({ tax_mode: 'fixed', tax_usdc: '0.000001' })), 'items');
    await c.check('GET /proof/v1/invoices', await h.call(m.key, 'GET', '/v1/invoices', undefined, null, app));
    await c.check('GET /proof/v1/requests', await h.call(m.key, 'GET', '/v1/requests', undefined, null, app));
  });
});

describe('expected_payer is a wallet address of the network', () => {
  // A fixed address and its EIP-55 form; one letter's case flipped breaks the checksum.
  const lower = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
  const checksummed = getAddress(lower);
  const flipped = checksummed.replace(/[a-f]/, (ch) => ch.toUpperCase());

  it('EVM: all-lowercase, all-uppercase and checksummed addresses are accepted; a bad checksum or the zero address is 422', async () => {
    const m = await h.merchant({ plan: 'business', networks: ['base', 'solana'] });
    expect(checksummed).not.toBe(lower);
    expect(flipped).not.toBe(checksummed);
    for (const payer of [lower, checksummed, `0x${lower.slice(2).toUpperCase()}`]) {
      const r = await h.ok<{ expected_payer: string }>(
        post(m, '/v1/requests', requestBody(m, { expected_payer: payer })),
        201,
      );
      expect(r.expected_payer).toBe(payer);
    }
    for (const payer of [
      flipped,
      '0x0000000000000000000000000000000000000000',
      `0X${lower.slice(2)}`,
      lower.slice(0, 41),
    ]) {
      await refused(post(m, '/v1/requests', requestBody(m, { expected_payer: payer })), 'expected_payer');
    }
  });

  it('Solana: a base58 public key of 32 bytes other than the all-zero key', async () => {
    const m = await h.merchant({ plan: 'business', networks: ['base', 'solana'] });
    const sol = (payer: string) => requestBody(m, { wallet_id: m.wallets['solana'], expected_payer: payer });
    await h.ok(post(m, '/v1/requests', sol(ADDRESSES.solana)), 201);
    for (const payer of [
      '11111111111111111111111111111111',
      checksummed,
      'z'.repeat(44),
      'O0000000000000000000000000000000',
    ]) {
      await refused(post(m, '/v1/requests', sol(payer)), 'expected_payer');
    }
  });
});

describe('null where responses show null', () => {
  it('payment requests: customer_label and expected_payer', async () => {
    const m = await h.merchant({ plan: 'business' });
    const res = await post(m, '/v1/requests', requestBody(m, { customer_label: null, expected_payer: null }));
    expect(await created('POST /proof/v1/requests', res)).toMatchObject({ customer_label: null, expected_payer: null });
  });

  it('contacts: address and reference', async () => {
    const m = await h.merchant({ plan: 'business' });
    const res = await post(m, '/v1/contacts', {
      legal_name: 'Buyer GmbH',
      email: 'ap@buyer.example',
      address: null,
      reference: null,
    });
    expect(await created('POST /proof/v1/contacts', res)).toMatchObject({ address: null, reference: null });
  });

  it('invoices: tax_rate, tax_notes, accounting and memo; a rate its mode needs is still required', async () => {
    const m = await h.merchant({ plan: 'business' });
    const customer = await contact(m);
    const body = {
      customer_id: customer,
      wallet_id: m.wallets['base'],
      due_date: dateOf(NOW.getTime() + 24 * HOUR),
      items: [{ description: 'Work', quantity: '1', unit_usdc: '10' }],
    };
    const res = await post(m, '/v1/invoices', {
      ...body,
      tax_rate: null,
      tax_notes: null,
      accounting: null,
      memo: null,
    });
    const inv = await created('POST /proof/v1/invoices', res);
    expect(inv).toMatchObject({ tax_mode: 'none', tax_rate: null, tax_notes: null, accounting: null, memo: null });
    // An invoice read back and sent again as a body (its response fields that are inputs) is accepted.
    const echoed = {
      ...body,
      tax_mode: inv['tax_mode'],
      tax_rate: inv['tax_rate'],
      tax_notes: inv['tax_notes'],
      accounting: inv['accounting'],
      memo: inv['memo'],
    };
    await h.ok(post(m, '/v1/invoices', echoed), 201);
    await refused(post(m, '/v1/invoices', { ...body, tax_mode: 'exclusive', tax_rate: null }), 'tax_rate');
    await refused(post(m, '/v1/invoices', { ...body, tax_mode: 'fixed', tax_usdc: null }), 'tax_usdc');
  });
});

describe('the payment page of a suspended account', () => {
  it('answers 403 and shows nothing to pay; reactivated, the request is payable again', async () => {
    const m = await h.merchant({ plan: 'business' });
    const r = await h.ok<{ id: string; url: string; amount_usdc: string }>(
      post(m, '/v1/requests', requestBody(m)),
      201,
    );
    const payable = await fetch(r.url);
    expect(payable.status).toBe(200);
    expect(await payable.text()).toContain(r.amount_usdc);

    await setMerchantStatus(h.tdb.db, m.id, 'suspended');
    const page = await fetch(r.url);
    const html = ((await c.check('GET /proof/pay/{id}', page)) as Buffer).toString();
    expect(page.status).toBe(403);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('Not accepting payments');
    expect(html).toContain(r.id);
    for (const hidden of [r.amount_usdc, ADDRESSES.base, '<svg', 'ethereum:', 'Pay exactly'])
      expect(html, hidden).not.toContain(hidden);

    await setMerchantStatus(h.tdb.db, m.id, 'active');
    const again = await fetch(r.url);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain(r.amount_usdc);
  });
});

/** A 201 whose body conforms to the document's schema of `op`. */
async function created(op: string, res: Response): Promise<Obj> {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await c.check(op, res)) as Obj;
}

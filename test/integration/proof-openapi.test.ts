import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusOf } from '../../api/http/errors.js';
import { WEBHOOK_VERIFY_SAMPLE } from '../../api/proof/developers.page.js';
import { proofRouter } from '../../api/proof/proof.routes.js';
import { signBody } from '../../adapters/webhooks/sign.js';
import { createFileStore } from '../../adapters/storage/file-store.js';
import { requiredScope } from '../../domain/api-keys.js';
import type { ErrorCode } from '../../domain/errors.js';
import { PROOF_EVENT_TYPES } from '../../domain/proof/events.js';
import { RETAINED_RESPONSES_PER_ACCOUNT } from '../../domain/proof/plans.js';
import { parseContactCreate, parseInvoiceCreate } from '../../domain/validation/proof-invoice.js';
import { parseRequestCreate } from '../../domain/validation/proof-request.js';
import { setMerchantPlan, setMerchantStatus } from '../../db/repositories/merchants.repo.js';
import { issueMerchantKey } from '../../services/proof/account.js';
import { voidInvoice } from '../../db/repositories/invoice-lifecycle.repo.js';
import { applyTransfer } from '../../db/repositories/payment-evidence.repo.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import {
  Conformance,
  expectSoundDocument,
  expectSoundOperations,
  obj,
  type Obj,
  validatorAccepts,
} from '../helpers/openapi-conformance.js';
import { ADDRESSES, newIdem, ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { expectDocumented503s, unreachableDb } from '../helpers/unreachable-db.js';

/**
 * The OpenAPI 3.1 document of /proof against the code: it is structurally sound (paths and webhooks), lists
 * exactly the routes the proof router serves, describes the request validators, and every real response of
 * the running app (status, JSON body, required headers) conforms to it. Response objects in the document are
 * closed, so a field the server sends but the document does not list fails here. The webhook verification
 * sample of the developers page is compiled and run against real signatures.
 */

// The shared per-IP counter would otherwise throttle this file's many calls from 127.0.0.1.
const ENV = { RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE: '1000', RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: '100000' };
const config = testConfig(ENV);
const settings = {
  rateLimits: {
    perKeyPerMinute: config.rateLimits.proofPerKeyPerMinute,
    perIpPerMinute: config.rateLimits.proofPerIpPerMinute,
    proPerHour: config.rateLimits.proofProPerHour,
    authFailuresPerIpPerMinute: config.rateLimits.authFailuresPerIpPerMinute,
  },
  bodyLimitJson: config.http.bodyLimitJson,
};

const h = new ProofHarness();
let c: Conformance;
let served: { status: number; type: string | null; rateLimit: string | null; body: Obj };
let acme: TestMerchant & { readKey: string; writeOnlyKey: string };
let other: TestMerchant;
let lapsed: TestMerchant;

type App = typeof h.app;
interface Init {
  json?: unknown;
  type?: string;
  idem?: string | null;
  headers?: Record<string, string>;
}
/** A request as a client sends it; POSTs get a fresh Idempotency-Key unless told otherwise. */
function send(method: string, path: string, key: string | null, init: Init = {}, app: App = h.app): Promise<Response> {
  const headers: Record<string, string> = { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...init.headers };
  const idem = init.idem === undefined ? (method === 'POST' ? newIdem() : null) : init.idem;
  if (idem) headers['Idempotency-Key'] = idem;
  const body =
    init.json === undefined ? undefined : typeof init.json === 'string' ? init.json : JSON.stringify(init.json);
  if (body !== undefined) headers['content-type'] = init.type ?? 'application/json';
  return fetch(`${app.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
}
const codeOf = (body: unknown) => obj(body)['code'];
const requestSchema = (op: string) =>
  obj(obj(obj(c.operation(op)['requestBody'])['content'])['application/json'])['schema'];

/** Every documented operation as [METHOD, path template]. */
const operations = (): Array<[string, string]> =>
  Object.entries(obj(c.doc['paths'])).flatMap(([path, item]) =>
    Object.keys(obj(item)).map((m) => [m.toUpperCase(), path] as [string, string]),
  );
/** A concrete path of a template: an unknown id of the right kind. */
const UNKNOWN: Record<string, string> = {
  requests: 'req_AAAAAAAAAAAAAAAAAAAA',
  contacts: 'con_AAAAAAAAAAAAAAAAAAAA',
  invoices: 'inv_AAAAAAAAAAAAAAAAAAAA',
  pay: 'req_AAAAAAAAAAAAAAAAAAAA',
};
const concrete = (path: string) => path.replace(/\/(\w+)\/\{id\}/, (_, kind: string) => `/${kind}/${UNKNOWN[kind]!}`);

// Dates are counted from one instant of this file, so a body and its expected answer agree even across midnight.
const TODAY = Date.now();
const due = (days: number) => new Date(TODAY + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  await h.start(ENV);
  const res = await fetch(`${h.app.url}/proof/openapi.json`);
  served = {
    status: res.status,
    type: res.headers.get('content-type'),
    rateLimit: res.headers.get('ratelimit-limit'),
    body: (await res.json()) as Obj,
  };
  c = new Conformance(served.body);
  const m = await h.merchant({ plan: 'business', webhook: true, readKey: true, networks: ['base', 'solana'] });
  const writeOnlyKey = (
    await issueMerchantKey(
      h.tdb.db,
      { merchantId: m.id, name: 'writer', scopes: ['write'], expiresAt: null },
      new Date(),
    )
  ).secret;
  acme = { ...m, readKey: m.readKey!, writeOnlyKey };
  other = await h.merchant({ plan: 'business', webhook: true });
  lapsed = await h.merchant({ plan: 'starter' });
  await setMerchantPlan(h.tdb.db, lapsed.id, 'starter', new Date(Date.now() - 1000));
});
afterAll(() => h.stop());

describe('the document', () => {
  it('is served without a key or a rate-limit row, exactly as committed (generated from the zod schemas); so is the developers page, which documents it all', async () => {
    expect(served).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', rateLimit: null });
    const committed = readFileSync(new URL('../../docs/openapi/proof-v1.json', import.meta.url), 'utf8');
    expect(served.body).toEqual(JSON.parse(committed));
    await c.check('GET /proof/openapi.json', await fetch(`${h.app.url}/proof/openapi.json`));

    const page = await fetch(`${h.app.url}/proof/developers`);
    expect(page.headers.get('ratelimit-limit')).toBeNull();
    const html = ((await c.check('GET /proof/developers', page)) as Buffer).toString('utf8');
    for (const text of [
      'Receiving webhooks',
      'X-Service-Timestamp',
      'X-Service-Signature',
      'X-Service-Event-Id',
      'X-Service-Delivery-Id',
      'X-Service-Key-Version',
      'timingSafeEqual',
      'createHmac',
      '300 seconds',
      'before parsing JSON',
      'Idempotency-Key',
      'Idempotent-Replayed',
      'skp_',
      'amount_atomic',
      'user_approved',
      'next_cursor',
      '/proof/openapi.json',
      'AWAITING',
      'PAID',
    ])
      expect(html).toContain(text);
    for (const [method, path] of operations()) {
      expect(html, `${method} ${path}`).toContain(`<code>${method} ${path}</code>`);
      expect(html).toContain(`id="${String(c.operation(`${method} ${path}`)['operationId'])}"`);
    }
    for (const type of PROOF_EVENT_TYPES) expect(html).toContain(`<code>${type}</code>`);
    for (const e of served.body['x-error-codes'] as Array<{ code: string }>)
      expect(html).toContain(`<code>${e.code}</code>`);

    // Public, but a key in the URL is refused on every /proof path.
    for (const [op, path] of [
      ['GET /proof/openapi.json', '/proof/openapi.json?api_key=x'],
      ['GET /proof/developers', '/proof/developers?token=x'],
      ['GET /proof/pay/{id}', `/proof/pay/${UNKNOWN['pay']!}?key=${acme.key}`],
    ] as const) {
      expect(codeOf(await c.check(op, await fetch(`${h.app.url}${path}`)))).toBe('api_key_in_url');
    }
    expect(await h.tdb.db('rate_limit_windows').where('bucket', 'like', 'proof:%')).toHaveLength(0);
  });

  it('is structurally valid OpenAPI 3.1: references resolve, schemas compile, examples validate, operation ids are unique', () => {
    const doc = served.body;
    expectSoundDocument(c, doc, 50);
    expect(obj(doc['info'])).toMatchObject({ version: '1.0' });
    const examples = expectSoundOperations(c, doc, [
      { section: 'paths', keyPattern: /^\/proof\//, statusPattern: /^[1-5]\d\d$/ },
      { section: 'webhooks', keyPattern: /^[a-z_]+\.[a-z_]+$/, statusPattern: /^([1-5]\d\d|[1-5]XX|default)$/ },
    ]);
    expect(Object.keys(obj(doc['webhooks'])).sort()).toEqual([...PROOF_EVENT_TYPES].sort());
    expect(examples).toBeGreaterThan(60);
  });

  it('lists exactly the routes the proof router serves; the public ones are outside /proof/v1, the others need the scope of their method', () => {
    const router = proofRouter({
      db: h.tdb.db,
      logger: h.logs.logger,
      ...settings,
      publicBaseUrl: null,
      retainedResponsesPerAccount: RETAINED_RESPONSES_PER_ACCOUNT,
      store: createFileStore(h.storageDir),
    });
    const template = (p: string) => p.replace(/:\w+|\{\w+\}/g, '{}');
    const routed = router.stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${template(String(layer.path))}`),
    );
    const documented = operations().map(([m, p]) => `${m} ${template(p)}`);
    expect(routed.sort()).toEqual(documented.sort());
    for (const [method, path] of operations()) {
      const security = c.operation(`${method} ${path}`)['security'] as Obj[];
      if (path.startsWith('/proof/v1/'))
        expect(security, `${method} ${path}`).toEqual([{ apiKey: [requiredScope(method)] }]);
      else expect(security, `${method} ${path}`).toEqual([]);
    }
    expect(
      operations()
        .filter(([, p]) => !p.startsWith('/proof/v1/'))
        .map(([, p]) => p)
        .sort(),
    ).toEqual(['/proof/developers', '/proof/openapi.json', '/proof/pay/{id}']);
  });

  it('states the status the error middleware gives each code', () => {
    const codes = c.doc['x-error-codes'] as Array<{ code: ErrorCode; status: number }>;
    for (const e of codes) expect(statusOf('proof', e.code), e.code).toBe(e.status);
    expect(codes.find((e) => e.code === 'insufficient_scope')?.status).toBe(401);
    const errorCodes = obj(obj(obj(obj(c.doc['components'])['schemas'])['Error'])['properties'])['code'];
    expect(obj(errorCodes)['enum']).toEqual(codes.map((e) => e.code));
  });
});

describe('request schemas agree with the validators', () => {
  const agree = (op: string, parse: (b: unknown) => unknown, cases: unknown[], arithmetic: unknown[] = []) => {
    const validate = c.validator(requestSchema(op));
    for (const body of [...cases, ...arithmetic]) {
      const accepted = validatorAccepts(parse, body);
      // Totals out of bounds are arithmetic the schema cannot state (its description says so): schema yes, validator no.
      const expected = arithmetic.includes(body) ? true : accepted;
      if (arithmetic.includes(body))
        expect(accepted, `${JSON.stringify(body)} should fail only on its totals`).toBe(false);
      expect(
        validate(body),
        `${JSON.stringify(body).slice(0, 300)}: the validator ${accepted ? 'accepts' : 'refuses'} it`,
      ).toBe(expected);
    }
  };

  it('payment requests', () => {
    const ok = { wallet_id: 'wal_AAAAAAAAAAAAAAAAAAAA', amount_usdc: '12.5', description: 'Consulting, November' };
    const cases: unknown[] = [
      ok,
      { ...ok, customer_label: 'ACME', expected_payer: ADDRESSES.base, valid_hours: 48 },
      { ...ok, customer_label: '', expected_payer: '' },
      { ...ok, description: '  abc  ' },
      { ...ok, description: 'ab' },
      { ...ok, description: '  ab   ' },
      { ...ok, description: 'x'.repeat(350) },
      { ...ok, description: 'x'.repeat(351) },
      { ...ok, description: `\n  ${'x'.repeat(350)}  \t` },
      { ...ok, description: `a${' '.repeat(348)}b` },
      { ...ok, description: 3 },
      { ...ok, amount_usdc: '0' },
      { ...ok, amount_usdc: '0.000000' },
      { ...ok, amount_usdc: '00.0' },
      { ...ok, amount_usdc: '0.000001' },
      { ...ok, amount_usdc: '12.5000001' },
      { ...ok, amount_usdc: '-1' },
      { ...ok, amount_usdc: '1e3' },
      { ...ok, amount_usdc: 12.5 },
      { ...ok, amount_usdc: '99999999999999999.999999' },
      { ...ok, amount_usdc: '100000000000000000' },
      { ...ok, amount_usdc: ' 1' },
      { ...ok, amount_usdc: '1.' },
      { ...ok, amount_usdc: '.5' },
      { ...ok, amount_usdc: '007' },
      { ...ok, wallet_id: 'wal_short' },
      { ...ok, wallet_id: 'req_AAAAAAAAAAAAAAAAAAAA' },
      { amount_usdc: '1', description: 'abc' },
      { ...ok, valid_hours: 0 },
      { ...ok, valid_hours: 1 },
      { ...ok, valid_hours: 720 },
      { ...ok, valid_hours: 721 },
      { ...ok, valid_hours: 1.5 },
      { ...ok, valid_hours: '5' },
      { ...ok, customer_label: 'x'.repeat(120) },
      { ...ok, customer_label: 'x'.repeat(121) },
      { ...ok, customer_label: ` ${'x'.repeat(120)} ` },
      { ...ok, customer_label: null },
      { ...ok, expected_payer: null },
      { ...ok, customer_label: 7 },
      { ...ok, amount_usdc: '10000000000000000' },
      { ...ok, amount_usdc: '10000000000000000.000000' },
      { ...ok, amount_usdc: '10000000000000000.000001' },
      { ...ok, amount_usdc: '10000000000000001' },
      { ...ok, amount_usdc: '09999999999999999.999999' },
      { ...ok, amount_usdc: '9999999999999999.999999' },
      { ...ok, expected_payer: 'x'.repeat(64) },
      { ...ok, expected_payer: 'x'.repeat(65) },
      { ...ok, pay_to: ADDRESSES.base },
      {},
      [],
      'x',
      null,
    ];
    agree('POST /proof/v1/requests', parseRequestCreate, cases);
  });

  it('contacts', () => {
    const ok = { legal_name: 'Buyer GmbH', email: 'ap@buyer.example' };
    const cases: unknown[] = [
      ok,
      { ...ok, address: 'Hauptstr. 1', reference: 'C-77' },
      { ...ok, address: '', reference: '   ' },
      { ...ok, legal_name: '' },
      { ...ok, legal_name: '  ' },
      { ...ok, legal_name: 'A' },
      { ...ok, legal_name: 'x'.repeat(160) },
      { ...ok, legal_name: 'x'.repeat(161) },
      { ...ok, legal_name: ` ${'x'.repeat(160)} ` },
      { ...ok, email: 'A@B.EXAMPLE' },
      { ...ok, email: ' a@b.example ' },
      { ...ok, email: 'a@b' },
      { ...ok, email: 'a@localhost' },
      { ...ok, email: 'a..b@x.example' },
      { ...ok, email: '.a@x.example' },
      { ...ok, email: 'a b@x.example' },
      { ...ok, email: 'a@-x.example' },
      { ...ok, email: 'a@x.example.' },
      { ...ok, email: 'a@1.2.3.4' },
      { ...ok, email: `${'x'.repeat(64)}@b.example` },
      { ...ok, email: `${'x'.repeat(65)}@b.example` },
      { ...ok, email: "o'brien+bills@x.example" },
      { ...ok, email: `a@${`${'b'.repeat(60)}.`.repeat(4)}example` },
      { ...ok, email: `ab@${`${'b'.repeat(60)}.`.repeat(4)}example` },
      { ...ok, email: 'a@xn--bcher-kva.example' },
      { ...ok, email: 'a@b.xn--p1ai' },
      { ...ok, email: 'a@b.c' },
      { ...ok, email: 'a@b.c1' },
      { ...ok, email: 'a@x.example@y.example' },
      { ...ok, email: 7 },
      { ...ok, address: 'x'.repeat(600) },
      { ...ok, address: 'x'.repeat(601) },
      { ...ok, reference: 'x'.repeat(120) },
      { ...ok, reference: 'x'.repeat(121) },
      { ...ok, address: null },
      { ...ok, reference: null },
      { ...ok, address: null, reference: null },
      { ...ok, legal_name: null },
      { ...ok, email: null },
      { ...ok, phone: '1' },
      { email: 'a@b.example' },
      {},
      null,
    ];
    agree('POST /proof/v1/contacts', parseContactCreate, cases);
  });

  it('invoices', () => {
    const item = { description: 'Work', quantity: '1', unit_usdc: '10' };
    const ok = {
      customer_id: 'con_AAAAAAAAAAAAAAAAAAAA',
      wallet_id: 'wal_AAAAAAAAAAAAAAAAAAAA',
      due_date: '2031-01-31',
      items: [item],
    };
    const withItem = (over: Obj) => ({ ...ok, items: [{ ...item, ...over }] });
    const cases: unknown[] = [
      ok,
      { ...ok, tax_mode: 'none' },
      { ...ok, tax_mode: 'exclusive' },
      { ...ok, tax_mode: 'exclusive', tax_rate: '19' },
      { ...ok, tax_mode: 'inclusive', tax_rate: '100' },
      { ...ok, tax_mode: 'inclusive', tax_rate: '100.0001' },
      { ...ok, tax_mode: 'exclusive', tax_rate: '100.0000' },
      { ...ok, tax_mode: 'exclusive', tax_rate: '0' },
      { ...ok, tax_mode: 'exclusive', tax_rate: '000' },
      { ...ok, tax_mode: 'exclusive', tax_rate: '099.9999' },
      { ...ok, tax_mode: 'exclusive', tax_rate: '101' },
      { ...ok, tax_mode: 'exclusive', tax_rate: '19.12345' },
      { ...ok, tax_mode: 'exclusive', tax_rate: 19 },
      { ...ok, tax_rate: '19' },
      { ...ok, tax_mode: 'none', tax_rate: '19' },
      { ...ok, tax_mode: 'fixed' },
      { ...ok, tax_mode: 'fixed', tax_usdc: '1.5' },
      { ...ok, tax_mode: 'fixed', tax_usdc: '1.5', tax_rate: '1' },
      { ...ok, tax_usdc: '1' },
      { ...ok, tax_mode: 'exclusive', tax_rate: '5', tax_usdc: '1' },
      { ...ok, tax_mode: 'fixed', tax_usdc: '1.1234567' },
      { ...ok, tax_mode: 'vat', tax_rate: '19' },
      withItem({ quantity: '0' }),
      withItem({ quantity: '0.000001' }),
      withItem({ quantity: '1000000' }),
      withItem({ quantity: '1000000.000001' }),
      withItem({ quantity: '1000000.0' }),
      withItem({ quantity: '1000001' }),
      withItem({ quantity: '0999999' }),
      withItem({ quantity: '1.1234567' }),
      withItem({ quantity: '9999999' }),
      withItem({ quantity: '01000000' }),
      withItem({ quantity: '0000000' }),
      withItem({ quantity: 2 }),
      withItem({ unit_usdc: '10.1234567' }),
      withItem({ unit_usdc: '-1' }),
      withItem({ description: ' ' }),
      withItem({ description: 'x'.repeat(300) }),
      withItem({ description: 'x'.repeat(301) }),
      withItem({ extra: 1 }),
      { ...ok, items: [item, { ...item, unit_usdc: '0' }] },
      { ...ok, items: [] },
      { ...ok, items: Array(100).fill(item) },
      { ...ok, items: Array(101).fill(item) },
      { ...ok, due_date: '2026-02-30' },
      { ...ok, due_date: '2028-02-29' },
      { ...ok, due_date: '2027-02-29' },
      { ...ok, due_date: '2100-02-29' },
      { ...ok, due_date: '2000-02-29' },
      { ...ok, due_date: '0000-01-01' },
      { ...ok, due_date: '0001-01-01' },
      { ...ok, due_date: '2026-1-01' },
      { ...ok, due_date: ' 2026-01-01' },
      { ...ok, due_date: '2026-13-01' },
      { ...ok, send_now: false },
      { ...ok, send_now: true },
      { ...ok, send_now: 'false' },
      { ...ok, accounting: {} },
      { ...ok, accounting: { reference: 'PO-9', cost_center: 'CC', ledger_account: '4000' } },
      { ...ok, accounting: { other: 'x' } },
      { ...ok, accounting: null },
      { ...ok, accounting: { reference: 'x'.repeat(121) } },
      { ...ok, accounting: { reference: '   ' } },
      { ...ok, memo: 'x'.repeat(1000) },
      { ...ok, memo: 'x'.repeat(1001) },
      { ...ok, tax_notes: 'x'.repeat(500) },
      { ...ok, tax_notes: 'x'.repeat(501) },
      { ...ok, memo: '' },
      { ...ok, customer_id: 'con_x' },
      { ...ok, wallet_id: undefined },
      { ...ok, share_token: 'x' },
      {},
      null,
      { ...ok, tax_rate: null, tax_notes: null, accounting: null, memo: null },
      { ...ok, tax_mode: 'none', tax_rate: null },
      { ...ok, tax_mode: 'fixed', tax_usdc: '1', tax_rate: null },
      { ...ok, tax_mode: 'exclusive', tax_rate: null },
      { ...ok, tax_mode: 'fixed', tax_usdc: null },
      { ...ok, tax_mode: null },
      { ...ok, accounting: { reference: null } },
      withItem({ unit_usdc: '10000000000000000' }),
      withItem({ unit_usdc: '10000000000000000.000001' }),
      withItem({ quantity: '0.5', unit_usdc: '10000000000000000.0' }),
      withItem({ unit_usdc: '99999999999999999.999999' }),
      { ...ok, tax_mode: 'fixed', tax_usdc: '99999999999999999.999999' },
      { ...ok, tax_mode: 'fixed', tax_usdc: '10000000000000000.000001' },
    ];
    const arithmetic: unknown[] = [
      { ...ok, items: [{ ...item, unit_usdc: '0' }] },
      { ...ok, items: [{ ...item, quantity: '1000000', unit_usdc: '9999999999999999' }] },
      { ...ok, tax_mode: 'fixed', tax_usdc: '10000000000000000' },
    ];
    agree('POST /proof/v1/invoices', parseInvoiceCreate, cases, arithmetic);
  });
});

describe('real responses conform to the document', () => {
  const requestBody = (m: TestMerchant, extra: Obj = {}) => ({
    wallet_id: m.wallets['base'],
    amount_usdc: '12.5',
    description: 'Consulting, November',
    ...extra,
  });
  let request: Obj;
  let contactId: string;
  let invoice: Obj;

  it('account and payment requests: 200, 201 and its replay, 404, 409, 422 for body, wallet, quota and Idempotency-Key; the payment page', async () => {
    const me = await c.check('GET /proof/v1/me', await send('GET', '/proof/v1/me', acme.readKey));
    expect(obj(me)['wallets']).toHaveLength(2);
    expect(
      await c.check('GET /proof/v1/me', await send('GET', '/proof/v1/me', (await h.merchant()).key)),
    ).toMatchObject({ plan: 'trial' });
    expect(await c.check('GET /proof/v1/me', await send('GET', '/proof/v1/me', lapsed.key))).toMatchObject({
      plan: null,
      limits: null,
      plan_ends_at: null,
    });

    const body = requestBody(acme, { customer_label: 'ACME GmbH', valid_hours: 48 });
    c.expectValid(requestSchema('POST /proof/v1/requests'), body, 'request body');
    const key = newIdem();
    const created = await send('POST', '/proof/v1/requests', acme.key, { json: body, idem: key });
    expect(created.status).toBe(201);
    request = obj(await c.check('POST /proof/v1/requests', created));
    const replay = await send('POST', '/proof/v1/requests', acme.key, { json: body, idem: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await c.check('POST /proof/v1/requests', replay)).toEqual(request);
    const solana = { ...requestBody(acme), wallet_id: acme.wallets['solana'], expected_payer: ADDRESSES.solana };
    expect(
      await c.check('POST /proof/v1/requests', await send('POST', '/proof/v1/requests', acme.key, { json: solana })),
    ).toMatchObject({ network: 'solana' });

    expect(
      codeOf(
        await c.check(
          'POST /proof/v1/requests',
          await send('POST', '/proof/v1/requests', acme.key, { json: { ...body, amount_usdc: '13' }, idem: key }),
        ),
      ),
    ).toBe('idempotency_conflict');
    expect(
      await c.check(
        'POST /proof/v1/requests',
        await send('POST', '/proof/v1/requests', acme.key, { json: { ...body, amount_usdc: '0' } }),
      ),
    ).toMatchObject({ code: 'validation_failed', issues: [{ path: 'amount_usdc' }] });
    // Rules beyond the schema: the wallet must be the caller's (else 404 naming it), the payer an address of the wallet's network.
    for (const [extra, path, code] of [
      [{ wallet_id: other.wallets['base'] }, 'wallet_id', 'not_found'],
      [{ expected_payer: ADDRESSES.solana }, 'expected_payer', 'validation_failed'],
    ] as const) {
      c.expectValid(requestSchema('POST /proof/v1/requests'), requestBody(acme, extra), 'schema-valid body');
      expect(
        await c.check(
          'POST /proof/v1/requests',
          await send('POST', '/proof/v1/requests', acme.key, { json: requestBody(acme, extra) }),
        ),
      ).toMatchObject({ code, issues: [{ path }] });
    }
    expect(
      codeOf(
        await c.check(
          'POST /proof/v1/requests',
          await send('POST', '/proof/v1/requests', lapsed.key, { json: requestBody(lapsed) }),
        ),
      ),
    ).toBe('quota_exceeded');

    const list = obj(
      await c.check('GET /proof/v1/requests', await send('GET', '/proof/v1/requests?limit=1', acme.readKey)),
    );
    expect(list['next_cursor']).toEqual(expect.any(String));
    expect(
      await c.check(
        'GET /proof/v1/requests',
        await send('GET', `/proof/v1/requests?before=${String(list['next_cursor'])}`, acme.readKey),
      ),
    ).toMatchObject({ next_cursor: null });
    for (const q of ['limit=0', 'limit=101', 'before=garbage'])
      expect(
        codeOf(await c.check('GET /proof/v1/requests', await send('GET', `/proof/v1/requests?${q}`, acme.readKey))),
      ).toBe('validation_failed');

    expect(
      await c.check(
        'GET /proof/v1/requests/{id}',
        await send('GET', `/proof/v1/requests/${String(request['id'])}`, acme.readKey),
      ),
    ).toEqual(request);
    const theirs = obj(
      await c.check(
        'POST /proof/v1/requests',
        await send('POST', '/proof/v1/requests', other.key, { json: requestBody(other) }),
      ),
    );
    expect(
      codeOf(
        await c.check(
          'GET /proof/v1/requests/{id}',
          await send('GET', `/proof/v1/requests/${String(theirs['id'])}`, acme.readKey),
        ),
      ),
    ).toBe('not_found');

    const page = await fetch(String(request['url']));
    expect(((await c.check('GET /proof/pay/{id}', page)) as Buffer).toString()).toContain(
      String(request['amount_usdc']),
    );
    await c.check('GET /proof/pay/{id}', await fetch(`${h.app.url}/proof/pay/${UNKNOWN['pay']!}`));
    expect([...c.covered]).toContain('GET /proof/pay/{id} 404');
    // A suspended account's page: 403, nothing to pay.
    await setMerchantStatus(h.tdb.db, other.id, 'suspended');
    try {
      const closed = ((await c.check('GET /proof/pay/{id}', await fetch(String(theirs['url'])))) as Buffer).toString();
      expect(closed).toContain('Not accepting payments');
      expect(closed).not.toContain(String(theirs['amount_usdc']));
      expect([...c.covered]).toContain('GET /proof/pay/{id} 403');
    } finally {
      await setMerchantStatus(h.tdb.db, other.id, 'active');
    }
  });

  it('contacts: 201 and its replay, 200, 404, 409, 422', async () => {
    const body = {
      legal_name: 'Buyer GmbH',
      email: 'ap@buyer.example',
      address: 'Hauptstr. 1, Berlin',
      reference: 'C-77',
    };
    const key = newIdem();
    const contact = obj(
      await c.check(
        'POST /proof/v1/contacts',
        await send('POST', '/proof/v1/contacts', acme.key, { json: body, idem: key }),
      ),
    );
    contactId = String(contact['id']);
    const replay = await send('POST', '/proof/v1/contacts', acme.key, { json: body, idem: key });
    expect(replay.status).toBe(201);
    expect(await c.check('POST /proof/v1/contacts', replay)).toEqual(contact);
    expect(
      codeOf(
        await c.check(
          'POST /proof/v1/contacts',
          await send('POST', '/proof/v1/contacts', acme.key, { json: { ...body, reference: 'C-78' }, idem: key }),
        ),
      ),
    ).toBe('idempotency_conflict');
    // A key is account-wide across operations: the contact's key on another operation is a conflict too.
    expect(
      codeOf(
        await c.check(
          'POST /proof/v1/requests',
          await send('POST', '/proof/v1/requests', acme.key, { json: requestBody(acme), idem: key }),
        ),
      ),
    ).toBe('idempotency_conflict');
    const invalid = { ...body, email: 'not-an-email' };
    expect(c.validator(requestSchema('POST /proof/v1/contacts'))(invalid)).toBe(false);
    expect(
      await c.check('POST /proof/v1/contacts', await send('POST', '/proof/v1/contacts', acme.key, { json: invalid })),
    ).toMatchObject({ code: 'validation_failed', issues: [{ path: 'email' }] });

    expect(
      await c.check('GET /proof/v1/contacts', await send('GET', '/proof/v1/contacts', acme.readKey)),
    ).toMatchObject({ data: [contact], next_cursor: null });
    expect(
      codeOf(await c.check('GET /proof/v1/contacts', await send('GET', '/proof/v1/contacts?limit=x', acme.readKey))),
    ).toBe('validation_failed');
    expect(
      await c.check('GET /proof/v1/contacts/{id}', await send('GET', `/proof/v1/contacts/${contactId}`, acme.readKey)),
    ).toEqual(contact);
    const theirs = obj(
      await c.check(
        'POST /proof/v1/contacts',
        await send('POST', '/proof/v1/contacts', other.key, {
          json: { legal_name: 'Other Ltd', email: 'x@other.example' },
        }),
      ),
    );
    expect(
      codeOf(
        await c.check(
          'GET /proof/v1/contacts/{id}',
          await send('GET', `/proof/v1/contacts/${String(theirs['id'])}`, acme.readKey),
        ),
      ),
    ).toBe('not_found');
  });

  it('invoices: 201 and its replay, 200, 404, 409, 422 for body, contact and quota; send: 200, 404, 409 voided and reused key, 422', async () => {
    const body = {
      customer_id: contactId,
      wallet_id: acme.wallets['base'],
      due_date: due(14),
      tax_mode: 'exclusive',
      tax_rate: '19',
      memo: 'Thank you',
      accounting: { reference: 'PO-9' },
      items: [
        { description: 'Design work', quantity: '3', unit_usdc: '120.50' },
        { description: 'Hosting (pro-rated)', quantity: '0.333333', unit_usdc: '30' },
      ],
    };
    c.expectValid(requestSchema('POST /proof/v1/invoices'), body, 'invoice body');
    const key = newIdem();
    invoice = obj(
      await c.check(
        'POST /proof/v1/invoices',
        await send('POST', '/proof/v1/invoices', acme.key, { json: body, idem: key }),
      ),
    );
    expect(invoice).toMatchObject({
      status: 'issued',
      total_usdc: '442.084988',
      amount_atomic: '442084989',
      tax_notes: null,
    });
    const replay = await send('POST', '/proof/v1/invoices', acme.key, { json: body, idem: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await c.check('POST /proof/v1/invoices', replay)).toEqual(invoice);
    expect(
      codeOf(
        await c.check(
          'POST /proof/v1/invoices',
          await send('POST', '/proof/v1/invoices', acme.key, { json: { ...body, memo: 'changed' }, idem: key }),
        ),
      ),
    ).toBe('idempotency_conflict');
    const minimal = {
      customer_id: contactId,
      wallet_id: acme.wallets['solana'],
      due_date: due(3),
      items: [{ description: 'Fixed fee', quantity: '1', unit_usdc: '5' }],
      tax_mode: 'fixed',
      tax_usdc: '0.5',
      tax_notes: 'Reverse charge',
    };
    expect(
      await c.check('POST /proof/v1/invoices', await send('POST', '/proof/v1/invoices', acme.key, { json: minimal })),
    ).toMatchObject({ network: 'solana', accounting: null, tax_rate: null, tax_usdc: '0.500000' });

    const noRate = { ...body, tax_rate: undefined };
    expect(c.validator(requestSchema('POST /proof/v1/invoices'))(JSON.parse(JSON.stringify(noRate)))).toBe(false);
    expect(
      await c.check('POST /proof/v1/invoices', await send('POST', '/proof/v1/invoices', acme.key, { json: noRate })),
    ).toMatchObject({ code: 'validation_failed', issues: [{ path: 'tax_rate' }] });
    const theirContact = (await h.tdb.db('contacts').where({ merchant_id: other.id }).first('id')).id as string;
    for (const [extra, path, code] of [
      [{ customer_id: theirContact }, 'customer_id', 'not_found'],
      [{ wallet_id: other.wallets['base'] }, 'wallet_id', 'not_found'],
      [{ due_date: '2020-01-01' }, 'due_date', 'validation_failed'],
    ] as const) {
      c.expectValid(requestSchema('POST /proof/v1/invoices'), { ...body, ...extra }, 'schema-valid body');
      expect(
        await c.check(
          'POST /proof/v1/invoices',
          await send('POST', '/proof/v1/invoices', acme.key, { json: { ...body, ...extra } }),
        ),
      ).toMatchObject({ code, issues: [{ path }] });
    }
    const lapsedContact = obj(
      await c.check(
        'POST /proof/v1/contacts',
        await send('POST', '/proof/v1/contacts', lapsed.key, { json: { legal_name: 'L', email: 'l@buyer.example' } }),
      ),
    );
    const lapsedBody = {
      customer_id: lapsedContact['id'],
      wallet_id: lapsed.wallets['base'],
      due_date: due(3),
      items: [{ description: 'x', quantity: '1', unit_usdc: '1' }],
    };
    expect(
      codeOf(
        await c.check(
          'POST /proof/v1/invoices',
          await send('POST', '/proof/v1/invoices', lapsed.key, { json: lapsedBody }),
        ),
      ),
    ).toBe('quota_exceeded');

    const list = obj(
      await c.check('GET /proof/v1/invoices', await send('GET', '/proof/v1/invoices?limit=1', acme.readKey)),
    );
    await c.check(
      'GET /proof/v1/invoices',
      await send('GET', `/proof/v1/invoices?limit=100&before=${String(list['next_cursor'])}`, acme.readKey),
    );
    expect(
      codeOf(
        await c.check(
          'GET /proof/v1/invoices',
          await send('GET', `/proof/v1/invoices?before=${String(list['next_cursor']).slice(0, -2)}`, acme.readKey),
        ),
      ),
    ).toBe('validation_failed');
    expect(
      await c.check(
        'GET /proof/v1/invoices/{id}',
        await send('GET', `/proof/v1/invoices/${String(invoice['id'])}`, acme.readKey),
      ),
    ).toEqual(invoice);
    expect(
      codeOf(
        await c.check(
          'GET /proof/v1/invoices/{id}',
          await send('GET', `/proof/v1/invoices/${UNKNOWN['invoices']!}`, acme.readKey),
        ),
      ),
    ).toBe('not_found');

    // send: the schema of its body agrees with the server, call by call.
    const sendPath = `/proof/v1/invoices/${String(invoice['id'])}/send`;
    const validSend = c.validator(requestSchema('POST /proof/v1/invoices/{id}/send'));
    for (const sendBody of [
      {},
      { user_approved: false },
      { user_approved: 'true' },
      { user_approved: 1 },
      { user_approved: true, to: 'x@y.example' },
      [],
      { user_approved: true },
    ]) {
      const res = await send('POST', sendPath, acme.key, { json: sendBody });
      expect(res.status === 200, JSON.stringify(sendBody)).toBe(validSend(sendBody));
      await c.check('POST /proof/v1/invoices/{id}/send', res);
    }
    const sendKey = newIdem();
    expect(
      await c.check(
        'POST /proof/v1/invoices/{id}/send',
        await send('POST', sendPath, acme.key, { json: { user_approved: true }, idem: sendKey }),
      ),
    ).toEqual({ id: invoice['id'], mail_status: 'queued' });
    const otherInvoice = obj(
      await c.check(
        'POST /proof/v1/invoices',
        await send('POST', '/proof/v1/invoices', acme.key, { json: { ...body, memo: 'second' } }),
      ),
    );
    expect(
      codeOf(
        await c.check(
          'POST /proof/v1/invoices/{id}/send',
          await send('POST', `/proof/v1/invoices/${String(otherInvoice['id'])}/send`, acme.key, {
            json: { user_approved: true },
            idem: sendKey,
          }),
        ),
      ),
    ).toBe('idempotency_conflict');
    expect(
      codeOf(
        await c.check(
          'POST /proof/v1/invoices/{id}/send',
          await send('POST', `/proof/v1/invoices/${UNKNOWN['invoices']!}/send`, acme.key, {
            json: { user_approved: true },
          }),
        ),
      ),
    ).toBe('not_found');
    // Voided as the operator's invoices:void does (through the same repository function, without Temporal here).
    expect(
      await voidInvoice(h.tdb.db, { invoiceId: String(otherInvoice['id']), reason: null, now: new Date() }),
    ).toMatchObject({ outcome: 'voided', events: 1 });
    expect(
      codeOf(
        await c.check(
          'POST /proof/v1/invoices/{id}/send',
          await send('POST', `/proof/v1/invoices/${String(otherInvoice['id'])}/send`, acme.key, {
            json: { user_approved: true },
          }),
        ),
      ),
    ).toBe('conflict');
    expect(
      await c.check(
        'GET /proof/v1/invoices/{id}',
        await send('GET', `/proof/v1/invoices/${String(otherInvoice['id'])}`, acme.readKey),
      ),
    ).toMatchObject({ status: 'voided', voided_at: expect.any(String) });
    expect(
      await c.check(
        'GET /proof/v1/requests/{id}',
        await send('GET', `/proof/v1/requests/${String(otherInvoice['request_id'])}`, acme.readKey),
      ),
    ).toMatchObject({ status: 'VOIDED' });
  });

  it("events: the real ones, including the watcher's, conform; 422 for a bad cursor", async () => {
    // The payment watcher applies a confirmed transfer of the exact amount: payment.confirmed and invoice.paid.
    const inv = invoice;
    const wallet = await h.tdb
      .db('merchant_wallets')
      .where({ id: inv['wallet_id'] as string })
      .first('address');
    const paid = await applyTransfer(
      h.tdb.db,
      {
        network: 'base',
        txHash: `0x${'ab'.repeat(32)}`,
        logIndex: 0,
        from: `0x${'cd'.repeat(20)}`,
        to: wallet.address,
        amountAtomic: BigInt(String(inv['amount_atomic'])),
        blockNumber: 1,
        blockTime: new Date(),
      },
      new Date(),
    );
    expect(paid).toMatchObject({ outcome: 'paid', events: 2 });
    // invoice.voided: the invoice voided in the invoices test above.
    const events = obj(
      await c.check('GET /proof/v1/events', await send('GET', '/proof/v1/events?after=0&limit=100', acme.readKey)),
    );
    const types = new Set((events['data'] as Array<{ event: { type: string } }>).map((e) => e.event.type));
    expect([...types].sort()).toEqual([
      'invoice.issued',
      'invoice.paid',
      'invoice.voided',
      'payment.confirmed',
      'payment_request.created',
    ]);
    expect(
      await c.check(
        'GET /proof/v1/events',
        await send('GET', `/proof/v1/events?after=${String(events['next_cursor'])}`, acme.readKey),
      ),
    ).toEqual({ data: [], next_cursor: events['next_cursor'] });
    for (const q of ['after=-1', 'after=x', 'limit=0'])
      expect(
        codeOf(await c.check('GET /proof/v1/events', await send('GET', `/proof/v1/events?${q}`, acme.readKey))),
      ).toBe('validation_failed');
  });

  it('every /proof/v1 operation: 401 without a key, with a key in the URL or without the scope; 403 when suspended; 413, 415 and 422 before a POST runs', async () => {
    const suspended = await h.merchant({ plan: 'business' });
    await setMerchantStatus(h.tdb.db, suspended.id, 'suspended');
    const v1 = operations().filter(([, p]) => p.startsWith('/proof/v1/'));
    expect(v1).toHaveLength(12);
    for (const [method, path] of v1) {
      const op = `${method} ${path}`;
      const target = concrete(path);
      const json = method === 'POST' ? {} : undefined;
      const res401 = await send(method, target, null, { json });
      expect(res401.headers.get('www-authenticate'), op).toBe('Bearer');
      expect(codeOf(await c.check(op, res401)), op).toBe('unauthorized');
      expect(codeOf(await c.check(op, await send(method, `${target}?api_key=x`, acme.key, { json }))), op).toBe(
        'api_key_in_url',
      );
      expect(
        codeOf(
          await c.check(op, await send(method, target, method === 'GET' ? acme.writeOnlyKey : acme.readKey, { json })),
        ),
        op,
      ).toBe('insufficient_scope');
      expect(codeOf(await c.check(op, await send(method, target, suspended.key, { json }))), op).toBe('forbidden');
      if (method !== 'POST') continue;
      expect(
        codeOf(await c.check(op, await send(method, target, acme.key, { json: { padding: 'x'.repeat(1_100_000) } }))),
        op,
      ).toBe('payload_too_large');
      expect(
        codeOf(
          await c.check(op, await send(method, target, acme.key, { json: 'user_approved=true', type: 'text/plain' })),
        ),
        op,
      ).toBe('unsupported_media_type');
      expect(codeOf(await c.check(op, await send(method, target, acme.key, { json: '{"user_approved":' }))), op).toBe(
        'malformed_json',
      );
      expect(codeOf(await c.check(op, await send(method, target, acme.key, { json: {}, idem: null }))), op).toBe(
        'idempotency_key_required',
      );
      expect(codeOf(await c.check(op, await send(method, target, acme.key, { json: {}, idem: 'too-short' }))), op).toBe(
        'idempotency_key_invalid',
      );
    }
  });

  it('every /proof/v1 operation: 429 with Retry-After past the per-key limit (a second app with low limits)', async () => {
    // A clock that stands still: no one-minute window can end while the operations are counted.
    const frozen = new Date();
    const limited = await h.startApp(
      { RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE: '2', RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: '100000' },
      { now: () => frozen },
    );
    try {
      const busy = await h.merchant({ plan: 'business' });
      for (const [method, path] of operations().filter(([, p]) => p.startsWith('/proof/v1/'))) {
        const op = `${method} ${path}`;
        let res: Response | undefined;
        // A fresh one-minute window admits two calls; each answer on the way is checked too.
        for (let i = 0; i < 4 && res?.status !== 429; i++) {
          if (res) await c.check(op, res);
          res = await send(method, concrete(path), busy.key, { json: method === 'POST' ? {} : undefined }, limited);
        }
        expect(res!.headers.get('retry-after'), op).toMatch(/^\d+$/);
        expect(codeOf(await c.check(op, res!)), op).toBe('rate_limited');
      }
    } finally {
      await limited.close();
    }
  });

  it('every operation that reads the database answers its documented 503, with Retry-After, while PostgreSQL is unreachable', async () => {
    const down = await unreachableDb();
    const app = await startTestApp({ db: down.db, logger: h.logs.logger, config: testConfig(ENV) });
    try {
      await expectDocumented503s(c, app.url, acme.key);
    } finally {
      await app.close();
      await down.close();
    }
  });

  it("paging parameters: the server accepts a value exactly when the document's schema does (after up to 2^53-1, before only a cursor of that list, never 0)", async () => {
    const m = await h.merchant({ plan: 'business', webhook: true });
    const contacts: string[] = [];
    for (const name of ['A', 'B'])
      contacts.push(
        String(
          obj(
            await c.check(
              'POST /proof/v1/contacts',
              await send('POST', '/proof/v1/contacts', m.key, {
                json: { legal_name: name, email: `${name.toLowerCase()}@buyer.example` },
              }),
            ),
          )['id'],
        ),
      );
    for (const customer of contacts) {
      const body = {
        customer_id: customer,
        wallet_id: m.wallets['base'],
        due_date: due(3),
        items: [{ description: 'x', quantity: '1', unit_usdc: '1' }],
      };
      await c.check('POST /proof/v1/invoices', await send('POST', '/proof/v1/invoices', m.key, { json: body }));
    }
    const cursors: Record<string, string> = {};
    for (const list of ['requests', 'contacts', 'invoices']) {
      cursors[list] = String(
        obj(await c.check(`GET /proof/v1/${list}`, await send('GET', `/proof/v1/${list}?limit=1`, m.key)))[
          'next_cursor'
        ],
      );
    }
    /** A query value as the document's parameter schema sees it (integers are numbers). */
    const typed = (schema: Obj, raw: string): unknown =>
      schema['type'] === 'integer' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
    const cases: Array<[string, string, string]> = [
      ['events', 'after', '0'],
      ['events', 'after', String(Number.MAX_SAFE_INTEGER)],
      ['events', 'after', '9007199254740992'],
      ['events', 'after', '99999999999999999999'],
      ['events', 'after', '-1'],
      ['events', 'limit', '100'],
      ['events', 'limit', '101'],
    ];
    for (const list of ['requests', 'contacts', 'invoices']) {
      cases.push(
        [list, 'before', '0'],
        [list, 'before', 'garbage'],
        [list, 'before', cursors[list]!],
        [list, 'limit', '1'],
        [list, 'limit', '0'],
      );
      for (const other of ['requests', 'contacts', 'invoices'].filter((l) => l !== list))
        cases.push([list, 'before', cursors[other]!]);
    }
    for (const [list, name, raw] of cases) {
      const op = `GET /proof/v1/${list}`;
      const param = (c.operation(op)['parameters'] as unknown[])
        .map((p) => c.deref(p))
        .find((p) => p['name'] === name)!;
      const documented = c.validator(param['schema'])(typed(obj(param['schema']), raw));
      const res = await send('GET', `/proof/v1/${list}?${name}=${encodeURIComponent(raw)}`, m.readKey ?? m.key);
      const body = obj(await c.check(op, res));
      expect(res.status, `${op}?${name}=${raw}: the document ${documented ? 'admits' : 'refuses'} it`).toBe(
        documented ? 200 : 422,
      );
      if (!documented)
        expect(body['issues'], `${op}?${name}=${raw}`).toEqual([expect.objectContaining({ path: name })]);
    }
  });

  it('every documented response was exercised, except 500', () => {
    const documented = operations().flatMap(([method, path]) =>
      Object.keys(obj(c.operation(`${method} ${path}`)['responses'])).map((s) => `${method} ${path} ${s}`),
    );
    expect(documented.filter((d) => !c.covered.has(d) && !d.endsWith(' 500'))).toEqual([]);
    expect([...c.covered].filter((d) => !documented.includes(d))).toEqual([]);
  });
});

describe('the webhook verification sample of the developers page', () => {
  it('compiles under strict TypeScript and accepts exactly the deliveries the service signs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proof-verify-sample-'));
    const source = join(dir, 'verify.mts');
    writeFileSync(source, WEBHOOK_VERIFY_SAMPLE);
    const program = ts.createProgram([source], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      typeRoots: [join(process.cwd(), 'node_modules/@types')],
      skipLibCheck: true,
      noUncheckedIndexedAccess: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    const file = join(dir, 'verify.mjs');
    writeFileSync(
      file,
      ts.transpileModule(WEBHOOK_VERIFY_SAMPLE, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText,
    );
    const { verifyWebhook } = (await import(pathToFileURL(file).href)) as {
      verifyWebhook: (
        body: Buffer,
        headers: Record<string, string | undefined>,
        secret: string,
        now?: number,
      ) => { id: string; type: string };
    };

    // A real event body, signed as the delivery activity signs it (adapters/webhooks/sign.ts).
    const row = await h.tdb.db('proof_events').where({ merchant_id: acme.id }).orderBy('cursor').first('id', 'body');
    const body = Buffer.from(row.body as Buffer);
    const secret = 'whsec_sample';
    const now = Math.floor(Date.now() / 1000);
    const headers = (b: Buffer, at = now, id = String(row.id)) => ({
      'x-service-timestamp': String(at),
      'x-service-signature': signBody(secret, at, b),
      'x-service-event-id': id,
      'x-service-delivery-id': 'dlv_AAAAAAAAAAAAAAAAAAAA',
      'x-service-key-version': '1',
    });
    expect(verifyWebhook(body, headers(body), secret, now)).toMatchObject({
      id: row.id,
      type: 'payment_request.created',
    });
    expect(verifyWebhook(body, headers(body, now - 300), secret, now).id).toBe(row.id);
    const tampered = Buffer.from(body.toString().replace('"AWAITING"', '"PAID"'));
    expect(() => verifyWebhook(tampered, headers(body), secret, now)).toThrow(/signature/);
    expect(() => verifyWebhook(body, headers(body), 'whsec_other', now)).toThrow(/signature/);
    expect(() => verifyWebhook(body, headers(body, now - 301), secret, now)).toThrow(/window/);
    expect(() => verifyWebhook(body, { ...headers(body), 'x-service-signature': undefined }, secret, now)).toThrow(
      /missing/,
    );
    expect(() => verifyWebhook(body, headers(body, now, 'evt_BBBBBBBBBBBBBBBBBBBB'), secret, now)).toThrow(
      /X-Service-Event-Id/,
    );
    const future = Buffer.from(body.toString().replace('"api_version":"1.0"', '"api_version":"2.0"'));
    expect(() => verifyWebhook(future, headers(future), secret, now)).toThrow(/api_version/);
  });
});

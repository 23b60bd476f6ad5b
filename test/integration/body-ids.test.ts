import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { createEndpoint, setEndpointStatus } from '../../db/repositories/webhooks.repo.js';
import { samplePdf } from '../../support/sample-files.js';
import { newIdem, ProofHarness, type TestMerchant } from '../helpers/proof.js';

/**
 * One rule on both interfaces (docs/platform.md, "Ids"): an id in a request body that does not name a resource of
 * the caller's tenant — unknown, or another tenant's — answers 404 `not_found` in the interface's error shape,
 * naming the field (in the message and in `issues`), with the same body for an unknown and a foreign id, and
 * creates nothing. Malformed ids (not the id grammar) stay 422 like any other invalid field.
 */
const h = new ProofHarness();
type App = Awaited<ReturnType<ProofHarness['startApp']>>;
let app: App;
let m: TestMerchant;
let other: TestMerchant;
let myContact: string;
let theirContact: string;
const v1 = { key: '', otherKey: '', company: '', otherCompany: '', pdf: '', pdf2: '', foreign: '' };

/**
 * Jobs need a workflow gateway to be accepted at all; the refused requests never get as far as starting one. The one
 * invoice accepted at the end queues its lifecycle's start in the outbox (on this task queue), which no starter drains
 * here; its try after the commit fails and is only logged.
 */
const unusedGateway = { taskQueue: 'body-ids-never-started' } as WorkflowGateway;
const UNKNOWN = {
  wal: 'wal_AAAAAAAAAAAAAAAAAAAA',
  con: 'con_AAAAAAAAAAAAAAAAAAAA',
  upl: 'upl_AAAAAAAAAAAAAAAAAAAA',
  whe: 'whe_AAAAAAAAAAAAAAAAAAAA',
};

beforeAll(async () => {
  await h.start();
  app = await h.startApp({}, { workflows: unusedGateway });
  m = await h.merchant({ plan: 'business' });
  other = await h.merchant({ plan: 'business' });
  myContact = (
    await h.ok<{ id: string }>(
      h.call(m.key, 'POST', '/v1/contacts', { legal_name: 'Mine', email: 'mine@buyer.example' }, undefined, app),
      201,
    )
  ).id;
  theirContact = (
    await h.ok<{ id: string }>(
      h.call(
        other.key,
        'POST',
        '/v1/contacts',
        { legal_name: 'Theirs', email: 'theirs@buyer.example' },
        undefined,
        app,
      ),
      201,
    )
  ).id;

  const company = async (n: number) => {
    const { company: c, owner } = await createCompany(h.tdb.db, { name: `Ids${n}`, ownerEmail: `ids${n}@example.com` });
    return {
      id: c.id,
      key: (
        await issueCompanyKey(
          h.tdb.db,
          { companyId: c.id, memberId: owner.id, name: 'k', scopes: ['read', 'write'] },
          new Date(),
        )
      ).secret,
    };
  };
  ({ id: v1.company, key: v1.key } = await company(1));
  ({ id: v1.otherCompany, key: v1.otherKey } = await company(2));
  const upload = async (key: string, name: string) => {
    const f = new FormData();
    f.append('files', new Blob([new Uint8Array(await samplePdf(1))]), name);
    const res = await fetch(`${app.url}/v1/uploads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}` },
      body: f,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { uploads: Array<{ id: string }> }).uploads[0]!.id;
  };
  v1.pdf = await upload(v1.key, 'a.pdf');
  v1.pdf2 = await upload(v1.key, 'b.pdf');
  v1.foreign = await upload(v1.otherKey, 'theirs.pdf');
});
afterAll(async () => {
  await app?.close();
  await h.stop();
});

interface ErrorJson {
  error?: string;
  detail?: string;
  code: string;
  request_id: string;
  issues?: Array<{ path: string; message: string }>;
}

/** The answer without its request id: what must not differ between an unknown and a foreign id. */
async function notFound(res: Response, field: string, shape: 'error' | 'detail'): Promise<unknown> {
  const text = await res.text();
  expect(res.status, text).toBe(404);
  const body = JSON.parse(text) as ErrorJson;
  expect(body.code).toBe('not_found');
  expect(typeof body[shape]).toBe('string');
  expect(body[shape === 'error' ? 'detail' : 'error']).toBeUndefined();
  expect(body[shape]).toContain(field);
  expect(body.issues).toEqual([{ path: field, message: expect.any(String) }]);
  const { request_id: _, ...rest } = body;
  return rest;
}

describe('/proof/v1: ids in bodies', () => {
  const request = (t: TestMerchant, extra: Record<string, unknown> = {}) => ({
    wallet_id: t.wallets['base'],
    amount_usdc: '7',
    description: 'Ids in bodies',
    ...extra,
  });
  const invoice = (extra: Record<string, unknown> = {}) => ({
    customer_id: myContact,
    wallet_id: m.wallets['base'],
    due_date: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
    items: [{ description: 'Work', quantity: '1', unit_usdc: '10' }],
    ...extra,
  });
  const counts = async () => ({
    requests: (await h.tdb.db('payment_requests').where({ merchant_id: m.id })).length,
    invoices: (await h.tdb.db('invoices').where({ merchant_id: m.id })).length,
    keys: (await h.tdb.db('idempotency_keys')).length,
  });

  it('POST /requests: wallet_id of another account or unknown → the same 404 naming wallet_id; nothing created; the key stays free', async () => {
    const before = await counts();
    const idem = newIdem();
    const foreign = await notFound(
      await h.call(m.key, 'POST', '/v1/requests', request(m, { wallet_id: other.wallets['base'] }), idem, app),
      'wallet_id',
      'error',
    );
    const unknown = await notFound(
      await h.call(m.key, 'POST', '/v1/requests', request(m, { wallet_id: UNKNOWN.wal }), undefined, app),
      'wallet_id',
      'error',
    );
    expect(foreign).toEqual(unknown);
    expect(await counts()).toEqual(before);
    await h.ok(h.call(m.key, 'POST', '/v1/requests', request(m), idem, app), 201); // the rejected call stored nothing under its key
    // A malformed id is an invalid field (422), as its documented pattern says.
    const malformed = await h.call(
      m.key,
      'POST',
      '/v1/requests',
      request(m, { wallet_id: '0x52908400098527886E0F7030069857D2E4169EE7' }),
      undefined,
      app,
    );
    expect(malformed.status).toBe(422);
  });

  it('POST /invoices: customer_id and wallet_id of another account or unknown → the same 404 naming the field; nothing created', async () => {
    const before = await counts();
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ['customer_id', { customer_id: theirContact }, { customer_id: UNKNOWN.con }],
      ['wallet_id', { wallet_id: other.wallets['base'] }, { wallet_id: UNKNOWN.wal }],
    ];
    for (const [field, foreignBody, unknownBody] of cases) {
      const foreign = await notFound(
        await h.call(m.key, 'POST', '/v1/invoices', invoice(foreignBody), undefined, app),
        field,
        'error',
      );
      const unknown = await notFound(
        await h.call(m.key, 'POST', '/v1/invoices', invoice(unknownBody), undefined, app),
        field,
        'error',
      );
      expect(foreign, field).toEqual(unknown);
    }
    expect(await counts()).toEqual(before);
    await h.ok(h.call(m.key, 'POST', '/v1/invoices', invoice(), undefined, app), 201);
  });
});

describe('/v1: ids in bodies', () => {
  const post = (path: string, body: unknown, key = v1.key) =>
    fetch(`${app.url}/v1${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': newIdem() },
      body: JSON.stringify(body),
    });

  it('POST /estimate and /jobs: upload_ids of another company or unknown → the same 404 naming upload_ids.<i>; nothing reserved', async () => {
    for (const path of ['/estimate', '/jobs']) {
      const foreign = await notFound(
        await post(path, { operation: 'pdf-rotate', upload_ids: [v1.foreign], options: { angle: 90 } }),
        'upload_ids.0',
        'detail',
      );
      const unknown = await notFound(
        await post(path, { operation: 'pdf-rotate', upload_ids: [UNKNOWN.upl], options: { angle: 90 } }),
        'upload_ids.0',
        'detail',
      );
      expect(foreign, path).toEqual(unknown);
      // The field named is the one that failed.
      await notFound(
        await post(path, { operation: 'pdf-merge', upload_ids: [v1.pdf, v1.foreign] }),
        'upload_ids.1',
        'detail',
      );
    }
    expect(await h.tdb.db('jobs')).toHaveLength(0);
    expect(await h.tdb.db('credit_reservations')).toHaveLength(0);
    expect((await post('/estimate', { operation: 'pdf-merge', upload_ids: [v1.pdf, v1.pdf2] })).status).toBe(200);
  });

  it('POST /estimate and /jobs: webhook_id unknown, of another company, of /proof, disabled or deleted → the same 404 naming webhook_id; nothing reserved', async () => {
    const endpoint = (tenantId: string, iface: 'v1' | 'proof' = 'v1') =>
      createEndpoint(h.tdb.db, {
        interface: iface,
        tenantId,
        url: 'https://hooks.example.com/in',
        events: [],
        secretSealed: 'sealed-not-used',
      });
    const mine = await endpoint(v1.company);
    const disabled = await endpoint(v1.company);
    await setEndpointStatus(h.tdb.db, disabled.id, 'disabled');
    const deleted = await endpoint(v1.company);
    await setEndpointStatus(h.tdb.db, deleted.id, 'deleted');
    const theirs = await endpoint(v1.otherCompany);
    const proofOne = await endpoint(v1.company, 'proof');
    const body = (webhook_id: string) => ({
      operation: 'pdf-rotate',
      upload_ids: [v1.pdf],
      options: { angle: 90 },
      webhook_id,
    });
    for (const path of ['/estimate', '/jobs']) {
      const answers = [];
      for (const id of [UNKNOWN.whe, theirs.id, proofOne.id, disabled.id, deleted.id])
        answers.push(await notFound(await post(path, body(id)), 'webhook_id', 'detail'));
      for (const a of answers) expect(a, path).toEqual(answers[0]);
      // Ids are checked in body order: an unknown upload is named before the webhook.
      await notFound(await post(path, { ...body(UNKNOWN.whe), upload_ids: [UNKNOWN.upl] }), 'upload_ids.0', 'detail');
    }
    expect(await h.tdb.db('jobs')).toHaveLength(0);
    expect(await h.tdb.db('credit_reservations')).toHaveLength(0);
    expect((await post('/estimate', body(mine.id))).status).toBe(200);
    // A malformed id is an invalid field (422), as its documented pattern says.
    const malformed = await post('/estimate', body('whk_AAAAAAAAAAAAAAAAAAAA'));
    expect(malformed.status).toBe(422);
  });

  it('workflow_id is refused whatever it names (saved workflows serve extraction only), so it reveals nothing either', async () => {
    const answers = [];
    for (const value of ['wfl_AAAAAAAAAAAAAAAAAAAA', 'wfl_BBBBBBBBBBBBBBBBBBBB']) {
      const res = await post('/estimate', {
        operation: 'pdf-rotate',
        upload_ids: [v1.pdf],
        options: { angle: 90 },
        workflow_id: value,
      });
      expect(res.status).toBe(422);
      const { request_id: _, ...rest } = (await res.json()) as ErrorJson;
      expect(rest.issues?.map((i) => i.path)).toContain('workflow_id');
      answers.push(rest);
    }
    expect(answers[0]).toEqual(answers[1]);
  });
});

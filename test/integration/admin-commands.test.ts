import {
  invoicesVoid,
  merchantsCreate,
  merchantsPlan,
  merchantsShow,
  merchantsSuspend,
  walletsAdd,
} from '../../cli/merchant-commands.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { capturingLogger } from '../helpers/logs.js';
import { startReceiver, verifyReceived } from '../helpers/receiver.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { Conformance, obj } from '../helpers/openapi-conformance.js';
import { processingOpenApi } from '../../api/processing/openapi.document.js';
import { startTestWorker, testGateway, uniqueTaskQueue } from '../helpers/temporal.js';
import {
  companiesCreate,
  companiesShow,
  creditsGrant,
  keysCreate,
  keysList,
  keysRevoke,
  membersAdd,
  membersRemove,
  webhooksSendTest,
  waitForFirstAttempt,
} from '../../cli/admin-commands.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { verifyApiKey } from '../../db/repositories/api-keys.repo.js';
import { getDelivery } from '../../db/repositories/webhooks.repo.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';

let tdb: TestDatabase;
let gw: WorkflowGateway;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
const secretBox = createSecretBox(generateSecretsKey());
const now = new Date();

beforeAll(async () => {
  tdb = await createTestDatabase();
  const taskQueue = uniqueTaskQueue('admin');
  worker = await startTestWorker(taskQueue, {
    db: tdb.db,
    logger: capturingLogger().logger,
    secretBox,
    resolver: createSystemResolver(),
    allowLoopbackForTests: true,
  });
  gw = await testGateway(taskQueue);
});
afterAll(async () => {
  await worker?.stop();
  await gw?.close();
  await tdb?.drop();
});

describe('operator commands', () => {
  it('merchants:create trims the name and refuses one that is empty or longer than 120 characters', async () => {
    expect((await merchantsCreate(tdb.db, { name: '  Trimmed Co  ' }, now)).merchant.name).toBe('Trimmed Co');
    for (const name of ['   ', 'x'.repeat(121)])
      await expect(merchantsCreate(tdb.db, { name }, now)).rejects.toMatchObject({
        code: 'validation_failed',
        message: 'merchant name must be 1 to 120 characters',
      });
    expect(
      await tdb
        .db('merchants')
        .where({ name: 'x'.repeat(121) })
        .first(),
    ).toBeUndefined();
  });

  it('creates, lists and revokes keys; the secret appears only in the creation result', async () => {
    const merchant = (await merchantsCreate(tdb.db, { name: 'Ops merchant' }, now)).merchant.id;
    const created = await keysCreate(
      tdb.db,
      {
        interface: 'proof',
        tenant: merchant,
        name: 'server',
        scopes: 'read,write',
        'expires-at': String(Math.floor(now.getTime() / 1000) + 86_400),
      },
      now,
    );
    expect(created.secret).toMatch(/^skp_/);
    expect(created.key.scopes).toEqual(['read', 'write']);
    expect((await verifyApiKey(tdb.db, 'proof', created.secret, now)).ok).toBe(true);
    const listed = await keysList(tdb.db, { interface: 'proof', tenant: merchant });
    expect(listed.keys).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    await keysRevoke(tdb.db, { interface: 'proof', tenant: merchant, id: created.key.id }, now);
    expect(await verifyApiKey(tdb.db, 'proof', created.secret, now)).toEqual({ ok: false, reason: 'revoked' });
    await expect(
      keysRevoke(tdb.db, { interface: 'proof', tenant: 'someone_else', id: created.key.id }, now),
    ).rejects.toThrow(/no such key/);
  });

  it('manages merchants: trial, plans and their key limits, verified wallets, suspension', async () => {
    const { merchant } = await merchantsCreate(tdb.db, { name: 'Plan Co' }, now);
    const first = await keysCreate(
      tdb.db,
      { interface: 'proof', tenant: merchant.id, name: 'a', scopes: 'read,write' },
      now,
    );
    await expect(keysCreate(tdb.db, { interface: 'proof', tenant: merchant.id, name: 'b' }, now)).rejects.toThrow(
      /allows 1 active key/,
    );
    await merchantsPlan(tdb.db, { merchant: merchant.id, plan: 'business' }, now);
    await keysCreate(tdb.db, { interface: 'proof', tenant: merchant.id, name: 'b' }, now);
    await keysCreate(tdb.db, { interface: 'proof', tenant: merchant.id, name: 'c' }, now);
    await expect(keysCreate(tdb.db, { interface: 'proof', tenant: merchant.id, name: 'd' }, now)).rejects.toThrow(
      /business plan allows 3/,
    );
    await keysRevoke(tdb.db, { interface: 'proof', tenant: merchant.id, id: first.key.id }, now);
    await keysCreate(tdb.db, { interface: 'proof', tenant: merchant.id, name: 'd' }, now);
    await expect(merchantsPlan(tdb.db, { merchant: merchant.id, plan: 'gold' }, now)).rejects.toThrow(
      /--plan must be one of starter, business, pro/,
    );

    const { wallet } = await walletsAdd(
      tdb.db,
      { merchant: merchant.id, network: 'base', address: '0x1111111111111111111111111111111111111111', label: 'main' },
      now,
    );
    expect(wallet).toMatchObject({ network: 'base', verifiedAt: now, label: 'main' });
    await expect(
      walletsAdd(
        tdb.db,
        { merchant: merchant.id, network: 'solana', address: '0x1111111111111111111111111111111111111111' },
        now,
      ),
    ).rejects.toThrow(/base58/);
    await expect(walletsAdd(tdb.db, { merchant: merchant.id, network: 'tron', address: 'T1' }, now)).rejects.toThrow(
      /--network must be/,
    );
    const shown = await merchantsShow(tdb.db, { merchant: merchant.id }, now);
    expect(shown.entitlement).toMatchObject({ kind: 'plan', limits: { keys: 3 } });
    expect(shown.wallets.map((w) => w.id)).toEqual([wallet.id]);
    expect(shown.keys).toHaveLength(4);

    const none = (await merchantsCreate(tdb.db, { name: 'No trial', trial: 'false' }, now)).merchant;
    await expect(keysCreate(tdb.db, { interface: 'proof', tenant: none.id, name: 'x' }, now)).rejects.toThrow(
      /active plan or trial/,
    );
    expect((await merchantsSuspend(tdb.db, { merchant: merchant.id }, 'suspended')).merchant.status).toBe('suspended');
  });

  it('refuses bad flags with clear messages', async () => {
    await expect(keysCreate(tdb.db, { interface: 'x', tenant: 't', name: 'n' }, now)).rejects.toThrow(
      '--interface must be v1 or proof',
    );
    await expect(keysCreate(tdb.db, { interface: 'v1', name: 'n' }, now)).rejects.toThrow('--tenant is required');
    await expect(keysCreate(tdb.db, { interface: 'v1', tenant: 't', name: 'n', scopes: 'admin' }, now)).rejects.toThrow(
      /Unknown scope/,
    );
    await expect(
      keysCreate(
        tdb.db,
        {
          interface: 'proof',
          tenant: 'mer_unknown',
          name: 'n',
          'expires-at': String(Math.floor(now.getTime() / 1000) + 400 * 86_400),
        },
        now,
      ),
    ).rejects.toThrow(/366 days/);
    await expect(
      webhooksSendTest(tdb.db, secretBox, { url: 'http://example.com/x' }, now, { allowLoopbackForTests: false }),
    ).rejects.toThrow(/destination policy/);
    // invoices:void (test/integration/invoice-lifecycle.test.ts voids real invoices).
    await expect(invoicesVoid(tdb.db, gw, {})).rejects.toThrow(
      'the invoice id (invoices:void <invoice id>) is required',
    );
    await expect(invoicesVoid(tdb.db, gw, { invoice: 'inv_missing000000000000' })).rejects.toThrow(
      'no such invoice: inv_missing000000000000',
    );
    await expect(
      invoicesVoid(tdb.db, gw, { invoice: 'inv_missing000000000000', reason: 'r'.repeat(501) }),
    ).rejects.toThrow('--reason: the reason must be at most 500 characters');
  });

  it('creates companies, members, member-owned /v1 keys and grants credits', async () => {
    const created = await companiesCreate(tdb.db, { name: 'Ops Co', 'owner-email': 'Owner@Example.com ' });
    expect(created).toMatchObject({
      owner: { email: 'owner@example.com', role: 'billing_admin' },
      credits: { available: '1000', reserved: '0' },
    });
    const companyId = created.company.id;
    const member = (await membersAdd(tdb.db, { company: companyId, email: 'dev@example.com' })).member;
    expect(member.role).toBe('member');
    const key = await keysCreate(
      tdb.db,
      { interface: 'v1', tenant: companyId, owner: member.id, name: 'ci', scopes: 'read,write' },
      now,
    );
    expect(key.secret).toMatch(/^sk_live_/);
    expect(key.key).toMatchObject({ tenantId: companyId, ownerId: member.id });
    await expect(keysCreate(tdb.db, { interface: 'v1', tenant: companyId, name: 'no-owner' }, now)).rejects.toThrow(
      /--owner/,
    );
    expect(await creditsGrant(tdb.db, { company: companyId, amount: '30000', reason: 'plan 29 EUR' })).toEqual({
      credits: { available: '31000', reserved: '0' },
    });
    await expect(creditsGrant(tdb.db, { company: companyId, amount: '-1' })).rejects.toThrow(/positive whole number/);
    await expect(creditsGrant(tdb.db, { company: companyId, amount: '1.5' })).rejects.toThrow(/positive whole number/);
    const shown = await companiesShow(tdb.db, { company: companyId });
    expect(shown.members).toHaveLength(2);
    expect(shown.recent_ledger.map((e) => [e.kind, e.amount])).toEqual([
      ['grant', '30000'],
      ['grant', '1000'],
    ]);
    expect(await membersRemove(tdb.db, { company: companyId, member: member.id }, now)).toEqual({
      revokedKeys: 1,
      revokedInvitations: 0,
    });
    expect((await verifyApiKey(tdb.db, 'v1', key.secret, now)).ok).toBe(false);
    await expect(membersAdd(tdb.db, { company: companyId, email: 'not-an-email' })).rejects.toThrow(/e-mail/);
    await expect(membersAdd(tdb.db, { company: companyId, email: 'x@example.com', role: 'admin' })).rejects.toThrow(
      /role/,
    );
    await expect(companiesShow(tdb.db, { company: 'co_missing' })).rejects.toThrow(/not found/i);
  });

  it('webhooks:send-test delivers a signed test.ping as real deliveries are sent', async () => {
    const receiver = await startReceiver(() => 200);
    const r = await webhooksSendTest(tdb.db, secretBox, { url: receiver.url }, now, { allowLoopbackForTests: true });
    expect(r.retries_workflow_id).toBe(`delivery:${r.delivery_id}`);
    expect(await waitForFirstAttempt(tdb.db, r.delivery_id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
      last_error_class: null,
    });
    expect(JSON.parse(receiver.requests[0]!.body.toString())).toMatchObject({
      id: r.event_id,
      type: 'test.ping',
      api_version: '1.0',
    });
    expect((await getDelivery(tdb.db, r.delivery_id))!.status).toBe('delivered');
    await receiver.close();
  });

  it('webhooks:send-test --interface v1 sends the /v1 body, signed as /v1 deliveries are, and prints the id webhook_id takes', async () => {
    const company = await companiesCreate(tdb.db, { name: 'Ping Co', 'owner-email': 'ping@example.com' });
    const { secret: apiKey } = await keysCreate(
      tdb.db,
      { interface: 'v1', tenant: company.company.id, owner: company.owner.id, name: 'ci', scopes: 'read,write' },
      now,
    );
    const receiver = await startReceiver(() => 200);
    const r = await webhooksSendTest(
      tdb.db,
      secretBox,
      { url: receiver.url, interface: 'v1', tenant: company.company.id },
      now,
      { allowLoopbackForTests: true },
    );
    expect(await waitForFirstAttempt(tdb.db, r.delivery_id)).toMatchObject({ status: 'delivered', attempts: 1 });

    // Signed as every /v1 delivery: the three X-Service headers, no /proof delivery headers.
    const received = receiver.requests[0]!;
    expect(verifyReceived(received, r.signing_secret)).toEqual({ ok: true });
    expect(received.headers['x-service-event-id']).toBe(r.event_id);
    expect(received.headers['x-service-delivery-id']).toBeUndefined();
    expect(received.headers['x-service-key-version']).toBeUndefined();
    // The /v1 body {id, type, created_at, job}, valid against the documented /v1 webhook schema.
    const body = JSON.parse(received.body.toString()) as Record<string, unknown>;
    expect(body).toEqual({ id: r.event_id, type: 'test.ping', created_at: now.toISOString(), job: null });
    const config = testConfig();
    const document = JSON.parse(JSON.stringify(processingOpenApi())) as Record<string, unknown>;
    const ping = obj(obj(obj(document['webhooks'])['test.ping'])['post']);
    const c = new Conformance(document);
    c.expectValid(
      obj(obj(obj(ping['requestBody'])['content'])['application/json'])['schema'],
      body,
      'the /v1 test.ping body',
    );
    const documentedHeaders = ping['parameters'] as Array<{ name: string; schema: unknown }>;
    // The spec's three X-Service headers and the Standard Webhooks ones under the same secret (docs/webhooks.md).
    expect(documentedHeaders.map((p) => p.name).sort()).toEqual([
      'X-Service-Event-Id',
      'X-Service-Signature',
      'X-Service-Timestamp',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
    ]);
    for (const p of documentedHeaders)
      c.expectValid(p.schema, received.headers[p.name.toLowerCase()], `header ${p.name}`);

    // The endpoint id the operator sees is what /v1 `webhook_id` takes: the body is valid, and the first id that names
    // nothing is the (unknown) upload, not the webhook (ids are checked in body order; test/integration/body-ids.test.ts).
    const app = await startTestApp({ db: tdb.db, logger: capturingLogger().logger, config });
    try {
      const res = await fetch(`${app.url}/v1/estimate`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          operation: 'webp',
          upload_ids: ['upl_AAAAAAAAAAAAAAAAAAAA'],
          webhook_id: r.endpoint_id,
        }),
      });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { issues: unknown[] }).issues).toEqual([
        { path: 'upload_ids.0', message: expect.any(String) },
      ]);
    } finally {
      await app.close();
    }
    await receiver.close();
  });
});

import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { createFileStore } from '../../adapters/storage/file-store.js';
import { setEndpointStatus } from '../../db/repositories/webhooks.repo.js';
import { newIdem, ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { pageContents, pdfHexText } from '../helpers/pdf-inspect.js';

const h = new ProofHarness();
let m: TestMerchant;
let other: TestMerchant;
let contactId: string;
let otherContact: string;

// Dates are counted from one instant of this file, so a body and its expected answer agree even across midnight.
const TODAY = Date.now();
const due = (days: number) => new Date(TODAY + days * 86_400_000).toISOString().slice(0, 10);
const invoiceBody = (extra: Record<string, unknown> = {}) => ({
  customer_id: contactId,
  wallet_id: m.wallets['base'],
  due_date: due(14),
  items: [
    { description: 'Design work', quantity: '3', unit_usdc: '120.50' },
    { description: 'Hosting (pro-rated)', quantity: '0.333333', unit_usdc: '30' },
  ],
  tax_mode: 'exclusive',
  tax_rate: '19',
  ...extra,
});

beforeAll(async () => {
  await h.start();
  m = await h.merchant({ plan: 'business', webhook: true });
  other = await h.merchant({ plan: 'business', webhook: true });
  contactId = (
    await h.ok<{ id: string }>(
      h.call(m.key, 'POST', '/v1/contacts', {
        legal_name: 'Buyer GmbH',
        email: 'ap@buyer.example',
        address: 'Hauptstr. 1, Berlin',
        reference: 'C-77',
      }),
      201,
    )
  ).id;
  otherContact = (
    await h.ok<{ id: string }>(
      h.call(other.key, 'POST', '/v1/contacts', { legal_name: 'Other Ltd', email: 'x@other.example' }),
      201,
    )
  ).id;
});
afterAll(() => h.stop());

describe('contacts', () => {
  it('creates and lists contacts; no update or delete; invalid bodies are 422', async () => {
    const list = await h.ok<{ data: Array<{ id: string; legal_name: string }>; next_cursor: string | null }>(
      h.call(m.key, 'GET', '/v1/contacts'),
    );
    expect(list.data).toEqual([
      expect.objectContaining({
        id: contactId,
        legal_name: 'Buyer GmbH',
        email: 'ap@buyer.example',
        reference: 'C-77',
      }),
    ]);
    expect(list.next_cursor).toBeNull();
    for (const bad of [
      { email: 'x@y.example' },
      { legal_name: 'A', email: 'not-an-email' },
      { legal_name: 'x'.repeat(161), email: 'a@b.example' },
      { legal_name: 'A', email: 'a@b.example', phone: '1' },
    ]) {
      expect((await h.call(m.key, 'POST', '/v1/contacts', bad)).status, JSON.stringify(bad)).toBe(422);
    }
    for (const method of ['PUT', 'PATCH', 'DELETE'])
      expect((await h.call(m.key, method, `/v1/contacts/${contactId}`)).status, method).toBe(405);
  });
});

describe('POST /proof/v1/invoices', () => {
  it('issues an invoice with exact totals, exactly one payment request, an immutable document and two events', async () => {
    const before = await h.ok<{ usage: { requests: number; invoices: number } }>(h.call(m.key, 'GET', '/v1/me'));
    const idem = newIdem();
    const res = await h.call(
      m.key,
      'POST',
      '/v1/invoices',
      invoiceBody({ memo: 'Thank you', accounting: { reference: 'PO-9' } }),
      idem,
    );
    const inv = await h.ok<Record<string, unknown>>(res, 201);
    // 3 × 120.50 = 361.50; 0.333333 × 30 = 9.99999; subtotal 371.49999; 19 % = 70.5849981 → 70.584998; total 442.084988
    expect(inv).toMatchObject({
      number: 'INV-000001',
      status: 'issued',
      customer_id: contactId,
      network: 'base',
      due_date: due(14),
      subtotal_usdc: '371.499990',
      tax_usdc: '70.584998',
      total_usdc: '442.084988',
      total_atomic: '442084988',
      amount_atomic: '442084989',
      tax_mode: 'exclusive',
      tax_rate: '19',
      memo: 'Thank you',
      accounting: { reference: 'PO-9' },
      tx_hash: null,
    });
    expect(inv['items']).toEqual([
      { description: 'Design work', quantity: '3', unit_usdc: '120.500000', amount_usdc: '361.500000' },
      { description: 'Hosting (pro-rated)', quantity: '0.333333', unit_usdc: '30.000000', amount_usdc: '9.999990' },
    ]);
    expect(JSON.stringify(inv)).not.toMatch(/Buyer GmbH|ap@buyer|snapshot|share/);

    const requests = await h.tdb.db('payment_requests').where({ merchant_id: m.id, invoice_id: inv['id'] as string });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      id: inv['request_id'],
      quoted_amount_atomic: '442084988',
      amount_atomic: '442084989',
      status: 'AWAITING',
    });
    const request = await h.ok<{ invoice_id: string; url: string }>(
      h.call(m.key, 'GET', `/v1/requests/${inv['request_id'] as string}`),
    );
    expect(request.invoice_id).toBe(inv['id']);

    // The document: stored once with its hash, showing the number, the buyer and the exact amount to pay.
    const row = await h.tdb
      .db('invoices')
      .where({ id: inv['id'] as string })
      .first();
    const stored = readFileSync(createFileStore(h.storageDir).pathOf(row.document_storage_id));
    expect(createHash('sha256').update(stored).digest('hex')).toBe(inv['document_sha256']);
    const pdf = await PDFDocument.load(stored);
    const text = pdf.getPages().map(pageContents).join('\n');
    for (const s of ['INV-000001', 'Buyer GmbH', '442.084989']) expect(text).toContain(pdfHexText(s));
    expect(row.buyer_snapshot).toMatchObject({ legal_name: 'Buyer GmbH', email: 'ap@buyer.example' });

    // A replay returns the same invoice and consumes nothing; reading never re-renders.
    const replay = await h.call(
      m.key,
      'POST',
      '/v1/invoices',
      invoiceBody({ memo: 'Thank you', accounting: { reference: 'PO-9' } }),
      idem,
    );
    expect(replay.status).toBe(201);
    expect(((await replay.json()) as { id: string }).id).toBe(inv['id']);
    expect(await h.ok(h.call(m.key, 'GET', `/v1/invoices/${inv['id'] as string}`))).toEqual(inv);
    expect(
      (
        await h.tdb
          .db('invoices')
          .where({ id: inv['id'] as string })
          .first()
      ).document_sha256,
    ).toBe(inv['document_sha256']);
    const after = await h.ok<{ usage: { requests: number; invoices: number } }>(h.call(m.key, 'GET', '/v1/me'));
    expect(after.usage).toEqual({
      ...before.usage,
      requests: before.usage.requests + 1,
      invoices: before.usage.invoices + 1,
      window_start: expect.any(String),
    });

    // Events: payment_request.created then invoice.issued, with the documented fields and nothing private.
    const events = await h.ok<{
      data: Array<{
        cursor: number;
        event: { id: string; api_version: string; type: string; occurred_at: number; data: Record<string, unknown> };
      }>;
      next_cursor: number;
    }>(h.call(m.key, 'GET', '/v1/events?after=0&limit=50'));
    const mine = events.data.filter((e) => e.event.data['request_id'] === inv['request_id']);
    expect(mine.map((e) => e.event.type)).toEqual(['payment_request.created', 'invoice.issued']);
    expect(mine[1]!.event).toMatchObject({
      api_version: '1.0',
      occurred_at: expect.any(Number),
      data: {
        invoice_id: inv['id'],
        request_id: inv['request_id'],
        number: 'INV-000001',
        status: 'issued',
        network: 'base',
        amount_atomic: '442084989',
        tx_hash: null,
      },
    });
    expect(mine[0]!.event.data).toEqual({
      request_id: inv['request_id'],
      network: 'base',
      amount_atomic: '442084989',
      quoted_amount_atomic: '442084988',
      status: 'AWAITING',
    });
    expect(JSON.stringify(events)).not.toMatch(/Buyer|ap@buyer|Design work|whsec/);
    expect(mine[0]!.cursor).toBeLessThan(mine[1]!.cursor);
  });

  it('validates the body, the contact and the due date (422), and refuses send_now', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ customer_id: 'con_x' }, 'customer_id'], // malformed; a well-formed unknown or foreign one is 404 (body-ids.test.ts)
      [{ due_date: '2020-01-01' }, 'due_date'],
      [{ due_date: '2026-02-30' }, 'due_date'],
      [{ send_now: true }, 'send_now'],
      [{ items: [] }, 'items'],
      [{ items: [{ description: 'x', quantity: '1.1234567', unit_usdc: '1' }] }, 'items.0.quantity'],
      [{ tax_mode: 'fixed' }, 'tax_usdc'],
      [{ wallet_id: 'wal_x' }, 'wallet_id'],
    ];
    for (const [extra, path] of cases) {
      const res = await h.call(m.key, 'POST', '/v1/invoices', invoiceBody(extra));
      const json = (await res.json()) as { issues?: Array<{ path: string }> };
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(
        json.issues?.map((i) => i.path),
        JSON.stringify(extra),
      ).toContain(path);
    }
  });

  it('an invoice consumes one request and one invoice allowance; over the quota is 422 and creates nothing', async () => {
    const t = await h.merchant();
    const c = (
      await h.ok<{ id: string }>(
        h.call(t.key, 'POST', '/v1/contacts', { legal_name: 'T Buyer', email: 't@buyer.example' }),
        201,
      )
    ).id;
    // Two days ahead: the end of that day is within the trial's 72-hour payment window.
    const body = {
      customer_id: c,
      wallet_id: t.wallets['base'],
      due_date: due(2),
      items: [{ description: 'Item', quantity: '1', unit_usdc: '10' }],
    };
    for (let i = 0; i < 6; i++) await h.ok(h.call(t.key, 'POST', '/v1/invoices', body), 201);
    for (let i = 0; i < 6; i++)
      await h.ok(
        h.call(t.key, 'POST', '/v1/requests', {
          wallet_id: t.wallets['base'],
          amount_usdc: '1',
          description: 'direct',
        }),
        201,
      );
    const over = await h.call(t.key, 'POST', '/v1/invoices', body);
    expect(over.status).toBe(422);
    expect(await over.json()).toMatchObject({ code: 'quota_exceeded' });
    expect(await h.tdb.db('invoices').where({ merchant_id: t.id })).toHaveLength(6);
    expect(await h.tdb.db('payment_requests').where({ merchant_id: t.id })).toHaveLength(12);
    // The invoice's request stays open until the end of its due date, within the trial's 72 hours.
    const r = await h.tdb.db('payment_requests').where({ merchant_id: t.id }).whereNotNull('invoice_id').first();
    expect(r.valid_hours).toBeLessThanOrEqual(72);
    expect(r.expires_at.getTime()).toBeGreaterThanOrEqual(Date.parse(`${due(2)}T23:59:59Z`));
  });
});

describe('send, list, and the 404 matrix', () => {
  it('send queues one e-mail only with user_approved: true; a voided invoice is 409', async () => {
    const inv = await h.ok<{ id: string }>(h.call(m.key, 'POST', '/v1/invoices', invoiceBody()), 201);
    for (const bad of [{}, { user_approved: false }, { user_approved: 'true' }, { user_approved: true, to: 'x@y.z' }]) {
      expect((await h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, bad)).status, JSON.stringify(bad)).toBe(422);
    }
    expect(await h.tdb.db('invoice_mail_outbox').where({ invoice_id: inv.id })).toHaveLength(0);
    expect(await h.ok(h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true }))).toEqual({
      id: inv.id,
      mail_status: 'queued',
    });
    expect(await h.ok(h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true }))).toEqual({
      id: inv.id,
      mail_status: 'queued',
    });
    const outbox = await h.tdb.db('invoice_mail_outbox').where({ invoice_id: inv.id });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ to_email: 'ap@buyer.example', status: 'queued', sent_at: null });
    await h.tdb.db('invoices').where({ id: inv.id }).update({ status: 'voided', voided_at: new Date() });
    const voided = await h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true });
    expect(voided.status).toBe(409);
  });

  it('pages invoices by id', async () => {
    const all = await h.ok<{ data: Array<{ id: string }> }>(h.call(m.key, 'GET', '/v1/invoices?limit=100'));
    const first = await h.ok<{ data: Array<{ id: string }>; next_cursor: string }>(
      h.call(m.key, 'GET', '/v1/invoices?limit=1'),
    );
    const second = await h.ok<{ data: Array<{ id: string }> }>(
      h.call(m.key, 'GET', `/v1/invoices?limit=1&before=${first.next_cursor}`),
    );
    expect([first.data[0]!.id, second.data[0]!.id]).toEqual(all.data.slice(0, 2).map((i) => i.id));
    expect(all.data.map((i) => i.id)).toEqual([...all.data.map((i) => i.id)].sort().reverse());
  });

  it("every id route answers 404 for another tenant's id and for an unknown id", async () => {
    const theirInvoice = await h.ok<{ id: string; request_id: string }>(
      h.call(other.key, 'POST', '/v1/invoices', {
        customer_id: otherContact,
        wallet_id: other.wallets['base'],
        due_date: due(5),
        items: [{ description: 'x', quantity: '1', unit_usdc: '1' }],
      }),
      201,
    );
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/v1/requests/${theirInvoice.request_id}`],
      ['GET', `/v1/contacts/${otherContact}`],
      ['GET', `/v1/invoices/${theirInvoice.id}`],
      ['POST', `/v1/invoices/${theirInvoice.id}/send`, { user_approved: true }],
      ['GET', '/v1/requests/req_AAAAAAAAAAAAAAAAAAAA'],
      ['GET', '/v1/contacts/con_AAAAAAAAAAAAAAAAAAAA'],
      ['GET', '/v1/invoices/inv_AAAAAAAAAAAAAAAAAAAA'],
      ['POST', '/v1/invoices/inv_AAAAAAAAAAAAAAAAAAAA/send', { user_approved: true }],
    ];
    for (const [method, path, body] of routes) {
      const res = await h.call(m.key, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
    expect(await h.tdb.db('invoice_mail_outbox').where({ invoice_id: theirInvoice.id })).toHaveLength(0);
  });
});

describe('events', () => {
  it('exist only while an endpoint is enabled; the list serves the stored bytes with increasing cursors', async () => {
    const quiet = await h.merchant({ plan: 'starter' });
    await h.ok(
      h.call(quiet.key, 'POST', '/v1/requests', {
        wallet_id: quiet.wallets['base'],
        amount_usdc: '2',
        description: 'before any endpoint',
      }),
      201,
    );
    expect(await h.ok(h.call(quiet.key, 'GET', '/v1/events'))).toEqual({ data: [], next_cursor: 0 });
    const endpoint = await h.enableWebhook(quiet.id);
    const made = await h.ok<{ id: string }>(
      h.call(quiet.key, 'POST', '/v1/requests', {
        wallet_id: quiet.wallets['base'],
        amount_usdc: '2',
        description: 'with an endpoint',
      }),
      201,
    );
    await setEndpointStatus(h.tdb.db, endpoint, 'disabled');
    await h.ok(h.call(quiet.key, 'GET', '/v1/requests'));
    await h.ok(
      h.call(quiet.key, 'POST', '/v1/requests', {
        wallet_id: quiet.wallets['base'],
        amount_usdc: '2',
        description: 'after disabling',
      }),
      201,
    );

    const res = await h.call(quiet.key, 'GET', '/v1/events?after=0');
    const raw = await res.text();
    const list = JSON.parse(raw) as {
      data: Array<{ cursor: number; event: { id: string; data: { request_id: string } } }>;
      next_cursor: number;
    };
    expect(list.data.map((e) => e.event.data.request_id)).toEqual([made.id]);
    const stored = await h.tdb.db('proof_events').where({ id: list.data[0]!.event.id }).first();
    expect(raw).toContain(Buffer.from(stored.body).toString('utf8'));
    expect(list.next_cursor).toBe(list.data[0]!.cursor);
    expect(await h.ok(h.call(quiet.key, 'GET', `/v1/events?after=${list.next_cursor}`))).toEqual({
      data: [],
      next_cursor: list.next_cursor,
    });
    for (const q of ['after=-1', 'after=x', 'limit=0', 'limit=101'])
      expect((await h.call(quiet.key, 'GET', `/v1/events?${q}`)).status, q).toBe(422);
    await expect(
      h.tdb.db('proof_events').where({ id: list.data[0]!.event.id }).update({ type: 'changed' }),
    ).rejects.toThrow(/immutable/);
    // Another merchant's events are not visible.
    const theirs = await h.ok<{ data: Array<{ event: { data: { request_id: string } } }> }>(
      h.call(other.key, 'GET', '/v1/events?limit=100'),
    );
    expect(theirs.data.some((e) => e.event.data.request_id === made.id)).toBe(false);
  });

  it("cursors are numbered per account: another account's events change nothing in them, and paging by after is exact", async () => {
    const [mine, theirs] = [
      await h.merchant({ plan: 'business', webhook: true }),
      await h.merchant({ plan: 'business', webhook: true }),
    ];
    const create = (who: TestMerchant, i: number) =>
      h.ok(
        h.call(who.key, 'POST', '/v1/requests', {
          wallet_id: who.wallets['base'],
          amount_usdc: String(3 + i),
          description: `order ${i}`,
        }),
        201,
      );
    const cursorsOf = async (who: TestMerchant) =>
      (
        await h.ok<{ data: Array<{ cursor: number }> }>(h.call(who.key, 'GET', '/v1/events?after=0&limit=100'))
      ).data.map((e) => e.cursor);
    await create(mine, 0);
    // Other accounts' events, between and beside this one's, leave no trace in its cursors.
    for (let i = 0; i < 3; i++) await create(theirs, i);
    await create(mine, 1);
    await Promise.all([...[2, 3, 4].map((i) => create(mine, i)), ...[3, 4, 5, 6].map((i) => create(theirs, i))]);
    expect(await cursorsOf(mine)).toEqual([1, 2, 3, 4, 5]);
    expect(await cursorsOf(theirs)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Paging with next_cursor visits every event once, in order; the dashboard's list is the same.
    const seen: number[] = [];
    for (let after = 0; ;) {
      const page = await h.ok<{ data: Array<{ cursor: number }>; next_cursor: number }>(
        h.call(mine.key, 'GET', `/v1/events?after=${after}&limit=2`),
      );
      if (!page.data.length) {
        expect(page.next_cursor).toBe(after);
        break;
      }
      seen.push(...page.data.map((e) => e.cursor));
      after = page.next_cursor;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('the migration to per-account cursors keeps the cursors clients hold: old events keep theirs, new ones continue after them', async () => {
    const { createTestDatabase } = await import('../helpers/db.js');
    const seqMigration = await import('../../db/migrations/20261127100100_add_proof_event_seq.js');
    const tdb = await createTestDatabase();
    try {
      const db = tdb.db;
      await seqMigration.down(db);
      await db('merchants').insert([
        { id: 'mer_LegacyA0000000000001', name: 'A' },
        { id: 'mer_LegacyB0000000000001', name: 'B' },
      ]);
      // The old global sequence, shared by both accounts.
      for (const [i, merchant] of ['A', 'B', 'B', 'A', 'B'].entries()) {
        await db('proof_events').insert({
          id: `evt_legacy${String(i).padStart(11, '0')}`,
          merchant_id: `mer_Legacy${merchant}0000000000001`,
          type: 'payment_request.created',
          body: Buffer.from('{}'),
        });
      }
      const before = await db('proof_events').orderBy('cursor').select('id', 'merchant_id', 'cursor');
      await seqMigration.up(db);
      const after = await db('proof_events').orderBy('cursor').select('id', 'merchant_id', 'cursor', 'seq');
      expect(after.map((e) => ({ id: e.id, seq: Number(e.seq) }))).toEqual(
        before.map((e) => ({ id: e.id, seq: Number(e.cursor) })),
      );
      const { appendProofEvent } = await import('../../db/repositories/proof-events.repo.js');
      await db('webhook_endpoints').insert({
        id: 'whe_LegacyA000000000001',
        interface: 'proof',
        tenant_id: 'mer_LegacyA0000000000001',
        url: 'https://hooks.example.com/a',
        events: ['payment_request.created'],
        secret_sealed: h.secretBox.seal('whsec_a'),
      });
      await db('merchants').where({ id: 'mer_LegacyA0000000000001' }).update({ trial_started_at: new Date() });
      const next = await db.transaction(async (trx) => {
        await trx('merchants').where({ id: 'mer_LegacyA0000000000001' }).forUpdate();
        return appendProofEvent(trx, {
          merchantId: 'mer_LegacyA0000000000001',
          type: 'payment_request.created',
          occurredAt: new Date(),
          data: {},
        });
      });
      const lastOfA = Math.max(
        ...before.filter((e) => e.merchant_id === 'mer_LegacyA0000000000001').map((e) => Number(e.cursor)),
      );
      expect(next?.cursor).toBe(lastOfA + 1);
      await expect(
        db('proof_events').insert({
          id: 'evt_legacyDuplicate01',
          merchant_id: 'mer_LegacyA0000000000001',
          type: 'x',
          body: Buffer.from('{}'),
          seq: lastOfA,
        }),
      ).rejects.toThrow(/unique|duplicate/);
    } finally {
      await tdb.drop();
    }
  });
});

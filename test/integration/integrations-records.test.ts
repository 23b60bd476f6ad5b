import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { pdfPageText } from '../helpers/pdf-inspect.js';

/**
 * The merchant's records in the dashboard session (`/api/integrations`): payment requests, contacts, invoices (with
 * the issued document's download and voiding through the `invoice:<id>` workflow of a real worker) and events, over
 * HTTP against the real app, PostgreSQL and Temporal. The session routes are the /proof/v1 handlers, so what one
 * creates the other reads, and an Idempotency-Key is one key across both.
 */
const h = new ProofHarness();

beforeAll(async () => {
  await h.start({}, { workflows: true });
  await h.startMailWorker(); // every activity, the invoice lifecycle included
});
afterAll(() => h.stop());

async function json<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function signedIn(
  plan: 'starter' | 'business' | 'pro' = 'business',
): Promise<{ m: TestMerchant; dash: DashboardClient }> {
  const m = await h.merchant({ plan, webhook: true });
  const u = await createDashboardUser(h.tdb.db, m.id);
  const dash = new DashboardClient(h.app.url);
  expect((await dash.signIn(u.email, u.password)).status).toBe(201);
  return { m, dash };
}

const dueIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('payment requests and contacts in the session', () => {
  it('creates, lists with a status filter and pages, and reads a request; the API key sees the same objects', async () => {
    const { m, dash } = await signedIn();
    const created: Array<{ id: string }> = [];
    for (const amount of ['1', '2', '3']) {
      created.push(
        await json(
          await dash.request('POST', '/requests', {
            wallet_id: m.wallets['base'],
            amount_usdc: amount,
            description: `Dashboard order ${amount}`,
          }),
          201,
        ),
      );
    }
    const viaKey = await h.ok(h.call(m.key, 'GET', `/v1/requests/${created[0]!.id}`));
    expect(await json(await dash.request('GET', `/requests/${created[0]!.id}`), 200)).toEqual(viaKey);

    const first = await json<{ data: Array<{ id: string }>; next_cursor: string }>(
      await dash.request('GET', '/requests?limit=2&status=AWAITING'),
      200,
    );
    const second = await json<{ data: Array<{ id: string }>; next_cursor: string | null }>(
      await dash.request('GET', `/requests?limit=2&status=AWAITING&before=${first.next_cursor}`),
      200,
    );
    expect([...first.data, ...second.data].map((r) => r.id)).toEqual(
      created
        .map((r) => r.id)
        .sort()
        .reverse(),
    );
    expect((await json<{ data: unknown[] }>(await dash.request('GET', '/requests?status=EXPIRED'), 200)).data).toEqual(
      [],
    );
    for (const q of ['status=awaiting', 'status=', 'limit=0', 'before=0']) {
      expect((await json<{ code: string }>(await dash.request('GET', `/requests?${q}`), 422)).code).toBe(
        'validation_failed',
      );
    }
    // A foreign id is not found; another merchant's list is empty.
    const other = await signedIn();
    await json(await other.dash.request('GET', `/requests/${created[0]!.id}`), 404);
    expect((await json<{ data: unknown[] }>(await other.dash.request('GET', '/requests'), 200)).data).toEqual([]);
  });

  it('one Idempotency-Key across the session and the API key: the same creation replays, another body conflicts', async () => {
    const { m, dash } = await signedIn();
    const body = { wallet_id: m.wallets['base'], amount_usdc: '7.25', description: 'Same key on both interfaces' };
    const idem = `idem_shared_${Date.now()}`;
    const a = await json<{ id: string }>(await dash.request('POST', '/requests', body, { idem }), 201);
    const b = await h.ok<{ id: string }>(h.call(m.key, 'POST', '/v1/requests', body, idem), 201);
    expect(b.id).toBe(a.id);
    await json(await dash.request('POST', '/requests', { ...body, amount_usdc: '8' }, { idem }), 409);
  });

  it('creates and reads contacts', async () => {
    const { dash } = await signedIn();
    const c = await json<{ id: string }>(
      await dash.request('POST', '/contacts', { legal_name: 'Buyer GmbH', email: 'ap@buyer.example' }),
      201,
    );
    expect(
      (await json<{ data: Array<{ id: string }> }>(await dash.request('GET', '/contacts'), 200)).data.map((x) => x.id),
    ).toEqual([c.id]);
    expect(await json(await dash.request('GET', `/contacts/${c.id}`), 200)).toMatchObject({
      id: c.id,
      legal_name: 'Buyer GmbH',
    });
  });
});

describe('invoices in the session', () => {
  it('issues an invoice, downloads the issued PDF (the stored bytes, by hash), voids it with a reason (its workflow settles voided), and lists its events', async () => {
    const { m, dash } = await signedIn();
    const contact = await json<{ id: string }>(
      await dash.request('POST', '/contacts', { legal_name: 'Download Buyer Ltd', email: 'billing@download.example' }),
      201,
    );
    const invoice = await json<{
      id: string;
      number: string;
      document_sha256: string;
      request_id: string;
      status: string;
    }>(
      await dash.request('POST', '/invoices', {
        customer_id: contact.id,
        wallet_id: m.wallets['base'],
        due_date: dueIn(5),
        items: [{ description: 'Consulting', quantity: '2', unit_usdc: '150' }],
      }),
      201,
    );
    expect(invoice.status).toBe('issued');
    expect(await json(await dash.request('GET', `/invoices/${invoice.id}`), 200)).toEqual(
      await h.ok(h.call(m.key, 'GET', `/v1/invoices/${invoice.id}`)),
    );

    const pdf = await dash.request('GET', `/invoices/${invoice.id}/document`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${invoice.number}.pdf"`);
    expect(pdf.headers.get('cache-control')).toBe('private, no-store');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(invoice.document_sha256);
    expect(pdfPageText(bytes, 1)).toContain(invoice.number);
    const other = await signedIn();
    await json(await other.dash.request('GET', `/invoices/${invoice.id}/document`), 404);

    for (const body of [{ reason: 7 }, { reason: 'x'.repeat(501) }, { why: 'no' }]) {
      expect(
        (await json<{ code: string }>(await dash.request('POST', `/invoices/${invoice.id}/void`, body), 422)).code,
      ).toBe('validation_failed');
    }
    const voided = await json<{ status: string; voided_at: string }>(
      await dash.request('POST', `/invoices/${invoice.id}/void`, { reason: 'Issued to the wrong buyer' }),
      200,
    );
    expect(voided.status).toBe('voided');
    expect((await h.tdb.db('invoices').where({ id: invoice.id }).first()).void_reason).toBe(
      'Issued to the wrong buyer',
    );
    expect(
      (await json<{ status: string }>(await dash.request('GET', `/requests/${invoice.request_id}`), 200)).status,
    ).toBe('VOIDED');
    // The invoice's lifecycle workflow, nudged after the commit, settles as voided.
    expect(await h.gateway!.client.workflow.getHandle(`invoice:${invoice.id}`).result()).toEqual({ status: 'voided' });
    // Again: unchanged, no second event.
    expect(
      (await json<{ voided_at: string }>(await dash.request('POST', `/invoices/${invoice.id}/void`, {}), 200))
        .voided_at,
    ).toBe(voided.voided_at);
    await json(await other.dash.request('POST', `/invoices/${invoice.id}/void`, {}), 404);

    const events = await json<{
      data: Array<{ cursor: number; event: { type: string; data: Record<string, unknown> } }>;
      next_cursor: number;
    }>(await dash.request('GET', '/events?after=0&limit=100'), 200);
    expect(events.data.map((e) => e.event.type)).toEqual([
      'payment_request.created',
      'invoice.issued',
      'invoice.voided',
    ]);
    expect(await json(await dash.request('GET', '/events?after=0&limit=100'), 200)).toEqual(
      await h.ok(h.call(m.key, 'GET', '/v1/events?after=0&limit=100')),
    );
    // No key secret in any list or event the session shows.
    for (const path of [
      '',
      '/events',
      '/requests',
      '/invoices',
      '/contacts',
      '/deliveries',
      '/reviews',
      '/wallets',
      '/plan',
    ]) {
      expect(await (await dash.request('GET', path)).text()).not.toContain(m.key);
    }
  });

  it('a paid invoice cannot be voided (409)', async () => {
    const { m, dash } = await signedIn();
    const contact = await json<{ id: string }>(
      await dash.request('POST', '/contacts', { legal_name: 'Paid Buyer', email: 'paid@buyer.example' }),
      201,
    );
    const invoice = await json<{ id: string; request_id: string }>(
      await dash.request('POST', '/invoices', {
        customer_id: contact.id,
        wallet_id: m.wallets['base'],
        due_date: dueIn(3),
        items: [{ description: 'Work', quantity: '1', unit_usdc: '10' }],
      }),
      201,
    );
    await h.tdb.db('invoices').where({ id: invoice.id }).update({ status: 'paid', paid_at: new Date() });
    await h.tdb.db('payment_requests').where({ id: invoice.request_id }).update({ status: 'PAID' });
    expect(
      (await json<{ code: string }>(await dash.request('POST', `/invoices/${invoice.id}/void`, {}), 409)).code,
    ).toBe('conflict');
  });
});

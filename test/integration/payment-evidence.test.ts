import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObservedTransfer } from '../../domain/proof/matching.js';
import { applyTransfer } from '../../db/repositories/payment-evidence.repo.js';
import { ADDRESSES, ProofHarness, type TestMerchant } from '../helpers/proof.js';

/**
 * Applying confirmed transfer evidence (what the payment watcher does for every transfer it finds): PAID with
 * its events exactly once, REVIEW by the documented rules, nothing twice.
 */
const h = new ProofHarness();
let m: TestMerchant;
const PAYER = `0x${'aa'.repeat(20)}`;

beforeAll(async () => {
  await h.start();
  m = await h.merchant({ plan: 'business', webhook: true });
});
afterAll(() => h.stop());

const tx = () => `0x${randomBytes(32).toString('hex')}`;
const transfer = (amountAtomic: string, extra: Partial<ObservedTransfer> = {}): ObservedTransfer => ({
  network: 'base',
  txHash: tx(),
  logIndex: 3,
  from: PAYER,
  to: ADDRESSES.base,
  amountAtomic: BigInt(amountAtomic),
  blockNumber: 1234,
  blockTime: new Date(),
  ...extra,
});
const newRequest = async (extra: Record<string, unknown> = {}) =>
  h.ok<{ id: string; amount_atomic: string; quoted_amount_atomic: string }>(
    h.call(m.key, 'POST', '/v1/requests', {
      wallet_id: m.wallets['base'],
      amount_usdc: '20',
      description: 'Evidence test',
      ...extra,
    }),
    201,
  );
const eventsOf = async (requestId: string) => {
  const list = await h.ok<{ data: Array<{ event: { type: string; data: Record<string, unknown> } }> }>(
    h.call(m.key, 'GET', '/v1/events?limit=100'),
  );
  return list.data.filter((e) => e.event.data['request_id'] === requestId).map((e) => e.event);
};

describe('applying transfer evidence', () => {
  it('an exact payment of an invoice marks the request PAID and emits payment.confirmed and invoice.paid once', async () => {
    const contact = (
      await h.ok<{ id: string }>(
        h.call(m.key, 'POST', '/v1/contacts', { legal_name: 'Payer Co', email: 'p@payer.example' }),
        201,
      )
    ).id;
    const inv = await h.ok<{ id: string; request_id: string; amount_atomic: string }>(
      h.call(m.key, 'POST', '/v1/invoices', {
        customer_id: contact,
        wallet_id: m.wallets['base'],
        due_date: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
        items: [{ description: 'Work', quantity: '2', unit_usdc: '50' }],
      }),
      201,
    );
    // A checksummed recipient matches the stored address.
    const t = transfer(inv.amount_atomic, { to: ADDRESSES.base.toUpperCase().replace('0X', '0x') });
    const results = await Promise.all(Array.from({ length: 5 }, () => applyTransfer(h.tdb.db, t, new Date())));
    const paid = results.filter((r) => r.outcome === 'paid');
    expect(paid).toEqual([
      {
        outcome: 'paid',
        requestId: inv.request_id,
        events: 2,
        deliveryIds: [expect.stringMatching(/^dlv_/), expect.stringMatching(/^dlv_/)],
        invoiceId: inv.id,
      },
    ]);
    // The merchant's endpoint takes every type: one delivery per event, recorded with it, holding its bytes.
    const deliveries = await h.tdb
      .db('webhook_deliveries')
      .whereIn('id', (paid[0] as { deliveryIds: string[] }).deliveryIds)
      .orderBy('event_type')
      .select('event_type', 'status', 'body', 'event_id');
    expect(deliveries.map((d) => [d.event_type, d.status])).toEqual([
      ['invoice.paid', 'pending'],
      ['payment.confirmed', 'pending'],
    ]);
    for (const d of deliveries)
      expect(
        Buffer.compare(d.body, (await h.tdb.db('proof_events').where({ id: d.event_id }).first('body')).body),
      ).toBe(0);
    expect(results.filter((r) => r.outcome === 'duplicate')).toHaveLength(4);
    expect(await applyTransfer(h.tdb.db, t, new Date())).toEqual({ outcome: 'duplicate' });

    const request = await h.ok<{ status: string; tx_hash: string; verified_at: string }>(
      h.call(m.key, 'GET', `/v1/requests/${inv.request_id}`),
    );
    expect(request).toMatchObject({ status: 'PAID', tx_hash: t.txHash, verified_at: expect.any(String) });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/invoices/${inv.id}`))).toMatchObject({
      status: 'paid',
      tx_hash: t.txHash,
      paid_at: expect.any(String),
    });
    const events = await eventsOf(inv.request_id);
    expect(events.map((e) => e.type)).toEqual([
      'payment_request.created',
      'invoice.issued',
      'payment.confirmed',
      'invoice.paid',
    ]);
    expect(events[2]!.data).toEqual({
      request_id: inv.request_id,
      network: 'base',
      amount_atomic: inv.amount_atomic,
      quoted_amount_atomic: '100000000',
      status: 'PAID',
      tx_hash: t.txHash,
      verified_at: request.verified_at,
    });
    expect(events[3]!.data).toMatchObject({ invoice_id: inv.id, status: 'paid', tx_hash: t.txHash });
    const page = await (await fetch(`${h.app.url}/proof/pay/${inv.request_id}`)).text();
    expect(page).toContain(t.txHash);
  });

  it('a wrong amount matches nothing; the quoted amount alone never matches', async () => {
    const r = await newRequest();
    for (const amount of [r.quoted_amount_atomic, (BigInt(r.amount_atomic) + 1n).toString()]) {
      expect(await applyTransfer(h.tdb.db, transfer(amount), new Date())).toEqual({ outcome: 'unmatched' });
    }
    expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${r.id}`))).toMatchObject({
      status: 'AWAITING',
      tx_hash: null,
    });
    // On another network or to another address, the same amount is not this request's either.
    expect(await applyTransfer(h.tdb.db, transfer(r.amount_atomic, { network: 'polygon' }), new Date())).toEqual({
      outcome: 'unmatched',
    });
    expect(
      await applyTransfer(h.tdb.db, transfer(r.amount_atomic, { to: `0x${'99'.repeat(20)}` }), new Date()),
    ).toEqual({ outcome: 'unmatched' });
    expect(await eventsOf(r.id)).toHaveLength(1);
  });

  it('a payer other than expected_payer, or a payment after expiry, goes to REVIEW and confirms nothing', async () => {
    const expecting = await newRequest({ expected_payer: `0x${'bb'.repeat(20)}` });
    expect(await applyTransfer(h.tdb.db, transfer(expecting.amount_atomic), new Date())).toEqual({
      outcome: 'review',
      requestId: expecting.id,
      reason: 'unexpected_payer',
    });
    const late = await newRequest({ valid_hours: 1 });
    expect(
      await applyTransfer(
        h.tdb.db,
        transfer(late.amount_atomic, { blockTime: new Date(Date.now() + 2 * 3600_000) }),
        new Date(),
      ),
    ).toEqual({
      outcome: 'review',
      requestId: late.id,
      reason: 'after_expiry',
    });
    for (const id of [expecting.id, late.id]) {
      expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${id}`))).toMatchObject({
        status: 'REVIEW',
        verified_at: null,
      });
      expect((await eventsOf(id)).map((e) => e.type)).toEqual(['payment_request.created']);
    }
    // A second payment for a request in review changes nothing.
    expect(await applyTransfer(h.tdb.db, transfer(expecting.amount_atomic), new Date())).toEqual({
      outcome: 'already_settled',
      requestId: expecting.id,
    });
  });

  it('a transfer made before a request existed never pays it, even with its exact amount', async () => {
    const old = await newRequest({ amount_usdc: '33.33' });
    const hour = 3_600_000;
    await h.tdb
      .db('payment_requests')
      .where({ id: old.id })
      .update({
        status: 'EXPIRED',
        created_at: new Date(Date.now() - 3 * hour),
        expires_at: new Date(Date.now() - 2 * hour),
      });
    const fresh = await newRequest({ amount_usdc: '33.33' });
    expect(fresh.amount_atomic).toBe(old.amount_atomic); // the expired request freed its amount
    // Paid 90 minutes ago (a watcher catching up finds it now): a late payment of the old request, not of the new one.
    expect(
      await applyTransfer(
        h.tdb.db,
        transfer(fresh.amount_atomic, { blockTime: new Date(Date.now() - 1.5 * hour) }),
        new Date(),
      ),
    ).toEqual({
      outcome: 'review',
      requestId: old.id,
      reason: 'after_expiry',
    });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${fresh.id}`))).toMatchObject({
      status: 'AWAITING',
      tx_hash: null,
    });
    // The old request keeps its state (its amount is held by the new one); the payment is review evidence on it.
    expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${old.id}`))).toMatchObject({ status: 'EXPIRED' });
    expect(await h.tdb.db('payment_evidence').where({ request_id: old.id }).select('decision', 'reason')).toEqual([
      { decision: 'review', reason: 'after_expiry' },
    ]);
    // A transfer from within the clock tolerance of the creation still pays it.
    const paid = await applyTransfer(
      h.tdb.db,
      transfer(fresh.amount_atomic, { blockTime: new Date(Date.now() - 60_000) }),
      new Date(),
    );
    expect(paid).toMatchObject({ outcome: 'paid', requestId: fresh.id });
  });

  it('a second payment of a paid amount is kept as unmatched evidence and emits nothing', async () => {
    const r = await newRequest();
    expect((await applyTransfer(h.tdb.db, transfer(r.amount_atomic), new Date())).outcome).toBe('paid');
    expect(await applyTransfer(h.tdb.db, transfer(r.amount_atomic), new Date())).toEqual({ outcome: 'unmatched' });
    expect((await eventsOf(r.id)).map((e) => e.type)).toEqual(['payment_request.created', 'payment.confirmed']);
    expect(
      await h.tdb.db('payment_evidence').where({ amount_atomic: r.amount_atomic }).orderBy('id').select('decision'),
    ).toEqual([{ decision: 'paid' }, { decision: 'unmatched' }]);
  });
});

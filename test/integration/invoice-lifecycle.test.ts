import { randomBytes } from 'node:crypto';
import { deliveryOutcome } from '../helpers/deliveries.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { EvmTransferScanner } from '../../adapters/chains/evm/evm-transfer-scanner.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { invoicesVoid } from '../../cli/merchant-commands.js';
import type { ObservedTransfer } from '../../domain/proof/matching.js';
import { applyTransfer } from '../../db/repositories/payment-evidence.repo.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { startReceiver } from '../helpers/receiver.js';
import { ADDRESSES, ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { startTestWorker } from '../helpers/temporal.js';
import { PROOF_EVENT_TYPES } from '../../domain/proof/events.js';

/**
 * The invoice lifecycle (spec section 3): `invoice:<id>` starts with the invoice and ends `voided` (operator
 * command `invoices:void`, through the workflow's `void` update) or `paid` (the payment watcher's signal).
 * Voiding emits `invoice.voided`, closes the request as VOIDED and restores no quota; a paid invoice cannot be
 * voided; a later payment of a voided request goes to REVIEW and confirms nothing.
 */
const h = new ProofHarness();
const secretBox = createSecretBox(generateSecretsKey());
const PAYER = `0x${'aa'.repeat(20)}`;
let m: TestMerchant;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let watcherId: string;

/** A chain the watcher reads: each payment is final in a block of its own. */
const chain = { height: 100, transfers: [] as ObservedTransfer[] };
const fakeEvm: EvmTransferScanner = {
  finalHeight: async () => chain.height,
  scan: async (_network, from, to) => chain.transfers.filter((t) => t.blockNumber >= from && t.blockNumber <= to),
};
const tx = () => `0x${randomBytes(32).toString('hex')}`;
const transfer = (amountAtomic: string): ObservedTransfer => ({
  network: 'base',
  txHash: tx(),
  logIndex: 0,
  from: PAYER,
  to: ADDRESSES.base,
  amountAtomic: BigInt(amountAtomic),
  blockNumber: 0,
  blockTime: new Date(),
});
/** Sends a payment the watcher will find in its next scan. */
const payOnChain = (amountAtomic: string): ObservedTransfer => {
  const t = { ...transfer(amountAtomic), blockNumber: ++chain.height };
  chain.transfers.push(t);
  return t;
};

beforeAll(async () => {
  await h.start({}, { workflows: true });
  receiver = await startReceiver(() => 200);
  worker = await startTestWorker(h.taskQueue, {
    db: h.tdb.db,
    logger: h.logs.logger,
    secretBox,
    resolver: createSystemResolver(),
    allowLoopbackForTests: true,
    watcher: { evm: fakeEvm },
  });
  m = await h.merchant({ plan: 'business' });
  await createEndpoint(h.tdb.db, {
    interface: 'proof',
    tenantId: m.id,
    url: receiver.url,
    events: [...PROOF_EVENT_TYPES],
    secretSealed: secretBox.seal('whsec_lifecycle'),
  });
  watcherId = `watch:base:${h.taskQueue}`;
  await h.gateway!.client.workflow.start('paymentWatcherWorkflow', {
    workflowId: watcherId,
    taskQueue: h.taskQueue,
    args: [{ network: 'base', pollIntervalMs: 100, maxBlocks: 20, scansPerRun: 5 }],
  });
});
afterAll(async () => {
  await h.gateway?.client.workflow
    .getHandle(watcherId)
    .terminate('test finished')
    .catch(() => undefined);
  await worker?.stop();
  await receiver?.close();
  await h.stop();
});

interface InvoiceJson {
  id: string;
  number: string;
  request_id: string;
  amount_atomic: string;
  status: string;
  voided_at: string | null;
  paid_at: string | null;
}
type ProofEvent = { id: string; type: string; data: Record<string, unknown> };

const gw = () => h.gateway!;
const lifecycle = (invoiceId: string) => gw().client.workflow.getHandle(`invoice:${invoiceId}`);
// One due date for the whole file (counted from one instant, so it cannot change at midnight during the run).
const DUE = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
const dueDate = () => DUE;

/**
 * An invoice of one line of `unit` USDC. Every merchant's base wallet has the same address, so each test uses its
 * own amounts: a payment then matches only the request it is meant for.
 */
async function createInvoice(merchant: TestMerchant, unit: string, app = h.app, due = dueDate()): Promise<InvoiceJson> {
  const contact = (
    await h.ok<{ id: string }>(
      h.call(
        merchant.key,
        'POST',
        '/v1/contacts',
        { legal_name: 'Buyer Ltd', email: 'ap@buyer.example' },
        undefined,
        app,
      ),
      201,
    )
  ).id;
  return h.ok<InvoiceJson>(
    h.call(
      merchant.key,
      'POST',
      '/v1/invoices',
      {
        customer_id: contact,
        wallet_id: merchant.wallets['base'],
        due_date: due,
        items: [{ description: 'Consulting', quantity: '1', unit_usdc: unit }],
      },
      undefined,
      app,
    ),
    201,
  );
}

async function eventsOfInvoice(invoiceId: string): Promise<ProofEvent[]> {
  const list = await h.ok<{ data: Array<{ event: ProofEvent }> }>(h.call(m.key, 'GET', '/v1/events?limit=100'));
  return list.data.map((e) => e.event).filter((e) => e.data['invoice_id'] === invoiceId);
}

async function eventsOfRequest(requestId: string): Promise<string[]> {
  const list = await h.ok<{ data: Array<{ event: ProofEvent }> }>(h.call(m.key, 'GET', '/v1/events?limit=100'));
  return list.data
    .map((e) => e.event)
    .filter((e) => e.data['request_id'] === requestId)
    .map((e) => e.type);
}

/** Polls until `probe` answers, with a deadline far above what a busy machine needs. */
async function eventually<T>(probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('gave up waiting after 120 s');
    await sleep(100);
  }
}

describe('invoice lifecycle workflow', () => {
  it('invoice:<id> runs from creation; invoices:void voids it: invoice voided, request VOIDED, one invoice.voided delivered, workflow ends voided', async () => {
    const inv = await createInvoice(m, '40');
    expect((await lifecycle(inv.id).describe()).status.name).toBe('RUNNING');

    const reason = 'Buyer cancelled the order (ticket 4711)';
    const outcome = await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id, reason });
    expect(outcome).toEqual({
      outcome: 'voided',
      invoiceId: inv.id,
      requestId: inv.request_id,
      voidedAt: expect.any(String),
      previousRequestStatus: 'AWAITING',
      events: 1,
    });
    if (outcome.outcome !== 'voided') throw new Error('not voided');
    expect(await lifecycle(inv.id).result()).toEqual({ status: 'voided' });
    // A small history: start, the read, the update with its activity, one delivery start, completion.
    expect((await lifecycle(inv.id).describe()).historyLength).toBeLessThanOrEqual(30);

    const invoice = await h.ok<InvoiceJson>(h.call(m.key, 'GET', `/v1/invoices/${inv.id}`));
    expect(invoice).toMatchObject({ status: 'voided', voided_at: outcome.voidedAt, paid_at: null });
    expect(JSON.stringify(invoice)).not.toContain('ticket 4711');
    expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${inv.request_id}`))).toMatchObject({
      status: 'VOIDED',
      tx_hash: null,
      verified_at: null,
    });
    expect(await h.tdb.db('invoices').where({ id: inv.id }).first('void_reason')).toEqual({ void_reason: reason });

    const events = await eventsOfInvoice(inv.id);
    expect(events.map((e) => e.type)).toEqual(['invoice.issued', 'invoice.voided']);
    const voided = events[1]!;
    // Exactly the fields of invoice.issued (spec section 6), status voided, no transaction; never the reason.
    expect(voided.data).toEqual({
      invoice_id: inv.id,
      request_id: inv.request_id,
      number: inv.number,
      status: 'voided',
      network: 'base',
      amount_atomic: inv.amount_atomic,
      tx_hash: null,
    });
    expect(Object.keys(voided.data).sort()).toEqual(Object.keys(events[0]!.data).sort());
    const stored = (await h.tdb.db('proof_events').where({ id: voided.id }).first('body')).body as Buffer;
    expect(stored.toString('utf8')).not.toContain('ticket 4711');

    // Delivered to the merchant's endpoint by the dispatcher, woken by the commit.
    const delivery = await h.tdb.db('webhook_deliveries').where({ event_id: voided.id }).first('id');
    expect(await deliveryOutcome(h.tdb.db, delivery.id)).toEqual({ status: 'delivered', attempts: 1 });
    const received = receiver.requests.filter((r) => r.headers['x-service-event-id'] === voided.id);
    expect(received).toHaveLength(1);
    expect(Buffer.compare(received[0]!.body, stored)).toBe(0);

    // The payment page no longer invites payment.
    const page = await (await fetch(`${h.app.url}/proof/pay/${inv.request_id}`)).text();
    expect(page).toContain('Voided: do not pay');
    expect(page).not.toContain('Pay exactly this amount');
  });

  it('voiding again answers already_voided with no new event; unknown ids and bad reasons are refused', async () => {
    const inv = await createInvoice(m, '41');
    const first = await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id });
    expect(first).toMatchObject({ outcome: 'voided' });
    if (first.outcome !== 'voided') throw new Error('not voided');
    // The workflow closed; the update starts a new run that reads the invoice.
    expect(await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id, reason: 'again' })).toEqual({
      outcome: 'already_voided',
      invoiceId: inv.id,
      voidedAt: first.voidedAt,
    });
    expect(await lifecycle(inv.id).result()).toEqual({ status: 'voided' });
    expect((await eventsOfInvoice(inv.id)).map((e) => e.type)).toEqual(['invoice.issued', 'invoice.voided']);
    expect(await h.tdb.db('invoices').where({ id: inv.id }).first('void_reason', 'voided_at')).toEqual({
      void_reason: null,
      voided_at: new Date(first.voidedAt),
    });

    await expect(invoicesVoid(h.tdb.db, gw(), { invoice: 'inv_unknown0000000000000' })).rejects.toThrow(
      'no such invoice',
    );
    await expect(lifecycle('inv_unknown0000000000000').describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    await expect(invoicesVoid(h.tdb.db, gw(), {})).rejects.toThrow(
      'the invoice id (invoices:void <invoice id>) is required',
    );
    const open = await createInvoice(m, '42');
    await expect(invoicesVoid(h.tdb.db, gw(), { invoice: open.id, reason: 'x'.repeat(501) })).rejects.toThrow(
      '--reason: the reason must be at most 500 characters',
    );
    expect(await h.ok(h.call(m.key, 'GET', `/v1/invoices/${open.id}`))).toMatchObject({ status: 'issued' });
    // A `paid` signal for an invoice that is not paid settles nothing: the workflow reads the invoice and waits on.
    await lifecycle(open.id).signal('paid');
    expect(await invoicesVoid(h.tdb.db, gw(), { invoice: open.id })).toMatchObject({ outcome: 'voided' });
    expect(await lifecycle(open.id).result()).toEqual({ status: 'voided' });
  });

  it('voiding restores no quota: a trial merchant at its limit stays at its limit', async () => {
    const trial = await h.merchant({ trial: true });
    const me = async () =>
      await h.ok<{ limits: { requests_per_period: number }; usage: { requests: number; invoices: number } }>(
        h.call(trial.key, 'GET', '/v1/me'),
      );
    const limit = (await me()).limits.requests_per_period;
    // Due tomorrow: within the trial's 72-hour payment window.
    const inv = await createInvoice(trial, '43', h.app, new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    for (let i = 1; i < limit; i++) {
      await h.ok(
        h.call(trial.key, 'POST', '/v1/requests', {
          wallet_id: trial.wallets['base'],
          amount_usdc: '5',
          description: `Request ${i}`,
        }),
        201,
      );
    }
    const over = async () =>
      (
        await h.call(trial.key, 'POST', '/v1/requests', {
          wallet_id: trial.wallets['base'],
          amount_usdc: '5',
          description: 'One too many',
        })
      ).json();
    expect(await over()).toMatchObject({ code: 'quota_exceeded' });
    expect((await me()).usage).toMatchObject({ requests: limit, invoices: 1 });

    expect(await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id })).toMatchObject({ outcome: 'voided' });
    expect(await over()).toMatchObject({ code: 'quota_exceeded' });
    const contact = (
      await h.ok<{ id: string }>(
        h.call(trial.key, 'POST', '/v1/contacts', { legal_name: 'Other', email: 'o@other.example' }),
        201,
      )
    ).id;
    const res = await h.call(trial.key, 'POST', '/v1/invoices', {
      customer_id: contact,
      wallet_id: trial.wallets['base'],
      due_date: dueDate(),
      items: [{ description: 'x', quantity: '1', unit_usdc: '1' }],
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'quota_exceeded' });
    expect((await me()).usage).toMatchObject({ requests: limit, invoices: 1 });
  });

  it('a later exact payment of a voided request goes to REVIEW invoice_voided and confirms nothing', async () => {
    const inv = await createInvoice(m, '8.88');
    expect(await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id })).toMatchObject({ outcome: 'voided' });
    const t = transfer(inv.amount_atomic);
    expect(await applyTransfer(h.tdb.db, t, new Date())).toEqual({
      outcome: 'review',
      requestId: inv.request_id,
      reason: 'invoice_voided',
    });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${inv.request_id}`))).toMatchObject({
      status: 'REVIEW',
      tx_hash: t.txHash,
      verified_at: null,
    });
    expect(await h.tdb.db('payment_requests').where({ id: inv.request_id }).first('review_reason')).toEqual({
      review_reason: 'invoice_voided',
    });
    expect(await h.tdb.db('payment_evidence').where({ tx_hash: t.txHash }).first('decision', 'reason')).toEqual({
      decision: 'review',
      reason: 'invoice_voided',
    });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/invoices/${inv.id}`))).toMatchObject({
      status: 'voided',
      paid_at: null,
    });
    expect(await eventsOfRequest(inv.request_id)).toEqual([
      'payment_request.created',
      'invoice.issued',
      'invoice.voided',
    ]);
    expect(await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id })).toMatchObject({ outcome: 'already_voided' });
  });

  it('voiding frees the amount: a new request may take it, and a payment of it pays that open request, not the voided one', async () => {
    const inv = await createInvoice(m, '7.77');
    expect(await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id })).toMatchObject({ outcome: 'voided' });
    const direct = await h.ok<{ id: string; amount_atomic: string }>(
      h.call(m.key, 'POST', '/v1/requests', {
        wallet_id: m.wallets['base'],
        amount_usdc: '7.77',
        description: 'Reissued as a request',
      }),
      201,
    );
    expect(direct.amount_atomic).toBe(inv.amount_atomic);
    expect(await applyTransfer(h.tdb.db, transfer(inv.amount_atomic), new Date())).toMatchObject({
      outcome: 'paid',
      requestId: direct.id,
    });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${inv.request_id}`))).toMatchObject({
      status: 'VOIDED',
      tx_hash: null,
    });
    expect(await eventsOfRequest(inv.request_id)).toEqual([
      'payment_request.created',
      'invoice.issued',
      'invoice.voided',
    ]);
  });

  it('the watcher marks an invoice paid and signals invoice:<id>, which ends paid; a paid invoice cannot be voided', async () => {
    const inv = await createInvoice(m, '44');
    const t = payOnChain(inv.amount_atomic);
    expect(await lifecycle(inv.id).result()).toEqual({ status: 'paid' });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/invoices/${inv.id}`))).toMatchObject({
      status: 'paid',
      tx_hash: t.txHash,
    });

    expect(await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id, reason: 'too late' })).toEqual({
      outcome: 'already_paid',
      invoiceId: inv.id,
      paidAt: expect.any(String),
    });
    expect(await lifecycle(inv.id).result()).toEqual({ status: 'paid' });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/invoices/${inv.id}`))).toMatchObject({
      status: 'paid',
      voided_at: null,
    });
    expect(await h.ok(h.call(m.key, 'GET', `/v1/requests/${inv.request_id}`))).toMatchObject({ status: 'PAID' });
    expect((await eventsOfInvoice(inv.id)).map((e) => e.type)).toEqual(['invoice.issued', 'invoice.paid']);
    expect(await h.tdb.db('invoices').where({ id: inv.id }).first('void_reason')).toEqual({ void_reason: null });
  });

  it("without its workflow (a lost start), the watcher's signal is tolerated and voiding still answers through a new invoice:<id>", async () => {
    const noTemporal = await h.startApp({}, { workflows: null });
    try {
      const inv = await createInvoice(m, '45', noTemporal);
      await expect(lifecycle(inv.id).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
      payOnChain(inv.amount_atomic);
      await eventually(
        async () => (await h.tdb.db('invoices').where({ id: inv.id }).first('status')).status === 'paid',
      );
      // The watcher went on: a later invoice is paid and its workflow told.
      const next = await createInvoice(m, '46');
      payOnChain(next.amount_atomic);
      expect(await lifecycle(next.id).result()).toEqual({ status: 'paid' });

      expect(await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id })).toMatchObject({
        outcome: 'already_paid',
        invoiceId: inv.id,
      });
      expect(await lifecycle(inv.id).result()).toEqual({ status: 'paid' });
    } finally {
      await noTemporal.close();
    }
  });

  it('the maintenance run starts invoice:<id> for an issued invoice whose start was lost, once', async () => {
    const noTemporal = await h.startApp({}, { workflows: null });
    let inv: InvoiceJson;
    try {
      inv = await createInvoice(m, '47', noTemporal);
    } finally {
      await noTemporal.close();
    }
    await h.tdb
      .db('invoices')
      .where({ id: inv.id })
      .update({ issued_at: h.tdb.db.raw("now() - interval '10 minutes'") });
    const runMaintenance = () =>
      gw().client.workflow.execute('maintenanceWorkflow', {
        taskQueue: h.taskQueue,
        workflowId: `maintenance-test-${randomBytes(4).toString('hex')}`,
        args: [],
      });
    expect(await runMaintenance()).toMatchObject({ restartedInvoiceLifecycles: 1 });
    expect((await lifecycle(inv.id).describe()).status.name).toBe('RUNNING');
    await eventually(
      async () => (await h.tdb.db('invoices').where({ id: inv.id }).first('lifecycle_started_at')).lifecycle_started_at,
    );
    expect(await runMaintenance()).toMatchObject({ restartedInvoiceLifecycles: 0 });
    expect(await invoicesVoid(h.tdb.db, gw(), { invoice: inv.id })).toMatchObject({ outcome: 'voided' });
    expect(await lifecycle(inv.id).result()).toEqual({ status: 'voided' });
  });
});

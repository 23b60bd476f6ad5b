import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityFailure, WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { ConfigError, loadConfig } from '../../config/schema.js';
import { formatUsdc } from '../../domain/money.js';
import { createSmtpMailer, MailSendError } from '../../adapters/mail/smtp-mailer.js';
import { invoiceMailContent } from '../../adapters/mail/invoice-message.js';
import { createFileStore } from '../../adapters/storage/file-store.js';
import { startInvoiceMailWorkflow } from '../../services/workflows/workflow-client.js';
import { newIdem, ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.js';

// ---- Fixture ---------------------------------------------------------------------------------------------------

const h = new ProofHarness();
let smtp: TestSmtpServer;
/** The test SMTP server's login (set when it starts). */
let SMTP_USER: string;
let SMTP_PASSWORD: string;
let m: TestMerchant;
let merchantName: string;
const PUBLIC_BASE_URL = 'https://pay.example.test';
let mailEnv: Record<string, string>;
/** Every mail workflow id a test touched: their histories are checked for the password at the end. */
const workflowIds = new Set<string>();

// Dates are counted from one instant of this file, so a body and its expected answer agree even across midnight.
const TODAY = Date.now();
const due = (days: number) => new Date(TODAY + days * 86_400_000).toISOString().slice(0, 10);
interface InvoiceJson {
  id: string;
  number: string;
  request_id: string;
  network: string;
  amount_atomic: string;
  document_sha256: string;
}

/** A contact with `email` and an invoice for it, through the HTTP API as a client would. */
async function invoiceFor(email: string, app = h.app): Promise<InvoiceJson> {
  const contact = await h.ok<{ id: string }>(
    h.call(m.key, 'POST', '/v1/contacts', { legal_name: 'Buyer GmbH', email }, newIdem(), app),
    201,
  );
  return h.ok<InvoiceJson>(
    h.call(
      m.key,
      'POST',
      '/v1/invoices',
      {
        customer_id: contact.id,
        wallet_id: m.wallets['base'],
        due_date: due(14),
        items: [{ description: 'Design work', quantity: '3', unit_usdc: '120.50' }],
        tax_mode: 'exclusive',
        tax_rate: '19',
      },
      newIdem(),
      app,
    ),
    201,
  );
}

const outbox = (invoiceId: string) =>
  h.tdb.db('invoice_mail_outbox').where({ invoice_id: invoiceId }).orderBy('created_at');

/**
 * Records every version of every outbox row (a trigger in this test's own database), so a state the row passes
 * through between two attempts can be checked afterwards instead of being caught by polling at the right moment.
 */
async function recordOutboxVersions(): Promise<void> {
  await h.tdb.db.raw(`
    CREATE TABLE IF NOT EXISTS test_outbox_versions (seq bigserial PRIMARY KEY, version jsonb NOT NULL);
    CREATE OR REPLACE FUNCTION test_outbox_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_outbox_versions (version) VALUES (to_jsonb(NEW)); RETURN NEW; END $$;
    CREATE OR REPLACE TRIGGER test_outbox_versions AFTER INSERT OR UPDATE ON invoice_mail_outbox
      FOR EACH ROW EXECUTE FUNCTION test_outbox_version();`);
}
const outboxVersions = async (mailId: string): Promise<Array<Record<string, unknown>>> =>
  (
    await h.tdb.db('test_outbox_versions').whereRaw("version->>'id' = ?", [mailId]).orderBy('seq').select('version')
  ).map((r) => r.version as Record<string, unknown>);

/**
 * Issues an invoice to `to`, sends it through `app` (an instance that queues without starting the workflow),
 * and starts `mail:<id>` itself with short test delays.
 */
async function queueAndStart(
  to: string,
  app: Awaited<ReturnType<typeof h.startApp>>,
  delays: { retryDelaysMs: number[]; giveUpAfterMs?: number },
) {
  const inv = await invoiceFor(to, app);
  await h.ok(h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true }, newIdem(), app));
  const [row] = await outbox(inv.id);
  workflowIds.add(`mail:${row.id}`);
  const handle = await gw().client.workflow.start('invoiceMailWorkflow', {
    workflowId: `mail:${row.id}`,
    taskQueue: h.taskQueue,
    args: [{ mailId: row.id, ...delays }],
  });
  return { inv, handle };
}
const gw = () => h.gateway!;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ user: SMTP_USER, password: SMTP_PASSWORD } = smtp);
  mailEnv = {
    SMTP_URL: smtp.env['SMTP_URL']!,
    MAIL_FROM: 'Billing <billing@merchant.example>',
    // Far above a loopback exchange on a busy machine: an attempt's outcome is the server's reply, never the load.
    SMTP_TIMEOUT_MS: '60000',
    PUBLIC_BASE_URL,
  };
  await h.start(mailEnv, { workflows: true });
  await h.startMailWorker(mailEnv);
  m = await h.merchant({ plan: 'business' });
  merchantName = (await h.tdb.db('merchants').where({ id: m.id }).first('name')).name;
});

afterAll(async () => {
  for (const id of workflowIds) {
    await gw()
      .client.workflow.getHandle(id)
      .terminate('test cleanup')
      .catch(() => undefined);
  }
  await h.stop();
  await smtp?.close();
});

// ---- Tests -----------------------------------------------------------------------------------------------------

describe('invoice e-mail through SMTP', () => {
  it('sends exactly one message with the stored PDF, the amount and the payment link, and marks the row sent once', async () => {
    const to = `ap+${randomBytes(3).toString('hex')}@buyer.example`;
    const inv = await invoiceFor(to);
    const idem = newIdem();
    expect(await h.ok(h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true }, idem))).toEqual({
      id: inv.id,
      mail_status: 'queued',
    });
    // A second call right away (another key) neither queues nor sends another message.
    const second = await h.ok<{ mail_status: string }>(
      h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true }),
    );
    expect(['queued', 'sent']).toContain(second.mail_status);
    const [row] = await outbox(inv.id);
    workflowIds.add(`mail:${row.id}`);
    const result = await gw().client.workflow.getHandle(`mail:${row.id}`).result();
    expect(result).toEqual({ status: 'sent', attempts: 1, errorClass: null, code: null });

    const messages = smtp.to(to);
    expect(messages).toHaveLength(1);
    const mail = messages[0]!.parsed;
    expect(mail.from?.value).toEqual([{ name: 'Billing', address: 'billing@merchant.example' }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : null).toEqual([to]);
    expect(mail.subject).toBe(`Invoice ${inv.number} from ${merchantName}`);
    expect(inv.number).toBe('INV-000001');
    expect(mail.messageId).toBe(`<${row.id}@merchant.example>`);
    expect(mail.text).toContain(`Amount to pay: ${formatUsdc(BigInt(inv.amount_atomic))} USDC on base`);
    expect(mail.text).toContain(`Payment page: ${PUBLIC_BASE_URL}/proof/pay/${inv.request_id}`);

    // The attachment is the stored document, byte for byte (never rendered again).
    expect(mail.attachments).toHaveLength(1);
    const pdf = mail.attachments[0]!;
    expect(pdf).toMatchObject({ filename: `${inv.number}.pdf`, contentType: 'application/pdf' });
    const stored = await h.tdb.db('invoices').where({ id: inv.id }).first('document_storage_id', 'document_sha256');
    const storedBytes = readFileSync(createFileStore(h.storageDir).pathOf(stored.document_storage_id));
    expect(createHash('sha256').update(pdf.content).digest('hex')).toBe(inv.document_sha256);
    expect(stored.document_sha256).toBe(inv.document_sha256);
    expect(Buffer.compare(pdf.content, storedBytes)).toBe(0);

    const rows = await outbox(inv.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'sent',
      to_email: to,
      attempts: 1,
      error_class: null,
      error_code: null,
      message_id: `${row.id}@merchant.example`,
    });
    expect(rows[0].sent_at).toBeInstanceOf(Date);
    const sentAt = rows[0].sent_at as Date;

    // Sending again: the replayed key answers as before, a new key says it was sent; a repeated workflow
    // start keeps the finished one. Nothing more is queued or sent, and sent_at stays.
    expect(await h.ok(h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true }, idem))).toEqual({
      id: inv.id,
      mail_status: 'queued',
    });
    expect(await h.ok(h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true }))).toEqual({
      id: inv.id,
      mail_status: 'sent',
    });
    const { runId } = await gw().client.workflow.getHandle(`mail:${row.id}`).describe();
    await startInvoiceMailWorkflow(gw(), { mailId: row.id });
    // The finished run is still the only one: nothing runs that could send again.
    expect(await gw().client.workflow.getHandle(`mail:${row.id}`).describe()).toMatchObject({
      runId,
      status: { name: 'COMPLETED' },
    });
    expect(smtp.to(to)).toHaveLength(1);
    const after = await outbox(inv.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'sent', attempts: 1 });
    expect((after[0].sent_at as Date).getTime()).toBe(sentAt.getTime());
  });

  it('a 451 reply is retried after the backoff and the message then goes out once', async () => {
    const to = `temp-once+${randomBytes(3).toString('hex')}@buyer.example`;
    await recordOutboxVersions();
    const app = await h.startApp(mailEnv, { workflows: null });
    try {
      const { inv, handle } = await queueAndStart(to, app, { retryDelaysMs: [2500] });
      expect(await handle.result()).toEqual({ status: 'sent', attempts: 2, errorClass: null, code: null });
      // Between the attempts (the row's recorded versions, in order): still queued, with the temporary failure
      // recorded and nothing delivered (the only DATA before it was refused with 451), then attempt 2, then sent.
      const [row] = await outbox(inv.id);
      const versions = await outboxVersions(row.id);
      const between = versions.findIndex((v) => v['error_code'] !== null);
      expect(versions[between]).toMatchObject({
        status: 'queued',
        attempts: 1,
        error_class: 'temporary',
        error_code: 'smtp_451',
        sent_at: null,
      });
      expect(versions.slice(between + 1).map((v) => [v['status'], v['attempts']])).toEqual([
        ['queued', 2],
        ['sent', 2],
      ]);
      expect(smtp.dataAttempts.get(to)).toBe(2);
      expect(smtp.to(to)).toHaveLength(1);
      expect(createHash('sha256').update(smtp.to(to)[0]!.parsed.attachments[0]!.content).digest('hex')).toBe(
        inv.document_sha256,
      );
      expect(await outbox(inv.id)).toEqual([
        expect.objectContaining({ status: 'sent', attempts: 2, error_class: null, error_code: null }),
      ]);
    } finally {
      await app.close();
    }
  });

  it('a 550 reply marks the e-mail failed (permanent) without retrying', async () => {
    const to = `gone+${randomBytes(3).toString('hex')}@buyer.example`;
    const inv = await invoiceFor(to);
    await h.ok(h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true }));
    const [row] = await outbox(inv.id);
    workflowIds.add(`mail:${row.id}`);
    expect(await gw().client.workflow.getHandle(`mail:${row.id}`).result()).toEqual({
      status: 'failed',
      attempts: 1,
      errorClass: 'permanent',
      code: 'smtp_550',
    });
    expect(smtp.to(to)).toHaveLength(0);
    expect(await outbox(inv.id)).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 1,
        error_class: 'permanent',
        error_code: 'smtp_550',
        sent_at: null,
      }),
    ]);
    // The buyer's address is not repeated in the logs with the server's reply.
    expect(h.logs.text()).not.toContain(to);
  });

  it('temporary failures past the give-up time mark the e-mail failed (temporary)', async () => {
    const to = `busy+${randomBytes(3).toString('hex')}@buyer.example`;
    const app = await h.startApp(mailEnv, { workflows: null });
    try {
      // Two short waits, then one far past the give-up time: the workflow gives up after its third attempt, however
      // long each attempt takes on this machine (within the minute it has to give up).
      const { inv, handle } = await queueAndStart(to, app, {
        retryDelaysMs: [300, 300, 600_000],
        giveUpAfterMs: 60_000,
      });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'failed', errorClass: 'temporary', code: 'smtp_451' });
      expect(result.attempts).toBeGreaterThanOrEqual(3);
      expect(smtp.to(to)).toHaveLength(0);
      const [failed] = await outbox(inv.id);
      expect(failed).toMatchObject({
        status: 'failed',
        attempts: result.attempts,
        error_class: 'temporary',
        error_code: 'smtp_451',
        sent_at: null,
      });
    } finally {
      await app.close();
    }
  });

  it('with SMTP_URL unset nothing is started or sent and the row stays queued; the reconciler starts it only where mail is configured', async () => {
    const to = `unset+${randomBytes(3).toString('hex')}@buyer.example`;
    const { SMTP_URL: _url, MAIL_FROM: _from, ...noMail } = mailEnv;
    const app = await h.startApp(noMail); // same gateway, mail not configured
    const plainQueue = `${h.taskQueue}-nomail`;
    await h.startMailWorker(noMail, { taskQueue: plainQueue });
    try {
      const inv = await invoiceFor(to, app);
      expect(
        await h.ok(h.call(m.key, 'POST', `/v1/invoices/${inv.id}/send`, { user_approved: true }, newIdem(), app)),
      ).toEqual({ id: inv.id, mail_status: 'queued' });
      const [row] = await outbox(inv.id);
      workflowIds.add(`mail:${row.id}`);
      // Nothing started mail:<id> (the send was answered after the commit, where a start would have been made).
      await expect(gw().client.workflow.getHandle(`mail:${row.id}`).describe()).rejects.toBeInstanceOf(
        WorkflowNotFoundError,
      );
      expect(smtp.to(to)).toHaveLength(0);
      expect(await outbox(inv.id)).toEqual([expect.objectContaining({ status: 'queued', attempts: 0, sent_at: null })]);

      // Past the grace period, a maintenance run on a worker without SMTP starts nothing.
      await h.tdb
        .db('invoice_mail_outbox')
        .where({ id: row.id })
        .update({ created_at: h.tdb.db.raw("now() - interval '10 minutes'") });
      const runMaintenance = (taskQueue: string) =>
        gw().client.workflow.execute('maintenanceWorkflow', {
          taskQueue,
          workflowId: `maintenance-test-${randomBytes(4).toString('hex')}`,
          args: [],
        });
      const plain = await runMaintenance(plainQueue);
      expect(plain).not.toHaveProperty('restartedMails');
      await expect(gw().client.workflow.getHandle(`mail:${row.id}`).describe()).rejects.toBeInstanceOf(
        WorkflowNotFoundError,
      );
      expect(await outbox(inv.id)).toEqual([expect.objectContaining({ status: 'queued' })]);

      // Were mail:<id> started on a worker without SMTP anyway, it fails without touching the row.
      const misplaced = await gw().client.workflow.start('invoiceMailWorkflow', {
        workflowId: `mail:${row.id}`,
        taskQueue: plainQueue,
        args: [{ mailId: row.id }],
      });
      const failure = await misplaced.result().then(
        () => null,
        (e: unknown) => e as WorkflowFailedError,
      );
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      expect(failure!.cause).toBeInstanceOf(ActivityFailure);
      expect(failure!.cause!.cause).toMatchObject({ type: 'mail_not_configured' });
      expect(await outbox(inv.id)).toEqual([expect.objectContaining({ status: 'queued', attempts: 0, sent_at: null })]);

      // Where mail is configured, the reconciler starts mail:<id> for the lost (or failed) start, once.
      expect(await runMaintenance(h.taskQueue)).toMatchObject({ restartedMails: 1 });
      expect(await gw().client.workflow.getHandle(`mail:${row.id}`).result()).toMatchObject({
        status: 'sent',
        attempts: 1,
      });
      expect(smtp.to(to)).toHaveLength(1);
      expect(await runMaintenance(h.taskQueue)).toMatchObject({ restartedMails: 0 });
      expect(smtp.to(to)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('omits the payment link without PUBLIC_BASE_URL', () => {
    const content = invoiceMailContent({
      number: 'INV-000009',
      merchantName: 'Acme\r\nBcc: x@evil.example',
      buyerName: 'Buyer',
      dueDate: '2030-01-31',
      amountAtomic: 123_000_017n,
      network: 'polygon',
      payTo: '0x2222222222222222222222222222222222222222',
      paymentPageUrl: null,
      paid: false,
    });
    expect(content.subject).toBe('Invoice INV-000009 from Acme Bcc: x@evil.example');
    expect(content.text).toContain('Amount to pay: 123.000017 USDC on polygon');
    expect(content.text).not.toContain('Payment page');
    expect(content.text).not.toContain('/proof/pay/');
  });
});

describe('SMTP adapter and configuration', () => {
  it('classifies failures: refused connection, a silent server and a rejected login are temporary, 550 is permanent; no secret in the error', async () => {
    const message = {
      from: 'billing@merchant.example',
      to: 'ap@buyer.example',
      subject: 's',
      text: 't',
      attachments: [],
    };
    // Generous timeouts where the outcome is not a timeout, so a busy machine cannot turn a reply into one.
    const closed = createSmtpMailer({ host: '127.0.0.1', port: 1, secure: false, timeoutMs: 30_000 });
    const refused = await closed.send(message).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MailSendError);
    expect(refused).toMatchObject({ kind: 'temporary', code: 'connection_failed' });

    // A server that accepts the connection and never greets: a timeout, temporary.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const mute = createSmtpMailer({
        host: '127.0.0.1',
        port: (silent.address() as AddressInfo).port,
        secure: false,
        timeoutMs: 1000,
      });
      expect(await mute.send(message).catch((e: unknown) => e)).toMatchObject({ kind: 'temporary', code: 'timeout' });
    } finally {
      silent.close();
    }

    const wrong = `wrong-${SMTP_PASSWORD}`;
    const badLogin = createSmtpMailer({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: SMTP_USER,
      password: wrong,
      timeoutMs: 30_000,
    });
    const auth = (await badLogin.send(message).catch((e: unknown) => e)) as MailSendError;
    expect(auth).toMatchObject({ kind: 'temporary', code: 'auth_failed' });
    expect(`${auth.message} ${auth.stack}`).not.toContain(wrong);

    const ok = createSmtpMailer({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: SMTP_USER,
      password: SMTP_PASSWORD,
      timeoutMs: 30_000,
    });
    const rejected = (await ok
      .send({ ...message, to: 'gone+x@buyer.example' })
      .catch((e: unknown) => e)) as MailSendError;
    expect(rejected).toMatchObject({ kind: 'permanent', code: 'smtp_550' });
    expect(rejected.message).not.toContain('gone+x@buyer.example');
    const sent = await ok.send({ ...message, to: 'adapter@buyer.example' });
    expect(sent.messageId).toMatch(/@/);
    expect(smtp.to('adapter@buyer.example')).toHaveLength(1);
  });

  it('validates SMTP_URL and MAIL_FROM without echoing the password, and keeps it out of a serialized config', () => {
    const url = `smtp://${SMTP_USER}:${SMTP_PASSWORD}@mail.example.com:587`;
    const missingFrom = (() => {
      try {
        loadConfig({ NODE_ENV: 'test', SMTP_URL: url });
        return null;
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(missingFrom).toBeInstanceOf(ConfigError);
    expect(missingFrom!.message).toContain('MAIL_FROM');
    expect(missingFrom!.message).not.toContain(SMTP_PASSWORD);
    for (const bad of [
      `http://${SMTP_USER}:${SMTP_PASSWORD}@h:25`,
      `smtp://${SMTP_USER}:${SMTP_PASSWORD}@h:25/x?y=1`,
    ]) {
      expect(() => loadConfig({ NODE_ENV: 'test', SMTP_URL: bad, MAIL_FROM: 'b@merchant.example' })).toThrow(
        /SMTP_URL/,
      );
      try {
        loadConfig({ NODE_ENV: 'test', SMTP_URL: bad, MAIL_FROM: 'b@merchant.example' });
      } catch (e) {
        expect((e as Error).message).not.toContain(SMTP_PASSWORD);
      }
    }
    expect(() => loadConfig({ NODE_ENV: 'test', SMTP_URL: url, MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM/);
    const config = loadConfig({ NODE_ENV: 'test', SMTP_URL: url, MAIL_FROM: 'Billing <billing@merchant.example>' });
    expect(config.mail).toMatchObject({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      user: SMTP_USER,
      fromAddress: 'billing@merchant.example',
    });
    expect(config.mail!.password).toBe(SMTP_PASSWORD);
    expect(JSON.stringify(config)).not.toContain(SMTP_PASSWORD);
    expect(loadConfig({ NODE_ENV: 'test' }).mail).toBeNull();
  });
});

describe('the SMTP password stays secret', () => {
  it('appears in no captured log line and in no mail workflow history', async () => {
    const needles = [
      SMTP_PASSWORD,
      Buffer.from(`\u0000${SMTP_USER}\u0000${SMTP_PASSWORD}`).toString('base64'),
      encodeURIComponent(SMTP_PASSWORD),
    ];
    const logs = h.logs.text();
    expect(logs).toContain('invoice e-mail sent'); // the logs did capture the worker
    for (const n of needles) expect(logs).not.toContain(n);

    expect(workflowIds.size).toBeGreaterThanOrEqual(5);
    for (const id of workflowIds) {
      const history = await gw().client.workflow.getHandle(id).fetchHistory();
      const text = historyText(history);
      expect(text).toContain('mailId'); // payloads were decoded
      for (const n of needles) expect(text, id).not.toContain(n);
    }
  });
});

/** Every string in a history, with payload bytes decoded as UTF-8. */
function historyText(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (v === null || v === undefined) return;
    if (typeof v === 'string') out.push(v);
    else if (v instanceof Uint8Array) out.push(Buffer.from(v).toString('utf8'));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object') Object.values(v as Record<string, unknown>).forEach(walk);
  };
  walk(value);
  return out.join('\n');
}

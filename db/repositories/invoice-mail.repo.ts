import type { Db } from '../connection.js';

/** The invoice e-mail outbox (`invoice_mail_outbox`): queued by the API, sent by `mail:<id>` workflows. */
export type MailStatus = 'queued' | 'sent' | 'failed';
export type MailFailureClass = 'temporary' | 'permanent';

export interface OutboxRow {
  id: string;
  merchantId: string;
  invoiceId: string;
  toEmail: string;
  status: MailStatus;
}

export async function getOutboxRow(db: Db, mailId: string): Promise<OutboxRow | null> {
  const r = await db('invoice_mail_outbox').where({ id: mailId }).first();
  return r
    ? { id: r.id, merchantId: r.merchant_id, invoiceId: r.invoice_id, toEmail: r.to_email, status: r.status }
    : null;
}

/** Marks one attempt of a queued row; false when it is no longer queued. */
export async function recordMailAttempt(db: Db, mailId: string, at: Date): Promise<boolean> {
  const n = await db('invoice_mail_outbox')
    .where({ id: mailId, status: 'queued' })
    .update({ attempts: db.raw('attempts + 1'), last_attempt_at: at });
  return n > 0;
}

/** Records the last temporary failure on a queued row (operators see why it waits). */
export async function recordMailTemporaryFailure(db: Db, mailId: string, code: string): Promise<void> {
  await db('invoice_mail_outbox')
    .where({ id: mailId, status: 'queued' })
    .update({ error_class: 'temporary', error_code: code.slice(0, 64) });
}

/** queued → sent with `sent_at`, once: false when the row was no longer queued. */
export async function markMailSent(db: Db, mailId: string, messageId: string, at: Date): Promise<boolean> {
  const n = await db('invoice_mail_outbox')
    .where({ id: mailId, status: 'queued' })
    .update({ status: 'sent', sent_at: at, message_id: messageId, error_class: null, error_code: null });
  return n > 0;
}

/** queued → failed with the class and code of the last failure: false when the row was no longer queued. */
export async function markMailFailed(
  db: Db,
  mailId: string,
  errorClass: MailFailureClass,
  code: string,
): Promise<boolean> {
  const n = await db('invoice_mail_outbox')
    .where({ id: mailId, status: 'queued' })
    .update({ status: 'failed', error_class: errorClass, error_code: code.slice(0, 64) });
  return n > 0;
}

/**
 * Queued rows older than `createdBefore` whose workflow is not (or no longer) working on them: never attempted,
 * or last attempted before `lastAttemptBefore` (a live workflow tries at least hourly). Oldest first.
 */
export async function findUnstartedInvoiceMails(
  db: Db,
  input: { createdBefore: Date; lastAttemptBefore: Date; limit: number },
): Promise<string[]> {
  const rows = await db('invoice_mail_outbox')
    .where({ status: 'queued' })
    .where('created_at', '<', input.createdBefore)
    .where((q) => q.whereNull('last_attempt_at').orWhere('last_attempt_at', '<', input.lastAttemptBefore))
    .orderBy('created_at', 'asc')
    .limit(input.limit)
    .select('id');
  return rows.map((r: { id: string }) => r.id);
}

/**
 * The invoice's e-mail for a send call, with the invoice row locked by the caller: an existing queued or sent
 * message is reported as it is (a sent one is not sent again); otherwise one is queued to the buyer snapshot's
 * address, with the caller's approval time and key.
 */
export async function queueInvoiceMail(
  trx: Db,
  input: { id: string; invoiceId: string; merchantId: string; apiKeyId: string; now: Date },
): Promise<{ status: 'queued' | 'sent'; created: boolean }> {
  // One read sees a queued or sent e-mail even while a worker moves it from queued to sent.
  const open = (await trx('invoice_mail_outbox')
    .where({ invoice_id: input.invoiceId })
    .whereIn('status', ['queued', 'sent'])
    .select('status')) as Array<{ status: string }>;
  if (open.length) return { status: open.some((r) => r.status === 'sent') ? 'sent' : 'queued', created: false };
  const invoice = await trx('invoices').where({ id: input.invoiceId }).first('buyer_snapshot');
  await trx('invoice_mail_outbox').insert({
    id: input.id,
    merchant_id: input.merchantId,
    invoice_id: input.invoiceId,
    to_email: (invoice.buyer_snapshot as { email: string }).email,
    user_approved_at: input.now,
    api_key_id: input.apiKeyId,
    created_at: input.now,
  });
  return { status: 'queued', created: true };
}

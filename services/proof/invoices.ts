import { DomainError } from '../../domain/errors.js';
import { invoiceData } from '../../domain/proof/events.js';
import type { InvoiceCreate } from '../../domain/validation/proof-invoice.js';
import { invalidBody } from '../../domain/validation/proof-request.js';
import { bodyIdNotFound } from '../../domain/body-ids.js';
import { paymentPagePath } from '../../domain/proof/payment-page.js';
import { renderInvoicePdf } from '../../adapters/documents/invoice-pdf.js';
import { newId, sha256Hex } from '../../adapters/crypto/tokens.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import { getContact } from '../../db/repositories/contacts.repo.js';
import {
  getInvoice,
  insertInvoice,
  lockInvoice,
  nextInvoiceNumber,
  type Invoice,
} from '../../db/repositories/invoices.repo.js';
import { voidInvoice } from '../../db/repositories/invoice-lifecycle.repo.js';
import { queueInvoiceMail } from '../../db/repositories/invoice-mail.repo.js';
import { getMerchant } from '../../db/repositories/merchants.repo.js';
import { getPaymentRequest, type PaymentRequest } from '../../db/repositories/payment-requests.repo.js';
import { appendProofEvent } from '../../db/repositories/proof-events.repo.js';
import type { WorkflowGateway } from '../workflows/workflow-client.js';
import { startAfterCommit, type AfterCommit } from '../workflows/workflow-starts.js';
import { createPaymentRequest } from './payment-requests.js';

/**
 * Invoices of a merchant (/proof/v1 with an API key, the merchant's dashboard session): issuing one with its payment
 * request and document, reading one, voiding one, queueing its e-mail. Each runs in the caller's transaction (the
 * idempotent request's); workflow starts are queued with `afterCommit`.
 */

export interface IssuedInvoice {
  invoice: Invoice;
  request: PaymentRequest;
}

/** The invoice `id` of this merchant and its payment request; `not_found` otherwise (a foreign id included). */
export async function getInvoiceWithRequest(db: Db, merchantId: string, id: string): Promise<IssuedInvoice> {
  const invoice = await getInvoice(db, merchantId, id);
  const request = invoice ? await getPaymentRequest(db, merchantId, invoice.requestId) : null;
  if (!invoice || !request) throw new DomainError('not_found', 'Invoice not found');
  return { invoice, request };
}

export interface IssueInvoiceDeps {
  /** Where issued invoice documents are kept (by id, with their SHA-256 in the invoice row). */
  store: FileStore;
  /** Starts the `invoice:<id>` lifecycle workflow of a new invoice; null without Temporal (the maintenance run starts it). */
  workflows?: WorkflowGateway | null | undefined;
  /** The enforced pro creations per hour. */
  proPerHour: number;
}

export interface IssueInvoiceInput {
  merchantId: string;
  body: InvoiceCreate;
  /** The request's Idempotency-Key: the invoice's creation key is derived from it. */
  idempotencyKey: string;
  /** The origin of the payment page link printed on the document. */
  paymentOrigin: string;
  now: Date;
}

/**
 * One invoice, exactly one payment request for its total, `payment_request.created` and `invoice.issued`, and the
 * merchant document rendered once and stored with its hash. Consumes one request and one invoice allowance; no e-mail
 * is sent. The invoice's `invoice:<id>` lifecycle workflow is queued in the start outbox with it and started after the
 * commit (by the workers' starters if Temporal is away then).
 */
export async function issueInvoice(
  trx: Db,
  afterCommit: AfterCommit,
  deps: IssueInvoiceDeps,
  input: IssueInvoiceInput,
): Promise<IssuedInvoice> {
  const { merchantId, body, now } = input;
  const today = now.toISOString().slice(0, 10);
  if (body.due_date < today)
    invalidBody([{ path: 'due_date', message: `must not be before the issue date (${today})` }]);
  const contact = await getContact(trx, merchantId, body.customer_id);
  if (!contact) throw bodyIdNotFound('customer_id', 'no contact with this id in this account');

  const id = newId('inv');
  const number = await nextInvoiceNumber(trx, merchantId);
  const merchant = (await getMerchant(trx, merchantId))!;
  const request = await createPaymentRequest(
    trx,
    merchantId,
    {
      walletId: body.wallet_id,
      quotedAtomic: body.totals.total_atomic,
      description: `Invoice ${number}`,
      customerLabel: null,
      expectedPayer: null,
    },
    now,
    { perHour: deps.proPerHour, invoiceId: id, needInvoices: 1, dueDate: body.due_date },
  );
  const buyer = {
    legal_name: contact.legalName,
    email: contact.email,
    address: contact.address ?? undefined,
    reference: contact.reference ?? undefined,
  };
  const issuer = { name: merchant.name };
  const pdf = await renderInvoicePdf({
    number,
    issued_at: now,
    due_date: body.due_date,
    issuer,
    buyer,
    lines: body.totals.lines,
    subtotal_atomic: body.totals.subtotal_atomic,
    tax_atomic: body.totals.tax_atomic,
    tax_mode: body.totals.tax_mode,
    tax_rate: body.totals.tax_rate,
    tax_notes: body.tax_notes,
    total_atomic: body.totals.total_atomic,
    memo: body.memo,
    accounting: body.accounting,
    payment: {
      network: request.network,
      wallet_address: request.payTo,
      amount_atomic: request.amountAtomic,
      quoted_amount_atomic: request.quotedAmountAtomic,
      request_url: `${input.paymentOrigin}${paymentPagePath(request.id)}`,
      valid_until: request.expiresAt,
    },
  });
  const documentStorageId = newId('doc');
  await deps.store.put(documentStorageId, pdf);
  const invoice = await insertInvoice(trx, {
    id,
    merchantId,
    contactId: contact.id,
    walletId: body.wallet_id,
    requestId: request.id,
    number,
    creationKey: sha256Hex(`${merchantId}:invoice:${input.idempotencyKey}`),
    dueDate: body.due_date,
    totals: body.totals,
    taxNotes: body.tax_notes ?? null,
    accounting: (body.accounting as Record<string, string> | undefined) ?? null,
    memo: body.memo ?? null,
    buyerSnapshot: buyer,
    issuerSnapshot: issuer,
    documentStorageId,
    documentSha256: sha256Hex(Buffer.from(pdf)),
    issuedAt: now,
  });
  await appendProofEvent(trx, {
    merchantId,
    type: 'invoice.issued',
    occurredAt: now,
    data: invoiceData({
      id,
      requestId: request.id,
      number,
      status: invoice.status,
      network: request.network,
      amountAtomic: request.amountAtomic,
      txHash: null,
    }),
  });
  if (deps.workflows)
    await startAfterCommit(trx, afterCommit, deps.workflows, { kind: 'invoice-lifecycle', input: { invoiceId: id } });
  return { invoice, request };
}

/**
 * Voids the invoice `id` of this merchant: the voiding transaction of the operator's `invoices:void` (`voidInvoice` in
 * db/repositories/invoice-lifecycle.repo.ts), run in the caller's transaction so the answer never waits for a worker:
 * its request becomes VOIDED, `invoice.voided` is emitted (its deliveries go to the worker's dispatcher at commit),
 * quota is not restored. After the commit `invoice:<id>` is asked to re-read the invoice, so it settles as voided.
 * Voiding a voided invoice answers it unchanged; a paid invoice is a `conflict`. Answers the invoice as it is now.
 */
export async function voidMerchantInvoice(
  trx: Db,
  afterCommit: AfterCommit,
  deps: { workflows: WorkflowGateway | null },
  input: { merchantId: string; invoiceId: string; reason: string | null; now: Date },
): Promise<IssuedInvoice> {
  const { invoice } = await getInvoiceWithRequest(trx, input.merchantId, input.invoiceId);
  const outcome = await voidInvoice(trx, { invoiceId: invoice.id, reason: input.reason, now: input.now });
  if (outcome.outcome === 'already_paid') throw new DomainError('conflict', 'A paid invoice cannot be voided');
  if (outcome.outcome === 'voided' && deps.workflows)
    await startAfterCommit(trx, afterCommit, deps.workflows, {
      kind: 'invoice-nudge',
      input: { invoiceId: invoice.id },
    });
  return getInvoiceWithRequest(trx, input.merchantId, invoice.id);
}

/**
 * Queues the e-mail of the invoice `id` in the outbox, asserted approved by a person (with the API key that said so).
 * A voided invoice cannot be sent (`conflict`). Calls for one invoice are serialized on its row: a queued e-mail is
 * reused and a sent one is not sent again (`sent`). With mail configured, a newly queued e-mail's `mail:<id>` workflow
 * is queued in the start outbox with it and started after the commit.
 */
export async function queueInvoiceSend(
  trx: Db,
  afterCommit: AfterCommit,
  deps: { mailWorkflows?: WorkflowGateway | null | undefined },
  input: { merchantId: string; invoiceId: string; apiKeyId: string; now: Date },
): Promise<{ invoiceId: string; mailStatus: Awaited<ReturnType<typeof queueInvoiceMail>>['status'] }> {
  await lockInvoice(trx, input.merchantId, input.invoiceId);
  const { invoice } = await getInvoiceWithRequest(trx, input.merchantId, input.invoiceId);
  if (invoice.status === 'voided') throw new DomainError('conflict', 'A voided invoice cannot be sent');
  const mailId = newId('mail');
  const mail = await queueInvoiceMail(trx, {
    id: mailId,
    invoiceId: invoice.id,
    merchantId: input.merchantId,
    apiKeyId: input.apiKeyId,
    now: input.now,
  });
  if (mail.created && deps.mailWorkflows)
    await startAfterCommit(trx, afterCommit, deps.mailWorkflows, { kind: 'invoice-mail', input: { mailId } });
  return { invoiceId: invoice.id, mailStatus: mail.status };
}

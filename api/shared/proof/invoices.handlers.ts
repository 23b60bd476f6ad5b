import type Router from '@koa/router';
import { DomainError } from '../../../domain/errors.js';
import { formatUsdc } from '../../../domain/money.js';
import { invoiceData } from '../../../domain/proof/events.js';
import { parseInvoiceCreate } from '../../../domain/validation/proof-invoice.js';
import type { InvoiceJson } from '../../../domain/validation/proof-responses.js';
import { invalidBody } from '../../../domain/validation/proof-request.js';
import { renderInvoicePdf } from '../../../adapters/documents/invoice-pdf.js';
import { newId, sha256Hex } from '../../../adapters/crypto/tokens.js';
import type { FileStore } from '../../../adapters/storage/file-store.js';
import { getContact } from '../../../db/repositories/contacts.repo.js';
import {
  getInvoice,
  insertInvoice,
  listInvoices,
  nextInvoiceNumber,
  type Invoice,
} from '../../../db/repositories/invoices.repo.js';
import { getMerchant } from '../../../db/repositories/merchants.repo.js';
import { getPaymentRequest, type PaymentRequest } from '../../../db/repositories/payment-requests.repo.js';
import { appendProofEvent } from '../../../db/repositories/proof-events.repo.js';
import type { MerchantIdempotent } from '../../http/merchant-idempotency.js';
import type { AppState } from '../../http/context.js';
import { merchantOf } from '../../http/context.js';
import { decodeCursor, page, parseLimit } from '../../http/pagination.js';
import type { WorkflowGateway } from '../../../services/workflows/workflow-client.js';
import { startAfterCommit } from '../../../services/workflows/workflow-starts.js';
import { originOf, type MountAt, type ProofDeps } from './requests.handlers.js';
import { bodyIdNotFound } from '../../../domain/body-ids.js';
import { createPaymentRequest } from '../../../services/proof/payment-requests.js';
import { paymentPagePath } from '../../../domain/proof/payment-page.js';

export interface InvoiceDeps extends ProofDeps {
  /** Where issued invoice documents are kept (by id, with their SHA-256 in the invoice row). */
  store: FileStore;
  /** Starts `mail:<id>` for a newly queued e-mail; null when mail (SMTP_URL) or Temporal is not configured. */
  mailWorkflows?: WorkflowGateway | null;
  /** Starts the `invoice:<id>` lifecycle workflow of a new invoice; null without Temporal (the maintenance run starts it). */
  workflows?: WorkflowGateway | null;
}

/**
 * The public invoice object: totals as six-decimal strings and atomic integers, the linked request's
 * payable amount and transaction. Buyer and issuer identity snapshots and share capabilities are omitted.
 */
export function invoiceJson(i: Invoice, r: PaymentRequest): InvoiceJson {
  return {
    id: i.id,
    number: i.number,
    status: i.status,
    customer_id: i.contactId,
    wallet_id: i.walletId,
    request_id: i.requestId,
    network: r.network,
    due_date: i.dueDate,
    issued_at: i.issuedAt.toISOString(),
    items: i.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit_usdc: formatUsdc(BigInt(l.unit_atomic)),
      amount_usdc: formatUsdc(BigInt(l.line_total_atomic)),
    })),
    subtotal_usdc: formatUsdc(i.subtotalAtomic),
    tax_mode: i.taxMode,
    tax_rate: i.taxRate,
    tax_usdc: formatUsdc(i.taxAtomic),
    tax_notes: i.taxNotes,
    total_usdc: formatUsdc(i.totalAtomic),
    total_atomic: i.totalAtomic.toString(),
    amount_atomic: r.amountAtomic.toString(),
    accounting: i.accounting,
    memo: i.memo,
    document_sha256: i.documentSha256,
    tx_hash: r.txHash,
    paid_at: i.paidAt?.toISOString() ?? null,
    voided_at: i.voidedAt?.toISOString() ?? null,
  };
}

export async function loadInvoice(
  deps: InvoiceDeps,
  merchantId: string,
  id: string,
): Promise<{ invoice: Invoice; request: PaymentRequest }> {
  const invoice = await getInvoice(deps.db, merchantId, id);
  const request = invoice ? await getPaymentRequest(deps.db, merchantId, invoice.requestId) : null;
  if (!invoice || !request) throw new DomainError('not_found', 'Invoice not found');
  return { invoice, request };
}

export function mountInvoices(
  router: Router<AppState>,
  deps: InvoiceDeps,
  idempotent: MerchantIdempotent,
  at: MountAt = { base: '/v1' },
): void {
  /**
   * POST /v1/invoices: one invoice, exactly one payment request for its total, `payment_request.created` and
   * `invoice.issued`, and the merchant document rendered once and stored with its hash. Consumes one request
   * and one invoice allowance; no e-mail is sent. The invoice's `invoice:<id>` lifecycle workflow is queued in the
   * start outbox with it and started after the commit (by the workers' starters if Temporal is away then).
   */
  router.post(
    `${at.base}/invoices`,
    idempotent('invoices.create', async (ctx, { transaction: trx, afterCommit }) => {
      const body = parseInvoiceCreate(ctx.request.body);
      const merchantId = merchantOf(ctx).id;
      const now = deps.now();
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
          request_url: `${originOf(deps, ctx)}${paymentPagePath(request.id)}`,
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
        creationKey: sha256Hex(`${merchantId}:invoice:${ctx.get('Idempotency-Key')}`),
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
        await startAfterCommit(trx, afterCommit, deps.workflows, {
          kind: 'invoice-lifecycle',
          input: { invoiceId: id },
        });
      ctx.state.resourceId = id;
      ctx.status = 201;
      ctx.body = invoiceJson(invoice, request);
    }),
  );

  router.get(`${at.base}/invoices`, async (ctx) => {
    const merchantId = merchantOf(ctx).id;
    const limit = parseLimit(ctx.query['limit']);
    const rows = await listInvoices(deps.db, merchantId, limit, decodeCursor('invoices', ctx.query['before']));
    const requests = new Map<string, PaymentRequest>();
    for (const i of rows) requests.set(i.id, (await getPaymentRequest(deps.db, merchantId, i.requestId))!);
    ctx.body = page('invoices', rows, limit, (i) => invoiceJson(i, requests.get(i.id)!));
  });

  router.get(`${at.base}/invoices/:id`, async (ctx) => {
    const { invoice, request } = await loadInvoice(deps, merchantOf(ctx).id, ctx.params['id'] ?? '');
    ctx.body = invoiceJson(invoice, request);
  });
}

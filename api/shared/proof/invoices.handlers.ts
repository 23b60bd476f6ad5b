import type Router from '@koa/router';
import { formatUsdc } from '../../../domain/money.js';
import { parseInvoiceCreate } from '../../../domain/validation/proof-invoice.js';
import type { InvoiceJson } from '../../../domain/validation/proof-responses.js';
import type { FileStore } from '../../../adapters/storage/file-store.js';
import { listInvoices, type Invoice } from '../../../db/repositories/invoices.repo.js';
import { getPaymentRequest, type PaymentRequest } from '../../../db/repositories/payment-requests.repo.js';
import type { MerchantIdempotent } from '../../http/merchant-idempotency.js';
import type { AppState } from '../../http/context.js';
import { merchantOf } from '../../http/context.js';
import { decodeCursor, page, parseLimit } from '../../http/pagination.js';
import type { WorkflowGateway } from '../../../services/workflows/workflow-client.js';
import { originOf, type MountAt, type ProofDeps } from './requests.handlers.js';
import { getInvoiceWithRequest, issueInvoice } from '../../../services/proof/invoices.js';

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

export function mountInvoices(
  router: Router<AppState>,
  deps: InvoiceDeps,
  idempotent: MerchantIdempotent,
  at: MountAt = { base: '/v1' },
): void {
  /** POST /v1/invoices: one invoice with its payment request and document (`issueInvoice`, services/proof/invoices.ts). */
  router.post(
    `${at.base}/invoices`,
    idempotent('invoices.create', async (ctx, { transaction, afterCommit }) => {
      const { invoice, request } = await issueInvoice(transaction, afterCommit, deps, {
        merchantId: merchantOf(ctx).id,
        body: parseInvoiceCreate(ctx.request.body),
        idempotencyKey: ctx.get('Idempotency-Key'),
        paymentOrigin: originOf(deps, ctx),
        now: deps.now(),
      });
      ctx.state.resourceId = invoice.id;
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
    const { invoice, request } = await getInvoiceWithRequest(deps.db, merchantOf(ctx).id, ctx.params['id'] ?? '');
    ctx.body = invoiceJson(invoice, request);
  });
}

import type Router from '@koa/router';
import type { z } from 'zod';
import { answer } from '../http/contract.js';
import type { evidenceSchema } from '../../domain/validation/integrations-responses.js';
import { invoiceSchema } from '../../domain/validation/proof-responses.js';
import { reviewPageSchema } from './openapi.contract.js';
import { DomainError } from '../../domain/errors.js';
import { parseVoidReason } from '../../domain/proof/invoice-lifecycle.js';
import { invalidBody, zodIssues } from '../../domain/validation/proof-request.js';
import { invoiceVoidSchema } from '../../domain/validation/integrations.js';
import { readIssuedDocument } from '../../adapters/documents/issued-document.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Logger } from '../../adapters/logging/logger.js';
import { getInvoiceForMail } from '../../db/repositories/invoices.repo.js';
import { evidenceOfRequests, type EvidenceRecord } from '../../db/repositories/payment-evidence.repo.js';
import { listPaymentRequests } from '../../db/repositories/payment-requests.repo.js';
import type { AppState } from '../http/context.js';
import { merchantOf } from '../http/context.js';
import { decodeCursor, page, parseLimit } from '../http/pagination.js';
import { mountContacts } from '../shared/proof/contacts.handlers.js';
import { mountEvents } from '../shared/proof/events.handlers.js';
import type { MerchantIdempotent } from '../http/merchant-idempotency.js';
import { invoiceJson, mountInvoices } from '../shared/proof/invoices.handlers.js';
import { mountRequests, originOf, type ProofDeps } from '../shared/proof/requests.handlers.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { voidMerchantInvoice } from '../../services/proof/invoices.js';
import { requestJson } from '../../services/proof/payment-requests.js';

export interface RecordRouteDeps extends ProofDeps {
  store: FileStore;
  logger: Logger;
  /** Starts invoice lifecycles and nudges `invoice:<id>` after a voiding; null without Temporal (the maintenance run starts what is missing). */
  workflows: WorkflowGateway | null;
}

/** One transfer the watcher attributed to a request: chain facts and what it decided. */
export function evidenceJson(e: EvidenceRecord): z.input<typeof evidenceSchema> {
  return {
    tx_hash: e.txHash,
    log_index: e.logIndex,
    from: e.from,
    to: e.to,
    amount_atomic: e.amountAtomic.toString(),
    block_number: e.blockNumber,
    block_time: e.blockTime.toISOString(),
    decision: e.decision,
    reason: e.reason,
    recorded_at: e.recordedAt.toISOString(),
  };
}

/**
 * The merchant's records in the dashboard session: payment requests, contacts, invoices and events are the
 * /proof/v1 handlers themselves (api/shared/proof/*.handlers.ts, mounted here without the `/v1`), so a session route and
 * an API-key route cannot drift apart. Only the session has the invoice document download, voiding (the voiding
 * transaction of the operator's `invoices:void`) and the review queue with its evidence.
 */
export function mountRecords(router: Router<AppState>, deps: RecordRouteDeps, idempotent: MerchantIdempotent): void {
  const idem = idempotent;
  const at = { base: '', filters: true } as const;
  mountRequests(router, deps, idem, at);
  mountContacts(router, deps, idem, at);
  mountInvoices(router, { ...deps, mailWorkflows: null }, idem, at);
  mountEvents(router, deps, at);

  /** The issued document, as stored at issue and checked against `document_sha256`. */
  router.get('/invoices/:id/document', async (ctx) => {
    const found = await getInvoiceForMail(deps.db, merchantOf(ctx).id, ctx.params['id'] ?? '');
    if (!found) throw new DomainError('not_found', 'Invoice not found');
    const document = await readIssuedDocument(deps.store, found.documentStorageId, found.invoice.documentSha256);
    if (!document.ok) {
      deps.logger.error({ invoiceId: found.invoice.id, reason: document.reason }, 'issued invoice document unreadable');
      throw new DomainError('service_unavailable', 'The invoice document cannot be read right now; try again later');
    }
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Disposition', `attachment; filename="${found.invoice.number}.pdf"`);
    ctx.set('X-Content-SHA256', found.invoice.documentSha256);
    ctx.type = 'application/pdf';
    ctx.body = document.pdf;
  });

  /**
   * POST /invoices/{id}/void `{reason?}` → 200 the invoice, voided, in the request's own transaction
   * (`voidMerchantInvoice`, services/proof/invoices.ts); voiding a voided invoice answers it unchanged; a paid invoice
   * → 409 `conflict`.
   */
  router.post(
    '/invoices/:id/void',
    idem('integrations.invoices.void', async (ctx, { transaction: trx, afterCommit }) => {
      const parsed = invoiceVoidSchema.safeParse(ctx.request.body ?? {});
      if (!parsed.success) invalidBody(zodIssues(parsed.error));
      const reason = parseVoidReason(parsed.data.reason);
      if (!reason.ok) invalidBody([{ path: 'reason', message: reason.message }]);
      const after = await voidMerchantInvoice(trx, afterCommit, deps, {
        merchantId: merchantOf(ctx).id,
        invoiceId: ctx.params['id'] ?? '',
        reason: reason.reason,
        now: deps.now(),
      });
      ctx.body = answer(invoiceSchema, invoiceJson(after.invoice, after.request));
    }),
  );

  /** GET /reviews: requests in REVIEW, in descending id order, each with its reason and every transfer attributed to it. */
  router.get('/reviews', async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    const now = deps.now();
    const rows = await listPaymentRequests(
      deps.db,
      merchantOf(ctx).id,
      limit,
      decodeCursor('requests', ctx.query['before']),
      { status: 'REVIEW', now },
    );
    const evidence = await evidenceOfRequests(
      deps.db,
      rows.map((r) => r.id),
    );
    ctx.body = answer(
      reviewPageSchema,
      page('requests', rows, limit, (r) => ({
        ...requestJson(r, originOf(deps, ctx), now),
        review_reason: r.reviewReason ?? null,
        evidence: evidence.get(r.id)!.map(evidenceJson),
      })),
    );
  });
}

import type Router from '@koa/router';
import { invoiceSendSchema } from '../../domain/validation/proof-invoice.js';
import type { InvoiceSendResultJson } from '../../domain/validation/proof-responses.js';
import { invalidBody, zodIssues } from '../../domain/validation/proof-request.js';
import type { MerchantIdempotent } from '../http/merchant-idempotency.js';
import type { AppState } from '../http/context.js';
import { keyOf, merchantOf } from '../http/context.js';
import type { InvoiceDeps } from '../shared/proof/invoices.handlers.js';
import { queueInvoiceSend } from '../../services/proof/invoices.js';

/**
 * POST /v1/invoices/{id}/send (API keys only: the approval assertion is stored with the key that made it).
 */
export function mountInvoiceSend(router: Router<AppState>, deps: InvoiceDeps, idempotent: MerchantIdempotent): void {
  /**
   * POST /v1/invoices/{id}/send with `{"user_approved": true}`: queues the e-mail in the outbox (the caller
   * asserts a person approved it; nothing is sent otherwise). A voided invoice cannot be sent (409). Calls for
   * one invoice are serialized on its row: a queued e-mail is reused and a sent one is not sent again
   * (`mail_status: "sent"`). With mail configured, a newly queued e-mail's `mail:<id>` workflow is queued in the start
   * outbox with it and started after the commit (by the workers' starters if Temporal is away then).
   */
  router.post(
    '/v1/invoices/:id/send',
    idempotent('invoices.send', async (ctx, { transaction, afterCommit }) => {
      const parsed = invoiceSendSchema.safeParse(ctx.request.body);
      if (!parsed.success) invalidBody(zodIssues(parsed.error));
      const sent = await queueInvoiceSend(transaction, afterCommit, deps, {
        merchantId: merchantOf(ctx).id,
        invoiceId: ctx.params['id'] ?? '',
        apiKeyId: keyOf(ctx).id,
        now: deps.now(),
      });
      ctx.body = { id: sent.invoiceId, mail_status: sent.mailStatus } satisfies InvoiceSendResultJson;
    }),
  );
}

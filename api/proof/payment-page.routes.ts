import type Router from '@koa/router';
import { idRegex } from '../../domain/ids.js';
import type { Db } from '../../db/connection.js';
import { getPaymentRequestForPage } from '../../db/repositories/payment-requests.repo.js';
import type { AppState } from '../http/context.js';
import {
  PAYMENT_PAGE_HEADERS,
  paymentPageHtml,
  renderPaymentPageNotFound,
  renderPaymentPageSuspended,
} from './payment-page.js';
import { paymentPagePath } from '../../domain/proof/payment-page.js';

/**
 * GET /proof/pay/{id}: the public payment page a merchant sends to its payer (no key; the unguessable
 * request id is the capability). Unknown ids get a 404 page. While the merchant is suspended the page answers 403
 * and shows nothing to pay (docs/proof.md, "Suspended accounts").
 */
export function mountPaymentPage(router: Router<AppState>, db: Db, now: () => Date): void {
  // `:request`, not `:id`: an impossible id gets this page's own HTML 404, not the JSON one of the id check.
  router.get(paymentPagePath(':request').replace(/^\/proof/, ''), async (ctx) => {
    ctx.set(PAYMENT_PAGE_HEADERS);
    const id = ctx.params['request'] ?? '';
    const found = idRegex('req').test(id) ? await getPaymentRequestForPage(db, id) : null;
    if (!found) {
      ctx.status = 404;
      ctx.body = renderPaymentPageNotFound();
      return;
    }
    const r = found.request;
    if (!found.merchantActive) {
      ctx.status = 403;
      ctx.body = renderPaymentPageSuspended({
        merchantName: found.merchantName,
        requestId: r.id,
        status: r.status,
        description: r.description,
        customerLabel: r.customerLabel,
        expiresAt: r.expiresAt,
        paidAt: r.verifiedAt,
        now: now(),
      });
      return;
    }
    ctx.body = await paymentPageHtml({
      merchantName: found.merchantName,
      requestId: r.id,
      status: r.status,
      network: r.network,
      payTo: r.payTo,
      amountAtomic: r.amountAtomic,
      quotedAmountAtomic: r.quotedAmountAtomic,
      description: r.description,
      customerLabel: r.customerLabel,
      expiresAt: r.expiresAt,
      txHash: r.txHash,
      paidAt: r.verifiedAt,
      now: now(),
    });
  });
}

import type Router from '@koa/router';
import type { Db } from '../../db/connection.js';
import { getPaymentRequestForPage } from '../../db/repositories/payment-requests.repo.js';
import type { AppState } from '../http/context.js';
import { PAYMENT_PAGE_HEADERS, paymentPageHtml, renderPaymentPageNotFound } from './payment-page.js';
import { paymentPagePath } from './requests.handlers.js';

/**
 * GET /proof/pay/{id}: the public payment page a merchant sends to its payer (no key; the unguessable
 * request id is the capability). Unknown ids get a 404 page.
 */
export function mountPaymentPage(router: Router<AppState>, db: Db, now: () => Date): void {
  router.get(paymentPagePath(':id').replace(/^\/proof/, ''), async (ctx) => {
    ctx.set(PAYMENT_PAGE_HEADERS);
    const found = /^req_[A-Za-z0-9]{20}$/.test(ctx.params['id'] ?? '') ? await getPaymentRequestForPage(db, ctx.params['id']!) : null;
    if (!found) {
      ctx.status = 404;
      ctx.body = renderPaymentPageNotFound();
      return;
    }
    const r = found.request;
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

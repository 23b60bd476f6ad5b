import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { parseMatchQuery, parseTxQuery, type MatchQuery, type Parsed, type TxQuery } from '../../domain/validation/x402-query.js';
import { renderEvidencePdf } from '../../adapters/media/pdf/evidence-pdf.js';
import type { AppContext, AppState } from '../http/context.js';
import type { EvidenceService } from './evidence.service.js';
import { evidencePdfInput, matchJson, verifyJson } from './responses.js';
import { PAID_ROUTES, type PaidRoute } from './route-table.js';

/** Puts a payment in front of a paid route: 402 until a valid x402 payment verifies; settles after success. */
export interface PaymentGate {
  require(route: PaidRoute): Middleware<AppState>;
  /** The base64 PAYMENT-REQUIRED challenge of a route (its `accepts` go into the discovery manifest), if the gate has one. */
  paymentRequiredHeader?(route: PaidRoute, resourceUrl: string): Promise<string>;
}

type QueryRecord = Record<string, string | string[] | undefined>;

/** Validates the query first, so invalid input gets 422 before any payment is asked. */
function validated<T>(parse: (q: QueryRecord) => Parsed<T>): Middleware<AppState> {
  return async (ctx, next) => {
    const parsed = parse(ctx.query as QueryRecord);
    if (!parsed.ok) {
      throw new DomainError('validation_failed', 'Invalid query parameters; see issues', { issues: parsed.issues });
    }
    ctx.state.paidQuery = parsed.value;
    await next();
  };
}

const query = <T>(ctx: AppContext): T => ctx.state.paidQuery as T;

/** GET /x402/v1/usdc/verify, /match and /evidence.pdf: validate, then pay, then read the chain. */
export function mountUsdcRoutes(router: Router<AppState>, deps: { evidence: EvidenceService; payments: PaymentGate }): void {
  router.get(PAID_ROUTES.verify.path, validated(parseTxQuery), deps.payments.require(PAID_ROUTES.verify), async (ctx) => {
    const q = query<TxQuery>(ctx);
    ctx.body = verifyJson(await deps.evidence.getEvidence(q.network, q.txHash));
  });

  router.get(PAID_ROUTES.match.path, validated(parseMatchQuery), deps.payments.require(PAID_ROUTES.match), async (ctx) => {
    const q = query<MatchQuery>(ctx);
    ctx.body = matchJson(await deps.evidence.getEvidence(q.network, q.txHash), q);
  });

  router.get(PAID_ROUTES.evidence.path, validated(parseTxQuery), deps.payments.require(PAID_ROUTES.evidence), async (ctx) => {
    const q = query<TxQuery>(ctx);
    const { pdf, sha256 } = await renderEvidencePdf(evidencePdfInput(await deps.evidence.getEvidence(q.network, q.txHash)));
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="usdc-evidence-${q.network}-${q.txHash.slice(0, 18)}.pdf"`);
    ctx.set('X-Evidence-SHA256', sha256);
    ctx.body = Buffer.from(pdf);
  });
}

/** The gate used when payments are not configured: paid routes answer 503, never run for free. */
export const paymentsNotConfigured: PaymentGate = {
  require: () => async () => {
    throw new DomainError('payments_not_configured', 'Payments are not configured on this server (X402_PAY_TO and a facilitator are required)');
  },
};

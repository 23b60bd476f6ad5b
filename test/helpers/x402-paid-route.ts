import type Router from '@koa/router';
import { createRouter } from '../../api/http/router.js';
import type { AppState } from '../../api/http/context.js';
import type { X402Payments } from '../../api/x402/payment.middleware.js';
import { DomainError } from '../../domain/errors.js';
import type { PaidRouteSpec } from '../../services/x402/paid-route.js';

// The paid test route of the x402 tests: it composes api/ (a router, the payment gate), so it lives here and not in
// support/x402-harness.ts, which bench/ shares and which imports no api/ (eslint.config.js, rule 5a).

/** A paid route shaped like the real Verify route (fee 0.02 USDC). */
export const TEST_ROUTE: PaidRouteSpec = {
  path: '/test/paid',
  operation: 'verify',
  priceAtomic: '20000',
  description: 'Test paid route: lists native USDC transfers of a transaction',
  mimeType: 'application/json',
  inputSchema: {
    type: 'object',
    properties: {
      tx_hash: { type: 'string', minLength: 64, maxLength: 100 },
      outcome: { type: 'string', enum: ['ok', '404', '422', '503'] },
    },
    required: ['tx_hash'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      tx_hash: { type: 'string' },
      status: { type: 'string', enum: ['confirmed', 'waiting_confirmations'] },
    },
    required: ['tx_hash', 'status'],
  },
};

/** A router under /x402 with one paid route whose handler answers 200, or 404/422/503 by `?outcome=`. */
export function paidTestRouter(
  payments: X402Payments,
  calls: { count: number },
  path = TEST_ROUTE.path,
): Router<AppState> {
  const router = createRouter({ prefix: '/x402' });
  router.get(path, payments.require({ ...TEST_ROUTE, path }), (ctx) => {
    calls.count += 1;
    const outcome = ctx.query.outcome;
    if (outcome === '404') throw new DomainError('not_found', 'Transaction not found on the selected chain');
    if (outcome === '422') throw new DomainError('validation_failed', 'The transaction failed');
    if (outcome === '503') throw new DomainError('service_unavailable', 'RPC unavailable');
    ctx.body = { tx_hash: ctx.query.tx_hash, status: 'confirmed' };
  });
  return router;
}

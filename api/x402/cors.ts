import type { PublicCorsOptions } from '../http/cors.js';
import { PAID_ROUTES } from '../../services/x402/route-table.js';

/**
 * Cross-origin use of /x402 by browser wallets (mounted by api/server.ts). The paid routes: a preflight allows GET
 * and HEAD with `PAYMENT-SIGNATURE` (and `Access-Control-Expose-Headers`, a request header @x402/fetch sets on its
 * paid retry), and every answer, 402/4xx/5xx included, exposes the x402 headers. The public JSON documents
 * (health, launch status, both discovery manifests) are readable from any origin. Pages, the disabled processing
 * routes and the other interfaces get no CORS header.
 */
export const X402_CORS_PATHS: readonly string[] = [
  ...Object.values(PAID_ROUTES).map((r) => `/x402${r.path}`),
  '/x402/health',
  '/x402/launch-status',
  '/x402/.well-known/x402',
  '/.well-known/x402',
];

export function x402CorsOptions(): PublicCorsOptions {
  return {
    paths: X402_CORS_PATHS,
    allowMethods: ['GET', 'HEAD'],
    allowHeaders: ['PAYMENT-SIGNATURE', 'Access-Control-Expose-Headers', 'Content-Type', 'Accept', 'X-Request-Id'],
    exposeHeaders: [
      'PAYMENT-REQUIRED',
      'PAYMENT-RESPONSE',
      'X-Evidence-SHA256',
      'Content-Disposition',
      'Retry-After',
      'X-Request-Id',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ],
    maxAgeSeconds: 600,
  };
}

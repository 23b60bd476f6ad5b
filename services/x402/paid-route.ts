import type { PaidResource } from '../../adapters/x402/payment-server.js';

/**
 * One paid GET route of /x402: what it costs and how it is described in its x402 challenge (resource
 * description, MIME type, and the bazaar discovery schemas of its query and of its successful response).
 */
export interface PaidRouteSpec extends PaidResource {
  /** The route path (e.g. `/v1/usdc/verify`); the resource URL of a challenge is the request's own path. */
  path: string;
  operation: 'verify' | 'match' | 'evidence' | 'domain_audit';
  /** Fee in atomic USDC, digits only (e.g. `'20000'` = 0.02 USDC). */
  priceAtomic: string;
  description: string;
  mimeType: string;
  /** JSON Schema (object) of the query parameters. */
  inputSchema: object;
  /** JSON Schema of the successful response body. */
  outputSchema: object;
}

import type { ParameterizedContext } from 'koa';
import { DomainError } from '../../domain/errors.js';
import type { ApiKeyRecord } from '../../db/repositories/api-keys.repo.js';
import type { Merchant } from '../../db/repositories/merchants.repo.js';
import type { KeyRef, StoredResponse } from '../../db/repositories/idempotency.repo.js';
import type { PaymentOutcome } from '../../services/x402/paid-call.js';

/** Which interface a request belongs to; decides its error body shape. */
export type InterfaceName = 'v1' | 'proof' | 'x402' | 'mcp' | 'integrations' | 'company' | 'dashboard' | 'root';

export interface AppState {
  requestId: string;
  iface: InterfaceName;
  apiKey?: ApiKeyRecord;
  /** The /proof/v1 merchant of the bearer key, or of the dashboard session on /api/integrations. */
  merchant?: Merchant;
  /** Read with the /v1 key in the same statement: its company's status (null: none), for the suspension guard. */
  keyCompany?: { status: 'active' | 'suspended' | null };
  /** Read with the /proof/v1 key in the same statement, for the merchant guard after the rate limits. */
  keyMerchant?: { merchant: Merchant | null; keyRank: number };
  /**
   * Read with the /proof/v1 key in the same statement (verifyMerchantKey): the response stored under the request's
   * Idempotency-Key for the key's merchant and its retained count, for the idempotency guard's first lookup.
   */
  idempotencyRead?: { ref: KeyRef; stored: StoredResponse | null; retained: number };
  /** The signed-in member of a processing company on /api/company and POST /v1/webhooks. */
  member?: {
    id: string;
    companyId: string;
    accountId: string;
    email: string;
    role: 'member' | 'billing_admin';
    companyName: string;
  };
  /** The signed-in dashboard session on /api/integrations (and the company session on /api/company). */
  /** csrfToken: the one the API hands out; csrfTokensAccepted: it and those under previous secrets keys. */
  session?: { id: string; userId: string; email: string; csrfToken: string; csrfTokensAccepted: readonly string[] };
  /** Resource created by an idempotent handler, stored beside the response. */
  resourceId?: string;
  /** Validated query of a paid /x402 route (validated before any payment is asked). */
  paidQuery?: unknown;
  /** The route template of a request served outside the interface routers (`/metrics`), for the metrics. */
  route?: string;
  /** What a paid /x402 call came to (api/x402/payment.middleware.ts), counted by the metrics middleware. */
  x402Outcome?: PaymentOutcome;
}

export type AppContext = ParameterizedContext<AppState>;

/** `POST /v1/webhooks` is a company session route under /v1 (spec section 4): it answers as `/api/company` does. */
const COMPANY_SESSION_PATHS_UNDER_V1 = new Set(['/v1/webhooks']);

export function interfaceOf(path: string): InterfaceName {
  if (COMPANY_SESSION_PATHS_UNDER_V1.has(path)) return 'company';
  if (path === '/v1' || path.startsWith('/v1/')) return 'v1';
  if (path === '/proof' || path.startsWith('/proof/')) return 'proof';
  if (path === '/x402' || path.startsWith('/x402/')) return 'x402';
  if (path === '/mcp' || path.startsWith('/mcp/')) return 'mcp';
  if (path === '/.well-known/x402' || path.startsWith('/.well-known/x402/')) return 'x402'; // the root x402 discovery manifest
  if (path === '/api/integrations' || path.startsWith('/api/integrations/')) return 'integrations';
  if (path === '/api/company' || path.startsWith('/api/company/')) return 'company';
  if (path === '/dashboard' || path.startsWith('/dashboard/')) return 'dashboard'; // the web app (api/dashboard/)
  return 'root';
}

/**
 * What the guards established, for handlers: a handler reached without its guard (a routing mistake) fails
 * closed with the guard's own answer, instead of running for nobody or crashing with a 500.
 */
export function keyOf(ctx: { state: AppState }): ApiKeyRecord {
  if (!ctx.state.apiKey) throw new DomainError('unauthorized', 'Missing or invalid API key');
  return ctx.state.apiKey;
}

export function merchantOf(ctx: { state: AppState }): Merchant {
  if (!ctx.state.merchant) {
    throw ctx.state.iface === 'integrations'
      ? new DomainError('session_required', 'Sign in to the dashboard first (no valid session cookie)')
      : new DomainError('unauthorized', 'Missing or invalid API key');
  }
  return ctx.state.merchant;
}

export function sessionOf(ctx: { state: AppState }): NonNullable<AppState['session']> {
  if (!ctx.state.session)
    throw new DomainError('session_required', 'Sign in to the dashboard first (no valid session cookie)');
  return ctx.state.session;
}

export function memberOf(ctx: { state: AppState }): NonNullable<AppState['member']> {
  if (!ctx.state.member) throw new DomainError('session_required', 'Sign in first (no valid company session cookie)');
  return ctx.state.member;
}

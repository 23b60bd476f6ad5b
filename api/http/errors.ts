import type { Middleware } from 'koa';
import { DomainError, type ErrorCode } from '../../domain/errors.js';
import type { Logger } from '../../adapters/logging/logger.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import type { AppState, InterfaceName } from './context.js';

/** HTTP status of each error code, per interface (they differ only where the specs differ). */
const STATUS: Record<ErrorCode, number> = {
  unauthorized: 401,
  api_key_in_url: 401,
  insufficient_scope: 403,
  forbidden: 403,
  session_required: 403,
  csrf_failed: 403,
  origin_rejected: 403,
  host_rejected: 403,
  authorization_header_rejected: 403,
  customer_access_required: 403,
  invalid_credentials: 401,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_retry_state: 409,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  idempotency_key_target_deleted: 409,
  max_credits_exceeded: 409,
  batch_not_terminal: 409,
  batch_has_no_failed_items: 409,
  batch_retry_needs_password: 409,
  batch_retry_in_progress: 409,
  batch_zip_too_large: 413,
  job_not_cancellable: 409,
  batch_not_cancellable: 409,
  idempotency_key_required: 422,
  idempotency_key_invalid: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  malformed_json: 422,
  validation_failed: 422,
  rate_limited: 429,
  queue_full: 429,
  insufficient_credits: 402,
  gone: 410,
  limit_reached: 409,
  quota_exceeded: 422,
  transaction_not_found: 404,
  domain_not_found: 404,
  domain_not_public: 422,
  dns_unavailable: 503,
  transaction_failed: 422,
  chain_unavailable: 503,
  chain_reorganization: 503,
  chain_inconsistent: 503,
  payment_required: 402,
  payment_invalid: 402,
  payment_replayed: 402,
  payments_not_configured: 503,
  payment_settlement_uncertain: 503,
  service_unavailable: 503,
  timeout: 504,
  internal_error: 500,
  api_key_not_accepted: 403,
  billing_admin_required: 403,
  invitation_invalid: 404,
  invitation_pending: 409,
  invitation_undeliverable: 422,
  mail_unavailable: 503,
  account_in_other_company: 409,
  last_billing_admin: 409,
  purchase_unavailable: 409,
  too_many_open_purchases: 409,
  challenge_invalid: 422,
  signature_invalid: 422,
};

/**
 * /proof/v1 answers an insufficient scope with 401 (its spec, section 7); /v1 with 403. The management routes
 * share that spec's table, where a plan limit is a quota failure (422), not a conflict.
 */
const OVERRIDES: Partial<Record<InterfaceName, Partial<Record<ErrorCode, number>>>> = {
  proof: { insufficient_scope: 401 },
  integrations: { limit_reached: 422 },
  // The processing interface's session routes (spec section 7: 401 is a missing or invalid key or login).
  v1: { session_required: 401 },
  company: { session_required: 401 },
};

export function statusOf(iface: InterfaceName, code: ErrorCode): number {
  return OVERRIDES[iface]?.[code] ?? STATUS[code];
}

/** JSON-RPC error codes of the HTTP-level refusals of /mcp (the body never reached the MCP server). */
const JSON_RPC_CODES: Partial<Record<ErrorCode, number>> = {
  malformed_json: -32700,
  validation_failed: -32700,
  unsupported_media_type: -32600,
  payload_too_large: -32600,
  method_not_allowed: -32600,
  not_found: -32600,
};

/**
 * The documented body of each interface: `{detail}` for /v1, `{error}` elsewhere; plus a stable code, and the
 * machine-readable `fields` of the error (documented with its code) when it has any. /mcp speaks JSON-RPC: a
 * JSON-RPC error response (id null) whose `data` carries the same code and request id.
 */
export function errorBody(
  iface: InterfaceName,
  code: ErrorCode,
  message: string,
  requestId: string,
  issues?: unknown,
  fields?: unknown,
): Record<string, unknown> {
  const extra = {
    ...(fields && typeof fields === 'object' && !Array.isArray(fields) ? fields : {}),
    ...(Array.isArray(issues) ? { issues } : {}),
  };
  if (iface === 'v1' || iface === 'company') return { detail: message, code, request_id: requestId, ...extra };
  if (iface === 'mcp')
    return {
      jsonrpc: '2.0',
      id: null,
      error: { code: JSON_RPC_CODES[code] ?? -32000, message, data: { code, request_id: requestId, ...extra } },
    };
  return { error: message, code, request_id: requestId, ...extra };
}

/** Maps errors thrown by body parsers and Koa (http-errors) onto our codes. */
function fromHttpError(err: {
  status?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}): DomainError | null {
  const status = err.status;
  if (typeof status !== 'number') return null;
  if (status === 413 || err.type === 'entity.too.large')
    return new DomainError('payload_too_large', 'Request body is too large');
  if (err.type === 'entity.parse.failed' || (status === 400 && /json/i.test(err.message ?? ''))) {
    return new DomainError('malformed_json', 'Request body is not valid JSON');
  }
  if (status === 415) return new DomainError('unsupported_media_type', 'Request body must be application/json');
  if (status === 400) return new DomainError('validation_failed', 'Malformed request');
  if (status === 404) return new DomainError('not_found', 'Not found');
  if (status === 405) return new DomainError('method_not_allowed', 'Method not allowed');
  return null;
}

/** Retry-After of a 503 while PostgreSQL is unreachable: a restart or a fail-over takes seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Renders every failure in the body shape of the request's interface, including unknown paths (404), wrong
 * methods (405, with Allow) and oversized bodies (413). The database being unreachable (db/unavailable.ts decides)
 * is a 503 `service_unavailable` with Retry-After. Unexpected errors become a 500 without details; they are
 * logged with the request id (no body, no headers).
 */
export function errorMiddleware(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new DomainError('not_found', 'Not found');
        if (ctx.status === 405 || ctx.status === 501) {
          throw new DomainError('method_not_allowed', `Method ${ctx.method} is not allowed on this path`);
        }
      }
    } catch (raw) {
      let err: DomainError;
      if (raw instanceof DomainError) err = raw;
      else {
        const mapped = fromHttpError(raw as never);
        if (mapped) err = mapped;
        else if (isDatabaseUnavailable(raw)) {
          logger.warn(
            { err: raw, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path },
            'database unavailable',
          );
          err = new DomainError(
            'service_unavailable',
            'The service is temporarily unavailable; retry after the time in Retry-After',
            {
              retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
            },
          );
        } else {
          logger.error(
            { err: raw, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path },
            'unhandled error',
          );
          err = new DomainError('internal_error', 'Internal server error');
        }
      }
      const iface = ctx.state.iface;
      ctx.status = statusOf(iface, err.code);
      ctx.body = errorBody(
        iface,
        err.code,
        err.message,
        ctx.state.requestId,
        err.details['issues'],
        err.details['fields'],
      );
      const retryAfter = err.details['retryAfterSeconds'];
      if (typeof retryAfter === 'number') ctx.set('Retry-After', String(retryAfter));
      if (err.code === 'method_not_allowed' && !ctx.response.get('Allow')) {
        const allow = err.details['allow'];
        if (typeof allow === 'string') ctx.set('Allow', allow);
      }
      if (err.code === 'unauthorized' || err.code === 'api_key_in_url') {
        ctx.set('WWW-Authenticate', 'Bearer');
      }
    }
  };
}

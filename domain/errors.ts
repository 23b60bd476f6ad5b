/**
 * Expected failures carry a stable snake_case code. Each interface's error middleware maps the code to
 * an HTTP status and its documented body; the message is safe to show to the caller (never a secret).
 */
export type ErrorCode =
  | 'unauthorized'
  | 'api_key_in_url'
  | 'insufficient_scope'
  | 'forbidden'
  | 'session_required'
  | 'csrf_failed'
  | 'origin_rejected'
  | 'host_rejected'
  | 'authorization_header_rejected'
  | 'customer_access_required'
  | 'invalid_credentials'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'invalid_retry_state'
  | 'idempotency_key_required'
  | 'idempotency_key_invalid'
  | 'idempotency_conflict'
  | 'idempotency_in_progress'
  | 'idempotency_key_target_deleted'
  | 'max_credits_exceeded'
  | 'batch_not_terminal'
  | 'batch_has_no_failed_items'
  | 'batch_retry_needs_password'
  | 'batch_retry_in_progress'
  | 'batch_zip_too_large'
  | 'job_not_cancellable'
  | 'batch_not_cancellable'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'malformed_json'
  | 'validation_failed'
  | 'rate_limited'
  | 'queue_full'
  | 'insufficient_credits'
  | 'gone'
  | 'limit_reached'
  | 'quota_exceeded'
  | 'transaction_not_found'
  | 'domain_not_found'
  | 'domain_not_public'
  | 'dns_unavailable'
  | 'transaction_failed'
  | 'chain_unavailable'
  | 'chain_reorganization'
  | 'chain_inconsistent'
  | 'payment_required'
  | 'payment_invalid'
  | 'payment_replayed'
  | 'payments_not_configured'
  | 'payment_settlement_uncertain'
  | 'service_unavailable'
  | 'timeout'
  | 'internal_error'
  | 'api_key_not_accepted'
  | 'billing_admin_required'
  | 'invitation_invalid'
  | 'invitation_pending'
  | 'account_in_other_company'
  | 'last_billing_admin'
  | 'purchase_unavailable'
  | 'challenge_invalid'
  | 'signature_invalid';

export class DomainError extends Error {
  readonly code: ErrorCode;
  /**
   * Extra, caller-safe facts (e.g. retryAfterSeconds, allowed methods, field issues). `fields` holds machine-readable
   * members added to the error body next to the message (e.g. the quote of a `max_credits_exceeded`).
   */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
  }
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;

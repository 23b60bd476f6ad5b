import { z } from 'zod';
import type { ErrorCode } from '../../domain/errors.js';
import { responseRef, type Schema } from '../http/openapi-kit.js';
import { errorCodeEnum, errorRows, tableErrorResponses } from '../http/error-table.js';
import { plainHeaders } from '../http/session-document.js';
import { EXAMPLES } from '../shared/proof/openapi.examples.js';

/**
 * The errors of /api/integrations: every code with when it happens (the document's `x-error-codes`, its page's
 * table and the `Error` schema's enum), and the error responses of an operation by what it is (`errorsOf`). The
 * status of each code comes from the error middleware's own table.
 */

/** Every code these routes answer, with when: the document's `x-error-codes` and the `Error` schema's enum. */
export const INTEGRATIONS_ERRORS = errorRows([
  'invalid_credentials',
  'api_key_in_url',
  {
    code: 'authorization_header_rejected',
    when: 'An `Authorization` header was sent: these routes take the session cookie only (API keys are for `/proof/v1`).',
  },
  'origin_rejected',
  { code: 'session_required', when: 'No live session cookie (never signed in, signed out, expired or idle too long).' },
  'csrf_failed',
  {
    code: 'customer_access_required',
    when: 'The account is suspended, or (outside `/plan`) it has no active plan or trial.',
  },
  {
    code: 'not_found',
    when: "The id names nothing in your account (another account's id gets the same answer), or a body id (`wallet_id`, `customer_id`) is not yours.",
  },
  'method_not_allowed',
  {
    code: 'conflict',
    when: 'Invalid state: a paid invoice cannot be voided; an address another account receives on (in any spelling) cannot be claimed.',
  },
  {
    code: 'invalid_retry_state',
    when: 'A delivery can be retried only when it failed with attempts left, to an enabled destination the plan still allows.',
  },
  {
    code: 'purchase_unavailable',
    when: 'Self-service purchases are not offered on that network (the platform has no receiving wallet there, or it is held), or not at all.',
  },
  {
    code: 'too_many_open_purchases',
    when: 'The account holds 3 purchases awaiting payment or in review already: pay one or wait until one expires (24 hours after it was made).',
  },
  {
    code: 'idempotency_conflict',
    when: 'The `Idempotency-Key` was already used for another operation or payload (keys are account-wide, shared with `/proof/v1`, and never expire).',
  },
  'idempotency_in_progress',
  'payload_too_large',
  'unsupported_media_type',
  'malformed_json',
  'validation_failed',
  { code: 'idempotency_key_required', when: 'A mutation without an `Idempotency-Key` header.' },
  { code: 'idempotency_key_invalid', when: 'The `Idempotency-Key` is not 16 to 80 letters, digits, `_` or `-`.' },
  {
    code: 'quota_exceeded',
    when: "The plan's payment-request or invoice allowance is used up, or the fair-use maximum of stored idempotent responses is reached.",
  },
  { code: 'limit_reached', when: "The plan's number of active keys or of webhook destinations is reached." },
  {
    code: 'challenge_invalid',
    when: "The wallet challenge is unknown or another account's, expired, or used already: ask for a new one.",
  },
  {
    code: 'signature_invalid',
    when: "The signature is malformed or is not the wallet's signature of the challenge message.",
  },
  {
    code: 'rate_limited',
    when: 'Over a request limit (per IP, sign-in attempts per address, or pro creations per hour); wait `Retry-After` seconds.',
  },
  'internal_error',
  {
    code: 'service_unavailable',
    when: 'Temporarily unavailable (the database, Temporal for a retry, or a stored document); retry after `Retry-After` seconds.',
  },
]);

/** Every /api/integrations error body (`errorBody` of api/http/errors.ts): `{error, code, request_id, issues?}`. */
export const integrationsErrorSchema = z.strictObject({
  error: z.string(),
  code: z.enum(errorCodeEnum(INTEGRATIONS_ERRORS)),
  request_id: z.string(),
  issues: z
    .array(z.strictObject({ path: z.string(), message: z.string() }))
    .min(1)
    .optional(),
});

/** An error response of `codes` (the `Error` schema restricted to them), with the first code's example. */
export const errors = tableErrorResponses({
  iface: 'integrations',
  headers: plainHeaders,
  rows: INTEGRATIONS_ERRORS,
  messageField: 'error',
  requestId: EXAMPLES.requestId,
});

export interface ErrorsOf {
  /** The document and its page: answered before every guard, no error documented. */
  docs?: boolean;
  /** Sign-in: before the session guards. */
  public?: boolean;
  mutation?: boolean;
  /** Takes an Idempotency-Key. */
  idem?: boolean;
  /** A path id (404 when it is not the account's). */
  ids?: boolean;
  /** Query parameters (422 on a bad one). */
  query?: boolean;
  /** Behind the active-plan guard (everything but the session and `/plan`). */
  plan?: boolean;
  extra409?: ErrorCode[];
  extra422?: ErrorCode[];
  notFound?: boolean;
}

/** The errors of an operation, by what it is. */
export function errorsOf(o: ErrorsOf): Record<string, Schema> {
  if (o.docs) return {};
  const forbidden: ErrorCode[] = ['authorization_header_rejected'];
  if (o.mutation) forbidden.push('origin_rejected');
  if (!o.public) forbidden.push('session_required', ...(o.mutation ? (['csrf_failed'] as const) : []));
  forbidden.push('customer_access_required');
  const out: Record<string, Schema> = {
    '401': errors(
      401,
      o.public ? ['invalid_credentials', 'api_key_in_url'] : ['api_key_in_url'],
      o.public ? 'Wrong address or password (or a credential in the URL).' : 'A credential in the URL.',
    ),
    '403': errors(403, forbidden, 'Refused by a guard: see `code`.'),
    '429': responseRef('RateLimited'),
    '500': responseRef('InternalError'),
    '503': responseRef('ServiceUnavailable'),
  };
  if (o.mutation) {
    out['413'] = errors(413, ['payload_too_large'], 'The body is over the limit.');
    out['415'] = errors(415, ['unsupported_media_type'], 'The body is not `application/json`.');
  }
  const unprocessable: ErrorCode[] = [];
  if (o.mutation) unprocessable.push('validation_failed', 'malformed_json');
  if (o.idem) unprocessable.push('idempotency_key_required', 'idempotency_key_invalid', 'quota_exceeded');
  if (o.query && !unprocessable.includes('validation_failed')) unprocessable.push('validation_failed');
  unprocessable.push(...(o.extra422 ?? []));
  if (unprocessable.length)
    out['422'] = errors(422, unprocessable, 'Invalid body, query or header; `issues` names each field.');
  const conflicts: ErrorCode[] = [
    ...(o.idem ? (['idempotency_conflict', 'idempotency_in_progress'] as const) : []),
    ...(o.extra409 ?? []),
  ];
  if (conflicts.length) out['409'] = errors(409, conflicts, 'A state or `Idempotency-Key` conflict: see `code`.');
  if (o.ids || o.notFound) out['404'] = errors(404, ['not_found'], 'Not found in your account.');
  return out;
}

import type { ErrorCode } from '../../domain/errors.js';
import type { InterfaceName } from './context.js';
import { statusOf } from './errors.js';
import { errorResponses, type Schema } from './openapi-kit.js';

/**
 * The error tables of the OpenAPI documents (`/v1`, `/proof/v1`, `/api/integrations`, `/api/company`), built one way:
 * each interface lists the codes it answers, with when (`errorRows`); the document's `x-error-codes` and its page's
 * table take each code's status from the interface's error middleware (`errorCodeRows`); the `Error` schema's enum
 * is the list's codes (`errorCodeEnum`). A code several interfaces explain in the same words is named by its code
 * alone and gets the words of SHARED_WHEN; an interface whose callers need other words gives its own row.
 */

/** One row of an interface's error table: a code and when the interface answers it. */
export interface ErrorRow {
  readonly code: ErrorCode;
  readonly when: string;
}

/** The rows of a document's `x-error-codes` (and of its page's table): a row and the status of its code. */
export interface ErrorCodeRow extends ErrorRow {
  readonly status: number;
}

/** When a code is answered, in the words every interface that names it by code alone uses. */
export const SHARED_WHEN = {
  invalid_credentials: 'Sign-in: the address or the password is wrong (the same answer for both).',
  api_key_in_url: 'A credential-named parameter or an API key is in the query string.',
  api_key_not_accepted: '`POST /v1/webhooks` with an `Authorization` header: an API key cannot register webhooks.',
  origin_rejected: 'A mutation without an allowed `Origin` (or with a cross-site `Sec-Fetch-Site`).',
  csrf_failed: "A mutation without the session's `X-CSRF-Token`.",
  forbidden: 'The company is suspended.',
  method_not_allowed: 'The path exists, but not with this method (see `Allow`).',
  idempotency_in_progress: 'A request with the same `Idempotency-Key` is still being processed; retry shortly.',
  payload_too_large: 'A JSON body over the limit.',
  unsupported_media_type: 'A body not sent as `application/json`.',
  validation_failed: 'Invalid body or query; `issues` names every field.',
  malformed_json: 'The body is not valid JSON.',
  internal_error: 'Unexpected server error; quote `request_id`.',
} as const satisfies Partial<Record<ErrorCode, string>>;

export type SharedErrorCode = keyof typeof SHARED_WHEN;

/** An interface's error table, in its order: a code alone takes SHARED_WHEN's words. A code listed twice is refused. */
export function errorRows(entries: ReadonlyArray<SharedErrorCode | ErrorRow>): readonly ErrorRow[] {
  const rows = entries.map((e) => (typeof e === 'string' ? { code: e, when: SHARED_WHEN[e] } : e));
  const seen = new Set<ErrorCode>();
  for (const { code } of rows) {
    if (seen.has(code)) throw new Error(`error code ${code} is listed twice`);
    seen.add(code);
  }
  return rows;
}

/** The document's `x-error-codes` (and its page's table): every row with the status `iface`'s error middleware gives it. */
export function errorCodeRows(iface: InterfaceName, rows: ReadonlyArray<ErrorRow>): ErrorCodeRow[] {
  return rows.map((e) => ({ code: e.code, status: statusOf(iface, e.code), when: e.when }));
}

/** The codes of the table, as the `Error` schema's `code` enum. */
export function errorCodeEnum(rows: ReadonlyArray<ErrorRow>): [ErrorCode, ...ErrorCode[]] {
  return rows.map((e) => e.code) as [ErrorCode, ...ErrorCode[]];
}

/**
 * The error responses of a session document (errorResponses of openapi-kit.ts): each carries one example, the body of
 * its first code with the table's words as the message (`messageField`: `detail` or `error`, as the interface's body).
 */
export function tableErrorResponses(spec: {
  iface: InterfaceName;
  headers: () => Schema;
  rows: ReadonlyArray<ErrorRow>;
  messageField: 'detail' | 'error';
  requestId: string;
}) {
  const errorResponse = errorResponses(spec.iface, spec.headers);
  const example = (code: ErrorCode): Schema => ({
    [spec.messageField]: spec.rows.find((e) => e.code === code)!.when,
    code,
    request_id: spec.requestId,
  });
  return (status: number, codes: ErrorCode[], description: string, extraHeaders: Schema = {}): Schema =>
    errorResponse(status, codes, description, example(codes[0]!), extraHeaders);
}

import { z } from 'zod';
import type { ErrorCode } from '../../domain/errors.js';
import { LIMITS } from '../../domain/accounts.js';
import { MAX_REVIEW_REVISIONS } from '../../domain/extraction-review.js';
import { plainHeaders, sessionHeaders } from '../http/session-document.js';
import { responseRef, type Schema } from '../http/openapi-kit.js';
import { errorCodeEnum, errorRows, tableErrorResponses } from '../http/error-table.js';

/** The company session's error codes, the `Error` body and the error responses of an operation by what it is. */

const REQUEST_ID = '5f0c6c1e-3a51-4f7e-9b8e-2d1f7c0a9e44';

/** Every code these routes answer, with when: the document's `x-error-codes` and the `Error` schema's enum. */
export const COMPANY_ERRORS = errorRows([
  {
    code: 'session_required',
    when: 'No live session cookie (never signed in, signed out, expired, idle too long, or the member was removed).',
  },
  'invalid_credentials',
  'api_key_in_url',
  {
    code: 'authorization_header_rejected',
    when: 'An `Authorization` header was sent to `/api/company`: these routes take the session cookie only.',
  },
  'api_key_not_accepted',
  'origin_rejected',
  'csrf_failed',
  {
    code: 'billing_admin_required',
    when: 'Keys, members, invitations, webhooks and changes to saved workflows are for billing administrators; this member is not one.',
  },
  'forbidden',
  {
    code: 'not_found',
    when: "The key, member, invitation, webhook, delivery or saved workflow does not exist in your company (another company's id gets the same answer).",
  },
  {
    code: 'conflict',
    when: "A saved workflow of that name exists already (names are compared whatever their case); a job's results asked for before it completed; an extraction review of a job that is not a completed `flow-extract`, or corrections sent for another revision than the current one (the body's `revision` says which it is).",
  },
  {
    code: 'gone',
    when: "The job's results passed retention (7 days) or are no longer stored; the corrections log is kept.",
  },
  { code: 'batch_not_terminal', when: "A batch's results ZIP asked for, or its failed items retried, while it runs." },
  {
    code: 'batch_has_no_failed_items',
    when: 'retry-failed: no item of the batch failed or was cancelled; there is nothing to retry.',
  },
  {
    code: 'batch_retry_needs_password',
    when: 'retry-failed of a `pdf-protect`/`pdf-unlock` batch: the password is not kept once a job ends; submit a new batch with it.',
  },
  {
    code: 'batch_retry_in_progress',
    when: 'retry-failed while an earlier retry of the same batch is still queued or processing (a double click makes one retry batch); wait for it to end.',
  },
  { code: 'insufficient_credits', when: "retry-failed: the wallet's available credits do not cover the new quote." },
  {
    code: 'queue_full',
    when: "retry-failed: the company's pending jobs and the retried items would be over the queue limit; wait `Retry-After` seconds.",
  },
  {
    code: 'batch_zip_too_large',
    when: "A batch's results ZIP would be over 1 GB: download the jobs' results one by one.",
  },
  {
    code: 'invitation_invalid',
    when: 'The invitation token is unknown, used, revoked or expired (one answer for all).',
  },
  {
    code: 'limit_reached',
    when: `A company limit: ${LIMITS.activeKeysPerCompany} active keys, ${LIMITS.membersPerCompany} members (open invitations included), ${LIMITS.webhooksPerCompany} webhooks (disabled ones included), ${LIMITS.savedWorkflowsPerCompany} saved workflows; ${MAX_REVIEW_REVISIONS} review revisions per job.`,
  },
  { code: 'invitation_pending', when: 'The address has an open invitation already; revoke it to invite again.' },
  {
    code: 'invitation_undeliverable',
    when: 'The mail server refused the invited address for good (e.g. no such mailbox): no invitation was made; `issues` names `email`.',
  },
  {
    code: 'mail_unavailable',
    when: 'The invitation e-mail could not be sent (the mail server did not take it for now, or this server sends no e-mail): no invitation was made; retry after `Retry-After` seconds when it is sent.',
  },
  { code: 'account_in_other_company', when: 'The address belongs to a company already (one company per account).' },
  { code: 'last_billing_admin', when: "Removing the company's last billing administrator." },
  {
    code: 'purchase_unavailable',
    when: 'Credit packs are not sold for USDC on that network (the platform has no receiving wallet there), or not at all: an operator grants credits.',
  },
  {
    code: 'too_many_open_purchases',
    when: 'The company holds 3 credit-pack purchases awaiting payment or in review already: pay one or wait until one expires (24 hours after it was made).',
  },
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'malformed_json',
  {
    code: 'rate_limited',
    when: 'Over the request limit (per IP, per session, or sign-in attempts per address); wait `Retry-After` seconds.',
  },
  'internal_error',
  { code: 'service_unavailable', when: 'The database is temporarily unavailable; retry after `Retry-After` seconds.' },
]);

export const errorSchema = z
  .looseObject({
    detail: z.string(),
    code: z.enum(errorCodeEnum(COMPANY_ERRORS)),
    request_id: z.string(),
    issues: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ description: 'Every error of these routes: `{detail, code, request_id}` as on `/v1`; `issues` on a 422.' });

export const HEADERS: Record<string, Schema> = {
  ...sessionHeaders(),
};
export const plain = plainHeaders;
/** An error response of `codes` (the `Error` schema restricted to them), with the first code's example. */
export const errors = tableErrorResponses({
  iface: 'company',
  headers: plain,
  rows: COMPANY_ERRORS,
  messageField: 'detail',
  requestId: REQUEST_ID,
});

/** The errors of an operation, by what it is: public or behind the session, a mutation, an admin's, with an id or a query. */
export interface ErrorsOf {
  public?: boolean;
  mutation?: boolean;
  admin?: boolean;
  ids?: boolean;
  query?: boolean;
  codes409?: ErrorCode[];
  v1?: boolean;
  notFound?: ErrorCode[];
  /** No error response (the public documentation routes). */
  none?: boolean;
}
export function errorsOf(o: ErrorsOf): Record<string, Schema> {
  if (o.none) return {};
  const forbidden: ErrorCode[] = [o.v1 ? 'api_key_not_accepted' : 'authorization_header_rejected'];
  if (o.mutation) forbidden.push('origin_rejected');
  if (!o.public)
    forbidden.push(
      ...(o.mutation ? (['csrf_failed'] as const) : []),
      'forbidden',
      ...(o.admin ? (['billing_admin_required'] as const) : []),
    );
  const out: Record<string, Schema> = {
    '401': errors(
      401,
      o.public
        ? ['api_key_in_url', ...(o.notFound ? [] : (['invalid_credentials'] as const))]
        : ['session_required', 'api_key_in_url'],
      'Not signed in (or a credential in the URL).',
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
  if (o.mutation || o.query)
    out['422'] = errors(
      422,
      ['validation_failed', 'malformed_json'],
      'Invalid body or query; `issues` names each field.',
    );
  if (o.ids || o.notFound) out['404'] = errors(404, o.notFound ?? ['not_found'], 'Not found in your company.');
  if (o.codes409) out['409'] = errors(409, o.codes409, 'A company limit or rule: see `code`.');
  return out;
}

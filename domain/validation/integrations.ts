import { z } from 'zod';
import { PROOF_EVENT_TYPES, type ProofEventType } from '../proof/events.js';
import { VOID_REASON_MAX_LENGTH } from '../proof/invoice-lifecycle.js';
import { EMAIL, NOT_BLANK, trimmedLength } from './patterns.js';
import { invalidBody, zodIssues } from './proof-request.js';

/**
 * Bodies of the management routes under `/api/integrations` (spec section 4) and of dashboard sign-in,
 * validated strictly: unknown fields are refused, each issue names its field.
 */

/** Dashboard password rule: 12 to 256 characters; length matters, composition rules do not (NIST SP 800-63B). */
export function passwordIssue(password: string): string | null {
  const length = [...password.normalize('NFKC')].length;
  if (length < 12) return 'password must have at least 12 characters';
  if (length > 256) return 'password must have at most 256 characters';
  return null;
}

/** A dashboard sign-in name: an e-mail address (the contact rule), lower-cased whole so one address is one account. */
export const emailSchema = z
  .string()
  .regex(trimmedLength(0, 254), 'email has at most 254 characters')
  .regex(EMAIL, 'email must be a valid address, e.g. owner@example.com')
  .transform((e) => e.trim().toLowerCase());

export const signInSchema = z.strictObject({
  email: emailSchema,
  // Any length is accepted at sign-in (the rule applies when a password is set); bounded to keep hashing cheap. No
  // string of a body holds NUL (the body reader refuses it first); the pattern says so in the document.
  password: z
    .string()
    .min(1, 'password is required')
    .max(1024, 'password has at most 1024 characters')
    // eslint-disable-next-line no-control-regex -- the rule is exactly "no NUL"
    .regex(/^[^\x00]*$/, 'password must not contain the NUL character'),
});

export type SignIn = z.output<typeof signInSchema>;

/** A list without repeats: checked by the refinement, stated in the document by `uniqueItems`. */
const noRepeats = <T extends z.ZodArray>(list: T, message: string) =>
  list.refine((l) => new Set(l).size === l.length, message).meta({ uniqueItems: true });

/** `name` of a new API key (both sessions): 1 to 80 characters after trimming, a pattern on the untrimmed text. */
const keyName = z
  .string()
  .regex(trimmedLength(1, 80), 'name must be 1 to 80 characters')
  .trim()
  .meta({ description: 'A name for the key, 1 to 80 characters after trimming.' });

/** 9999-12-31T23:59:59Z in Unix seconds: a later expiry has no ISO 8601 date-time to answer it with. */
const LAST_ISO_SECOND = 253_402_300_799;

export const keyCreateSchema = z.strictObject({
  name: keyName,
  scopes: noRepeats(
    z
      .array(z.enum(['read', 'write'], 'scopes may contain only "read" and "write"'))
      .min(1, 'scopes needs "read", "write" or both')
      .max(2),
    'scopes must not repeat a scope',
  ),
  /** Unix UTC seconds; the 366-day bound needs the clock and is checked by the handler (validateExpiry). */
  expires_at: z
    .number()
    .int('expires_at must be whole Unix seconds')
    .positive('expires_at must be Unix seconds in the future')
    .max(LAST_ISO_SECOND, 'expires_at must be at most 253402300799 (9999-12-31T23:59:59Z)')
    .optional(),
});

export type KeyCreate = z.output<typeof keyCreateSchema>;

export const webhookCreateSchema = z.strictObject({
  // The destination policy (https, port 443, public name, …) is checked by the handler with the URL policy.
  url: z
    .string()
    .regex(NOT_BLANK, 'url is required')
    .regex(trimmedLength(0, 2048), 'url has at most 2048 characters')
    .trim()
    .meta({ description: 'The destination URL (at most 2048 characters after trimming).' }),
  events: noRepeats(
    z
      .array(
        z.enum(
          PROOF_EVENT_TYPES as [ProofEventType, ...ProofEventType[]],
          `events may contain only ${PROOF_EVENT_TYPES.join(', ')}`,
        ),
      )
      .min(1, 'events needs at least one event type')
      .max(PROOF_EVENT_TYPES.length),
    'events must not repeat a type',
  ),
});

export type WebhookCreate = z.output<typeof webhookCreateSchema>;

/** The body of voiding an invoice in the dashboard (`parseVoidReason` then trims it; empty is none). */
export const invoiceVoidSchema = z.strictObject({
  reason: z
    .string('the reason must be text')
    .regex(trimmedLength(0, VOID_REASON_MAX_LENGTH), `the reason must be at most ${VOID_REASON_MAX_LENGTH} characters`)
    .nullable()
    .optional()
    .meta({
      description: `Why, at most ${VOID_REASON_MAX_LENGTH} characters after trimming; empty or null for none.`,
    }),
});

export const parser =
  <T>(schema: z.ZodType<T>) =>
  (body: unknown): T => {
    const parsed = schema.safeParse(body);
    if (!parsed.success) invalidBody(zodIssues(parsed.error));
    return parsed.data;
  };

export const parseSignIn = parser(signInSchema);
export const parseKeyCreate = parser(keyCreateSchema);
export const parseWebhookCreate = parser(webhookCreateSchema);

/** Action routes take an empty object (an absent body is the same). */
export function parseEmptyBody(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length > 0) {
    invalidBody([{ path: '(body)', message: 'the body must be an empty object {}' }]);
  }
}

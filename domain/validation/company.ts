import { z } from 'zod';
import { idRegex } from '../ids.js';
import { emailSchema, parser, passwordIssue } from './integrations.js';
import { NOT_BLANK, trimmedLength } from './patterns.js';

/**
 * Bodies of the company administrators' session routes (`/api/company`, `POST /v1/webhooks`), validated strictly:
 * unknown fields are refused, each issue names its field. Sign-in and key creation take the same bodies as the
 * /proof dashboard's (domain/validation/integrations.ts).
 */

/** Invitation tokens and session tokens: 32 random bytes, base64url. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const invitationCreateSchema = z.strictObject({
  email: emailSchema,
  role: z.enum(['member', 'billing_admin'], 'role must be "member" or "billing_admin"').default('member'),
});

/**
 * The body of `POST /api/company/invitations/accept`. The password rule counts the characters of the NFKC form
 * (passwordIssue), which JSON Schema cannot say: one character may become up to 18 (U+FDFA) and several may become
 * one, so no `minLength`/`maxLength` of the text as sent is true. The document states the text's own bound (1024) and
 * the NFKC rule as `x-nfkc-length`.
 */
export const invitationAcceptSchema = z.strictObject({
  token: z
    .string()
    .regex(TOKEN_PATTERN, 'token must be the invitation token as it was given (43 letters, digits, - or _)')
    .meta({ description: 'The token of the invitation e-mail.' }),
  password: z
    .string()
    .max(1024, 'password has at most 1024 characters')
    // No string of a body holds NUL (the body reader refuses it first); the pattern says so in the document.
    // eslint-disable-next-line no-control-regex -- the rule is exactly "no NUL"
    .regex(/^[^\x00]*$/, 'password must not contain the NUL character')
    .superRefine((p, ctx) => {
      const issue = passwordIssue(p);
      if (issue) ctx.addIssue({ code: 'custom', message: issue });
    })
    .meta({
      description:
        "The account's new password: 12 to 256 characters once NFKC-normalised (`x-nfkc-length`); length matters, composition rules do not.",
      'x-nfkc-length': { minimum: 12, maximum: 256 },
    }),
});

/** The body of `POST /v1/webhooks`: the length rules are patterns on the untrimmed text, so the document states them. */
export const v1WebhookCreateSchema = z
  .strictObject({
    // The destination policy (https, port 443, public name, …) is checked by the handler with the URL policy.
    url: z
      .string()
      .regex(NOT_BLANK, 'url is required')
      .regex(trimmedLength(0, 2048), 'url has at most 2048 characters')
      .trim()
      .meta({ description: 'A public HTTPS URL (surrounding whitespace is ignored), at most 2048 characters.' }),
  })
  .meta({ description: 'A webhook to register.' });

export type InvitationCreate = z.output<typeof invitationCreateSchema>;
export const parseInvitationCreate = parser(invitationCreateSchema);
export const parseInvitationAccept = parser(invitationAcceptSchema);
export const parseV1WebhookCreate = parser(v1WebhookCreateSchema);

/**
 * The events a /v1 webhook receives (spec section 6). Which of them reach a webhook is decided by the job or batch
 * naming it with `webhook_id` (and a batch's `webhook_mode`), not by the registration.
 */
export const V1_WEBHOOK_EVENT_TYPES = [
  'job.completed',
  'job.failed',
  'batch.completed',
  'batch.partial',
  'batch.failed',
] as const;

const dateTime = z.iso.datetime();

/** A /v1 webhook as the company session and `POST /v1/webhooks` show it (never its secret). */
export const v1WebhookSchema = z
  .strictObject({
    id: z.string().regex(idRegex('whe')).meta({ description: 'Webhook id: `whe_` and 20 letters or digits.' }),
    url: z.string(),
    events: z.array(z.enum(V1_WEBHOOK_EVENT_TYPES)),
    status: z.enum(['enabled', 'disabled']),
    key_version: z.int().min(1),
    created_at: dateTime,
  })
  .meta({ description: 'A webhook of your company.' });

/** The answer of `POST /v1/webhooks`: the webhook and its signing secret, shown once. */
export const newV1WebhookSchema = v1WebhookSchema
  .extend({
    secret: z
      .string()
      .regex(/^whsec_/)
      .meta({ description: 'The signing secret; shown once.' }),
  })
  .meta({ description: 'The registered webhook with its signing secret (shown once).' });

const webhookId = v1WebhookSchema.shape.id;

/** The answer of rotating a /v1 webhook's secret: the new secret, shown once. */
export const rotatedV1WebhookSchema = z.strictObject({
  id: webhookId,
  key_version: z.int().min(2),
  secret: z.string().regex(/^whsec_/),
});

/** The answer of deleting a /v1 webhook. */
export const deletedV1WebhookSchema = z.strictObject({
  id: webhookId,
  status: z.literal('deleted'),
  deleted_at: dateTime,
});

/** The company's /v1 webhooks (enabled and disabled; deleted ones are gone). */
export const v1WebhookListSchema = z.strictObject({ data: z.array(v1WebhookSchema) });

/** A `/v1` API key as the company session shows it: its metadata and who created it; never the secret. */
export const companyKeySchema = z.strictObject({
  id: z.string().regex(idRegex('key')).meta({ description: 'API key id: `key_` and 20 letters or digits.' }),
  name: z.string(),
  prefix: z.string().regex(/^sk_live_/),
  last4: z.string(),
  scopes: z.array(z.enum(['read', 'write'])),
  status: z.enum(['active', 'revoked', 'expired']),
  expires_at: dateTime.nullable(),
  created_at: dateTime,
  last_used_at: dateTime.nullable(),
  revoked_at: dateTime.nullable(),
  created_by: z
    .string()
    .nullable()
    .meta({ description: 'The member who created the key (`mem_…`); removing that member revokes it.' }),
});

/** The answer of creating a key: the key and its secret, shown once. */
export const newCompanyKeySchema = companyKeySchema.extend({
  secret: z
    .string()
    .regex(/^sk_live_/)
    .meta({ description: 'Shown once.' }),
});

export const companyKeyListSchema = z.strictObject({ data: z.array(companyKeySchema) });

/** An open invitation (its token is only in the invitee's e-mail). */
export const invitationSchema = z.strictObject({
  id: z.string().regex(idRegex('cin')).meta({ description: 'Invitation id: `cin_` and 20 letters or digits.' }),
  email: z.string(),
  role: z.enum(['member', 'billing_admin']),
  invited_by: z.string().regex(idRegex('mem')).meta({ description: 'Member id: `mem_` and 20 letters or digits.' }),
  created_at: dateTime,
  expires_at: dateTime,
});

export const revokedInvitationSchema = invitationSchema.extend({ revoked_at: dateTime });

export const invitationListSchema = z.strictObject({ data: z.array(invitationSchema) });

const memberId = z.string().regex(idRegex('mem')).meta({ description: 'Member id: `mem_` and 20 letters or digits.' });

/** The company's members, as billing administrators see them. */
export const memberListSchema = z.strictObject({
  data: z.array(
    z.strictObject({
      id: memberId,
      email: z.string(),
      role: z.enum(['member', 'billing_admin']),
      created_at: dateTime,
    }),
  ),
});

/** The answer of removing a member: what went with the membership. */
export const removedMemberSchema = z.strictObject({
  id: memberId,
  removed_at: dateTime,
  revoked_keys: z.int().min(0),
  revoked_invitations: z
    .int()
    .min(0)
    .meta({ description: 'Open invitations the member had issued, revoked with the membership.' }),
});

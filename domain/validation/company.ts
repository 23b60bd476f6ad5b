import { z } from 'zod';
import { emailSchema, parser, passwordIssue } from './integrations.js';

/**
 * Bodies of the company administrators' session routes (`/api/company`, `POST /v1/webhooks`), validated strictly:
 * unknown fields are refused, each issue names its field. Sign-in and key creation take the same bodies as the
 * /proof dashboard's (domain/validation/integrations.ts).
 */

/** Invitation tokens and session tokens: 32 random bytes, base64url. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const invitationCreateSchema = z.strictObject({
  email: emailSchema,
  role: z.enum(['member', 'billing_admin'], 'role must be "member" or "billing_admin"').default('member'),
});

const invitationAcceptSchema = z.strictObject({
  token: z
    .string()
    .regex(TOKEN_PATTERN, 'token must be the invitation token as it was given (43 letters, digits, - or _)'),
  password: z
    .string()
    .max(1024, 'password has at most 1024 characters')
    .superRefine((p, ctx) => {
      const issue = passwordIssue(p);
      if (issue) ctx.addIssue({ code: 'custom', message: issue });
    }),
});

const v1WebhookCreateSchema = z.strictObject({
  // The destination policy (https, port 443, public name, …) is checked by the handler with the URL policy.
  url: z.string().trim().min(1, 'url is required').max(2048, 'url has at most 2048 characters'),
});

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

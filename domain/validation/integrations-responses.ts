import { z } from 'zod';
import { idRegex } from '../ids.js';
import { NETWORKS, type Network } from '../networks.js';
import { PROOF_EVENT_TYPES, type ProofEventType } from '../proof/events.js';
import { PAID_PLANS, type PaidPlan } from '../proof/plans.js';
import { atomic, paymentRequestSchema, planLimitsSchema } from './proof-responses.js';

/**
 * The response bodies of the merchant dashboard's session routes (`/api/integrations`), written once: its handlers
 * and serializers return these types, and its OpenAPI document is generated from them (api/integrations/
 * openapi.contract.ts names them). The payment-request, contact, invoice and event objects are the /proof/v1 ones
 * (proof-responses.ts). The purchase object is shared with the company session (a credit pack there).
 */

const prefixedId = (prefix: string, what: string) =>
  z
    .string()
    .regex(idRegex(prefix))
    .meta({ description: `${what} id: \`${prefix}_\` and 20 letters or digits.` });
const dateTime = z.iso.datetime();
const usdc = z.string().regex(/^[0-9]{1,17}\.[0-9]{6}$/);
const network = z.enum(NETWORKS as unknown as [Network, ...Network[]]);
const paidPlan = z.enum(PAID_PLANS as unknown as [PaidPlan, ...PaidPlan[]]);
const proofEventType = z.enum(PROOF_EVENT_TYPES as unknown as [ProofEventType, ...ProofEventType[]]);

export const userSchema = z.strictObject({ id: prefixedId('usr', 'User'), email: z.string() });
export const merchantSchema = z.strictObject({ id: prefixedId('mer', 'Account'), name: z.string() });

/** A session answer's CSRF token (both dashboard sessions). */
export const csrfTokenSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ description: 'Send it as `X-CSRF-Token` on every mutation.' });

const sessionFields = {
  csrf_token: csrfTokenSchema,
  user: userSchema,
  merchant: merchantSchema,
};
export const signedInSchema = z.strictObject({ ...sessionFields, expires_at: dateTime });
export const sessionSchema = z.strictObject(sessionFields);

const keyFields = {
  id: prefixedId('key', 'API key'),
  name: z.string(),
  prefix: z.string().regex(/^skp_/),
  last4: z.string(),
  scopes: z.array(z.enum(['read', 'write'])),
  status: z.enum(['active', 'revoked', 'expired']),
  usable: z
    .boolean()
    .meta({ description: "False past the plan's limit after a downgrade (and for revoked or expired keys)." }),
  expires_at: dateTime.nullable(),
  created_at: dateTime,
  last_used_at: dateTime.nullable(),
  revoked_at: dateTime.nullable(),
};
export const merchantKeySchema = z.strictObject(keyFields);
export const newMerchantKeySchema = z.strictObject({
  ...keyFields,
  secret: z.string().regex(/^skp_/).nullable().meta({ description: 'Shown once; `null` in a replay.' }),
});

const destinationId = prefixedId('whe', 'Destination');
const destinationFields = {
  id: destinationId,
  url: z.string(),
  events: z.array(proofEventType),
  status: z.enum(['enabled', 'disabled']),
  key_version: z.int().min(1),
  usable: z.boolean(),
  created_at: dateTime,
};
export const destinationSchema = z.strictObject(destinationFields);
export const newDestinationSchema = z.strictObject({
  ...destinationFields,
  secret: z
    .string()
    .regex(/^whsec_/)
    .nullable()
    .meta({ description: 'The signing secret; shown once, `null` in a replay.' }),
});
export const rotatedDestinationSchema = z.strictObject({
  id: destinationId,
  key_version: z.int().min(2),
  secret: z
    .string()
    .regex(/^whsec_/)
    .nullable(),
});
export const deletedDestinationSchema = z.strictObject({
  id: destinationId,
  status: z.literal('deleted'),
  deleted_at: dateTime,
});

const deliveryFields = {
  id: prefixedId('dlv', 'Delivery'),
  endpoint_id: destinationId,
  event_id: z.string(),
  event_type: proofEventType,
  status: z.enum(['pending', 'retrying', 'delivered', 'failed']),
  attempts: z.int().min(0),
  max_attempts: z.int().min(1),
  next_attempt_at: dateTime.nullable(),
  last_status_code: z.int().nullable(),
  last_error: z.string().nullable(),
  created_at: dateTime,
  delivered_at: dateTime.nullable(),
  failed_at: dateTime.nullable(),
  retryable: z.boolean().meta({ description: 'Whether `POST /deliveries/{id}/retry` would be accepted now.' }),
};
export const deliverySchema = z.strictObject(deliveryFields);
/** The outcomes of a delivery attempt (the `webhook_delivery_attempts.outcome` column). */
export const ATTEMPT_OUTCOMES = ['in_flight', 'delivered', 'retry', 'terminal', 'interrupted'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];
export const attemptSchema = z.strictObject({
  attempt: z.int().min(1),
  outcome: z.enum(ATTEMPT_OUTCOMES),
  status_code: z.int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.int().nullable(),
  key_version: z.int().nullable(),
  started_at: dateTime,
});
export const deliveryDetailSchema = z.strictObject({
  ...deliveryFields,
  attempts_detail: z.array(attemptSchema).meta({
    description: 'Every attempt, oldest first: outcome, HTTP status, error class and duration. Never a body.',
  }),
});

const planName = z
  .enum([...PAID_PLANS, 'trial'] as unknown as [PaidPlan | 'trial', ...Array<PaidPlan | 'trial'>])
  .nullable();
const usageSchema = z.strictObject({
  requests: z.int().min(0),
  invoices: z.int().min(0),
  window_start: dateTime.nullable(),
});
const used = z.strictObject({ limit: z.int(), used: z.int() });

export const overviewSchema = z.strictObject({
  merchant: merchantSchema,
  user: userSchema,
  entitlements: z.strictObject({
    plan: planName,
    ends_at: dateTime.nullable(),
    keys: used,
    destinations: used,
    requests_per_period: z.int().nullable(),
    invoices_per_period: z.int().nullable(),
    usage: usageSchema,
  }),
  keys: z.array(merchantKeySchema),
  webhooks: z.array(destinationSchema),
  event_types: z.array(proofEventType),
});

export const planSchema = z.strictObject({
  plan: planName,
  ends_at: dateTime.nullable(),
  paid_plan: paidPlan.nullable(),
  paid_until: dateTime.nullable(),
  queued: z.array(z.strictObject({ plan: paidPlan, starts_at: dateTime, ends_at: dateTime })).meta({
    description:
      'Paid periods that follow the running one, in the order they run (a lower plan paid while a higher one runs, or the days of a lower plan a higher one was bought over). A payment buys 30 days of the plan it was for, never of a higher one.',
  }),
  limits: planLimitsSchema.nullable().meta({ description: 'Limits of the current plan; null without a plan.' }),
  usage: usageSchema,
  prices: z.array(z.strictObject({ plan: paidPlan, price_usdc: usdc, period_days: z.int() })),
  trial_days: z.int(),
  purchase_networks: z.array(network),
});

/** The states of a purchase (`purchaseStatus` of services/self-service/purchases.ts). */
export const PURCHASE_STATUSES = ['awaiting_payment', 'paid', 'underpaid', 'review', 'expired'] as const;

/** The purchase object of both session interfaces (a merchant's plan here, a company's credit pack on /api/company). */
export const purchaseSchema = z.strictObject({
  id: prefixedId('pur', 'Purchase'),
  kind: z.enum(['plan', 'credits']),
  plan: paidPlan.nullable().meta({ description: 'The plan bought (once paid: the plan the period was granted at).' }),
  pack: z.string().nullable(),
  credits: z
    .string()
    .regex(/^[0-9]+$/)
    .nullable(),
  status: z.enum(PURCHASE_STATUSES).meta({
    description:
      '`awaiting_payment`: pay `amount_atomic` exactly, from `payer`, before `expires_at`. `paid`: confirmed by the payment watcher and granted (once). `underpaid`: less arrived from `payer` (see `received_atomic`); nothing granted. `review`: a payment from another address or after expiry; nothing granted. `expired`: no payment in time.',
  }),
  network,
  pay_to: z.string().meta({ description: "The platform's receiving wallet." }),
  payer: z.string(),
  price_usdc: usdc,
  amount_atomic: atomic('The exact amount to pay, in atomic USDC: the price plus a small unique matching amount.'),
  amount_usdc: usdc,
  received_atomic: atomic('Every transfer the watcher attributed to this purchase, summed.'),
  payment_url: z.url().meta({ format: 'uri', description: 'The public payment page (QR code, exact amount).' }),
  request_id: prefixedId('req', 'Payment request of the platform'),
  review_reason: z.string().nullable(),
  tx_hash: z.string().nullable(),
  paid_at: dateTime.nullable(),
  period_start: dateTime.nullable(),
  period_end: dateTime.nullable(),
  expires_at: dateTime,
  created_at: dateTime,
});

export const walletSchema = z.strictObject({
  id: prefixedId('wal', 'Verified wallet'),
  network,
  address: z.string(),
  label: z.string().nullable(),
  verified_at: dateTime.nullable(),
  created_at: dateTime,
});
export const walletListSchema = z.strictObject({ data: z.array(walletSchema) });
export const walletChallengeSchema = z.strictObject({
  id: prefixedId('wch', 'Challenge'),
  network,
  address: z.string(),
  label: z.string().nullable(),
  message: z.string().meta({
    description:
      'Sign exactly this text in the wallet: EIP-191 `personal_sign` on EVM networks, `signMessage` (ed25519 over its UTF-8 bytes) on Solana.',
  }),
  expires_at: dateTime,
});

/** The decisions the payment watcher records for a transfer (the `payment_evidence.decision` column). */
export const EVIDENCE_DECISIONS = ['paid', 'review', 'already_settled', 'unmatched'] as const;
export type EvidenceDecision = (typeof EVIDENCE_DECISIONS)[number];
export const evidenceSchema = z.strictObject({
  tx_hash: z.string(),
  log_index: z.int().min(0),
  from: z.string(),
  to: z.string(),
  amount_atomic: atomic('Amount transferred.'),
  block_number: z.int().min(0),
  block_time: dateTime,
  decision: z.enum(EVIDENCE_DECISIONS),
  reason: z.string().nullable(),
  recorded_at: dateTime,
});
/** A payment request in REVIEW, with why and every transfer the watcher attributed to it. */
export const reviewSchema = paymentRequestSchema.extend({
  review_reason: z.string().nullable(),
  evidence: z.array(evidenceSchema),
});

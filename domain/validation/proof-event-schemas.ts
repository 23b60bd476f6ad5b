import { z } from 'zod';
import { idRegex } from '../ids.js';
import { PROOF_API_VERSION, PROOF_EVENT_TYPES, type ProofEventType } from '../proof/events.js';
import { atomic, invoiceIdSchema, networkSchema, requestIdSchema } from './proof-responses.js';

/**
 * The events of /proof (spec section 6) as `domain/proof/events.ts` builds them: the envelope
 * `{id, api_version, type, occurred_at, data}` and each type's `data`. The same bytes are served by
 * `GET /proof/v1/events` and POSTed to webhook destinations; the OpenAPI document is generated from these schemas.
 */

export const eventIdSchema = z.string().regex(idRegex('evt')).meta({
  description: 'Event id: `evt_` and 20 letters or digits; equals the `X-Service-Event-Id` header. Deduplicate on it.',
});

export const paymentRequestCreatedDataSchema = z.strictObject({
  request_id: requestIdSchema,
  network: networkSchema,
  amount_atomic: atomic('The exact amount to pay (quote plus matching delta), atomic USDC.'),
  quoted_amount_atomic: atomic('The requested amount, atomic USDC.'),
  status: z.literal('AWAITING'),
});

export const invoiceEventDataSchema = z.strictObject({
  invoice_id: invoiceIdSchema,
  request_id: requestIdSchema,
  number: z.string().regex(/^INV-[0-9]{6,}$/),
  status: z.enum(['issued', 'voided', 'paid']),
  network: networkSchema,
  amount_atomic: atomic("The exact amount to pay of the invoice's payment request, atomic USDC."),
  tx_hash: z.string().nullable().meta({ description: 'The paying transaction; null before settlement.' }),
});

export const paymentConfirmedDataSchema = z.strictObject({
  request_id: requestIdSchema,
  network: networkSchema,
  amount_atomic: atomic('The amount paid, atomic USDC.'),
  quoted_amount_atomic: atomic('The requested amount, atomic USDC.'),
  status: z.literal('PAID'),
  tx_hash: z.string().meta({ description: 'The matched transaction.' }),
  verified_at: z.iso.datetime().meta({ description: 'When the evidence was verified.' }),
});

/** The `data` of each event type; an invoice event's `status` is the one its type names. */
const DATA: Record<ProofEventType, z.ZodType> = {
  'payment_request.created': paymentRequestCreatedDataSchema,
  'invoice.issued': invoiceEventDataSchema.extend({ status: z.literal('issued') }),
  'invoice.voided': invoiceEventDataSchema.extend({ status: z.literal('voided') }),
  'payment.confirmed': paymentConfirmedDataSchema,
  'invoice.paid': invoiceEventDataSchema.extend({ status: z.literal('paid') }),
};

/** The envelope of one event type. */
export const eventSchemaOf = (type: ProofEventType) =>
  z.strictObject({
    id: eventIdSchema,
    api_version: z.literal(PROOF_API_VERSION).meta({ description: 'Reject versions you do not support.' }),
    type: z.literal(type),
    occurred_at: z.int().min(0).meta({ description: 'Unix seconds.' }),
    data: DATA[type],
  });

export const EVENT_SCHEMAS = Object.fromEntries(PROOF_EVENT_TYPES.map((t) => [t, eventSchemaOf(t)])) as Record<
  ProofEventType,
  ReturnType<typeof eventSchemaOf>
>;

export const eventSchema = z
  .discriminatedUnion('type', PROOF_EVENT_TYPES.map((t) => EVENT_SCHEMAS[t]) as [ReturnType<typeof eventSchemaOf>])
  .meta({
    description:
      'An event: the envelope and the `data` of its `type`. Accept unknown additive fields; reject unsupported `api_version` values.',
  });

export const eventListSchema = z.strictObject({
  data: z
    .array(
      z.strictObject({
        cursor: z.int().min(1).meta({
          description:
            'Increasing position in your own event log, numbered per account (it tells nothing about other accounts).',
        }),
        event: eventSchema,
      }),
    )
    .max(100)
    .meta({ description: "Oldest first; each event's bytes are exactly those of its webhook body." }),
  next_cursor: z.int().min(0).meta({
    description:
      'Pass as `after` to poll for newer events: the last cursor returned, or `after` itself when nothing is new.',
  }),
});

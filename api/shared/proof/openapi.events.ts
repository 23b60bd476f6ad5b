import { PROOF_EVENT_TYPES, type ProofEventType } from '../../../domain/proof/events.js';
import {
  DELIVERY_PROFILES,
  SIGNATURE_TOLERANCE_SECONDS,
  SIGNATURE_VERSION,
  STANDARD_WEBHOOK_HEADERS,
} from '../../../domain/webhooks.js';
import { json, schemaRef, type Schema } from '../../http/openapi-kit.js';
import { EVENT_EXAMPLES, EVENT_IDS, EXAMPLES } from './openapi.examples.js';

/**
 * The events of /proof (spec section 6) in the document: the schemas are domain/validation/proof-event-schemas.ts
 * (components named in openapi.schemas.ts); here is what no schema says: when each is emitted, the webhook headers
 * and the delivery rules. The same bytes are served by `GET /proof/v1/events` and POSTed to webhook destinations
 * (the document's `webhooks`).
 * `payment_request.created` and `invoice.issued` are emitted by the API; `payment.confirmed` and `invoice.paid`
 * by the payment watcher; `invoice.voided` by the invoice's lifecycle workflow when an operator voids it (their
 * data follows spec section 6).
 */

/** What emits each event type, and when. */
export const EVENT_DOCS: Readonly<Record<ProofEventType, { schema: string; data: string; when: string }>> = {
  'payment_request.created': {
    schema: 'PaymentRequestCreatedEvent',
    data: 'PaymentRequestCreatedData',
    when: 'A payment request was created, directly or by an invoice.',
  },
  'invoice.issued': {
    schema: 'InvoiceIssuedEvent',
    data: 'InvoiceEventData',
    when: 'An invoice was created (after the `payment_request.created` of its request).',
  },
  'invoice.voided': {
    schema: 'InvoiceVoidedEvent',
    data: 'InvoiceEventData',
    when: 'An issued invoice was voided (its creation allowance is not restored).',
  },
  'payment.confirmed': {
    schema: 'PaymentConfirmedEvent',
    data: 'PaymentConfirmedData',
    when: 'A payment request moved into `PAID` on matching verified transfer evidence.',
  },
  'invoice.paid': {
    schema: 'InvoicePaidEvent',
    data: 'InvoiceEventData',
    when: 'The payment request of an invoice moved into `PAID` (emitted together with `payment.confirmed`; count revenue from one of them).',
  },
};

const proofProfile = DELIVERY_PROFILES.proof;
const minutes = (s: number) => `${s / 60}`;
export const RETRY_TEXT =
  `Up to ${proofProfile.maxAttempts} attempts; after a retryable failure the next one waits ${proofProfile.delaysSeconds.map(minutes).join(', ')} minutes. ` +
  'Timestamp and signature are fresh on every attempt; the event id and delivery id stay the same.';

const headerParam = (name: string, description: string, schema: Schema, example: string): Schema => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
  example,
});

/**
 * The webhook headers (spec section 6), as `activities/webhooks.activities.ts` sends them for /proof, then the Standard
 * Webhooks ones under the same secret.
 */
export const WEBHOOK_HEADERS: Schema[] = [
  headerParam(
    'X-Service-Timestamp',
    `Unix seconds of this attempt. Reject it when it is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from your clock.`,
    { type: 'string', pattern: '^[0-9]{1,12}$' },
    '1763889342',
  ),
  headerParam(
    'X-Service-Signature',
    `\`${SIGNATURE_VERSION}=\` and the lowercase hex HMAC-SHA256, keyed with the destination's signing secret, of the timestamp, a dot and the raw body bytes. Compare in constant time before parsing the body.`,
    { type: 'string', pattern: `^${SIGNATURE_VERSION}=[0-9a-f]{64}$` },
    `${SIGNATURE_VERSION}=6d1f0f3c0e1b2a3948576a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f801`,
  ),
  headerParam(
    'X-Service-Event-Id',
    "The event id; equals the body's `id`. Stable across attempts: deduplicate on it.",
    { type: 'string', pattern: '^evt_[A-Za-z0-9]{20}$' },
    EVENT_IDS['payment.confirmed'],
  ),
  headerParam(
    'X-Service-Delivery-Id',
    'This delivery (one event to one destination); stable across attempts and manual retries.',
    { type: 'string', pattern: '^dlv_[A-Za-z0-9]{20}$' },
    EXAMPLES.delivery,
  ),
  headerParam(
    'X-Service-Key-Version',
    'Version of the signing secret used; it increases when the secret is rotated.',
    { type: 'string', pattern: '^[0-9]{1,9}$' },
    '1',
  ),
  ...STANDARD_WEBHOOK_HEADERS.map((h) =>
    headerParam(
      h.name,
      h.description,
      { type: 'string', pattern: h.pattern },
      h.example(EVENT_IDS['payment.confirmed'], 1763889342),
    ),
  ),
];

/** The OpenAPI 3.1 `webhooks`: one POST per event type to your destination. */
export function webhooks(): Schema {
  return Object.fromEntries(
    PROOF_EVENT_TYPES.map((type) => {
      const d = EVENT_DOCS[type];
      const opId = `on${type
        .split(/[._]/)
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join('')}`;
      return [
        type,
        {
          post: {
            operationId: opId,
            tags: ['Webhooks'],
            summary: `\`${type}\``,
            security: [],
            description: `${d.when} Sent to every enabled destination of your account subscribed to it. ${RETRY_TEXT}`,
            parameters: WEBHOOK_HEADERS,
            requestBody: { required: true, content: json(schemaRef(d.schema), { [type]: EVENT_EXAMPLES[type] }) },
            responses: {
              '2XX': {
                description:
                  'Delivered. Answer 2xx only after you have verified the signature and committed the event id with its effect.',
              },
              '408': { description: 'Retried.' },
              '429': { description: 'Retried.' },
              '5XX': { description: 'Retried (so are network errors and timeouts).' },
              default: {
                description: 'Any other status, including redirects (never followed), ends the delivery as failed.',
              },
            },
          },
        },
      ];
    }),
  );
}

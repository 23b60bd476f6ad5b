import { DELIVERY_PROFILES, SIGNATURE_TOLERANCE_SECONDS, SIGNATURE_VERSION, TEST_PING, testPingEvent } from '../../domain/webhooks.js';
import { json, schemaRef, type Schema } from '../http/openapi-kit.js';

/**
 * The `/v1` webhook body and headers (spec section 6) in the OpenAPI document's `webhooks`. The body is
 * `{id, type, created_at, job}`, built by `testPingEvent` (domain/webhooks.ts); the headers and the signature are
 * those of every `/v1` delivery (activities/webhooks.activities.ts with the `v1` delivery profile). Only the operator's
 * `test.ping` is sent in this release: job and batch webhooks (and `webhook_id`) come later, in the same body shape.
 */

export const WEBHOOK_EXAMPLES = { event: 'evt_Wq3Lk8Zt5Rb1Nc7Xd2Hm', secondsAt: 1741079800 } as const;

const v1 = DELIVERY_PROFILES.v1;
export const V1_RETRY_TEXT =
  `Up to ${v1.maxAttempts} attempts; after a retryable failure the next one waits ${v1.delaysSeconds.join(', ')} seconds. ` +
  'Timestamp and signature are fresh on every attempt; the event id stays the same. Delivery is at least once: deduplicate by event id.';

const headerParam = (name: string, description: string, schema: Schema, example: string): Schema => ({ name, in: 'header', required: true, description, schema, example });

/** The three headers of every `/v1` delivery (no delivery id or key version header: those are `/proof/v1`'s). */
export const V1_WEBHOOK_HEADERS: Schema[] = [
  headerParam('X-Service-Timestamp', `Unix seconds of this attempt. Reject it when it is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from your clock.`, { type: 'string', pattern: '^[0-9]{1,12}$' }, String(WEBHOOK_EXAMPLES.secondsAt)),
  headerParam(
    'X-Service-Signature',
    `\`${SIGNATURE_VERSION}=\` and the lowercase hex HMAC-SHA256, keyed with the webhook's signing secret, of the timestamp, a dot and the raw body bytes. Compare in constant time before parsing the body.`,
    { type: 'string', pattern: `^${SIGNATURE_VERSION}=[0-9a-f]{64}$` },
    `${SIGNATURE_VERSION}=3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b`,
  ),
  headerParam('X-Service-Event-Id', 'The event id; equals the body\'s `id`. Stable across attempts: deduplicate on it.', { type: 'string', pattern: '^evt_[A-Za-z0-9]{20}$' }, WEBHOOK_EXAMPLES.event),
];

/** The event body as a receiver gets it. */
export const TEST_PING_EXAMPLE = testPingEvent('v1', WEBHOOK_EXAMPLES.event, new Date(WEBHOOK_EXAMPLES.secondsAt * 1000));

export function webhookSchemas(): Record<string, Schema> {
  return {
    WebhookEvent: {
      type: 'object', additionalProperties: false, required: ['id', 'type', 'created_at', 'job'],
      description: 'The body of every `/v1` webhook (spec section 6). Verify the signature on the raw bytes before parsing; ignore unknown event types.',
      properties: {
        id: { type: 'string', pattern: '^evt_[A-Za-z0-9]{20}$', description: 'Event id: `evt_` and 20 letters or digits; equals `X-Service-Event-Id`. Deduplicate on it.' },
        type: { type: 'string', enum: [TEST_PING], description: `\`${TEST_PING}\`: a test delivery sent by the platform operator. Job and batch events are not sent in this release.` },
        created_at: { type: 'string', format: 'date-time', description: 'When the event was created (ISO 8601, UTC).' },
        job: { type: 'null', description: 'The job the event concerns; `null` for `test.ping`, which concerns none.' },
      },
    },
  };
}

/** The OpenAPI 3.1 `webhooks` of `/v1`: what is POSTed to a registered webhook URL. */
export function webhooks(): Schema {
  return {
    [TEST_PING]: {
      post: {
        operationId: 'onTestPing', tags: ['Webhooks'], summary: `\`${TEST_PING}\``, security: [],
        description:
          'A test delivery, sent when the platform operator runs `npm run admin -- webhooks:send-test --interface v1 --url <your URL> --tenant <company id>`; ' +
          'the command prints the webhook id (`whe_…`, the format `webhook_id` takes) and its signing secret (shown once). Signed and retried like every ' +
          `\`/v1\` delivery. ${V1_RETRY_TEXT}`,
        parameters: V1_WEBHOOK_HEADERS,
        requestBody: { required: true, content: json(schemaRef('WebhookEvent'), { [TEST_PING]: TEST_PING_EXAMPLE }) },
        responses: {
          '2XX': { description: 'Delivered. Answer 2xx only after you have verified the signature and recorded the event id.' },
          '408': { description: 'Retried.' },
          '429': { description: 'Retried.' },
          '5XX': { description: 'Retried (so are network errors and timeouts).' },
          default: { description: 'Any other status, including redirects (never followed), ends the delivery as failed.' },
        },
      },
    },
  };
}

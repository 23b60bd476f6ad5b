import type { z } from 'zod';
import {
  DELIVERY_PROFILES,
  SIGNATURE_TOLERANCE_SECONDS,
  SIGNATURE_VERSION,
  STANDARD_WEBHOOK_HEADERS,
  TEST_PING,
  testPingEvent,
} from '../../domain/webhooks.js';
import {
  BATCH_EVENT_TYPES,
  batchEventBody,
  JOB_EVENT_TYPES,
  jobEventBody,
  type BatchEventType,
  type JobEventType,
} from '../../domain/processing-events.js';
import { json, type Schema } from '../http/openapi-kit.js';
import { v1Contract } from '../shared/processing/openapi.contract.js';
import {
  batchEventSchema,
  jobEventSchema,
  webhookEventSchema,
} from '../../domain/validation/processing-event-schemas.js';

/**
 * The `/v1` webhook bodies and headers (spec section 6) in the OpenAPI document's `webhooks`. Every body is
 * `{id, type, created_at, job}` (batch events add `batch`), built by `testPingEvent` (domain/webhooks.ts) and
 * `jobEventBody` / `batchEventBody` (domain/processing-events.ts); the headers and the signature are those of every
 * `/v1` delivery (activities/webhooks.activities.ts with the `v1` delivery profile).
 */

export const WEBHOOK_EXAMPLES = { event: 'evt_Wq3Lk8Zt5Rb1Nc7Xd2Hm', secondsAt: 1741079800 } as const;

const v1 = DELIVERY_PROFILES.v1;
export const V1_RETRY_TEXT =
  `Up to ${v1.maxAttempts} attempts; after a retryable failure the next one waits ${v1.delaysSeconds.join(', ')} seconds. ` +
  'Timestamp and signature are fresh on every attempt; the event id stays the same. Delivery is at least once: deduplicate by event id.';

const headerParam = (name: string, description: string, schema: Schema, example: string): Schema => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
  example,
});

/** The Standard Webhooks headers, with this document's example event and time. */
const standardWebhookHeaderParams = (eventId: string, seconds: number): Schema[] =>
  STANDARD_WEBHOOK_HEADERS.map((h) =>
    headerParam(h.name, h.description, { type: 'string', pattern: h.pattern }, h.example(eventId, seconds)),
  );

/**
 * The headers of every `/v1` delivery: the spec's three X-Service headers (no delivery id or key version header: those
 * are `/proof/v1`'s), then the Standard Webhooks ones under the same secret.
 */
export const V1_WEBHOOK_HEADERS: Schema[] = [
  headerParam(
    'X-Service-Timestamp',
    `Unix seconds of this attempt. Reject it when it is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from your clock.`,
    { type: 'string', pattern: '^[0-9]{1,12}$' },
    String(WEBHOOK_EXAMPLES.secondsAt),
  ),
  headerParam(
    'X-Service-Signature',
    `\`${SIGNATURE_VERSION}=\` and the lowercase hex HMAC-SHA256, keyed with the webhook's signing secret, of the timestamp, a dot and the raw body bytes. Compare in constant time before parsing the body.`,
    { type: 'string', pattern: `^${SIGNATURE_VERSION}=[0-9a-f]{64}$` },
    `${SIGNATURE_VERSION}=3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b`,
  ),
  headerParam(
    'X-Service-Event-Id',
    "The event id; equals the body's `id`. Stable across attempts: deduplicate on it.",
    { type: 'string', pattern: '^evt_[A-Za-z0-9]{20}$' },
    WEBHOOK_EXAMPLES.event,
  ),
  ...standardWebhookHeaderParams(WEBHOOK_EXAMPLES.event, WEBHOOK_EXAMPLES.secondsAt),
];

/** The event body as a receiver gets it. */
export const TEST_PING_EXAMPLE = testPingEvent(
  'v1',
  WEBHOOK_EXAMPLES.event,
  new Date(WEBHOOK_EXAMPLES.secondsAt * 1000),
);

const at = (offsetSeconds: number) => new Date((WEBHOOK_EXAMPLES.secondsAt + offsetSeconds) * 1000);
const EXAMPLE_JOB = {
  id: 'job_Hn4Pq8Ws2Xz6Bv1Lk9Md',
  operation: 'pdf-rotate',
  uploadIds: ['upl_Tq7Ws3Mn8Kp2Xr5Zb1Vd'],
  batchId: null,
  quotedCredits: 2,
  createdAt: at(-40),
  startedAt: at(-38),
  finishedAt: at(0),
  resultsExpireAt: at(7 * 86_400),
};
export const JOB_EVENT_EXAMPLES: Record<JobEventType, unknown> = {
  'job.completed': jobEventBody(
    WEBHOOK_EXAMPLES.event,
    {
      ...EXAMPLE_JOB,
      status: 'completed',
      errorCode: null,
      errorMessage: null,
      resultFiles: [{ bytes: 48213, contentType: 'application/pdf' }],
    },
    at(0),
  ),
  'job.failed': jobEventBody(
    WEBHOOK_EXAMPLES.event,
    {
      ...EXAMPLE_JOB,
      status: 'failed',
      errorCode: 'invalid_source',
      errorMessage: 'the PDF could not be processed: invalid xref table',
      resultFiles: null,
      resultsExpireAt: null,
    },
    at(0),
  ),
};
const child = (id: string, status: 'completed' | 'failed') => ({
  id,
  status,
  quotedCredits: 2,
  errorCode: status === 'failed' ? ('invalid_source' as const) : null,
});
const EXAMPLE_BATCH = {
  id: 'bat_Rz5Kq1Vw9Nc3Xm7Ht2Lp',
  operation: 'pdf-rotate',
  webhookMode: 'batch' as const,
  retryOf: null,
  createdAt: at(-120),
  finishedAt: at(0),
};
export const BATCH_EVENT_EXAMPLES: Record<BatchEventType, unknown> = {
  'batch.completed': batchEventBody(
    WEBHOOK_EXAMPLES.event,
    {
      ...EXAMPLE_BATCH,
      status: 'completed',
      children: [child('job_Hn4Pq8Ws2Xz6Bv1Lk9Md', 'completed'), child('job_Jm2Xc7Rt4Wq9Zp3Lb6Nf', 'completed')],
    },
    at(0),
  ),
  'batch.partial': batchEventBody(
    WEBHOOK_EXAMPLES.event,
    {
      ...EXAMPLE_BATCH,
      status: 'partial',
      children: [child('job_Hn4Pq8Ws2Xz6Bv1Lk9Md', 'completed'), child('job_Jm2Xc7Rt4Wq9Zp3Lb6Nf', 'failed')],
    },
    at(0),
  ),
  'batch.failed': batchEventBody(
    WEBHOOK_EXAMPLES.event,
    {
      ...EXAMPLE_BATCH,
      status: 'failed',
      children: [child('job_Hn4Pq8Ws2Xz6Bv1Lk9Md', 'failed'), child('job_Jm2Xc7Rt4Wq9Zp3Lb6Nf', 'failed')],
    },
    at(0),
  ),
};

const RESPONSES = {
  '2XX': { description: 'Delivered. Answer 2xx only after you have verified the signature and recorded the event id.' },
  '408': { description: 'Retried.' },
  '429': { description: 'Retried.' },
  '5XX': { description: 'Retried (so are network errors and timeouts).' },
  default: { description: 'Any other status, including redirects (never followed), ends the delivery as failed.' },
};

const EVENT_DESCRIPTIONS: Record<JobEventType | BatchEventType, string> = {
  'job.completed':
    "A job named with `webhook_id` completed (a batch's item: when the batch's `webhook_mode` is `items` or `both`).",
  'job.failed':
    "A job named with `webhook_id` failed; its reservation was released (a batch's item: modes `items` and `both`).",
  'batch.completed':
    'Every item of a batch named with `webhook_id` completed (modes `batch`, the default, and `both`).',
  'batch.partial': 'A batch ended with at least one completed and at least one failed item (modes `batch` and `both`).',
  'batch.failed': 'Every item of a batch failed (modes `batch` and `both`).',
};

const operation = (
  type: string,
  operationId: string,
  description: string,
  schema: z.ZodType,
  example: unknown,
): Schema => ({
  post: {
    operationId,
    tags: ['Webhooks'],
    summary: `\`${type}\``,
    security: [],
    description: `${description} Sent once to the webhook if it is enabled when the event is recorded; a webhook disabled or deleted later gets no further attempt. ${V1_RETRY_TEXT}`,
    parameters: V1_WEBHOOK_HEADERS,
    requestBody: { required: true, content: json(v1Contract.ref(schema), { [type]: example as Schema }) },
    responses: RESPONSES,
  },
});

const opId = (type: string) =>
  `on${type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}`;

/** The OpenAPI 3.1 `webhooks` of `/v1`: what is POSTed to a registered webhook URL. */
export function webhooks(): Schema {
  return {
    [TEST_PING]: {
      post: {
        operationId: 'onTestPing',
        tags: ['Webhooks'],
        summary: `\`${TEST_PING}\``,
        security: [],
        description:
          'A test delivery, sent when the platform operator runs `npm run admin -- webhooks:send-test --interface v1 --url <your URL> --tenant <company id>`; ' +
          'the command prints the webhook id (`whe_…`, the format `webhook_id` takes) and its signing secret (shown once). Signed and retried like every ' +
          `\`/v1\` delivery. ${V1_RETRY_TEXT}`,
        parameters: V1_WEBHOOK_HEADERS,
        requestBody: {
          required: true,
          content: json(v1Contract.ref(webhookEventSchema), { [TEST_PING]: TEST_PING_EXAMPLE }),
        },
        responses: RESPONSES,
      },
    },
    ...Object.fromEntries(
      JOB_EVENT_TYPES.map((t) => [
        t,
        operation(t, opId(t), EVENT_DESCRIPTIONS[t], jobEventSchema, JOB_EVENT_EXAMPLES[t]),
      ]),
    ),
    ...Object.fromEntries(
      BATCH_EVENT_TYPES.map((t) => [
        t,
        operation(t, opId(t), EVENT_DESCRIPTIONS[t], batchEventSchema, BATCH_EVENT_EXAMPLES[t]),
      ]),
    ),
  };
}

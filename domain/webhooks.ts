/**
 * Delivery rules shared by the processing (/v1) and payment-request (/proof/v1) webhooks. Pure: the
 * workflow and the delivery activity both decide from here.
 */
export type WebhookInterface = 'v1' | 'proof';

/**
 * One id format for webhook destinations of both interfaces: `whe_` and 20 letters or digits (domain/ids.ts). It is
 * what the operator commands and `/api/integrations` print, what is stored, and what `/v1` `webhook_id` takes.
 */
export const WEBHOOK_ID_PREFIX = 'whe';

/** The event type of the operator's test delivery (`npm run admin -- webhooks:send-test`). */
export const TEST_PING = 'test.ping';

/**
 * The body of a `test.ping` in the event shape of the destination's interface, so that a receiver written for
 * that interface parses it like any other event:
 * - `/v1`: `{id, type, created_at, job}` (spec section 6) with `created_at` in ISO 8601 and `job: null` (a ping
 *   concerns no job);
 * - `/proof/v1`: its envelope `{id, api_version, type, occurred_at, data}` with `occurred_at` in Unix seconds and
 *   empty `data`.
 */
export function testPingEvent(iface: WebhookInterface, eventId: string, now: Date): Record<string, unknown> {
  return iface === 'v1'
    ? { id: eventId, type: TEST_PING, created_at: now.toISOString(), job: null }
    : { id: eventId, api_version: '1.0', type: TEST_PING, occurred_at: Math.floor(now.getTime() / 1000), data: {} };
}

export interface DeliveryProfile {
  readonly interface: WebhookInterface;
  /** Total attempts including the first. */
  readonly maxAttempts: number;
  /** Wait before attempt n+2 after attempt n+1 failed retryably (length maxAttempts - 1), in seconds. */
  readonly delaysSeconds: readonly number[];
  /** Whether the delivery id and key version headers are sent. */
  readonly sendsDeliveryHeaders: boolean;
}

export const DELIVERY_PROFILES: Readonly<Record<WebhookInterface, DeliveryProfile>> = {
  v1: { interface: 'v1', maxAttempts: 6, delaysSeconds: [60, 120, 240, 480, 960], sendsDeliveryHeaders: false },
  proof: { interface: 'proof', maxAttempts: 5, delaysSeconds: [60, 300, 1200, 3600], sendsDeliveryHeaders: true },
};

/**
 * The waits of a profile in milliseconds, optionally scaled (tests shrink an hour to milliseconds;
 * production always uses scale 1).
 */
export function scheduleMs(profile: DeliveryProfile, scale = 1): number[] {
  return profile.delaysSeconds.map((s) => Math.max(1, Math.round(s * 1000 * scale)));
}

/** Offsets in seconds, from the first attempt, at which each attempt starts (ignoring send time). */
export function attemptOffsetsSeconds(profile: DeliveryProfile): number[] {
  const out = [0];
  for (const d of profile.delaysSeconds) out.push(out[out.length - 1]! + d);
  return out;
}

/** What one attempt's result means for the delivery. */
export type AttemptVerdict = 'delivered' | 'retry' | 'terminal';

/**
 * Error classes an attempt can end with when no HTTP status was received. `policy_*` and `dns_not_found`
 * are terminal; timeouts, refused or reset connections and temporary DNS failures are retried.
 */
export type AttemptErrorClass =
  | 'policy_rejected'
  | 'policy_dns_non_public'
  | 'dns_not_found'
  | 'dns_temporary'
  | 'dns_timeout'
  | 'connect_timeout'
  | 'socket_timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'tls_error'
  | 'network_error'
  | 'endpoint_disabled'
  | 'worker_interrupted';

const RETRYABLE_ERRORS: ReadonlySet<AttemptErrorClass> = new Set([
  'dns_temporary',
  'dns_timeout',
  'connect_timeout',
  'socket_timeout',
  'connection_refused',
  'connection_reset',
  'network_error',
]);

export function classifyStatus(status: number): AttemptVerdict {
  if (status >= 200 && status <= 299) return 'delivered';
  if (status === 408 || status === 429 || (status >= 500 && status <= 599)) return 'retry';
  return 'terminal'; // 1xx, 3xx (redirects are never followed) and every other 4xx
}

export function classifyError(errorClass: AttemptErrorClass): AttemptVerdict {
  return RETRYABLE_ERRORS.has(errorClass) ? 'retry' : 'terminal';
}

/** The final delivery state after an attempt, given how many attempts have been made so far. */
export function nextStep(
  verdict: AttemptVerdict,
  attemptsMade: number,
  profile: DeliveryProfile,
): { state: 'delivered' | 'failed' | 'retrying'; waitSeconds?: number } {
  if (verdict === 'delivered') return { state: 'delivered' };
  if (verdict === 'terminal' || attemptsMade >= profile.maxAttempts) return { state: 'failed' };
  return { state: 'retrying', waitSeconds: profile.delaysSeconds[attemptsMade - 1]! };
}

/** The signed string: Unix-seconds timestamp, a dot, then the exact raw body. */
export function signedPayload(timestamp: number, body: string): string {
  return `${timestamp}.${body}`;
}

export const SIGNATURE_VERSION = 'v1';
/** Receivers reject timestamps further than this from their clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The Standard Webhooks headers (standardwebhooks.com) every delivery of both interfaces carries beside the X-Service
 * ones, under the same signing secret (`adapters/webhooks/sign.ts`, docs/webhooks.md): what the OpenAPI documents say
 * of each.
 */
export const STANDARD_WEBHOOK_HEADERS: ReadonlyArray<{
  name: string;
  description: string;
  pattern: string;
  /** An example value, given the document's example event id and Unix seconds. */
  example(eventId: string, seconds: number): string;
}> = [
  {
    name: 'webhook-id',
    description:
      'Standard Webhooks message id: the event id (the same as `X-Service-Event-Id`), stable across attempts; deduplicate on it.',
    pattern: '^evt_[A-Za-z0-9]{20}$',
    example: (eventId) => eventId,
  },
  {
    name: 'webhook-timestamp',
    description: 'Standard Webhooks timestamp: Unix seconds of this attempt (the same as `X-Service-Timestamp`).',
    pattern: '^[0-9]{1,12}$',
    example: (_eventId, seconds) => String(seconds),
  },
  {
    name: 'webhook-signature',
    description:
      '`v1,` and the base64 HMAC-SHA256 of `webhook-id`, a dot, `webhook-timestamp`, a dot and the raw body bytes, keyed with the ' +
      "UTF-8 bytes of the signing secret as it was shown (`whsec_…` included; the key of `X-Service-Signature`). With a `standardwebhooks` library: `new Webhook(secret, { format: 'raw' })`, or " +
      "`new Webhook('whsec_' + base64(secret))` in any language.",
    pattern: '^v1,[A-Za-z0-9+/]{43}=$',
    example: () => 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

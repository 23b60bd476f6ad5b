import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_TOLERANCE_SECONDS, SIGNATURE_VERSION } from '../../domain/webhooks.js';

/** `v1=` + hex HMAC-SHA256(secret, timestamp + "." + raw body bytes). */
export function signBody(secret: string, timestamp: number, body: Buffer): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return `${SIGNATURE_VERSION}=${mac}`;
}

/**
 * The Standard Webhooks headers (standardwebhooks.com) of one attempt: `webhook-id` (the event id, the same on every
 * attempt), `webhook-timestamp` (the attempt's Unix seconds) and `webhook-signature`: `v1,` + base64
 * HMAC-SHA256(key, `${id}.${timestamp}.` + raw body bytes). The key is the one `X-Service-Signature` uses, the UTF-8
 * bytes of the whole secret string (`whsec_…` included), so one secret verifies both schemes: a receiver builds the
 * official verifier with `new Webhook(secret, { format: 'raw' })`, or in any library from
 * `'whsec_' + base64(utf8(secret))` (docs/webhooks.md).
 */
export function standardWebhookHeaders(
  secret: string,
  id: string,
  timestamp: number,
  body: Buffer,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  const mac = createHmac('sha256', secret).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac}` };
}

export type VerifyResult =
  { ok: true } | { ok: false; reason: 'missing_headers' | 'bad_timestamp' | 'stale_timestamp' | 'bad_signature' };

/**
 * Receiver-side verification, done on the raw bytes before any JSON parsing: the timestamp must be within
 * the tolerance of `nowSeconds`, and the signature is compared in constant time.
 */
export function verifySignature(opts: {
  secret: string;
  body: Buffer;
  timestampHeader: string | undefined;
  signatureHeader: string | undefined;
  nowSeconds: number;
  toleranceSeconds?: number;
}): VerifyResult {
  const { timestampHeader, signatureHeader } = opts;
  if (!timestampHeader || !signatureHeader) return { ok: false, reason: 'missing_headers' };
  if (!/^\d{1,12}$/.test(timestampHeader)) return { ok: false, reason: 'bad_timestamp' };
  const ts = Number(timestampHeader);
  if (Math.abs(opts.nowSeconds - ts) > (opts.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) {
    return { ok: false, reason: 'stale_timestamp' };
  }
  const expected = Buffer.from(signBody(opts.secret, ts, opts.body));
  const given = Buffer.from(signatureHeader);
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return { ok: false, reason: 'bad_signature' };
  }
  return timingSafeEqual(given, expected) ? { ok: true } : { ok: false, reason: 'bad_signature' };
}

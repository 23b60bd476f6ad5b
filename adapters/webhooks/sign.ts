import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_TOLERANCE_SECONDS, SIGNATURE_VERSION } from '../../domain/webhooks.js';

/** `v1=` + hex HMAC-SHA256(secret, timestamp + "." + raw body bytes). */
export function signBody(secret: string, timestamp: number, body: Buffer): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return `${SIGNATURE_VERSION}=${mac}`;
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

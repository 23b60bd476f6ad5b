import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { signBody, standardWebhookHeaders, verifySignature } from '../../../adapters/webhooks/sign.js';

const secret = 'whsec_test_secret';
const body = Buffer.from('{"id":"evt_1","type":"job.completed"}');

describe('webhook signatures', () => {
  it('is v1= plus hex HMAC-SHA256 over timestamp, a dot and the raw body', () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body.toString()}`).digest('hex');
    expect(signBody(secret, 1_700_000_000, body)).toBe(`v1=${expected}`);
  });

  it('verifies within the window and rejects stale, tampered or foreign signatures', () => {
    const sig = signBody(secret, 1_700_000_000, body);
    const base = { secret, body, timestampHeader: '1700000000', signatureHeader: sig };
    expect(verifySignature({ ...base, nowSeconds: 1_700_000_299 })).toEqual({ ok: true });
    expect(verifySignature({ ...base, nowSeconds: 1_700_000_301 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifySignature({ ...base, nowSeconds: 1_699_999_600 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifySignature({ ...base, body: Buffer.from(`${body.toString()} `), nowSeconds: 1_700_000_000 })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifySignature({ ...base, secret: 'other', nowSeconds: 1_700_000_000 })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifySignature({ ...base, signatureHeader: 'v1=abc', nowSeconds: 1_700_000_000 })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifySignature({ ...base, timestampHeader: '17e8', nowSeconds: 1_700_000_000 })).toEqual({
      ok: false,
      reason: 'bad_timestamp',
    });
    expect(verifySignature({ ...base, signatureHeader: undefined, nowSeconds: 1_700_000_000 })).toEqual({
      ok: false,
      reason: 'missing_headers',
    });
  });

  it('a new timestamp gives a new signature over the same bytes', () => {
    expect(signBody(secret, 1, body)).not.toBe(signBody(secret, 2, body));
  });

  it('adds the Standard Webhooks headers: v1, + base64 HMAC over id.timestamp.body under the same key', () => {
    const h = standardWebhookHeaders(secret, 'evt_1', 1_700_000_000, body);
    const mac = createHmac('sha256', secret).update(`evt_1.1700000000.${body.toString()}`).digest('base64');
    expect(h).toEqual({ 'webhook-id': 'evt_1', 'webhook-timestamp': '1700000000', 'webhook-signature': `v1,${mac}` });
    // The official package signs the same with either documented construction of its verifier from the secret.
    const at = new Date(1_700_000_000_000);
    expect(new Webhook(secret, { format: 'raw' }).sign('evt_1', at, body)).toBe(h['webhook-signature']);
    const asBase64 = `whsec_${Buffer.from(secret).toString('base64')}`;
    expect(new Webhook(asBase64).sign('evt_1', at, body)).toBe(h['webhook-signature']);
  });
});

import { createCipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createSecretBox,
  generateSecretsKey,
  SecretBoxError,
  secretsKeyId,
} from '../../../adapters/crypto/secret-box.js';

/**
 * A value as the releases before key ids wrote it: "v1:" + base64(iv | tag | ciphertext), AES-256-GCM without
 * associated data. Databases hold such values; they must keep opening after the upgrade.
 */
function sealLegacyV1(keyBase64: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyBase64, 'base64'), iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
}

/** The digest as the releases before key ids computed it (live CSRF tokens and stored fingerprints use it). */
const legacyDigest = (keyBase64: string, secret: string) =>
  createHmac(
    'sha256',
    Buffer.from(hkdfSync('sha256', Buffer.from(keyBase64, 'base64'), Buffer.alloc(0), 'paycore secret digest v1', 32)),
  )
    .update(secret, 'utf8')
    .digest('hex');

/** Runs `f`, expecting a SecretBoxError; returns it. */
function failure(f: () => unknown): SecretBoxError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SecretBoxError);
    return e as SecretBoxError;
  }
  throw new Error('expected a SecretBoxError');
}

const A = generateSecretsKey();
const B = generateSecretsKey();
const C = generateSecretsKey();

describe('secret box: key ids', () => {
  it('round-trips, randomises, and writes v2:<key id>: with the current key id', () => {
    const box = createSecretBox(A);
    expect(box.keyId).toBe(secretsKeyId(A));
    expect(box.keyId).toMatch(/^[0-9a-f]{8}$/);
    const a = box.seal('whsec_abc');
    expect(a.startsWith(`v2:${box.keyId}:`)).toBe(true);
    expect(a).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(a);
    expect(box.open(a)).toBe('whsec_abc');
    expect(box.open(box.seal(''))).toBe('');
    expect(box.open(box.seal('pässwörd ✓'))).toBe('pässwörd ✓');
  });

  it('derives the key id from the key: the same key (however encoded) gives the same id, another key another id', () => {
    expect(secretsKeyId(A)).toBe(secretsKeyId(A));
    expect(secretsKeyId(A)).not.toBe(secretsKeyId(B));
    const url = A.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(secretsKeyId(url)).toBe(secretsKeyId(A));
    // The id reveals nothing of the key: it is not a prefix of the key's bytes in any usual encoding.
    const raw = Buffer.from(A, 'base64');
    expect(raw.toString('hex')).not.toContain(secretsKeyId(A));
  });

  it('opens values in the old v1: format with the key that wrote them, current or previous', () => {
    const legacy = sealLegacyV1(A, 'whsec_legacy');
    expect(createSecretBox(A).open(legacy)).toBe('whsec_legacy');
    expect(createSecretBox(B, [A]).open(legacy)).toBe('whsec_legacy');
    expect(createSecretBox(B, [C, A]).open(legacy)).toBe('whsec_legacy');
    const e = failure(() => createSecretBox(B, [C]).open(legacy));
    expect(e.code).toBe('unknown_key');
    expect(e.message).toMatch(/v1/);
    expect(e.message).toMatch(/SECRETS_KEYS_PREVIOUS/);
  });

  it('rotation: the current key writes, previous keys only read; reseal moves a value to the current key', () => {
    const oldBox = createSecretBox(A);
    const rotated = createSecretBox(B, [A]);
    expect(rotated.keyId).toBe(secretsKeyId(B));
    expect(rotated.previousKeyIds).toEqual([secretsKeyId(A)]);
    const underA = oldBox.seal('whsec_a');
    expect(rotated.open(underA)).toBe('whsec_a');
    expect(rotated.seal('x').startsWith(`v2:${secretsKeyId(B)}:`)).toBe(true);
    expect(rotated.needsReseal(underA)).toBe(true);
    expect(rotated.needsReseal(sealLegacyV1(B, 'x'))).toBe(true);
    const moved = rotated.reseal(underA);
    expect(moved).not.toBeNull();
    expect(moved!.startsWith(`v2:${secretsKeyId(B)}:`)).toBe(true);
    expect(rotated.needsReseal(moved!)).toBe(false);
    expect(rotated.reseal(moved!)).toBeNull();
    expect(createSecretBox(B).open(moved!)).toBe('whsec_a');
    expect(rotated.keyIdOf(underA)).toBe(secretsKeyId(A));
    expect(rotated.keyIdOf(sealLegacyV1(A, 'x'))).toBeNull();
  });

  it('a value sealed under a key that is not configured fails with a clear error that names the key id and no secret', () => {
    const sealed = createSecretBox(A).seal('whsec_topsecret');
    const e = failure(() => createSecretBox(B).open(sealed));
    expect(e.code).toBe('unknown_key');
    expect(e.message).toContain(secretsKeyId(A));
    expect(e.message).toMatch(/SECRETS_KEY/);
    for (const leak of [A, B, sealed, sealed.split(':')[2]!, 'whsec_topsecret']) expect(e.message).not.toContain(leak);
    expect(() => createSecretBox(B).reseal(sealed)).toThrow(SecretBoxError);
  });

  it('refuses malformed and tampered values with an error that does not echo them', () => {
    const box = createSecretBox(A, [B]);
    const good = box.seal('whsec_abc');
    const [, kid, body] = good.split(':') as [string, string, string];
    const flipLast = (b64: string) =>
      Buffer.from(Buffer.from(b64, 'base64').map((x, i, all) => (i === all.length - 1 ? x ^ 1 : x))).toString('base64');
    const cases: Array<[string, SecretBoxError['code']]> = [
      ['', 'malformed'],
      ['whsec_abc', 'malformed'],
      ['v3:abc', 'malformed'],
      ['v2:', 'malformed'],
      [`v2:${kid}`, 'malformed'],
      [`v2:${kid}:`, 'malformed'],
      [`v2:${kid}:${Buffer.alloc(20).toString('base64')}`, 'malformed'], // shorter than iv + tag
      [`v2:${kid}:not base64!`, 'malformed'],
      [`v2:XYZ:${body}`, 'malformed'],
      [`v1:${Buffer.alloc(8).toString('base64')}`, 'malformed'],
      [`v2:${kid}:${flipLast(body)}`, 'unauthentic'],
      // The key id is bound to the value: relabelling it as another configured key's fails.
      [`v2:${secretsKeyId(B)}:${body}`, 'unauthentic'],
    ];
    for (const [value, code] of cases) {
      const e = failure(() => box.open(value));
      expect(e.code, value).toBe(code);
      if (value.length > 4) expect(e.message, value).not.toContain(value.slice(4));
      expect(e.message).not.toContain('whsec_abc');
    }
    const legacyTampered = sealLegacyV1(A, 'whsec_abc').slice(0, -4) + 'AAAA';
    expect(failure(() => box.open(legacyTampered)).code).toBe('unknown_key'); // no configured key opens it
  });

  it('validates keys at construction without echoing them', () => {
    expect(() => createSecretBox('c2hvcnQ=')).toThrow(/SECRETS_KEY.*32 bytes/);
    expect(() => createSecretBox(A, ['c2hvcnQ='])).toThrow(/SECRETS_KEYS_PREVIOUS.*1.*32 bytes/);
    expect(() => createSecretBox(A, [A])).toThrow(/same key/);
    expect(() => createSecretBox(A, [B, B])).toThrow(/twice/);
    try {
      createSecretBox(A, [B, 'c2hvcnQ=']);
    } catch (e) {
      expect(String(e)).not.toContain('c2hvcnQ=');
      expect(String(e)).not.toContain(A);
      expect(String(e)).not.toContain(B);
    }
  });
});

describe('secret box: digests across a rotation', () => {
  it('digest() is unchanged for an unrotated key (digests made before the upgrade still match)', () => {
    expect(createSecretBox(A).digest('csrf:token')).toBe(legacyDigest(A, 'csrf:token'));
  });

  it('digests() lists the digest under the current key first, then under each previous key', () => {
    const rotated = createSecretBox(B, [A, C]);
    expect(rotated.digest('pw')).toBe(createSecretBox(B).digest('pw'));
    expect(rotated.digests('pw')).toEqual([
      createSecretBox(B).digest('pw'),
      createSecretBox(A).digest('pw'),
      createSecretBox(C).digest('pw'),
    ]);
    expect(createSecretBox(B).digests('pw')).toEqual([createSecretBox(B).digest('pw')]);
    expect(rotated.digest('pw')).not.toBe(createSecretBox(A).digest('pw'));
  });
});

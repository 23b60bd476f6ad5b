import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption (AES-256-GCM) for secrets the platform must use again later, such as webhook
 * signing secrets. Stored form: "v1:" + base64(iv | tag | ciphertext).
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /**
   * A keyed fingerprint (HMAC-SHA256 under a key derived from the secrets key) of a secret that must be
   * compared later but never kept, e.g. a PDF password inside an idempotency fingerprint.
   */
  digest(secret: string): string;
}

export function createSecretBox(keyBase64: string): SecretBox {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes encoded as base64');
  const digestKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'paycore secret digest v1', 32));
  return {
    digest(secret) {
      return createHmac('sha256', digestKey).update(secret, 'utf8').digest('hex');
    },
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `v1:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
    },
    open(sealed) {
      if (!sealed.startsWith('v1:')) throw new Error('unknown sealed secret format');
      const raw = Buffer.from(sealed.slice(3), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

export function generateSecretsKey(): string {
  return randomBytes(32).toString('base64');
}

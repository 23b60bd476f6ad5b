import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { decodeSecretsKey } from '../../domain/secrets-key.js';

/**
 * Authenticated encryption (AES-256-GCM) for secrets the platform must use again later: webhook signing secrets,
 * passwords of unfinished PDF jobs. Stored form: `v2:<key id>:` + base64(iv | tag | ciphertext), with
 * `v2:<key id>` bound as associated data, so a value cannot be relabelled as another key's.
 *
 * Key rotation (docs/operations.md "Rotating SECRETS_KEY"): the current key (SECRETS_KEY) seals; previous keys
 * (SECRETS_KEYS_PREVIOUS) only open. A key id is the first 4 bytes (8 hex digits) of a SHA-256 of the key, so it
 * names the key without revealing anything about it. Values in the format of earlier releases, `v1:` +
 * base64(iv | tag | ciphertext) without a key id, open with whichever configured key wrote them (GCM's tag tells).
 * `reseal` moves a value to the current key; `npm run admin -- secrets:reseal` does it for every stored value.
 */
export interface SecretBox {
  /** The key id of the current key (the one `seal` uses). */
  readonly keyId: string;
  /** The key ids of the previous keys, in configured order (read only). */
  readonly previousKeyIds: readonly string[];
  seal(plaintext: string): string;
  /** Opens a value sealed under any configured key; throws SecretBoxError (naming no secret) otherwise. */
  open(sealed: string): string;
  /** The key id a `v2:` value names; null for a `v1:` value (no key id). Throws on a malformed value. */
  keyIdOf(sealed: string): string | null;
  /** True unless the value is sealed under the current key in the current format. */
  needsReseal(sealed: string): boolean;
  /** The value sealed again under the current key, or null when it already is. */
  reseal(sealed: string): string | null;
  /**
   * A keyed fingerprint (HMAC-SHA256 under a key derived from the current secrets key) of a secret that must be
   * compared later but never kept, e.g. a PDF password inside an idempotency fingerprint, a session's CSRF token.
   */
  digest(secret: string): string;
  /**
   * The digest under the current key, then under each previous key: a digest made before a rotation still
   * matches one of them while its key stays configured.
   */
  digests(secret: string): string[];
}

export type SecretBoxErrorCode = 'malformed' | 'unknown_key' | 'unauthentic';

/** Why a sealed value did not open. The message names key ids and variables, never a key, value or secret. */
export class SecretBoxError extends Error {
  constructor(
    readonly code: SecretBoxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const KEY_ID = /^[0-9a-f]{8}$/;

const keyIdOfBytes = (key: Buffer): string =>
  createHash('sha256').update('paycore secrets key id\0').update(key).digest('hex').slice(0, 8);

/** The key id of a key (base64); the same key gives the same id in every process. */
export function secretsKeyId(keyBase64: string): string {
  const key = decodeSecretsKey(keyBase64);
  if (!key) throw new Error('a secrets key must be 32 bytes encoded as base64');
  return keyIdOfBytes(key);
}

interface Key {
  id: string;
  bytes: Buffer;
  digestKey: Buffer;
}

function keyOf(keyBase64: string, label: string): Key {
  const bytes = decodeSecretsKey(keyBase64);
  if (!bytes) throw new Error(`${label} must be 32 bytes encoded as base64 (e.g. openssl rand -base64 32)`);
  return {
    id: keyIdOfBytes(bytes),
    bytes,
    digestKey: Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), 'paycore secret digest v1', 32)),
  };
}

const digestUnder = (key: Key, secret: string): string =>
  createHmac('sha256', key.digestKey).update(secret, 'utf8').digest('hex');

type Parsed = { version: 'v1'; raw: Buffer } | { version: 'v2'; keyId: string; raw: Buffer };

function parse(sealed: string): Parsed {
  const malformed = () =>
    new SecretBoxError('malformed', 'malformed sealed secret (expected v2:<key id>:<base64> or v1:<base64>)');
  let version: 'v1' | 'v2';
  let keyId = '';
  let body: string;
  if (sealed.startsWith('v1:')) {
    version = 'v1';
    body = sealed.slice(3);
  } else if (sealed.startsWith('v2:')) {
    version = 'v2';
    const rest = sealed.slice(3);
    const colon = rest.indexOf(':');
    if (colon < 0) throw malformed();
    keyId = rest.slice(0, colon);
    body = rest.slice(colon + 1);
    if (!KEY_ID.test(keyId)) throw malformed();
  } else {
    throw malformed();
  }
  if (!BASE64.test(body)) throw malformed();
  const raw = Buffer.from(body, 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw malformed();
  return version === 'v1' ? { version, raw } : { version, keyId, raw };
}

function decrypt(key: Buffer, raw: Buffer, aad: string | null): string {
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  if (aad !== null) decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/**
 * A box whose current key is `currentBase64` (SECRETS_KEY) and which also opens values sealed under `previous`
 * (SECRETS_KEYS_PREVIOUS). Throws, naming the variable and never the value, when a key is not 32 bytes of
 * base64 or a key is configured twice.
 */
export function createSecretBox(currentBase64: string, previous: readonly string[] = []): SecretBox {
  const current = keyOf(currentBase64, 'SECRETS_KEY');
  const olds = previous.map((k, i) => keyOf(k, `SECRETS_KEYS_PREVIOUS item ${i + 1}`));
  olds.forEach((k, i) => {
    if (k.bytes.equals(current.bytes))
      throw new Error(`SECRETS_KEYS_PREVIOUS item ${i + 1} is the same key as SECRETS_KEY`);
    const j = olds.findIndex((o) => o.bytes.equals(k.bytes));
    if (j < i) throw new Error(`SECRETS_KEYS_PREVIOUS lists the same key twice (items ${j + 1} and ${i + 1})`);
  });
  const all = [current, ...olds];
  const byId = new Map<string, Key>();
  for (const k of all) {
    if (byId.has(k.id)) throw new Error(`two configured secrets keys share the key id ${k.id}; generate another key`);
    byId.set(k.id, k);
  }
  const configured = () =>
    `SECRETS_KEY has key id ${current.id}${olds.length ? `, SECRETS_KEYS_PREVIOUS ${olds.map((k) => k.id).join(', ')}` : ', SECRETS_KEYS_PREVIOUS is empty'}`;

  const box: SecretBox = {
    keyId: current.id,
    previousKeyIds: olds.map((k) => k.id),
    seal(plaintext) {
      const header = `v2:${current.id}`;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.bytes, iv);
      cipher.setAAD(Buffer.from(header, 'utf8'));
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${header}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
    },
    open(sealed) {
      const p = parse(sealed);
      if (p.version === 'v2') {
        const key = byId.get(p.keyId);
        if (!key) {
          throw new SecretBoxError(
            'unknown_key',
            `sealed secret was written under key id ${p.keyId}, which is not configured (${configured()}); configure that key in SECRETS_KEYS_PREVIOUS`,
          );
        }
        try {
          return decrypt(key.bytes, p.raw, `v2:${p.keyId}`);
        } catch {
          throw new SecretBoxError(
            'unauthentic',
            `sealed secret under key id ${p.keyId} failed authentication: it was altered or corrupted`,
          );
        }
      }
      for (const key of all) {
        try {
          return decrypt(key.bytes, p.raw, null);
        } catch {
          // not this key: try the next one
        }
      }
      throw new SecretBoxError(
        'unknown_key',
        `sealed secret in the v1 format (no key id) opens with none of the configured keys (${configured()}): it was written under another key, or altered`,
      );
    },
    keyIdOf(sealed) {
      const p = parse(sealed);
      return p.version === 'v2' ? p.keyId : null;
    },
    needsReseal(sealed) {
      return !sealed.startsWith(`v2:${current.id}:`);
    },
    reseal(sealed) {
      return box.needsReseal(sealed) ? box.seal(box.open(sealed)) : null;
    },
    digest(secret) {
      return digestUnder(current, secret);
    },
    digests(secret) {
      return all.map((k) => digestUnder(k, secret));
    },
  };
  return box;
}

export function generateSecretsKey(): string {
  return randomBytes(32).toString('base64');
}

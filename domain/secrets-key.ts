/**
 * The shape of a secrets key (SECRETS_KEY, SECRETS_KEYS_PREVIOUS): 32 random bytes written as base64, standard
 * or URL-safe. One decoder for the configuration check and the SecretBox, so both accept exactly the same keys.
 */
const KEY_TEXT = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The 32 bytes of a key given as base64, or null when it is not that. */
export function decodeSecretsKey(keyBase64: string): Buffer | null {
  if (!KEY_TEXT.test(keyBase64)) return null;
  const key = Buffer.from(keyBase64, 'base64');
  return key.length === 32 ? key : null;
}

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecretBox, generateSecretsKey, type SecretBox } from './secret-box.js';

/**
 * The platform's SecretBox from its settings: the current key (SECRETS_KEY, else the DATA_DIR key file below)
 * seals, SECRETS_KEYS_PREVIOUS only open. The API, the workers and the operator CLI all build it here.
 */
export function configuredSecretBox(settings: {
  secretsKey: string | undefined;
  secretsKeysPrevious: readonly string[];
  dataDir: string;
}): SecretBox {
  return createSecretBox(resolveSecretsKey(settings.secretsKey, settings.dataDir), settings.secretsKeysPrevious);
}

/**
 * The key that seals webhook secrets: SECRETS_KEY when set (required in production); otherwise a key kept in
 * `<dataDir>/secrets.key` (mode 0600), created on first use, so a local platform keeps working across restarts.
 */
export function resolveSecretsKey(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = join(dataDir, 'secrets.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = generateSecretsKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

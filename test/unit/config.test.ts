import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/schema.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';

describe('config', () => {
  it('has working defaults for a local platform', () => {
    const c = loadConfig({});
    expect(c.http.port).toBe(8080);
    expect(c.database.url).toBeUndefined();
    expect(c.temporal).toMatchObject({ address: undefined, namespace: 'default', taskQueue: 'platform', uiPort: 8233 });
    expect(c.webhooks.allowLoopbackForTests).toBe(false);
    expect(c.rateLimits).toMatchObject({ v1PerKeyPerMinute: 120, proofPerKeyPerMinute: 60, proofPerIpPerMinute: 120, proofProPerHour: 300 });
    expect(Object.isFrozen(c.http)).toBe(true);
  });

  it('rejects invalid values without echoing them', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ BODY_LIMIT_JSON: 'lots' })).toThrow(/BODY_LIMIT_JSON/);
    try {
      loadConfig({ DATABASE_POOL_MAX: 'secret-looking-value' });
    } catch (e) {
      expect(String(e)).not.toContain('secret-looking-value');
    }
  });

  it('refuses the loopback test setting and a missing secrets key in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SECRETS_KEY: generateSecretsKey(), WEBHOOK_TEST_ALLOW_LOOPBACK: 'true' })).toThrow(/must not be enabled/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRETS_KEY/);
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: generateSecretsKey() }).env).toBe('production');
  });
});

describe('secret box', () => {
  it('round-trips, randomises and authenticates sealed secrets', () => {
    const box = createSecretBox(generateSecretsKey());
    const a = box.seal('whsec_abc');
    expect(a).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(a);
    expect(box.open(a)).toBe('whsec_abc');
    const tampered = `v1:${Buffer.from(Buffer.from(a.slice(3), 'base64').map((b, i, all) => (i === all.length - 1 ? b ^ 1 : b))).toString('base64')}`;
    expect(() => box.open(tampered)).toThrow();
    expect(() => createSecretBox(generateSecretsKey()).open(a)).toThrow();
    expect(() => createSecretBox('c2hvcnQ=')).toThrow(/32 bytes/);
  });
});

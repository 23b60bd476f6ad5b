import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/schema.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';

const BASE = 'https://pay.example.com';

describe('config', () => {
  it('has working defaults for a local platform', () => {
    const c = loadConfig({});
    expect(c.http.port).toBe(8080);
    expect(c.database.url).toBeUndefined();
    expect(c.temporal).toMatchObject({ address: undefined, namespace: 'default', taskQueue: 'platform', uiPort: 8233 });
    expect(c.webhooks.allowLoopbackForTests).toBe(false);
    expect(c.rateLimits).toMatchObject({
      v1PerKeyPerMinute: 120,
      proofPerKeyPerMinute: 60,
      proofPerIpPerMinute: 120,
      proofProPerHour: 300,
    });
    expect(Object.isFrozen(c.http)).toBe(true);
  });

  it('serves no metrics by default; METRICS_PORT, METRICS_HOST and METRICS_TOKEN are checked', () => {
    expect(loadConfig({}).metrics).toEqual({
      port: undefined,
      host: '127.0.0.1',
      token: undefined,
      temporalPort: undefined,
    });
    const token = 't'.repeat(32);
    expect(
      loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: token, METRICS_TEMPORAL_PORT: '9465' })
        .metrics,
    ).toEqual({ port: 9464, host: '0.0.0.0', token, temporalPort: 9465 });
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'abc' })).toThrow(/METRICS_PORT/);
    let message = '';
    try {
      loadConfig({ METRICS_TOKEN: 'short-secret-token' });
    } catch (e) {
      message = String(e);
    }
    expect(message).toMatch(/METRICS_TOKEN: at least 32 characters/);
    expect(message).not.toContain('short-secret-token');
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

  it('trusts no forwarded header by default, one proxy hop with TRUST_PROXY, and the configured number of hops', () => {
    expect(loadConfig({}).http).toMatchObject({ trustProxy: false, trustProxyHops: 0 });
    expect(loadConfig({ TRUST_PROXY_HOPS: '3' }).http.trustProxyHops).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).http).toMatchObject({ trustProxy: true, trustProxyHops: 1 });
    expect(loadConfig({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' }).http.trustProxyHops).toBe(2);
    for (const bad of ['0', '-1', '1.5', 'two', '21'])
      expect(() => loadConfig({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: bad })).toThrow(/TRUST_PROXY_HOPS/);
  });

  it('refuses the loopback test setting and a missing secrets key in production', () => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SECRETS_KEY: generateSecretsKey(),
        PUBLIC_BASE_URL: BASE,
        WEBHOOK_TEST_ALLOW_LOOPBACK: 'true',
      }),
    ).toThrow(/must not be enabled/);
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_BASE_URL: BASE })).toThrow(/SECRETS_KEY/);
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: generateSecretsKey(), PUBLIC_BASE_URL: BASE }).env).toBe(
      'production',
    );
  });

  it('domain audit: public resolvers by default, test-only overrides off by default and refused in production', () => {
    expect(loadConfig({}).domainAudit).toEqual({
      resolvers: ['1.1.1.1', '8.8.8.8'],
      testResolver: undefined,
      testTlsPort: undefined,
      testCaFile: undefined,
    });
    expect(loadConfig({ DOMAIN_AUDIT_RESOLVERS: '9.9.9.9:53, [2620:fe::fe]:53' }).domainAudit.resolvers).toEqual([
      '9.9.9.9:53',
      '[2620:fe::fe]:53',
    ]);
    const test = {
      DOMAIN_AUDIT_TEST_RESOLVER: '127.0.0.1:5353',
      DOMAIN_AUDIT_TEST_TLS_PORT: '8443',
      DOMAIN_AUDIT_TEST_CA_FILE: '/tmp/ca.pem',
    };
    expect(loadConfig(test).domainAudit).toMatchObject({
      testResolver: '127.0.0.1:5353',
      testTlsPort: 8443,
      testCaFile: '/tmp/ca.pem',
    });
    const invalid: Array<[string, string]> = [
      ['DOMAIN_AUDIT_RESOLVERS', 'dns.google'],
      ['DOMAIN_AUDIT_RESOLVERS', ','],
      ['DOMAIN_AUDIT_TEST_RESOLVER', 'localhost:53'],
      ['DOMAIN_AUDIT_TEST_TLS_PORT', '70000'],
    ];
    for (const [k, bad] of invalid) {
      expect(() => loadConfig({ [k]: bad }), `${k}=${bad}`).toThrow(new RegExp(k));
    }
    const prod = { NODE_ENV: 'production', SECRETS_KEY: generateSecretsKey(), PUBLIC_BASE_URL: BASE };
    for (const [k, v] of Object.entries(test)) {
      expect(() => loadConfig({ ...prod, [k]: v })).toThrow(
        new RegExp(`${k}: test only, must not be set in production`),
      );
    }
    expect(
      loadConfig({
        ...prod,
        DOMAIN_AUDIT_TEST_RESOLVER: '',
        DOMAIN_AUDIT_TEST_TLS_PORT: '',
        DOMAIN_AUDIT_TEST_CA_FILE: '',
      }).domainAudit.testResolver,
    ).toBeUndefined();
  });

  it('requires PUBLIC_BASE_URL in production, so no link or Origin check follows a request header', () => {
    for (const unset of [{}, { PUBLIC_BASE_URL: '' }, { PUBLIC_BASE_URL: '  ' }]) {
      expect(() => loadConfig({ NODE_ENV: 'production', SECRETS_KEY: generateSecretsKey(), ...unset })).toThrow(
        /PUBLIC_BASE_URL: required in production/,
      );
    }
    // Every missing production setting is named at once.
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /SECRETS_KEY[\s\S]*PUBLIC_BASE_URL|PUBLIC_BASE_URL[\s\S]*SECRETS_KEY/,
    );
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SECRETS_KEY: generateSecretsKey(),
        PUBLIC_BASE_URL: 'https://pay.example.com/',
      }).http.publicBaseUrl,
    ).toBe('https://pay.example.com');
    // Outside production it stays optional (the request's host is used, with a start-up warning).
    expect(loadConfig({}).http.publicBaseUrl).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'development', PUBLIC_BASE_URL: 'http://localhost:8080' }).http.publicBaseUrl).toBe(
      'http://localhost:8080',
    );
  });

  it('accepts PUBLIC_BASE_URL only as an absolute http(s) URL without credentials, query or fragment', () => {
    for (const bad of [
      'pay.example.com',
      'ftp://pay.example.com',
      'https://user:pw@pay.example.com',
      'https://pay.example.com/?a=1',
      'https://pay.example.com/#x',
      'https://',
      'javascript:alert(1)',
    ]) {
      expect(() => loadConfig({ PUBLIC_BASE_URL: bad }), bad).toThrow(/PUBLIC_BASE_URL/);
      try {
        loadConfig({ PUBLIC_BASE_URL: bad });
      } catch (e) {
        if (bad.includes('pw')) expect(String(e)).not.toContain('pw@');
      }
    }
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.com/paycore/' }).http.publicBaseUrl).toBe(
      'https://example.com/paycore',
    );
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://Pay.Example.com:8443' }).http.publicBaseUrl).toBe(
      'https://pay.example.com:8443',
    );
  });
});

describe('secrets keys config', () => {
  const A = generateSecretsKey();
  const B = generateSecretsKey();

  it('reads the current key and a comma list of previous, read-only keys', () => {
    expect(loadConfig({}).secretsKeysPrevious).toEqual([]);
    const c = loadConfig({ SECRETS_KEY: A, SECRETS_KEYS_PREVIOUS: ` ${B} ` });
    expect(c.secretsKey).toBe(A);
    expect(c.secretsKeysPrevious).toEqual([B]);
    const C = generateSecretsKey();
    expect(loadConfig({ SECRETS_KEY: A, SECRETS_KEYS_PREVIOUS: `${B},${C}` }).secretsKeysPrevious).toEqual([B, C]);
    expect(loadConfig({ SECRETS_KEY: A, SECRETS_KEYS_PREVIOUS: '' }).secretsKeysPrevious).toEqual([]);
  });

  it('refuses keys that are not 32 bytes of base64, a previous key equal to the current one, and duplicates, echoing none', () => {
    const bad = 'not-a-key-but-secret-looking';
    for (const [env, pattern] of [
      [{ SECRETS_KEY: bad }, /SECRETS_KEY: 32 random bytes/],
      [{ SECRETS_KEY: 'c2hvcnQ=' }, /SECRETS_KEY: 32 random bytes/],
      [
        { SECRETS_KEY: A, SECRETS_KEYS_PREVIOUS: `${B},${bad}` },
        /SECRETS_KEYS_PREVIOUS: item 2 is not 32 random bytes/,
      ],
      [{ SECRETS_KEY: A, SECRETS_KEYS_PREVIOUS: `${B},,${B}` }, /SECRETS_KEYS_PREVIOUS: item 2 is empty/],
      [{ SECRETS_KEY: A, SECRETS_KEYS_PREVIOUS: A }, /SECRETS_KEYS_PREVIOUS: item 1 is the same key as SECRETS_KEY/],
      [{ SECRETS_KEY: A, SECRETS_KEYS_PREVIOUS: `${B},${B}` }, /SECRETS_KEYS_PREVIOUS: item 2 repeats item 1/],
    ] as const) {
      let message = '';
      try {
        loadConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        message = String(e);
      }
      expect(message).toMatch(pattern);
      for (const secret of [bad, A, B]) expect(message).not.toContain(secret);
    }
  });

  it('still requires SECRETS_KEY in production, previous keys or not', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_BASE_URL: BASE, SECRETS_KEYS_PREVIOUS: A })).toThrow(
      /SECRETS_KEY: required in production/,
    );
    expect(
      loadConfig({ NODE_ENV: 'production', PUBLIC_BASE_URL: BASE, SECRETS_KEY: B, SECRETS_KEYS_PREVIOUS: A })
        .secretsKeysPrevious,
    ).toEqual([A]);
  });
});

describe('database timeouts', () => {
  it('bound connecting, every statement and the wait for a pooled connection by default, and read DATABASE_*_TIMEOUT_MS', () => {
    expect(loadConfig({}).database.timeouts).toEqual({ connectMs: 5_000, statementMs: 30_000, acquireMs: 10_000 });
    expect(
      loadConfig({
        DATABASE_CONNECT_TIMEOUT_MS: '1500',
        DATABASE_STATEMENT_TIMEOUT_MS: '0',
        DATABASE_ACQUIRE_TIMEOUT_MS: '20000',
      }).database.timeouts,
    ).toEqual({ connectMs: 1_500, statementMs: 0, acquireMs: 20_000 });
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_ACQUIRE_TIMEOUT_MS: 'soon' })).toThrow(/DATABASE_ACQUIRE_TIMEOUT_MS/);
  });
});

describe('payment watcher config', () => {
  it('runs no watcher by default and accepts the seven networks, solana included', () => {
    expect(loadConfig({}).watcher).toEqual({ networks: [], pollSeconds: 5 });
    expect(loadConfig({ WATCHER_NETWORKS: ' base, polygon ', WATCHER_POLL_SECONDS: '2' }).watcher).toEqual({
      networks: ['base', 'polygon'],
      pollSeconds: 2,
    });
    expect(loadConfig({ WATCHER_NETWORKS: 'base,solana' }).watcher.networks).toEqual(['base', 'solana']);
    expect(() => loadConfig({ WATCHER_NETWORKS: 'tron' })).toThrow(ConfigError);
    expect(() => loadConfig({ WATCHER_NETWORKS: 'base,Solana' })).toThrow(
      /WATCHER_NETWORKS: networks among base, polygon, arbitrum, optimism, ethereum, avalanche, solana/,
    );
  });
});

describe('secret box', () => {
  it('round-trips, randomises and authenticates sealed secrets', () => {
    const box = createSecretBox(generateSecretsKey());
    const a = box.seal('whsec_abc');
    expect(a).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(a);
    expect(box.open(a)).toBe('whsec_abc');
    // The stored form is "v2:<key id>:" + base64(iv | tag | ciphertext) since key ids (see secret-box.test.ts).
    const head = a.slice(0, a.lastIndexOf(':') + 1);
    const tampered = `${head}${Buffer.from(Buffer.from(a.slice(head.length), 'base64').map((b, i, all) => (i === all.length - 1 ? b ^ 1 : b))).toString('base64')}`;
    expect(() => box.open(tampered)).toThrow();
    expect(() => createSecretBox(generateSecretsKey()).open(a)).toThrow();
    expect(() => createSecretBox('c2hvcnQ=')).toThrow(/32 bytes/);
  });
});

describe('chain and x402 config', () => {
  it('bounds the webhook dispatcher per process, per destination and per tenant (half the process by default)', () => {
    expect(loadConfig({}).webhooks.dispatch).toEqual({ concurrency: 32, perEndpoint: 8, perTenant: 16 });
    expect(loadConfig({ WEBHOOK_DISPATCH_CONCURRENCY: '10' }).webhooks.dispatch).toEqual({
      concurrency: 10,
      perEndpoint: 8,
      perTenant: 5,
    });
    expect(loadConfig({ WEBHOOK_DISPATCH_PER_TENANT: '4' }).webhooks.dispatch.perTenant).toBe(4);
    expect(loadConfig({ WEBHOOK_DISPATCH_PER_TENANT: '' }).webhooks.dispatch.perTenant).toBe(16);
    expect(
      loadConfig({ WEBHOOK_DISPATCH_CONCURRENCY: '6', WEBHOOK_DISPATCH_PER_TENANT: '50' }).webhooks.dispatch,
    ).toEqual({ concurrency: 6, perEndpoint: 6, perTenant: 6 });
    expect(() => loadConfig({ WEBHOOK_DISPATCH_PER_TENANT: '0' })).toThrow(/WEBHOOK_DISPATCH_PER_TENANT/);
  });

  it('parses RPC failover lists and confirmation overrides', () => {
    const c = loadConfig({ RPC_URL_BASE: 'http://a.example, https://b.example', CONFIRMATIONS_ETHEREUM: '12' });
    expect(c.chains.rpcUrls.base).toEqual(['http://a.example', 'https://b.example']);
    expect(c.chains.rpcUrls.solana).toEqual(['https://api.mainnet-beta.solana.com']);
    expect(c.chains.requiredConfirmations).toEqual({
      base: 150,
      polygon: 128,
      arbitrum: 1200,
      optimism: 150,
      ethereum: 12,
      avalanche: 1,
    });
    expect(() => loadConfig({ RPC_URL_POLYGON: 'ftp://x' })).toThrow(/RPC_URL_POLYGON/);
    expect(() => loadConfig({ RPC_URL_SOLANA: ' , ' })).toThrow(/RPC_URL_SOLANA/);
    expect(() => loadConfig({ CONFIRMATIONS_BASE: '0' })).toThrow(/CONFIRMATIONS_BASE/);
    expect(() => loadConfig({ CONFIRMATIONS_BASE: '1.5' })).toThrow(/CONFIRMATIONS_BASE/);
  });

  it('never picks a facilitator on its own and validates the configured one', () => {
    expect(loadConfig({}).x402).toMatchObject({
      payTo: undefined,
      facilitator: { kind: 'none' },
      paymentTimeoutSeconds: 300,
    });
    expect(loadConfig({ X402_FACILITATOR_URL: 'https://facilitator.example' }).x402.facilitator).toEqual({
      kind: 'remote',
      url: 'https://facilitator.example',
    });
    const key = `0x${'11'.repeat(32)}`;
    expect(loadConfig({ X402_FACILITATOR: 'self', X402_FACILITATOR_PRIVATE_KEY: key }).x402.facilitator).toEqual({
      kind: 'self',
      privateKey: key,
    });
    expect(() => loadConfig({ X402_FACILITATOR: 'self' })).toThrow(/X402_FACILITATOR_PRIVATE_KEY/);
    expect(() => loadConfig({ X402_FACILITATOR: 'remote' })).toThrow(/X402_FACILITATOR_URL/);
    expect(() => loadConfig({ X402_PAY_TO: '0x123' })).toThrow(/X402_PAY_TO/);
    try {
      loadConfig({ X402_FACILITATOR: 'self', X402_FACILITATOR_PRIVATE_KEY: '0xnot-a-key-but-secret-looking' });
    } catch (e) {
      expect(String(e)).not.toContain('secret-looking');
    }
  });

  it('configures the offline speech engine: setup-installed paths by default, bounded concurrency and time limit', () => {
    expect(loadConfig({}).transcription).toEqual({
      provider: 'offline',
      python: undefined,
      modelDir: undefined,
      concurrency: 1,
      timeoutMs: 900_000,
      cpuKernels: 'native',
      chunkSeconds: 300,
      chunksAtOnce: 2,
    });
    expect(
      loadConfig({
        TRANSCRIPTION_PYTHON: '/opt/stt/bin/python',
        TRANSCRIPTION_MODEL_DIR: '/opt/models/whisper-base',
        TRANSCRIPTION_SPEAKER_MODEL: '/opt/models/pretrained.pt',
        TRANSCRIPTION_CONCURRENCY: '2',
        TRANSCRIPTION_TIMEOUT_MS: '60000',
      }).transcription,
    ).toEqual({
      provider: 'offline',
      python: '/opt/stt/bin/python',
      modelDir: '/opt/models/whisper-base',
      speakerModel: '/opt/models/pretrained.pt',
      concurrency: 2,
      timeoutMs: 60_000,
      cpuKernels: 'native',
      chunkSeconds: 300,
      chunksAtOnce: 2,
    });
    expect(
      loadConfig({ TRANSCRIPTION_CPU_THREADS: '2', TRANSCRIPTION_CPU_KERNELS: 'portable' }).transcription,
    ).toMatchObject({ cpuThreads: 2, cpuKernels: 'portable' });
    expect(() => loadConfig({ TRANSCRIPTION_CPU_KERNELS: 'avx512' })).toThrow(/TRANSCRIPTION_CPU_KERNELS/);
    expect(() => loadConfig({ TRANSCRIPTION_CPU_THREADS: '-1' })).toThrow(/TRANSCRIPTION_CPU_THREADS/);
    expect(loadConfig({ TRANSCRIPTION_CHUNK_SECONDS: '60' }).transcription.chunkSeconds).toBe(60);
    expect(() => loadConfig({ TRANSCRIPTION_CHUNK_SECONDS: '5' })).toThrow(/TRANSCRIPTION_CHUNK_SECONDS/);
    expect(() => loadConfig({ TRANSCRIPTION_CONCURRENCY: '0' })).toThrow(/TRANSCRIPTION_CONCURRENCY/);
    expect(() => loadConfig({ TRANSCRIPTION_TIMEOUT_MS: '10' })).toThrow(/TRANSCRIPTION_TIMEOUT_MS/);
  });

  it('configures the OpenAI-compatible transcription API: URL and key required, the key never in a dump or an error', () => {
    const key = 'sk-config-test-4b7e0c2a9d1f';
    const c = loadConfig({
      TRANSCRIPTION_PROVIDER: 'openai',
      TRANSCRIPTION_API_BASE_URL: 'https://API.example.com/v1/',
      TRANSCRIPTION_API_KEY: key,
    });
    expect(c.transcription.provider).toBe('openai');
    expect(c.transcription.api).toEqual({
      baseUrl: 'https://api.example.com/v1',
      model: 'whisper-1',
      timeoutMs: 300_000,
    });
    expect(c.transcription.api?.apiKey).toBe(key);
    expect(JSON.stringify(c)).not.toContain(key);
    expect(inspect(c, { depth: 10 })).not.toContain(key);
    expect(Object.isFrozen(c.transcription.api)).toBe(true);
    const custom = loadConfig({
      TRANSCRIPTION_PROVIDER: 'openai',
      TRANSCRIPTION_API_BASE_URL: 'http://whisper:8000/v1',
      TRANSCRIPTION_API_KEY: key,
      TRANSCRIPTION_API_MODEL: 'whisper-large-v3',
      TRANSCRIPTION_API_TIMEOUT_MS: '60000',
    });
    expect(custom.transcription.api).toEqual({
      baseUrl: 'http://whisper:8000/v1',
      model: 'whisper-large-v3',
      timeoutMs: 60_000,
    });
    // offline (the default, also for an empty value) ignores the API settings
    expect(loadConfig({ TRANSCRIPTION_PROVIDER: '', TRANSCRIPTION_API_KEY: key }).transcription).not.toHaveProperty(
      'api',
    );
    expect(() => loadConfig({ TRANSCRIPTION_PROVIDER: 'cloud' })).toThrow(/TRANSCRIPTION_PROVIDER/);
    expect(() => loadConfig({ TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_API_KEY: key })).toThrow(
      /TRANSCRIPTION_API_BASE_URL: required/,
    );
    expect(() =>
      loadConfig({ TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_API_BASE_URL: 'https://api.example.com/v1' }),
    ).toThrow(/TRANSCRIPTION_API_KEY: required/);
    expect(() => loadConfig({ TRANSCRIPTION_API_TIMEOUT_MS: '300001' })).toThrow(/TRANSCRIPTION_API_TIMEOUT_MS/);
    for (const [url, apiKey] of [
      [`https://user:${key}@api.example.com/v1`, key],
      [`https://api.example.com/v1?api_key=${key}`, key],
      ['ftp://api.example.com/v1', key],
      ['https://api.example.com/v1', `${key} with spaces`],
    ]) {
      try {
        loadConfig({
          TRANSCRIPTION_PROVIDER: 'openai',
          TRANSCRIPTION_API_BASE_URL: url,
          TRANSCRIPTION_API_KEY: apiKey,
        });
        expect.unreachable(`${url} should be refused`);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        expect(String(e)).toMatch(/TRANSCRIPTION_API_(BASE_URL|KEY)/);
        expect(String(e)).not.toContain(key);
      }
    }
  });

  it('configures the meeting-summary language model: none by default, URL and key required for openai, the key never in a dump or an error', () => {
    const key = 'sk-llm-config-test-8c1d5e0f3a';
    expect(loadConfig({}).llm).toEqual({ provider: 'none' });
    expect(loadConfig({ LLM_PROVIDER: '', LLM_API_KEY: key }).llm).toEqual({ provider: 'none' });
    const c = loadConfig({ LLM_PROVIDER: 'openai', LLM_API_BASE_URL: 'https://API.example.com/v1/', LLM_API_KEY: key });
    expect(c.llm).toEqual({
      provider: 'openai',
      api: { baseUrl: 'https://api.example.com/v1', model: 'gpt-4o-mini', timeoutMs: 120_000 },
    });
    expect(c.llm.api?.apiKey).toBe(key);
    expect(JSON.stringify(c)).not.toContain(key);
    expect(inspect(c, { depth: 10 })).not.toContain(key);
    expect(Object.isFrozen(c.llm.api)).toBe(true);
    expect(
      loadConfig({
        LLM_PROVIDER: 'openai',
        LLM_API_BASE_URL: 'http://llm:8080/v1',
        LLM_API_KEY: key,
        LLM_API_MODEL: 'qwen2.5-7b',
        LLM_API_TIMEOUT_MS: '30000',
      }).llm.api,
    ).toEqual({
      baseUrl: 'http://llm:8080/v1',
      model: 'qwen2.5-7b',
      timeoutMs: 30_000,
    });
    expect(() => loadConfig({ LLM_PROVIDER: 'local' })).toThrow(/LLM_PROVIDER/);
    expect(() => loadConfig({ LLM_API_TIMEOUT_MS: '300001' })).toThrow(/LLM_API_TIMEOUT_MS/);
    for (const [url, apiKey, variable] of [
      [undefined, key, 'LLM_API_BASE_URL: required'],
      ['https://api.example.com/v1', undefined, 'LLM_API_KEY: required'],
      [`https://user:${key}@api.example.com/v1`, key, 'LLM_API_BASE_URL'],
      [`https://api.example.com/v1?api_key=${key}`, key, 'LLM_API_BASE_URL'],
      ['https://api.example.com/v1', `${key} with spaces`, 'LLM_API_KEY'],
    ] as const) {
      try {
        loadConfig({ LLM_PROVIDER: 'openai', LLM_API_BASE_URL: url, LLM_API_KEY: apiKey });
        expect.unreachable(`${url} should be refused`);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        expect(String(e)).toContain(variable);
        expect(String(e)).not.toContain(key);
      }
    }
  });
});

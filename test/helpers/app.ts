import type Koa from 'koa';
import { loadConfig, type Config } from '../../config/schema.js';
import { buildApp, type InterfaceRouter } from '../../api/server.js';
import { listen, type HttpServerHandle } from '../../api/http/lifecycle.js';
import type { Db } from '../../db/connection.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';
import type { ChainReader } from '../../adapters/chains/types.js';
import { buildChainReader } from '../../api/deps.js';
import type { PaymentGate } from '../../api/x402/usdc.routes.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { createSecretBox, generateSecretsKey, type SecretBox } from '../../adapters/crypto/secret-box.js';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEBHOOK_TEST_ALLOW_LOOPBACK: 'true', ...overrides });
}

/** The real Koa app on an ephemeral loopback port. */
export async function startTestApp(opts: {
  db: Db;
  logger: Logger;
  config?: Config;
  routers?: InterfaceRouter[];
  now?: () => Date;
  chainReader?: ChainReader;
  payments?: PaymentGate | null;
  /** Starts job workflows; without it POST /v1/jobs answers 503. */
  workflows?: WorkflowGateway | null;
  secretBox?: SecretBox;
  /** The app's metrics registry (adapters/metrics/metrics.ts); one of its own when absent. */
  metrics?: PlatformMetrics;
}): Promise<HttpServerHandle & { app: Koa; close(): Promise<void> }> {
  const config = opts.config ?? testConfig();
  const app = buildApp(
    {
      db: opts.db,
      logger: opts.logger,
      config,
      chainReader: opts.chainReader ?? buildChainReader(config),
      payments: opts.payments ?? null,
      secretBox: opts.secretBox ?? createSecretBox(generateSecretsKey()),
      workflows: opts.workflows ?? null,
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.metrics ? { metrics: opts.metrics } : {}),
    },
    { routers: opts.routers ?? [] },
  );
  const handle = await listen(app, '127.0.0.1', 0, { maxRequestBytes: config.storage.maxUploadBytes });
  return { ...handle, app: app as unknown as Koa, close: () => handle.drain(1000) };
}

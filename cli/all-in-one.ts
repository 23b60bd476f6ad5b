// The whole platform in one process: embedded PostgreSQL and a Temporal dev server when not configured,
// then migrations, the worker and the HTTP API. SIGTERM drains requests and activities, then stops servers.
import { loadConfig } from '../config/schema.js';
import { startTracing } from '../adapters/tracing/tracing.js';
import { createLogger } from '../adapters/logging/logger.js';
import { stderrProgress } from '../adapters/infra/progress.js';
import { onShutdownSignal } from '../adapters/infra/signals.js';
import { createDb } from '../db/connection.js';
import { processMetrics } from '../adapters/metrics/server.js';
import { migrateLatest } from '../db/migrate.js';
import { startApi } from '../api/run.js';
import { startWorker } from '../workers/run.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { ensureInfrastructure } from './infrastructure.js';

const config = loadConfig();
// First: the instrumentations must be in place before the app, the worker and their clients are built.
const tracing = startTracing({ serviceName: 'paycore-platform', env: config.tracing });
const logger = createLogger({ level: config.logLevel, name: 'platform' });
installTemporalRuntime(
  logger,
  config.metrics.temporalPort !== undefined
    ? { host: config.metrics.host, port: config.metrics.temporalPort }
    : undefined,
);
const infra = await ensureInfrastructure(config, stderrProgress);
const db = createDb(infra.databaseUrl, {
  poolMax: config.database.poolMax,
  applicationName: 'paycore',
  timeouts: config.database.timeouts,
  logger,
});
stderrProgress('applying database migrations');
await migrateLatest(db);
// One process, one registry: the API's and the worker's metrics on one listener (METRICS_PORT) or behind METRICS_TOKEN.
const { metrics, server: metricsServer } = await processMetrics(config.metrics, 'platform', (f, m) =>
  logger.info(f, m),
);
const worker = await startWorker(config, db, logger, infra.temporalAddress, metrics);
const api = await startApi(config, db, logger, infra.temporalAddress, metrics);
stderrProgress(`platform ready: API ${api.url}  (health: ${api.url}/x402/health)`);
if (infra.temporalUiUrl)
  stderrProgress(`Temporal Web UI: ${infra.temporalUiUrl}/namespaces/${config.temporal.namespace}/workflows`);

onShutdownSignal(async (signal) => {
  stderrProgress(`${signal}: draining HTTP requests and in-flight activities`);
  await api.drain(config.shutdownGraceMs);
  await worker.shutdown();
  await metricsServer?.close();
  await db.destroy();
  await tracing?.shutdown(); // flushes the spans still buffered
  await infra.stop();
  stderrProgress('stopped cleanly');
});
worker.done.catch((e: unknown) => {
  logger.fatal({ err: e }, 'worker stopped unexpectedly');
  process.kill(process.pid, 'SIGTERM');
});

// Worker-only process: needs DATABASE_URL and TEMPORAL_ADDRESS (default 127.0.0.1:7233).
import { loadConfig } from '../config/schema.js';
import { startTracing } from '../adapters/tracing/tracing.js';
import { createLogger } from '../adapters/logging/logger.js';
import { logPrivateDestinations } from '../adapters/webhooks/url-policy.js';
import { onShutdownSignal } from '../adapters/infra/signals.js';
import { createDb } from '../db/connection.js';
import { processMetrics } from '../adapters/metrics/server.js';
import { migrateLatest } from '../db/migrate.js';
import { installTemporalRuntime } from './temporal-runtime.js';
import { startWorker } from './run.js';

const config = loadConfig();
// First: the instrumentations must be in place before the app, the worker and their clients are built.
const tracing = startTracing({ serviceName: 'paycore-worker', env: config.tracing });
const logger = createLogger({ level: config.logLevel, name: 'worker' });
if (!config.database.url) {
  logger.fatal('DATABASE_URL is required for workers/main.ts; use `npm start` to run everything on embedded defaults');
  process.exit(2);
}
installTemporalRuntime(
  logger,
  config.metrics.temporalPort !== undefined
    ? { host: config.metrics.host, port: config.metrics.temporalPort }
    : undefined,
);
const db = createDb(config.database.url, {
  poolMax: config.database.poolMax,
  applicationName: 'paycore-worker',
  timeouts: config.database.timeouts,
  logger,
});
await migrateLatest(db);
logPrivateDestinations(config.webhooks.privateDestinations, (f, m) => logger.warn(f, m));
const { metrics, server: metricsServer } = await processMetrics(config.metrics, 'worker', (f, m) => logger.info(f, m));
const worker = await startWorker(
  config,
  db,
  logger,
  config.temporal.address ?? `127.0.0.1:${config.temporal.devPort}`,
  metrics,
);
onShutdownSignal(async (signal) => {
  logger.info({ signal }, 'worker draining in-flight activities');
  await worker.shutdown();
  await metricsServer?.close();
  await db.destroy();
  await tracing?.shutdown(); // flushes the spans still buffered
  logger.info('worker stopped');
});
await worker.done;

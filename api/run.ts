import type { Config } from '../config/schema.js';
import type { Logger } from '../adapters/logging/logger.js';
import type { PlatformMetrics } from '../adapters/metrics/metrics.js';
import { configuredSecretBox } from '../adapters/crypto/secrets-key-file.js';
import type { Db } from '../db/connection.js';
import { buildApp } from './server.js';
import { listen, type HttpServerHandle } from './http/lifecycle.js';
import { buildChainReader, buildPayments } from './deps.js';
import { connectWorkflowGateway } from '../services/workflows/workflow-client.js';
import { startsInFlight } from '../services/workflows/workflow-starts.js';
import { startTempSweeper } from '../adapters/storage/temp-files.js';

/**
 * Builds and starts the API. The Temporal connection is lazy: the API answers while Temporal is down, and what it
 * accepts meanwhile waits in the start outbox until the workers' starters start it, as soon as Temporal is back
 * (services/workflows/workflow-starts.ts).
 */
export async function startApi(
  config: Config,
  db: Db,
  logger: Logger,
  temporalAddress: string,
  metrics?: PlatformMetrics,
): Promise<HttpServerHandle> {
  // Before the first request: the partial uploads of a process killed mid-request (this one's previous start, or
  // another one's) go; a live request of another process is never touched.
  const sweeper = await startTempSweeper(config.storage.dir, logger);
  const workflows = await connectWorkflowGateway({
    address: temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    lazy: true,
  });
  const app = buildApp({
    db,
    logger,
    config,
    chainReader: buildChainReader(config),
    payments: buildPayments(config, db, logger, metrics),
    secretBox: configuredSecretBox(config),
    workflows,
    ...(metrics ? { metrics } : {}),
  });
  const handle = await listen(app, config.http.host, config.http.port, {
    maxRequestBytes: config.storage.maxUploadBytes,
  });
  logger.info({ url: handle.url }, 'API listening');
  return {
    ...handle,
    async drain(graceMs) {
      await handle.drain(graceMs);
      sweeper.stop();
      await startsInFlight(workflows); // the workflow starts of the last answered submissions (each at most 5 s)
      await workflows.close();
    },
  };
}

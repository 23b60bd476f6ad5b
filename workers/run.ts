import type { Config } from '../config/schema.js';
import type { Logger } from '../adapters/logging/logger.js';
import type { PlatformMetrics } from '../adapters/metrics/metrics.js';
import type { Db } from '../db/connection.js';
import { buildActivityDeps } from './deps.js';
import { createOcrEngine } from '../adapters/media/ocr/ocr-engine.js';
import { createPlatformWorker } from './worker.js';
import { checkSearchAttributes, ensureSchedules, ensureWatchers } from './schedules.js';
import { startTempSweeper } from '../adapters/storage/temp-files.js';

export interface RunningWorker {
  /** Resolves when the worker has stopped (after shutdown, or on a fatal error). */
  done: Promise<void>;
  /** Stops polling, lets in-flight activities finish within the grace time, then resolves. */
  shutdown(): Promise<void>;
}

/**
 * OCR_LANGUAGES against what Tesseract has installed: a missing language pack or a missing Tesseract is logged as an
 * error (the other operations still run; an OCR job then fails or waits for the engine), never silently ignored.
 */
export async function checkOcrLanguages(config: Pick<Config, 'media'>, logger: Logger): Promise<void> {
  const { languages, tesseractPath } = config.media.ocr;
  try {
    const installed = await createOcrEngine({ tesseractPath }).languages();
    const missing = languages.filter((l) => !installed.includes(l));
    if (missing.length)
      logger.error(
        { missing, installed },
        'OCR_LANGUAGES names Tesseract languages that are not installed (apt-get install tesseract-ocr-<code>)',
      );
  } catch (err) {
    logger.error(
      { err },
      'Tesseract is not available: OCR jobs cannot run on this worker (apt-get install tesseract-ocr ocrmypdf)',
    );
  }
}

export async function startWorker(
  config: Config,
  db: Db,
  logger: Logger,
  temporalAddress: string,
  metrics?: PlatformMetrics,
): Promise<RunningWorker> {
  const attributes = await checkSearchAttributes({ address: temporalAddress, namespace: config.temporal.namespace });
  if ('missing' in attributes && attributes.missing.length > 0) {
    throw new Error(
      `the Temporal namespace ${config.temporal.namespace} lacks the search attributes ${attributes.missing.join(', ')}: register them ` +
        `(temporal operator search-attribute create --namespace ${config.temporal.namespace} --name <name> --type Keyword; docs/operations.md "Search attributes")`,
    );
  }
  if ('unknown' in attributes)
    logger.warn(
      { reason: attributes.unknown },
      "could not list the namespace's search attributes; assuming they are registered",
    );
  const activityDeps = buildActivityDeps(config, db, logger, metrics);
  const { worker, connection } = await createPlatformWorker({
    address: temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activityDeps,
    shutdownGraceMs: config.shutdownGraceMs,
    tuning: config.temporal.worker,
    dispatch: config.webhooks.dispatch,
    ...(config.temporal.workflowBundlePath ? { workflowBundle: { codePath: config.temporal.workflowBundlePath } } : {}),
  });
  await ensureSchedules({
    address: temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
  });
  await ensureWatchers({
    address: temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    networks: config.watcher.networks,
    pollSeconds: config.watcher.pollSeconds,
  });
  await checkOcrLanguages(config, logger);
  // The worker writes results through the same temporary files as the API's uploads: it sweeps what dead processes left.
  const sweeper = await startTempSweeper(config.storage.dir, logger);
  // After the last activity: the speech engine's processes stop with the worker.
  const done = worker.run().finally(async () => {
    sweeper.stop();
    const speech = activityDeps.processing.speech;
    const engines = new Set(speech ? [speech.provider, speech.speakers] : []);
    for (const engine of engines)
      await engine.close().catch((err: unknown) => logger.warn({ err }, 'the speech engine did not stop cleanly'));
    await connection.close();
  });
  logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker running');
  return {
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

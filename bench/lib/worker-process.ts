/**
 * One worker process of a bench (`bench/webhooks.ts --worker-processes N`, `bench/processing.ts --submitters S --worker
 * process`): the platform worker on the bench's task queue and database, from the bench's prebuilt bundle, with the
 * tuning from the environment (config.temporal.worker), as `workers/main.ts` runs it in production. With
 * BENCH_STORAGE_DIR it also runs the /v1 jobs (the file-operation runners on that store). Prints `ready` on stdout when
 * polling, `rss <bytes> cpu <microseconds>` every 250 ms, and stops on SIGTERM (draining like a real worker).
 * Env: BENCH_DATABASE_URL, BENCH_TEMPORAL_ADDRESS, BENCH_TASK_QUEUE, BENCH_BUNDLE_PATH, BENCH_SECRETS_KEY,
 * BENCH_STORAGE_DIR (optional).
 */
import { loadConfig } from '../../config/schema.js';
import { createLogger } from '../../adapters/logging/logger.js';
import { createSecretBox } from '../../adapters/crypto/secret-box.js';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import { createFileStore } from '../../adapters/storage/file-store.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { createDb } from '../../db/connection.js';
import { createPlatformWorker } from '../../workers/worker.js';
import { installTemporalRuntime } from '../../workers/temporal-runtime.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const storageDir = process.env['BENCH_STORAGE_DIR'];
const config = loadConfig({ ...process.env, WEBHOOK_TEST_ALLOW_LOOPBACK: 'true' });
const logger = createLogger({ level: 'warn', name: 'bench-worker' });
installTemporalRuntime(logger);
const db = createDb(env('BENCH_DATABASE_URL'), {
  poolMax: config.database.poolMax,
  applicationName: 'paycore-bench-worker',
  timeouts: config.database.timeouts,
});
const { worker, connection } = await createPlatformWorker({
  address: env('BENCH_TEMPORAL_ADDRESS'),
  namespace: config.temporal.namespace,
  taskQueue: env('BENCH_TASK_QUEUE'),
  activityDeps: {
    db,
    logger,
    secretBox: createSecretBox(env('BENCH_SECRETS_KEY')),
    resolver: createSystemResolver(),
    allowLoopbackForTests: true,
    ...(storageDir
      ? { processing: { store: createFileStore(storageDir), runners: createFileOperationRunners() } }
      : {}),
  },
  workflowBundle: { codePath: env('BENCH_BUNDLE_PATH') },
  shutdownGraceMs: 5000,
  identity: `bench-worker-${process.pid}`,
  tuning: config.temporal.worker,
  dispatch: config.webhooks.dispatch,
});
const running = worker.run();
const report = () => {
  const cpu = process.cpuUsage();
  process.stdout.write(`rss ${process.memoryUsage().rss} cpu ${cpu.user + cpu.system}\n`);
};
const sampler = setInterval(report, 250);
process.stdout.write('ready\n');
process.once('SIGTERM', () => worker.shutdown());
await running;
clearInterval(sampler);
await connection.close();
await db.destroy();

/**
 * One worker process of `bench/webhooks.ts --worker-processes N`: the platform worker on the bench's task queue and
 * database, from the bench's prebuilt bundle, with the tuning from the environment (config.temporal.worker). Prints
 * `ready` on stdout when polling, `rss <bytes>` every 250 ms, and stops on SIGTERM (draining like a real worker).
 * Env: BENCH_DATABASE_URL, BENCH_TEMPORAL_ADDRESS, BENCH_TASK_QUEUE, BENCH_BUNDLE_PATH, BENCH_SECRETS_KEY.
 */
import { loadConfig } from '../../config/schema.js';
import { createLogger } from '../../adapters/logging/logger.js';
import { createSecretBox } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { createDb } from '../../db/connection.js';
import { createPlatformWorker } from '../../workers/worker.js';
import { installTemporalRuntime } from '../../workers/temporal-runtime.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
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
  },
  workflowBundle: { codePath: env('BENCH_BUNDLE_PATH') },
  shutdownGraceMs: 5000,
  identity: `bench-webhooks-worker-${process.pid}`,
  tuning: config.temporal.worker,
  dispatch: config.webhooks.dispatch,
});
const running = worker.run();
const sampler = setInterval(() => process.stdout.write(`rss ${process.memoryUsage().rss}\n`), 250);
process.stdout.write('ready\n');
process.once('SIGTERM', () => worker.shutdown());
await running;
clearInterval(sampler);
await connection.close();
await db.destroy();

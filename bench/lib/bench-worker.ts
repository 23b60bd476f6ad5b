import type { SpeechWorkerDeps } from '../../activities/speech.activities.js';
import { connectWorkflowGateway, type WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { createPlatformWorker, type PlatformWorkerOptions } from '../../workers/worker.js';
import type { RunLifecycle } from './lifecycle.js';
import { randomBytes } from 'node:crypto';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import type { Config } from '../../config/schema.js';
import type { Db } from '../../db/connection.js';
import type { Logger } from '../../adapters/logging/logger.js';
import { stderrProgress as progress } from '../../adapters/infra/progress.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import type { OperationRunners } from '../../adapters/media/runner-contract.js';
import { createFileStore } from '../../adapters/storage/file-store.js';
import { serveApp } from './http-stack.js';
import { workflowsPath } from '../../workers/worker.js';

/**
 * A platform worker in this process plus a workflow client on its task queue, both stopped by the run's
 * clean-up (the worker drains first).
 */
export async function startBenchWorker(run: RunLifecycle, opts: PlatformWorkerOptions): Promise<WorkflowGateway> {
  const { worker, connection } = await createPlatformWorker(opts);
  const running = worker.run();
  run.defer('stop worker', async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await connection.close();
  });
  const gw = await connectWorkflowGateway({
    address: opts.address,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
  });
  run.defer('close workflow client', () => gw.close());
  return gw;
}

/**
 * The /v1 processing platform of a media bench in this process: the workflow bundle, a worker with the given
 * operation runners on its own task queue, and the real app listening on a free port; all stopped by the run.
 */
export async function startProcessingBench(
  run: RunLifecycle,
  opts: {
    name: string;
    infra: { temporalAddress: string };
    config: Config;
    db: Db;
    logger: Logger;
    runners: OperationRunners;
    speech?: SpeechWorkerDeps;
  },
): Promise<{ url: string; gw: WorkflowGateway; taskQueue: string }> {
  const { name, config, db, logger } = opts;
  progress('bundling workflows');
  const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: new DefaultLogger('WARN') });
  const taskQueue = `${name}-${randomBytes(4).toString('hex')}`;
  const gw = await startBenchWorker(run, {
    address: opts.infra.temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue,
    activityDeps: {
      db,
      logger,
      secretBox: createSecretBox(generateSecretsKey()),
      resolver: createSystemResolver(),
      allowLoopbackForTests: false,
      processing: {
        store: createFileStore(config.storage.dir),
        runners: opts.runners,
        ...(opts.speech ? { speech: opts.speech } : {}),
      },
    },
    workflowBundle: { code },
    shutdownGraceMs: 5000,
    identity: `${name}-${process.pid}`,
  });
  return { url: await startBenchApp(run, { db, logger, config, workflows: gw }), gw, taskQueue };
}

/**
 * The real app (no payments; the given secrets key, which its worker processes share, or a new one) listening on a free
 * port of 127.0.0.1, stopped by the run; its URL.
 */
export async function startBenchApp(
  run: RunLifecycle,
  { secretsKey, ...deps }: { db: Db; logger: Logger; config: Config; workflows: WorkflowGateway; secretsKey?: string },
): Promise<string> {
  return serveApp(run, { ...deps, secretBox: createSecretBox(secretsKey ?? generateSecretsKey()) });
}

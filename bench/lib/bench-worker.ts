import { connectWorkflowGateway, type WorkflowGateway } from '../../api/temporal/workflow-client.js';
import { createPlatformWorker, type PlatformWorkerOptions } from '../../workers/worker.js';
import type { RunLifecycle } from './lifecycle.js';

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
  const gw = await connectWorkflowGateway({ address: opts.address, namespace: opts.namespace, taskQueue: opts.taskQueue });
  run.defer('close workflow client', () => gw.close());
  return gw;
}

import { afterAll, beforeAll, inject } from 'vitest';
import { ProcessingHarness } from './processing.js';
import { deleteRunSchedules } from './temporal.js';
import { spawnEntryPoint } from '../../support/child-output.js';
import { TEST_SPEECH_ENGINE_ENV } from './speech-engine.js';

/** The real worker entry point (workers/main.ts) as a separate OS process, ready once it logs "worker running". */
export function spawnWorkerProcess(env: Record<string, string>) {
  return spawnEntryPoint(
    'workers/main.ts',
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: inject('temporalNamespace'),
      TEMPORAL_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
      WEBHOOK_TEST_ALLOW_LOOPBACK: 'true',
      // The speech engine as every test runs it (test/helpers/speech-engine.ts).
      ...TEST_SPEECH_ENGINE_ENV,
      ...env,
    },
    '"worker running"',
    'worker',
  );
}

export type WorkerProcess = Awaited<ReturnType<typeof spawnWorkerProcess>>;

/** Teardown of the tests that spawn worker processes: SIGTERM to each one still running (killed ones are skipped). */
export async function stopLiveWorkers(workers: readonly WorkerProcess[]): Promise<void> {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) await w.kill('SIGTERM');
}

export { until } from './until.js';

/** SIGKILL to each process a crash test held (a tool parked in `sleep`), skipping those already gone. */
export function killHeld(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * The set-up of a worker-crash test: a processing harness without in-process workers (the test spawns worker
 * processes, registered in `workers`, and kills them). Its teardown stops the live workers, then `cleanup` (e.g. a
 * process the test held), deletes the run's schedules (the worker entry point creates them) and stops the harness.
 */
export function crashTestHarness(cleanup: () => Promise<void> | void = () => undefined): {
  h: ProcessingHarness;
  workers: WorkerProcess[];
} {
  const h = new ProcessingHarness();
  const workers: WorkerProcess[] = [];
  beforeAll(() => h.start({ startWorkers: false }));
  afterAll(async () => {
    await stopLiveWorkers(workers);
    await cleanup();
    await deleteRunSchedules(h.gateway, h.taskQueue);
    await h.stop();
  });
  return { h, workers };
}

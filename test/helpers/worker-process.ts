import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { waitForOutput } from './child-output.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The real worker entry point (workers/main.ts) as a separate OS process, ready once it logs "worker running". */
export async function spawnWorkerProcess(env: Record<string, string>): Promise<{ child: ChildProcess; output(): string; kill(signal: NodeJS.Signals): Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: inject('temporalNamespace'),
      TEMPORAL_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
      WEBHOOK_TEST_ALLOW_LOOPBACK: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = await waitForOutput(child, '"worker running"', 'worker').catch((e: unknown) => {
    child.kill('SIGKILL');
    throw e;
  });
  return {
    child,
    output,
    async kill(signal) {
      child.kill(signal);
      return exited;
    },
  };
}

export type WorkerProcess = Awaited<ReturnType<typeof spawnWorkerProcess>>;

/** Teardown of the tests that spawn worker processes: SIGTERM to each one still running (killed ones are skipped). */
export async function stopLiveWorkers(workers: readonly WorkerProcess[]): Promise<void> {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) await w.kill('SIGTERM');
}

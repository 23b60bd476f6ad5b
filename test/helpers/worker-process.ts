import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

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
  let output = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000);
    const onData = (c: Buffer) => {
      output += c.toString();
      if (output.includes('"worker running"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited early (${code}):\n${output}`));
    });
  });
  return {
    child,
    output: () => output,
    async kill(signal) {
      child.kill(signal);
      return exited;
    },
  };
}

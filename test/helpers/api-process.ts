import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { waitForOutput } from './child-output.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The real API entry point (api/main.ts) as a separate OS process on an ephemeral port of 127.0.0.1, ready once it
 * logs "API listening" (its URL is read from that line). `env` adds DATABASE_URL, STORAGE_DIR and the like.
 */
export async function spawnApiProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output(): string; kill(signal: NodeJS.Signals): Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: inject('temporalNamespace'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listening = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"API listening"|"msg":"API listening"[^\n]*"url":"(http:\/\/[^"]+)"/;
  const { output, exited } = await waitForOutput(child, listening, 'api').catch((e: unknown) => {
    child.kill('SIGKILL');
    throw e;
  });
  const m = listening.exec(output())!;
  return {
    child,
    url: (m[1] ?? m[2])!,
    output,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

export type ApiProcess = Awaited<ReturnType<typeof spawnApiProcess>>;

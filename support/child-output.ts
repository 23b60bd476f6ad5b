import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const KEEP = 256 * 1024;

/**
 * Follows a child's stdout and stderr for its whole life (so it never blocks on a full pipe), keeping the last
 * 256 KiB, and resolves once `marker` appears (a string, or a pattern for a line whose end matters, e.g. a port).
 * Rejects when the child exits first or after `timeoutMs`, a deadline for a child starting on a busy machine.
 */
export async function waitForOutput(
  child: ChildProcess,
  marker: string | RegExp,
  label: string,
  timeoutMs = 120_000,
): Promise<{ output(): string; exited: Promise<number | null> }> {
  let output = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => reject(new Error(`${label} did not start:\n${output.slice(-2000)}`)), timeoutMs);
    const onData = (c: Buffer) => {
      output = (output + c.toString()).slice(-KEEP);
      if (!ready && (typeof marker === 'string' ? output.includes(marker) : marker.test(output))) {
        ready = true;
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`${label} exited early (${code}):\n${output.slice(-2000)}`));
    });
  });
  return { output: () => output, exited };
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * A repository entry point (`workers/main.ts`, `api/main.ts`) as a separate OS process under tsx, with `env` (and
 * PATH and HOME), ready once `marker` appears in its output. `kill` signals it (unless it has exited) and resolves
 * with its exit code.
 */
export async function spawnEntryPoint(
  script: string,
  env: Record<string, string>,
  marker: string | RegExp,
  label: string,
): Promise<{ child: ChildProcess; output(): string; kill(signal: NodeJS.Signals): Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repoRoot,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = await waitForOutput(child, marker, label).catch((e: unknown) => {
    child.kill('SIGKILL');
    throw e;
  });
  return {
    child,
    output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

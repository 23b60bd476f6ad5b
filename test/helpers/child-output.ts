import type { ChildProcess } from 'node:child_process';

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

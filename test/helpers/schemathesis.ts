import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolCacheDir } from '../../adapters/infra/temporal-cli.js';

/**
 * The schemathesis CLI that scripts/setup.sh installs: a virtual environment in the tool cache named after the
 * hash of test/schemathesis/requirements.txt (the same name the setup computes).
 */
export function schemathesisBinary(): string {
  const requirements = fileURLToPath(new URL('../schemathesis/requirements.txt', import.meta.url));
  const hash = createHash('sha256').update(readFileSync(requirements)).digest('hex').slice(0, 12);
  const bin = join(toolCacheDir(), `schemathesis-${hash}`, 'bin', 'schemathesis');
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    throw new Error(`schemathesis is not installed at ${bin}: run bash scripts/setup.sh`);
  }
  return bin;
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Killed because it made no progress (see `stall`). */
  stalled: boolean;
  output: string;
}

/**
 * Runs a program to its end, with stdout and stderr interleaved in `output`. There is no budget for the whole run (a
 * busy machine makes every step slower); the program is killed only when it stops making progress: `stall.lastProgress`
 * (a time in ms, e.g. of the last request the program sent to the server under test) is older than `stall.limitMs`.
 */
export function runProgram(
  file: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stall: { lastProgress: () => number; limitMs: number } },
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    let stalled = false;
    const started = Date.now();
    const watchdog = setInterval(() => {
      if (Date.now() - Math.max(started, opts.stall.lastProgress()) <= opts.stall.limitMs) return;
      stalled = true;
      child.kill('SIGKILL');
    }, 1000);
    child.on('error', (e) => {
      clearInterval(watchdog);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearInterval(watchdog);
      resolve({ code, signal, stalled, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/**
 * The ERRORS and FAILURES sections of schemathesis's output: per operation, each failed check or network error
 * with the response and a curl command that reproduces the request. Empty when there are none.
 */
export function failureSections(output: string): string {
  const kept: string[] = [];
  let keep = false;
  for (const line of output.split('\n')) {
    const section = /^=+ ([A-Z][A-Z ]*[A-Z]) =+$/.exec(line.trim())?.[1];
    if (section) keep = section === 'ERRORS' || section === 'FAILURES';
    if (keep) kept.push(line);
  }
  return kept.join('\n').trim();
}

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
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
  timedOut: boolean;
  output: string;
}

/** Runs a program to its end (or kills it after `timeoutMs`), with stdout and stderr interleaved in `output`. */
export function runProgram(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/** A JUnit report's failed test cases (one per operation): name and the failure text schemathesis wrote. */
export function junitFailures(path: string): Array<{ operation: string; text: string }> {
  if (!existsSync(path)) return [];
  const xml = readFileSync(path, 'utf8');
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#10;/g, '\n').replace(/&#13;/g, '\r').replace(/&amp;/g, '&');
  const out: Array<{ operation: string; text: string }> = [];
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = /\bname="([^"]*)"/.exec(m[1] ?? '')?.[1] ?? '?';
    const body = m[2] ?? '';
    const problems = [...body.matchAll(/<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/g)].map((f) => {
      const message = /\bmessage="([^"]*)"/.exec(f[2] ?? '')?.[1] ?? '';
      return unescape(`${f[1]}: ${message}${f[3] ? `\n${f[3]}` : ''}`).trim();
    });
    if (problems.length) out.push({ operation: unescape(name), text: problems.join('\n') });
  }
  return out;
}

import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Progress } from './progress.js';

/** The newest CLI release that `go install` can build (later ones carry a replace directive). */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';

/** Cache folder for built tools, outside the work tree so every clone reuses it. */
export function toolCacheDir(): string {
  const base = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(base, 'paycore');
}

export function cachedCliPath(): string {
  return join(toolCacheDir(), `temporal-cli-${TEMPORAL_CLI_VERSION}`, 'temporal');
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, progress: Progress): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let lines = 0;
    child.stderr.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (line.startsWith('go: downloading') && ++lines % 25 === 0) progress(`  ... ${lines} Go modules downloaded`);
        else if (line.trim() && !line.startsWith('go: downloading')) progress(`  go: ${line.trim().slice(0, 200)}`);
      }
    });
    const started = Date.now();
    const ticker = setInterval(
      () => progress(`  ... still building the Temporal CLI (${Math.round((Date.now() - started) / 1000)} s)`),
      30_000,
    );
    child.on('error', (e) => {
      clearInterval(ticker);
      reject(e);
    });
    child.on('close', (code) => {
      clearInterval(ticker);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}`));
    });
  });
}

/**
 * Finds the Temporal CLI: TEMPORAL_CLI_PATH, then PATH, then the cache folder; if missing and Go is present,
 * builds it with `go install …@v1.5.1` into the cache folder. Returns null when none of that works (the
 * caller may then fall back to the SDK's own download).
 */
export async function locateTemporalCli(opts: {
  explicitPath?: string | undefined;
  progress: Progress;
  build?: boolean;
}): Promise<string | null> {
  if (opts.explicitPath) {
    if (!isExecutable(opts.explicitPath))
      throw new Error(`TEMPORAL_CLI_PATH is not an executable file: ${opts.explicitPath}`);
    return opts.explicitPath;
  }
  const fromPath = onPath('temporal');
  if (fromPath) return fromPath;
  const cached = cachedCliPath();
  if (isExecutable(cached)) return cached;
  if (opts.build === false) return null;
  const go = onPath('go') ?? (isExecutable('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : null);
  if (!go) return null;
  const binDir = join(cached, '..');
  mkdirSync(binDir, { recursive: true });
  opts.progress(`building the Temporal CLI ${TEMPORAL_CLI_VERSION} with Go into ${binDir} (one time, a few minutes)`);
  const started = Date.now();
  await run(
    go,
    ['install', `${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`],
    { ...process.env, GOBIN: binDir, GOFLAGS: '-mod=mod' },
    opts.progress,
  );
  if (!existsSync(cached)) throw new Error(`go install finished but ${cached} is missing`);
  opts.progress(`Temporal CLI built in ${Math.round((Date.now() - started) / 1000)} s`);
  return cached;
}

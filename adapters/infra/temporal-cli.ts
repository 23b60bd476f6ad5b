import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
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

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function onPath(name: string): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, progress: Progress, what: string): Promise<void> {
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
      () => progress(`  ... still building ${what} (${Math.round((Date.now() - started) / 1000)} s)`),
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
  if (!goBinary()) return null;
  await goInstall({
    what: `the Temporal CLI ${TEMPORAL_CLI_VERSION}`,
    packages: [`${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`],
    binDir: join(cached, '..'),
    expect: [cached],
    progress: opts.progress,
  });
  return cached;
}

/** The Go toolchain: PATH, then /usr/local/go/bin/go; null when there is none. */
export function goBinary(): string | null {
  return onPath('go') ?? (isExecutable('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : null);
}

/**
 * `go install <packages>` into binDir (under the tool cache), at low CPU priority (`nice -n 10` where there is a
 * `nice`: the machine is shared), with a progress line every 30 s; fails unless every path in `expect` exists after.
 */
export async function goInstall(opts: {
  what: string;
  packages: string[];
  binDir: string;
  expect: string[];
  progress: Progress;
}): Promise<void> {
  const go = goBinary();
  if (!go) throw new Error(`no Go toolchain to build ${opts.what} (install Go, https://go.dev/dl/)`);
  mkdirSync(opts.binDir, { recursive: true });
  opts.progress(`building ${opts.what} with Go into ${opts.binDir} (one time, a few minutes)`);
  const started = Date.now();
  const nice = onPath('nice');
  const [cmd, args] = nice
    ? [nice, ['-n', '10', go, 'install', ...opts.packages]]
    : [go, ['install', ...opts.packages]];
  await run(cmd, args, { ...process.env, GOBIN: opts.binDir, GOFLAGS: '-mod=mod' }, opts.progress, opts.what);
  for (const path of opts.expect)
    if (!isExecutable(path)) throw new Error(`go install finished but ${path} is missing`);
  opts.progress(`${opts.what} built in ${Math.round((Date.now() - started) / 1000)} s`);
}

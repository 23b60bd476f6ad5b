import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolCacheDir } from '../../adapters/infra/temporal-cli.js';

/**
 * Temporal's time-skipping test server (io.temporal:temporal-test-server, the server the SDKs' TestWorkflowEnvironment
 * runs) on the JVM, from Maven Central: every jar of test/tools/temporal-test-server.lock.json downloaded, its SHA-256
 * checked, and installed into the tool cache as `temporal-test-server-<version>-<sha256(lock)[:12]>/` with a launcher
 * `bin/temporal-test-server <port>` that the SDK starts as an `existing-path` executable (its own download of a native
 * build is never used). `scripts/setup.sh --tests` runs this file; test/helpers/time-skipping.ts finds the launcher.
 */

interface Artifact {
  group: string;
  artifact: string;
  version: string;
  sha256: string;
  size: number;
}

interface Lock {
  version: string;
  repository: string;
  mainClass: string;
  artifacts: Artifact[];
}

const LOCK_PATH = fileURLToPath(new URL('./temporal-test-server.lock.json', import.meta.url));

function readLock(): { lock: Lock; hash: string } {
  const text = readFileSync(LOCK_PATH);
  return {
    lock: JSON.parse(text.toString('utf8')) as Lock,
    hash: createHash('sha256').update(text).digest('hex').slice(0, 12),
  };
}

/** The install folder the lock names (whether or not it is installed). */
export function testServerDir(): string {
  const { lock, hash } = readLock();
  return join(toolCacheDir(), `temporal-test-server-${lock.version}-${hash}`);
}

/** The launcher of an installed test server; throws with the command to run when it is not installed. */
export function testServerLauncher(): string {
  const launcher = join(testServerDir(), 'bin', 'temporal-test-server');
  try {
    accessSync(launcher, constants.X_OK);
  } catch {
    throw new Error(
      `Temporal's time-skipping test server is not installed at ${launcher}: run bash scripts/setup.sh --tests`,
    );
  }
  return launcher;
}

function jarUrl(repository: string, a: Artifact): string {
  return `${repository}/${a.group.replaceAll('.', '/')}/${a.artifact}/${a.version}/${a.artifact}-${a.version}.jar`;
}

async function download(url: string, attempts = 3): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return Buffer.from(await response.arrayBuffer());
    } catch (e) {
      if (attempt >= attempts) throw new Error(`${url}: ${(e as Error).message}`);
    }
  }
}

/** Installs the test server once (a marker file says it is complete; the folder appears by one rename). */
export async function installTestServer(progress: (line: string) => void): Promise<string> {
  const { lock } = readLock();
  const dir = testServerDir();
  if (existsSync(join(dir, '.paycore-installed'))) {
    progress(`Temporal test server ${lock.version} (time-skipping workflow tests) is installed`);
    return dir;
  }
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      'no java on PATH: the time-skipping test server runs on a JVM (apt-get install default-jre-headless)',
    );
  }
  const total = lock.artifacts.reduce((sum, a) => sum + a.size, 0);
  progress(
    `installing Temporal's time-skipping test server ${lock.version} from Maven Central into ${dir} (${lock.artifacts.length} jars, ${(total / 1e6).toFixed(0)} MB, one time)`,
  );
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'lib'), { recursive: true });
  mkdirSync(join(staging, 'bin'), { recursive: true });
  try {
    let done = 0;
    for (const a of lock.artifacts) {
      const body = await download(jarUrl(lock.repository, a));
      const actual = createHash('sha256').update(body).digest('hex');
      if (actual !== a.sha256)
        throw new Error(
          `${a.group}:${a.artifact}:${a.version}: SHA-256 ${actual} does not match the lock (${a.sha256})`,
        );
      writeFileSync(join(staging, 'lib', `${a.group}__${a.artifact}-${a.version}.jar`), body);
      if (++done % 10 === 0 || done === lock.artifacts.length)
        progress(`  ${done}/${lock.artifacts.length} jars checked`);
    }
    const launcher = join(staging, 'bin', 'temporal-test-server');
    // The SDK starts it as `<launcher> <port> [extra args]`; the class path is the folder's own lib/ wherever it lives.
    writeFileSync(
      launcher,
      `#!/bin/sh\n# Temporal's time-skipping test server ${lock.version} (test/tools/temporal-test-server.ts)\n` +
        `here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)\n` +
        `exec java -Xss1m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$here/lib/*" ${lock.mainClass} "$@"\n`,
    );
    chmodSync(launcher, 0o755);
    writeFileSync(join(staging, '.paycore-installed'), `${new Date().toISOString()}\n`);
    mkdirSync(toolCacheDir(), { recursive: true });
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  progress(`Temporal test server ${lock.version} installed (every jar's SHA-256 checked)`);
  return dir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  installTestServer((line) => process.stderr.write(`[paycore] ${line}\n`)).catch((e: unknown) => {
    process.stderr.write(`[paycore] ${(e as Error).message}\n`);
    process.exit(1);
  });
}

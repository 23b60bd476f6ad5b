import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import net from 'node:net';
import { join, resolve } from 'node:path';

/**
 * Where the servers of a test run (test/global-setup.ts) or a benchmark (bench/lib/bench-infrastructure.ts) live. A
 * run reuses what is configured (DATABASE_URL, TEMPORAL_ADDRESS, or a server answering on an explicitly set
 * EMBEDDED_PG_PORT / TEMPORAL_DEV_PORT). Whatever it has to start itself it starts on free ports (unless a port is set
 * explicitly) with its data under DATA_DIR/<purpose> (`test` or `bench`), never on the default ports of
 * `scripts/start.sh` and never in the platform's own data folders. So a run and a running platform (or a run in
 * another clone) never meet on a port or a data directory, and a run never reuses, or stops, a server it did not start.
 *
 * One run per DATA_DIR and purpose at a time: DATA_DIR/<purpose>/owner holds the pid of the run using it. A run that
 * finds the owner dead (a killed run) first stops the servers that run left behind, found by their data directory.
 */
export type ServerPurpose = 'test' | 'bench';

export interface ServerPlan {
  /** The servers' data directory (DATA_DIR/<purpose>). */
  dir: string;
  /** True when a port is chosen here (free now, so worth another try if a server could not bind it). */
  choosesPorts: boolean;
  /** Environment overrides for loadConfig: DATA_DIR and fresh free ports for the servers the run starts itself. */
  overrides(): Promise<Record<string, string>>;
  /** Releases the ownership of `dir` (after the servers were stopped). */
  release(): void;
}

const explicit = (env: NodeJS.ProcessEnv, name: string): boolean => (env[name] ?? '').trim() !== '';

/** A port nothing listens on right now (the kernel's choice for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The command line of a process (Linux /proc), or '' when it cannot be read. */
const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

async function waitForExit(pid: number, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`${what} (pid ${pid}) did not stop within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Stops the PostgreSQL and Temporal servers a killed run left running on `dir`: the postmaster named in
 * `dir/postgres/postmaster.pid`, and Temporal dev servers whose command line names `dir/temporal`. Both are checked
 * against their command line first, so a recycled pid is never signalled.
 */
async function stopLeftovers(dir: string, progress: (m: string) => void): Promise<void> {
  const pgData = join(dir, 'postgres');
  const pidFile = join(pgData, 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (Number.isInteger(pid) && pid > 0 && alive(pid) && commandLine(pid).includes(pgData)) {
      progress(`stopping the PostgreSQL server a killed run left running (pid ${pid})`);
      process.kill(pid, 'SIGINT'); // fast shutdown
      await waitForExit(pid, 'the left-over PostgreSQL server');
    }
  }
  const temporalData = join(dir, 'temporal');
  if (!existsSync('/proc')) return;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const cmd = commandLine(pid);
    if (cmd.includes('start-dev') && cmd.includes(temporalData)) {
      progress(`stopping the Temporal dev server a killed run left running (pid ${pid})`);
      process.kill(pid, 'SIGTERM');
      await waitForExit(pid, 'the left-over Temporal dev server');
    }
  }
}

/** Takes DATA_DIR/<purpose> for this run: refused while another live run holds it; a dead run's servers are stopped. */
async function takeOwnership(dir: string, purpose: ServerPurpose, progress: (m: string) => void): Promise<() => void> {
  mkdirSync(dir, { recursive: true });
  const ownerFile = join(dir, 'owner');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(ownerFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number(readFileSync(ownerFile, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new Error(
          `another ${purpose} run (pid ${owner}) is using ${dir}; wait for it, or give this run its own DATA_DIR`,
        );
      }
      rmSync(ownerFile, { force: true }); // its run is gone
      continue;
    }
    // Ours now: whatever still runs on this directory was left by a run that was killed.
    await stopLeftovers(dir, progress);
    return () => rmSync(ownerFile, { force: true });
  }
  throw new Error(`could not take ${ownerFile}`);
}

/**
 * Plans the servers of a test run or a benchmark (see the module comment). `env` is the process environment; the returned
 * overrides go on top of it.
 */
export async function planServers(
  env: NodeJS.ProcessEnv,
  purpose: ServerPurpose,
  progress: (m: string) => void,
): Promise<ServerPlan> {
  const dataDir = env['DATA_DIR']?.trim() || 'var';
  const dir = resolve(dataDir, purpose);
  const startsPostgres = !explicit(env, 'DATABASE_URL');
  const startsTemporal = !explicit(env, 'TEMPORAL_ADDRESS');
  const release = startsPostgres || startsTemporal ? await takeOwnership(dir, purpose, progress) : () => undefined;
  const chosen = [
    startsPostgres && !explicit(env, 'EMBEDDED_PG_PORT') ? 'EMBEDDED_PG_PORT' : null,
    startsTemporal && !explicit(env, 'TEMPORAL_DEV_PORT') ? 'TEMPORAL_DEV_PORT' : null,
    startsTemporal && !explicit(env, 'TEMPORAL_UI_PORT') ? 'TEMPORAL_UI_PORT' : null,
  ].filter((name): name is string => name !== null);
  return {
    dir,
    choosesPorts: chosen.length > 0,
    async overrides() {
      const out: Record<string, string> = { DATA_DIR: dir };
      const taken = new Set<number>();
      for (const name of chosen) {
        let port = await freePort();
        while (taken.has(port)) port = await freePort();
        taken.add(port);
        out[name] = String(port);
      }
      return out;
    },
    release,
  };
}

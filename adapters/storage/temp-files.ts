import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logging/logger.js';

/**
 * Temporary files of the file store (an upload being received, a result being written) and how the ones of a dead
 * process are found (docs/operations.md, "Temporary files"). Every such file is named after the process writing it:
 * `t.<host key>.<pid>.<token>-<random>` in STORAGE_DIR/tmp, where the host key identifies the machine's boot and PID
 * namespace (so a pid means the same process to every reader with the same key) and the token is random per process
 * start (so a later process with the same pid, e.g. a restarted container's pid 1, is not mistaken for the writer).
 * Several API and worker processes, on one machine or several sharing the folder, may write there at once: a file is
 * removed only when its writer is known to be gone (same host key, pid not running or running as another process
 * start), or, when that cannot be known (another machine), once it has not changed for `STALE_TEMP_MS`, longer than
 * any live request can leave it untouched.
 */

/** How long a temporary file of a process that cannot be checked (another machine) must be untouched to be removed. */
export const STALE_TEMP_MS = 60 * 60 * 1000;

/** A process's start, as it names its temporary files. */
export interface TempOwner {
  /** The machine's boot and PID namespace, hashed; null where they cannot be read (then only age decides). */
  hostKey: string | null;
  pid: number;
  token: string;
}

function readHostKey(): string | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const pidNamespace = readlinkSync('/proc/self/ns/pid');
    return createHash('sha256').update(`${boot}\n${pidNamespace}`).digest('hex').slice(0, 12);
  } catch {
    return null;
  }
}

/** This process. */
export const SELF: TempOwner = { hostKey: readHostKey(), pid: process.pid, token: randomBytes(4).toString('hex') };

const NAME = /^t\.([0-9a-f]{12}|-)\.(\d{1,10})\.([0-9a-f]{8})-[0-9a-f]{16}$/;
/** The names earlier releases gave the same files: `<ms>-<random>`, whoever wrote them. */
const LEGACY_NAME = /^\d{13}-[0-9a-f]{16}$/;

/** A fresh name for a temporary file of `owner` (this process by default). */
export function tempFileName(owner: TempOwner = SELF): string {
  return `t.${owner.hostKey ?? '-'}.${owner.pid}.${owner.token}-${randomBytes(8).toString('hex')}`;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the writer of the temporary file `name` is certainly gone, as `self` can tell. */
function writerGone(name: string, self: TempOwner, isRunning: (pid: number) => boolean): boolean {
  const m = NAME.exec(name);
  if (!m) return false;
  const [, hostKey, pid, token] = m;
  if (token === self.token && Number(pid) === self.pid && hostKey === (self.hostKey ?? '-')) return false;
  if (self.hostKey === null || hostKey !== self.hostKey) return false;
  // Same boot and PID namespace: the pid is this process (then the file is a previous start's) or it is not running.
  return Number(pid) === self.pid || !isRunning(Number(pid));
}

/**
 * Removes the temporary files in `root`/tmp that no live request can own: those whose writer is gone, and store
 * temporary files (ours or of earlier releases) untouched for `staleMs`. Job folders there (`work-…`, the checkpoints
 * `ckpt-…`) are the jobs' and never touched. Returns what it removed.
 */
export async function sweepAbandonedTemp(
  root: string,
  opts: { now?: number; staleMs?: number; self?: TempOwner; isRunning?: (pid: number) => boolean } = {},
): Promise<{ files: number; bytes: number }> {
  const now = opts.now ?? Date.now();
  const staleMs = opts.staleMs ?? STALE_TEMP_MS;
  const self = opts.self ?? SELF;
  const dir = join(root, 'tmp');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { files: 0, bytes: 0 };
    throw e;
  }
  const removed = { files: 0, bytes: 0 };
  for (const name of names) {
    const ours = NAME.test(name);
    if (!ours && !LEGACY_NAME.test(name)) continue;
    const path = join(dir, name);
    let stat;
    try {
      stat = await lstat(path);
    } catch {
      continue; // renamed into place or removed meanwhile
    }
    if (!stat.isFile()) continue;
    const mine = ours && name.startsWith(`t.${self.hostKey ?? '-'}.${self.pid}.${self.token}-`);
    const gone = ours && writerGone(name, self, opts.isRunning ?? running);
    const stale = !mine && now - stat.mtimeMs > staleMs;
    if (!gone && !stale) continue;
    await rm(path, { force: true });
    removed.files++;
    removed.bytes += stat.size;
  }
  return removed;
}

/** How often a running process sweeps again (a process on the machine died meanwhile; another machine's went stale). */
const SWEEP_EVERY_MS = 5 * 60 * 1000;

/**
 * Sweeps now (resolves once done) and every few minutes until stopped: for the API and worker processes, which both
 * write temporary files into the store.
 */
export async function startTempSweeper(root: string, logger: Logger): Promise<{ stop(): void }> {
  const sweep = async () => {
    try {
      const removed = await sweepAbandonedTemp(root);
      if (removed.files > 0)
        logger.info(removed, 'removed temporary files no live request owns (of processes that are gone)');
    } catch (err) {
      logger.warn({ err }, 'could not sweep the temporary files of the file store');
    }
  };
  await sweep();
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS).unref();
  return { stop: () => clearInterval(timer) };
}

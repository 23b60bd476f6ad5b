import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SELF,
  STALE_TEMP_MS,
  sweepAbandonedTemp,
  tempFileName,
  type TempOwner,
} from '../../../../adapters/storage/temp-files.js';

/**
 * Which temporary files of the file store a sweep removes (issue 28, E25): those whose writer is certainly gone, and
 * store temporary files untouched for an hour; never a file a live process may still write, never a job's folder.
 */
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const HOUR = 60 * 60 * 1000;
const self: TempOwner = { hostKey: 'aaaaaaaaaaaa', pid: 4242, token: '0badcafe' };
/** pids "running" on this machine in these cases. */
const isRunning = (pid: number) => pid === self.pid || pid === 77;

function storeWith(files: Record<string, { ageMs: number; dir?: boolean }>): { root: string; now: number } {
  const root = mkdtempSync(join(tmpdir(), 'temp-sweep-'));
  roots.push(root);
  const now = Date.now();
  for (const [name, { ageMs, dir }] of Object.entries(files)) {
    const path = join(root, 'tmp', name);
    mkdirSync(join(root, 'tmp'), { recursive: true });
    if (dir) mkdirSync(path);
    else writeFileSync(path, 'partial bytes');
    const at = new Date(now - ageMs);
    utimesSync(path, at, at);
  }
  return { root, now };
}

describe('sweeping the temporary files of the file store', () => {
  it('removes the files of a dead process of this machine at once, keeps those of live processes until they go stale', () => {
    const same = (pid: number, token: string) => tempFileName({ hostKey: self.hostKey, pid, token });
    const cases = {
      [tempFileName(self)]: { ageMs: 2 * HOUR, keep: true }, // this process's own: a live request, however slow
      [same(77, '11111111')]: { ageMs: 1000, keep: true }, // another live process here, writing
      [same(77, '22222222')]: { ageMs: STALE_TEMP_MS + 1000, keep: false }, // pid 77 is alive, but nothing live leaves a file an hour
      [same(31337, '33333333')]: { ageMs: 1000, keep: false }, // its process is gone (killed mid-upload)
      [same(self.pid, '44444444')]: { ageMs: 1000, keep: false }, // this pid's previous start (a restarted container's pid 1)
      [tempFileName({ hostKey: 'bbbbbbbbbbbb', pid: 31337, token: '55555555' })]: { ageMs: 1000, keep: true }, // another machine: cannot tell
      [tempFileName({ hostKey: 'bbbbbbbbbbbb', pid: 31337, token: '66666666' })]: {
        ageMs: STALE_TEMP_MS + 1000,
        keep: false,
      },
      [tempFileName({ hostKey: null, pid: 31337, token: '77777777' })]: { ageMs: 1000, keep: true },
      '1795796197097-10bb886ebfb99f85': { ageMs: STALE_TEMP_MS + 1000, keep: false }, // an earlier release's name
      '1795796197098-10bb886ebfb99f86': { ageMs: 1000, keep: true },
    };
    const jobFolders = {
      'ckpt-job_aaaaaaaaaaaaaaaaaaaa': { ageMs: 10 * HOUR, dir: true },
      'work-job_aaaaaaaaaaaaaaaaaaaa': { ageMs: 10 * HOUR, dir: true },
      'notes.txt': { ageMs: 10 * HOUR },
    };
    const { root, now } = storeWith({ ...cases, ...jobFolders });
    return sweepAbandonedTemp(root, { now, self, isRunning }).then((removed) => {
      const left = readdirSync(join(root, 'tmp')).sort();
      const expected = [
        ...Object.entries(cases)
          .filter(([, c]) => c.keep)
          .map(([n]) => n),
        ...Object.keys(jobFolders),
      ].sort();
      expect(left).toEqual(expected);
      expect(removed).toEqual({
        files: Object.values(cases).filter((c) => !c.keep).length,
        bytes: 13 * Object.values(cases).filter((c) => !c.keep).length,
      });
    });
  });

  it("names this process's files after its boot, PID namespace, pid and start, and a store without tmp/ is nothing to sweep", async () => {
    expect(tempFileName()).toMatch(new RegExp(`^t\\.[0-9a-f]{12}\\.${process.pid}\\.${SELF.token}-[0-9a-f]{16}$`));
    expect(tempFileName()).not.toBe(tempFileName());
    const root = mkdtempSync(join(tmpdir(), 'temp-sweep-'));
    roots.push(root);
    expect(await sweepAbandonedTemp(root)).toEqual({ files: 0, bytes: 0 });
  });
});

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planServers, type ServerPlan } from '../../../support/server-plan.js';

const quiet = () => undefined;

describe('planServers (the servers a test run or a bench starts itself)', () => {
  const held: ServerPlan[] = [];
  const dirs: string[] = [];
  const dataDir = () => {
    const d = mkdtempSync(join(os.tmpdir(), 'server-plan-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const p of held.splice(0)) p.release();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('gives a bench free ports (never the platform defaults) and its own folder beside the tests’', async () => {
    const dir = dataDir();
    const bench = await planServers({ DATA_DIR: dir }, 'bench', quiet);
    held.push(bench);
    const tests = await planServers({ DATA_DIR: dir }, 'test', quiet);
    held.push(tests);
    expect(bench.dir).toBe(join(dir, 'bench'));
    expect(tests.dir).toBe(join(dir, 'test'));
    expect(bench.choosesPorts).toBe(true);
    const o = await bench.overrides();
    expect(o['DATA_DIR']).toBe(join(dir, 'bench'));
    const ports = ['EMBEDDED_PG_PORT', 'TEMPORAL_DEV_PORT', 'TEMPORAL_UI_PORT'].map((k) => Number(o[k]));
    expect(new Set(ports).size).toBe(3);
    for (const p of ports) {
      expect(p).toBeGreaterThan(0);
      expect([54329, 7233, 8233]).not.toContain(p);
    }
  });

  it('refuses a bench on a DATA_DIR another live run holds, naming it; takes over a dead run’s', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'bench'), { recursive: true });
    writeFileSync(join(dir, 'bench', 'owner'), String(process.ppid)); // a live process that is not this one
    await expect(planServers({ DATA_DIR: dir }, 'bench', quiet)).rejects.toThrow(
      `another bench run (pid ${process.ppid}) is using ${join(dir, 'bench')}`,
    );
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!; // exited: its pid names no live run
    writeFileSync(join(dir, 'bench', 'owner'), String(dead));
    const plan = await planServers({ DATA_DIR: dir }, 'bench', quiet);
    held.push(plan);
    expect(readFileSync(join(dir, 'bench', 'owner'), 'utf8')).toBe(String(process.pid));
  });

  it('starts nothing itself for configured servers: no port chosen, no folder taken', async () => {
    const dir = dataDir();
    const plan = await planServers(
      { DATA_DIR: dir, DATABASE_URL: 'postgres://u@127.0.0.1:1/x', TEMPORAL_ADDRESS: '127.0.0.1:1' },
      'bench',
      quiet,
    );
    held.push(plan);
    expect(plan.choosesPorts).toBe(false);
    expect(await plan.overrides()).toEqual({ DATA_DIR: join(dir, 'bench') });
  });
});

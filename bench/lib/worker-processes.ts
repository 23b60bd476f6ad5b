import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stderrProgress as progress } from '../../adapters/infra/progress.js';
import type { RunLifecycle } from './lifecycle.js';

/** What a bench reads from one of its worker processes while it runs: peak RSS, and CPU time used so far. */
export interface WorkerProcessState {
  pid: number;
  peakRss: number;
  /** User + system CPU time of the process so far (its last report, every 250 ms), in microseconds. */
  cpuMicros: number;
}

/**
 * N worker processes (bench/lib/worker-process.ts) on the bench's task queue, each ready (polling) before this returns;
 * stopped by the clean-up. `storageDir` makes them run /v1 jobs too (the file-operation runners on that store).
 */
export async function startWorkerProcesses(
  run: RunLifecycle,
  n: number,
  o: {
    code: string;
    databaseUrl: string;
    temporalAddress: string;
    taskQueue: string;
    secretsKey: string;
    storageDir?: string;
  },
): Promise<WorkerProcessState[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-worker-'));
  run.defer('remove the bundle', () => rm(dir, { recursive: true, force: true }));
  const bundlePath = join(dir, 'workflows.js');
  await writeFile(bundlePath, o.code);
  const script = fileURLToPath(new URL('./worker-process.ts', import.meta.url));
  progress(`starting ${n} worker process(es)`);
  return Promise.all(
    Array.from({ length: n }, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        env: {
          ...process.env,
          BENCH_DATABASE_URL: o.databaseUrl,
          BENCH_TEMPORAL_ADDRESS: o.temporalAddress,
          BENCH_TASK_QUEUE: o.taskQueue,
          BENCH_BUNDLE_PATH: bundlePath,
          BENCH_SECRETS_KEY: o.secretsKey,
          ...(o.storageDir ? { BENCH_STORAGE_DIR: o.storageDir } : {}),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      run.defer(`stop worker process ${child.pid}`, async () => {
        child.kill('SIGTERM');
        await exited;
      });
      const state: WorkerProcessState = { pid: child.pid ?? 0, peakRss: 0, cpuMicros: 0 };
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line === 'ready') resolve();
          const m = /^rss (\d+) cpu (\d+)$/.exec(line);
          if (m) {
            state.peakRss = Math.max(state.peakRss, Number(m[1]));
            state.cpuMicros = Number(m[2]);
          }
        });
        void exited.then(() => reject(new Error(`worker process ${child.pid} exited before it was ready`)));
      });
      return state;
    }),
  );
}

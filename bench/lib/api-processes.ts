import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Progress } from '../../adapters/infra/progress.js';
import type { RunLifecycle } from './lifecycle.js';

/** A free TCP port on 127.0.0.1 (bound, read and released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * `n` API processes as production runs them (`api/main.ts`: its own pool, logger and rate-limit reservations, the
 * composition of api/deps.ts), on 127.0.0.1 and free ports, all on the database `databaseUrl`, with `env` as their
 * environment (the limits and payment settings of the in-process app of the benchmark). Their stdout (log lines) goes
 * to /dev/null, as a deployment writes lines to a collector; stderr is kept for a failure message. Each answers
 * `readyPath` with 200 before this resolves; they are stopped (SIGTERM, then SIGKILL) by `run` at the end.
 */
export async function startApiProcesses(
  opts: { n: number; databaseUrl: string; env: Record<string, string | undefined>; readyPath: string },
  progress: Progress,
  run: RunLifecycle,
): Promise<string[]> {
  const main = fileURLToPath(new URL('../../api/main.ts', import.meta.url));
  const tsx = fileURLToPath(import.meta.resolve('tsx/cli'));
  const urls: string[] = [];
  const children: ChildProcess[] = [];
  for (let i = 0; i < opts.n; i++) {
    const port = await freePort();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({
      ...opts.env,
      DATABASE_URL: opts.databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      TEMPORAL_ADDRESS: 'unused-by-bench:7233',
    })) {
      if (v !== undefined) env[k] = v;
    }
    const child = spawn(process.execPath, [tsx, main], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-2000)));
    children.push(child);
    run.defer(`stop API process ${i + 1}`, async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      run.signal.throwIfAborted();
      if (child.exitCode !== null)
        throw new Error(`API process ${i + 1} exited (${child.exitCode}): ${stderr.trim().slice(-500)}`);
      const ok = await fetch(`${url}${opts.readyPath}`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline)
        throw new Error(
          `API process ${i + 1} did not answer ${opts.readyPath} within 60 s: ${stderr.trim().slice(-500)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    progress(`API process ${i + 1}/${opts.n} (pid ${child.pid}) listening on ${url}`);
    urls.push(url);
  }
  return urls;
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_NAMES } from '../../domain/search-attributes.js';
import { isPortOpen, waitFor } from './net.js';
import type { Progress } from './progress.js';

export interface TemporalServerHandle {
  address: string;
  uiUrl: string | null;
  started: boolean;
  /** Stops the server this call started (SIGTERM, SIGKILL after 10 s); `SIGKILL` kills it at once, as a crash would. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

async function temporalAnswers(address: string): Promise<boolean> {
  try {
    const connection = await Connection.connect({ address, connectTimeout: 2000 });
    try {
      await connection.healthService.check({});
      return true;
    } finally {
      await connection.close();
    }
  } catch {
    return false;
  }
}

/** `IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD` (the enum is not a named export of @temporalio/proto under Node's ESM loader). */
const KEYWORD = 2 as temporal.api.enums.v1.IndexedValueType;

/**
 * Registers the platform's custom search attributes (domain/search-attributes.ts, all Keyword) on the namespace of a
 * server that lacks them: a dev server started before they existed, or the SDK-downloaded one. Idempotent.
 */
export async function ensureSearchAttributes(address: string, namespace: string): Promise<string[]> {
  const connection = await Connection.connect({ address });
  try {
    const have = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = SEARCH_ATTRIBUTE_NAMES.filter((n) => !(n in (have.customAttributes ?? {})));
    if (missing.length) {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map((n) => [n, KEYWORD])),
      });
    }
    return missing;
  } finally {
    await connection.close();
  }
}

/**
 * Starts `temporal server start-dev` with a SQLite file under dataDir and the Web UI, or reuses a Temporal
 * server already answering on the port.
 */
export async function startTemporalDevServer(opts: {
  cliPath: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  progress: Progress;
}): Promise<TemporalServerHandle> {
  const address = `127.0.0.1:${opts.port}`;
  const uiUrl = `http://127.0.0.1:${opts.uiPort}`;
  if (await isPortOpen('127.0.0.1', opts.port)) {
    if (await temporalAnswers(address)) {
      opts.progress(`reusing Temporal server already running on ${address}`);
      const added = await ensureSearchAttributes(address, opts.namespace);
      if (added.length) opts.progress(`registered search attributes ${added.join(', ')}`);
      return { address, uiUrl, started: false, stop: async () => undefined };
    }
    throw new Error(`port ${opts.port} is taken by something that is not a Temporal server; set TEMPORAL_DEV_PORT`);
  }
  const dir = resolve(opts.dataDir);
  mkdirSync(dir, { recursive: true });
  opts.progress(`starting Temporal dev server on ${address} (Web UI ${uiUrl})`);
  const child: ChildProcess = spawn(
    opts.cliPath,
    [
      'server',
      'start-dev',
      '--db-filename',
      resolve(dir, 'temporal.sqlite'),
      // SQLite's defaults (a rollback journal, fsync on every commit) cap the dev server at about 20 workflows a
      // second on a 2-core machine; a write-ahead log synced at checkpoints runs about 3x more (bench/README.md,
      // webhooks). A crashed process loses nothing; a power cut may lose the last commits, fine for a dev server.
      '--sqlite-pragma',
      'journal_mode=wal',
      '--sqlite-pragma',
      'synchronous=normal',
      // An activity a workflow task schedules goes back to the worker in the task's answer instead of through a poll.
      '--dynamic-config-value',
      'system.enableActivityEagerExecution=true',
      '--ip',
      '127.0.0.1',
      '--port',
      String(opts.port),
      '--ui-port',
      String(opts.uiPort),
      '--namespace',
      opts.namespace,
      '--log-level',
      'error',
      ...SEARCH_ATTRIBUTE_NAMES.flatMap((n) => ['--search-attribute', `${n}=Keyword`]),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  let dead = false;
  void exited.then(() => (dead = true));
  await waitFor(
    async () => {
      if (dead) throw new Error(`temporal server exited early: ${stderr.trim().slice(-1000)}`);
      return (await isPortOpen('127.0.0.1', opts.port)) && temporalAnswers(address);
    },
    120_000,
    'the Temporal dev server',
  );
  await ensureSearchAttributes(address, opts.namespace);
  opts.progress('Temporal dev server is ready');
  return {
    address,
    uiUrl,
    started: true,
    async stop(signal = 'SIGTERM') {
      if (dead) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Last resort on a machine without Go: the SDK downloads a CLI build (needs internet). */
export async function startSdkDownloadedServer(opts: {
  namespace: string;
  progress: Progress;
}): Promise<TemporalServerHandle> {
  opts.progress('no Temporal CLI and no Go: asking the Temporal SDK to download a dev server (needs internet)');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({ server: { namespace: opts.namespace } });
  const address = env.address;
  await ensureSearchAttributes(address, opts.namespace);
  return { address, uiUrl: null, started: true, stop: () => env.teardown() };
}

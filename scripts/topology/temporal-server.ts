import { join } from 'node:path';
import { goInstall, isExecutable, toolCacheDir } from '../../adapters/infra/temporal-cli.js';
import type { Progress } from '../../adapters/infra/progress.js';

/**
 * The Temporal server of the production topology check, built from its Go module at the version docker-compose.yml
 * runs (`temporalio/server:<version>` and `temporalio/admin-tools:<version>-…`; test/unit/deploy/topology-compose.test.ts
 * keeps the two in step).
 */
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
export const TEMPORAL_SERVER_MODULE = 'go.temporal.io/server';

export interface TemporalServerTools {
  /** `server` from go.temporal.io/server/cmd/server. */
  server: string;
  /** `temporal-sql-tool`, built from go.temporal.io/server/cmd/tools/sql (its binary is named `sql`). */
  sqlTool: string;
}

function binDir(): string {
  return join(toolCacheDir(), `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}

export function cachedServerTools(): TemporalServerTools {
  return { server: join(binDir(), 'server'), sqlTool: join(binDir(), 'sql') };
}

/** The built server and sql tool from the tool cache, building both (one `go install`) when either is missing. */
export async function locateTemporalServer(progress: Progress): Promise<TemporalServerTools> {
  const tools = cachedServerTools();
  if (isExecutable(tools.server) && isExecutable(tools.sqlTool)) return tools;
  await goInstall({
    what: `the Temporal server and temporal-sql-tool ${TEMPORAL_SERVER_VERSION}`,
    packages: [
      `${TEMPORAL_SERVER_MODULE}/cmd/server@${TEMPORAL_SERVER_VERSION}`,
      `${TEMPORAL_SERVER_MODULE}/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
    ],
    binDir: binDir(),
    expect: [tools.server, tools.sqlTool],
    progress,
  });
  return tools;
}

import { inject } from 'vitest';
import { spawnEntryPoint } from '../../support/child-output.js';

const LISTENING =
  /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"API listening"|"msg":"API listening"[^\n]*"url":"(http:\/\/[^"]+)"/;

/**
 * The real API entry point (api/main.ts) as a separate OS process on an ephemeral port of 127.0.0.1, ready once it
 * logs "API listening" (its URL is read from that line). `env` adds DATABASE_URL, STORAGE_DIR and the like.
 */
export async function spawnApiProcess(env: Record<string, string>) {
  const api = await spawnEntryPoint(
    'api/main.ts',
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: inject('temporalNamespace'),
      ...env,
    },
    LISTENING,
    'api',
  );
  const m = LISTENING.exec(api.output())!;
  return { ...api, url: (m[1] ?? m[2])! };
}

export type ApiProcess = Awaited<ReturnType<typeof spawnApiProcess>>;

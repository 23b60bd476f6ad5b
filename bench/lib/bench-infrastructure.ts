import { stderrProgress as progress } from '../../adapters/infra/progress.js';
import { ensureInfrastructure, type Infrastructure } from '../../cli/infrastructure.js';
import { loadConfig, type Config } from '../../config/schema.js';
import { planServers } from '../../support/server-plan.js';
import type { RunLifecycle } from './lifecycle.js';

/** Never dialled: keeps ensureInfrastructure from starting Temporal for a bench that needs only PostgreSQL. */
const NO_TEMPORAL = 'unused-by-this-bench:7233';

/**
 * A benchmark's PostgreSQL and Temporal, as a test run gets them (support/server-plan.ts): configured servers
 * (DATABASE_URL, TEMPORAL_ADDRESS, or an explicitly set port) are reused; the ones it starts itself get free ports and
 * their data in DATA_DIR/bench, so a bench never meets a running platform, a test run or another clone's bench on a
 * port, and never stops a server it did not start. One bench per DATA_DIR at a time (a second is refused, naming the
 * first). `env` is the bench's environment (process.env and its own settings); the config returned is loaded from it
 * with the planned ports. Stopping the servers and releasing DATA_DIR/bench are deferred on `run`.
 */
export async function benchInfrastructure(
  run: RunLifecycle,
  env: Record<string, string | undefined>,
  opts: { temporal?: boolean } = {},
): Promise<{ config: Config; infra: Infrastructure }> {
  const temporal = opts.temporal ?? true;
  const planned = temporal ? env : { ...env, TEMPORAL_ADDRESS: env['TEMPORAL_ADDRESS']?.trim() || NO_TEMPORAL };
  const plan = await planServers(planned, 'bench', progress);
  let released = false;
  const release = () => {
    if (!released) plan.release();
    released = true;
  };
  try {
    for (let attempt = 1; ; attempt++) {
      const config = loadConfig({ ...env, ...(await plan.overrides()) });
      const forInfra: Config = temporal
        ? config
        : { ...config, temporal: { ...config.temporal, address: config.temporal.address ?? NO_TEMPORAL } };
      try {
        const infra = await ensureInfrastructure(forInfra, progress, { fsync: false });
        run.defer('stop infrastructure', async () => {
          try {
            await infra.stop();
          } finally {
            release();
          }
        });
        return { config, infra };
      } catch (e) {
        // A port that was free a moment ago may have been taken before the server bound it: new ports, up to 3 tries.
        if (!plan.choosesPorts || attempt >= 3) throw e;
        progress(`bench servers did not start (${String(e).slice(0, 200)}); trying other free ports`);
      }
    }
  } catch (e) {
    release();
    throw e;
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { locateTemporalCli } from '../../adapters/infra/temporal-cli.js';
import { startTemporalDevServer, type TemporalServerHandle } from '../../adapters/infra/temporal-dev-server.js';
import { freePort } from './own-postgres.js';

/**
 * A Temporal dev server of one test file's own (NOT the run's shared server from test/global-setup.ts, which other
 * files use): its own SQLite file in a temporary folder and free ephemeral ports, so the test can kill it under a
 * running app and worker and start it again on the same data (what it had committed survives, as after a crash).
 */
export class OwnTemporal {
  private handle: TemporalServerHandle | null = null;

  private constructor(
    private readonly root: string,
    private readonly cliPath: string,
    readonly port: number,
    private readonly uiPort: number,
  ) {}

  static async start(): Promise<OwnTemporal> {
    const cli = await locateTemporalCli({ progress: () => undefined, build: false });
    if (!cli) throw new Error('no Temporal CLI: run scripts/setup.sh --tests');
    const own = new OwnTemporal(
      mkdtempSync(join(tmpdir(), 'paycore-own-temporal-')),
      cli,
      await freePort(),
      await freePort(),
    );
    await own.up();
    return own;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The run's namespace (the one the workers and gateways of the tests use). */
  get namespace(): string {
    return inject('temporalNamespace');
  }

  /** Starts the server (again) on the same data file and port; resolves once it answers. */
  async up(): Promise<void> {
    this.handle = await startTemporalDevServer({
      cliPath: this.cliPath,
      dataDir: join(this.root, 'temporal'),
      port: this.port,
      uiPort: this.uiPort,
      namespace: this.namespace,
      progress: () => undefined,
    });
    if (!this.handle.started) throw new Error(`something else already answers on port ${this.port}`);
  }

  /** SIGKILL, as a crash: no connection is closed cleanly. Resolves once the process has exited. */
  async kill(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    await h?.stop('SIGKILL');
  }

  async remove(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    await h?.stop();
    rmSync(this.root, { recursive: true, force: true });
  }
}

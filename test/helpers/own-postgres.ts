import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../adapters/infra/embedded-postgres.js';
import { freePort } from '../../support/server-plan.js';

/** A free loopback TCP port (support/server-plan.ts), for the helpers and tests that start their own servers. */
export { freePort };

/**
 * A PostgreSQL server of one test file's own (NOT the run's shared server from test/global-setup.ts, which other
 * files use): its own temporary data folder and a free ephemeral port, so the test can stop it under a running
 * app and start it again.
 */
export class OwnPostgres {
  private handle: EmbeddedPostgresHandle | null = null;

  private constructor(
    private readonly root: string,
    readonly port: number,
  ) {}

  static async start(): Promise<OwnPostgres> {
    const own = new OwnPostgres(mkdtempSync(join(tmpdir(), 'paycore-own-pg-')), await freePort());
    await own.up();
    return own;
  }

  /** URL of the `paycore` database on this server. */
  get url(): string {
    return `postgres://postgres:paycore-embedded@127.0.0.1:${this.port}/paycore`;
  }

  /** Starts the server (again) on the same data folder and port. */
  async up(): Promise<void> {
    this.handle = await startEmbeddedPostgres({
      dataDir: join(this.root, 'data'),
      port: this.port,
      database: 'paycore',
      progress: () => undefined,
      fsync: false,
    });
    if (!this.handle.started) throw new Error(`something else already answers on port ${this.port}`);
  }

  /** Fast shutdown (SIGINT): sessions are terminated and their open transactions rolled back; waits for the exit. */
  async down(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    await h?.stop();
  }

  async remove(): Promise<void> {
    await this.down();
    rmSync(this.root, { recursive: true, force: true });
  }
}

// Applies pending migrations to DATABASE_URL (or the embedded server). Safe to run repeatedly.
import { loadConfig } from '../config/schema.js';
import { stderrProgress } from '../adapters/infra/progress.js';
import { startEmbeddedPostgres } from '../adapters/infra/embedded-postgres.js';
import { createDb } from '../db/connection.js';
import { migrateLatest } from '../db/migrate.js';
import { join } from 'node:path';

const config = loadConfig();
const pg = config.database.url
  ? null
  : await startEmbeddedPostgres({
      dataDir: join(config.dataDir, 'postgres'),
      port: config.database.embeddedPort,
      database: 'paycore',
      progress: stderrProgress,
    });
const db = createDb(config.database.url ?? pg!.url, {
  applicationName: 'paycore-migrate',
  timeouts: config.database.timeouts,
});
const applied = await migrateLatest(db);
stderrProgress(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
await db.destroy();
await pg?.stop();

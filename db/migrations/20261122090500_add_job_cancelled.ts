import type { Knex } from 'knex';

export const name = '20261122090500_add_job_cancelled';

/**
 * A queued job its company cancels ends `cancelled` (terminal; its reservation released once, in the same
 * transaction). `GET /v1/jobs` lists a company's jobs newest first: an index on (company_id, created_at, id).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE jobs DROP CONSTRAINT jobs_status_check');
  await db.raw(
    "ALTER TABLE jobs ADD CONSTRAINT jobs_status_check CHECK (status IN ('queued', 'processing', 'completed', 'failed', 'cancelled'))",
  );
  await db.raw('CREATE INDEX jobs_company_newest ON jobs (company_id, created_at DESC, id DESC)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS jobs_company_newest');
  await db.raw('ALTER TABLE jobs DROP CONSTRAINT jobs_status_check');
  await db.raw(
    "ALTER TABLE jobs ADD CONSTRAINT jobs_status_check CHECK (status IN ('queued', 'processing', 'completed', 'failed'))",
  );
}

import type { Knex } from 'knex';

export const name = '20261122020200_create_jobs';

/**
 * Asynchronous jobs of the processing interface. `status = 'processing'` is the scheduler's slot: a partial
 * unique index allows one per company, and claims take a transaction-level advisory lock so the platform-wide
 * limit holds across worker processes. Passwords of pdf-protect/pdf-unlock are kept sealed (AES-GCM) in
 * `secret_sealed` only while the job is unfinished. Result and source bytes are purged after retention;
 * the rows (the accounting records) stay.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('jobs', (t) => {
    t.text('id').primary();
    t.text('company_id').notNullable().references('companies.id');
    /** The API key that submitted the job (its member is the job's creator). */
    t.text('api_key_id').notNullable();
    t.text('operation').notNullable();
    t.specificType('upload_ids', 'text[]').notNullable();
    /** Options as submitted, without secrets. */
    t.jsonb('options').notNullable();
    t.text('secret_sealed').nullable();
    t.integer('quoted_credits').notNullable();
    t.text('reservation_id').notNullable().references('credit_reservations.id');
    t.text('status')
      .notNullable()
      .defaultTo('queued')
      .checkIn(['queued', 'processing', 'completed', 'failed'], 'jobs_status_check');
    t.text('error_code').nullable();
    t.text('error_message').nullable();
    /** [{name, storage_id, bytes, content_type}] once completed. */
    t.jsonb('result_files').nullable();
    /** Slot claims so far (1 + the number of provider outages). */
    t.integer('attempts').notNullable().defaultTo(0);
    /** While queued after a provider outage: not eligible for a slot before this time. */
    t.timestamp('retry_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.timestamp('results_expire_at', { useTz: true }).nullable();
    t.timestamp('results_purged_at', { useTz: true }).nullable();
    t.timestamp('deleted_at', { useTz: true }).nullable();
    t.index(['company_id', 'status']);
    t.index(['status', 'created_at']);
  });
  await db.raw("CREATE UNIQUE INDEX jobs_one_processing_per_company ON jobs (company_id) WHERE status = 'processing'");
  await db.raw('CREATE INDEX jobs_upload_ids ON jobs USING gin (upload_ids)');
  await db.raw(
    'CREATE INDEX jobs_results_expiry ON jobs (results_expire_at) WHERE results_purged_at IS NULL AND result_files IS NOT NULL',
  );
  await db.raw(
    "ALTER TABLE jobs ADD CONSTRAINT jobs_secret_only_while_unfinished CHECK (secret_sealed IS NULL OR status IN ('queued', 'processing'))",
  );

  await db.schema.alterTable('uploads', (t) => {
    /** Set when retention removed the bytes (the row stays; quoting it answers 410). */
    t.timestamp('purged_at', { useTz: true }).nullable();
    t.index(['expires_at'], 'uploads_expiry');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('uploads', (t) => {
    t.dropIndex(['expires_at'], 'uploads_expiry');
    t.dropColumn('purged_at');
  });
  await db.schema.dropTable('jobs');
}

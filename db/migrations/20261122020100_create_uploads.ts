import type { Knex } from 'knex';

export const name = '20261122020100_create_uploads';

/** Uploaded sources of the processing interface, measured by the server; the bytes live in the file store. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('uploads', (t) => {
    t.text('id').primary();
    t.text('company_id').notNullable().references('companies.id');
    /** The client's file name, for display only (never a path). */
    t.text('filename').notNullable();
    t.text('kind').notNullable().checkIn(['pdf', 'image', 'text', 'audio', 'video'], 'uploads_kind_check');
    t.text('mime_type').notNullable();
    t.bigInteger('bytes').notNullable();
    t.integer('pages').notNullable();
    t.double('duration_seconds').nullable();
    t.boolean('encrypted').notNullable().defaultTo(false);
    t.text('sha256').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('deleted_at', { useTz: true }).nullable();
    t.index(['company_id', 'deleted_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('uploads');
}

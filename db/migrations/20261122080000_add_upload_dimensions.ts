import type { Knex } from 'knex';

export const name = '20261122080000_add_upload_dimensions';

/**
 * Images are measured at upload: width and height in pixels as displayed (after the EXIF orientation), so an
 * `image-edit` crop or an output size can be checked before quoting. Null for other kinds, and for images uploaded
 * before this migration (the estimate then reads the stored file's header).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('uploads', (t) => {
    t.integer('width').nullable();
    t.integer('height').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('uploads', (t) => t.dropColumns('width', 'height'));
}

import type { Knex } from 'knex';

export const name = '20261127120000_add_upload_video_frames';

/**
 * Videos are measured at upload for what they cost to process (docs/processing.md, "Audio and video tools"): the
 * frames of the first moving video stream (`video_frames`, its packets counted by ffprobe), beside its size as
 * displayed in the existing `width` and `height`. The video tools' quote bounds pixels × frames. Null for other kinds,
 * and for videos uploaded before this migration (the quote then measures the stored file).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('uploads', (t) => {
    t.bigInteger('video_frames').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('uploads', (t) => t.dropColumn('video_frames'));
}

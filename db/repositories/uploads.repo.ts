import { UNFINISHED_JOB_STATUSES } from '../../domain/jobs.js';
import type { MeasuredSource } from '../../adapters/media/measure.js';
import type { Db } from '../connection.js';

export interface Upload extends MeasuredSource {
  id: string;
  companyId: string;
  filename: string;
  sha256: string;
  createdAt: Date;
  expiresAt: Date;
  /** When retention removed the bytes (the row stays so a later use answers 410). */
  purgedAt: Date | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const toUpload = (r: any): Upload => ({
  id: r.id,
  companyId: r.company_id,
  filename: r.filename,
  kind: r.kind,
  mimeType: r.mime_type,
  bytes: Number(r.bytes),
  pages: r.pages,
  durationSeconds: r.duration_seconds,
  width: r.width ?? null,
  height: r.height ?? null,
  videoFrames: r.video_frames === null || r.video_frames === undefined ? null : Number(r.video_frames),
  encrypted: r.encrypted,
  sha256: r.sha256,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  purgedAt: r.purged_at ?? null,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

export async function insertUploads(trx: Db, rows: Upload[]): Promise<void> {
  if (rows.length === 0) return;
  await trx('uploads').insert(
    rows.map((u) => ({
      id: u.id,
      company_id: u.companyId,
      filename: u.filename,
      kind: u.kind,
      mime_type: u.mimeType,
      bytes: u.bytes,
      pages: u.pages,
      duration_seconds: u.durationSeconds,
      width: u.width,
      height: u.height,
      video_frames: u.videoFrames,
      encrypted: u.encrypted,
      sha256: u.sha256,
      created_at: u.createdAt,
      expires_at: u.expiresAt,
      purged_at: u.purgedAt,
    })),
  );
}

/** Bytes of a company's live sources (an upload's quota check reads them under the company lock). */
export async function companyStoredBytes(trx: Db, companyId: string): Promise<number> {
  const [row] = await trx('uploads')
    .where({ company_id: companyId })
    .whereNull('deleted_at')
    .whereNull('purged_at')
    .sum<{ sum: string | null }[]>('bytes as sum');
  return Number(row?.sum ?? 0);
}

/** An upload as its list shows it: the record, and how the company's jobs use it. */
export interface ListedUpload extends Upload {
  /** A queued or processing job reads it (it cannot be deleted until that job ends). */
  inUse: boolean;
  /** The company's jobs (not deleted, any state, batch children included) that name it. */
  jobCount: number;
  /** The distinct batches among those jobs. */
  batchCount: number;
}

/**
 * One page of the company's uploads that still hold storage (not deleted, bytes not purged: what counts toward the
 * storage quota), newest first (created_at, then id, descending), strictly after the upload `before` in that order,
 * each with its use by jobs, in one statement. The cursor upload is looked up in the table itself, so a cursor stays
 * valid when its upload is deleted meanwhile.
 */
export async function listUploads(
  db: Db,
  companyId: string,
  limit: number,
  before: string | null,
): Promise<ListedUpload[]> {
  const q = db('uploads as u')
    .joinRaw(
      `LEFT JOIN LATERAL (
         SELECT bool_or(j.status = ANY(?)) AS in_use, count(*) AS job_count, count(DISTINCT j.batch_id) AS batch_count
         FROM jobs j
         WHERE j.company_id = u.company_id AND j.deleted_at IS NULL AND j.upload_ids @> ARRAY[u.id]
       ) used ON true`,
      [UNFINISHED_JOB_STATUSES as string[]],
    )
    .where('u.company_id', companyId)
    .whereNull('u.deleted_at')
    .whereNull('u.purged_at')
    .orderBy([
      { column: 'u.created_at', order: 'desc' },
      { column: 'u.id', order: 'desc' },
    ])
    .limit(limit)
    .select('u.*', 'used.in_use', 'used.job_count', 'used.batch_count');
  if (before)
    q.whereRaw(
      '(u.created_at, u.id) < (SELECT c.created_at, c.id FROM uploads c WHERE c.id = ? AND c.company_id = ?)',
      [before, companyId],
    );
  return (await q).map((r: Record<string, unknown>) => ({
    ...toUpload(r),
    inUse: r['in_use'] === true,
    jobCount: Number(r['job_count'] ?? 0),
    batchCount: Number(r['batch_count'] ?? 0),
  }));
}

/** A live upload of the company (a foreign or deleted id is simply not found). */
export async function getUpload(db: Db, companyId: string, id: string): Promise<Upload | null> {
  const row = await db('uploads').where({ id, company_id: companyId }).whereNull('deleted_at').first();
  return row ? toUpload(row) : null;
}

export async function markUploadDeleted(db: Db, companyId: string, id: string, now: Date): Promise<boolean> {
  return (
    (await db('uploads').where({ id, company_id: companyId }).whereNull('deleted_at').update({ deleted_at: now })) === 1
  );
}

/**
 * Uploads past their retention whose bytes are still stored and that no unfinished job reads (an in-flight
 * source is kept until its job ends).
 */
export async function findExpiredUploads(
  db: Db,
  now: Date,
  limit: number,
): Promise<Array<{ id: string; companyId: string }>> {
  const rows = await db('uploads as u')
    .whereNull('u.deleted_at')
    .whereNull('u.purged_at')
    .where('u.expires_at', '<=', now)
    .whereNotExists(
      db('jobs as j')
        .whereRaw('j.company_id = u.company_id')
        .whereIn('j.status', UNFINISHED_JOB_STATUSES)
        .whereRaw('j.upload_ids @> ARRAY[u.id]'),
    )
    .orderBy('u.expires_at')
    .limit(limit)
    .select('u.id', 'u.company_id');
  return rows.map((r) => ({ id: r.id, companyId: r.company_id }));
}

export async function markUploadPurged(db: Db, id: string, now: Date): Promise<void> {
  await db('uploads').where({ id }).whereNull('purged_at').update({ purged_at: now });
}

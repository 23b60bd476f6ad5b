import { DomainError } from '../../domain/errors.js';
import { newId } from '../../adapters/crypto/tokens.js';
import { measureSource, UnreadableSource, type MeasuredSource } from '../../adapters/media/measure.js';
import type { MediaToolOptions } from '../../adapters/media/av/media-process.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import {
  companyStoredBytes,
  getUpload,
  insertUploads,
  markUploadDeleted,
  type Upload,
} from '../../db/repositories/uploads.repo.js';
import { uploadInUse } from '../../db/repositories/jobs.repo.js';
import { lockCompany } from '../company/company-lock.js';

/*
 * /v1 uploads (sources): storing received files as uploads within the company's storage quota, and deleting an unused
 * one. Receiving the bytes (multipart) is the HTTP interface's; it hands over temporary files.
 */

export interface UploadStoreDeps {
  db: Db;
  store: FileStore;
  limits: {
    /** The company's source storage, in bytes (uploads still holding storage). */
    companyQuotaBytes: number;
    /** Sources are kept this long. */
    retentionDays: number;
  };
  media?: MediaToolOptions | undefined;
  now: () => Date;
}

/** A file received into a temporary file of the store, with its display name, size and SHA-256. */
export interface ReceivedFile {
  filename: string;
  tempPath: string;
  bytes: number;
  sha256: string;
}

/**
 * Stores received files as the company's uploads, all or none: at least one file; each measured (an unreadable one is
 * refused naming `files.<i>`, all of them in one answer); then, under the company lock (the one job submission and
 * upload deletion take), the company's stored bytes plus these within its quota, the rows inserted and the files
 * committed under their ids. The temporary files are the service's once handed over: on any refusal or failure they
 * are removed.
 */
export async function storeUploads(
  deps: UploadStoreDeps,
  companyId: string,
  received: readonly ReceivedFile[],
): Promise<Upload[]> {
  try {
    if (received.length === 0)
      throw new DomainError('validation_failed', 'No file received; send one or more files in the field "files"');
    const measured = await measureAll(deps, received);
    const at = deps.now();
    const uploads: Upload[] = received.map((r, i) => ({
      ...measured[i]!,
      id: newId('upl'),
      companyId,
      filename: r.filename,
      sha256: r.sha256,
      createdAt: at,
      expiresAt: new Date(at.getTime() + deps.limits.retentionDays * 86_400_000),
      purgedAt: null,
    }));
    const incoming = received.reduce((sum, r) => sum + r.bytes, 0);
    await deps.db.transaction(async (trx) => {
      await lockCompany(trx, companyId);
      const stored = await companyStoredBytes(trx, companyId);
      if (stored + incoming > deps.limits.companyQuotaBytes) {
        throw new DomainError(
          'payload_too_large',
          `Company source storage is limited to ${deps.limits.companyQuotaBytes / 1_000_000} MB; delete unused uploads first`,
        );
      }
      await insertUploads(trx, uploads);
      for (const [i, u] of uploads.entries()) await deps.store.commit(received[i]!.tempPath, u.id);
    });
    return uploads;
  } catch (e) {
    await Promise.all(received.map((r) => deps.store.remove(r.tempPath)));
    throw e;
  }
}

/** Each received file measured in order; the unreadable ones refused together, each named by its index. */
async function measureAll(deps: UploadStoreDeps, received: readonly ReceivedFile[]): Promise<MeasuredSource[]> {
  const issues: Array<{ path: string; message: string }> = [];
  const measured: MeasuredSource[] = [];
  for (const [i, r] of received.entries()) {
    try {
      measured.push(await measureSource(r.tempPath, r.bytes, deps.media ?? {}));
    } catch (e) {
      if (!(e instanceof UnreadableSource)) throw e;
      issues.push({ path: `files.${i}`, message: `${r.filename}: ${e.reason}` });
    }
  }
  if (issues.length) {
    throw new DomainError('validation_failed', `Unreadable upload: ${issues.map((x) => x.message).join('; ')}`, {
      issues,
    });
  }
  return measured;
}

/**
 * Deletes an unused upload of the company: unknown, deleted or another company's → not found; a source of a queued or
 * processing job → conflict. The check and the deletion hold the company lock that job submission takes too; the
 * bytes are removed once that is committed.
 */
export async function deleteUpload(
  deps: Pick<UploadStoreDeps, 'db' | 'store' | 'now'>,
  companyId: string,
  uploadId: string,
): Promise<void> {
  const upload = await deps.db.transaction(async (trx) => {
    await lockCompany(trx, companyId);
    const found = await getUpload(trx, companyId, uploadId);
    if (!found) throw new DomainError('not_found', 'Upload not found');
    if (await uploadInUse(trx, companyId, found.id)) {
      throw new DomainError(
        'conflict',
        'This upload is a source of an unfinished job; delete it after the job has ended',
      );
    }
    await markUploadDeleted(trx, companyId, found.id, deps.now());
    return found;
  });
  await deps.store.remove(upload.id);
}

/**
 * An upload of the company as its record shows it: unknown, deleted or another company's → not found; past its
 * retention (`expires_at`, or its bytes purged) → 410 `gone`, as using it in an estimate or job is.
 */
export async function companyUpload(
  deps: { db: Db; limits: Pick<UploadStoreDeps['limits'], 'retentionDays'>; now: () => Date },
  companyId: string,
  uploadId: string,
): Promise<Upload> {
  const upload = await getUpload(deps.db, companyId, uploadId);
  if (!upload) throw new DomainError('not_found', 'Upload not found');
  if (upload.purgedAt || upload.expiresAt.getTime() <= deps.now().getTime()) {
    throw new DomainError(
      'gone',
      `Upload ${upload.id} has expired (sources are kept ${deps.limits.retentionDays} days)`,
    );
  }
  return upload;
}

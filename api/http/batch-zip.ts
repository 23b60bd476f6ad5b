import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import archiver from 'archiver';
import { BATCH_LIMITS } from '../../domain/batches.js';
import { DomainError } from '../../domain/errors.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Batch } from '../../db/repositories/batches.repo.js';
import type { Job } from '../../db/repositories/jobs.repo.js';
import type { AppContext } from './context.js';

/** The folder of item i in the ZIP: `item-000/`, `item-001/`, … (0-based, as `item_index`). */
export const itemFolder = (index: number) => `item-${String(index).padStart(3, '0')}`;

/** A file name safe as one ZIP path segment (no separators, no leading dots). */
const entryName = (name: string) => name.replace(/[/\\]/g, '_').replace(/^\.+/, '_') || 'result';

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Streams the batch's results ZIP: one folder per successful item holding its result files, and `manifest.json`
 * (every item: state, sources, files with their size and SHA-256, the error of a failed item, and when a child was
 * deleted by the client). Nothing is held in memory: each file is hashed from disk, then streamed into the archive,
 * which is streamed to the client. A deleted child is the client's own act: it is left out (listed as deleted), never
 * a reason to refuse the ZIP; a completed child whose results passed retention is (410: never served incomplete).
 */
export async function streamBatchZip(
  ctx: AppContext,
  deps: { store: FileStore; logger: Logger; now: Date },
  batch: Batch,
  children: Job[],
): Promise<void> {
  const completed = children.filter((j) => j.status === 'completed' && j.resultFiles && j.deletedAt === null);
  const total = completed.reduce((sum, j) => sum + j.resultFiles!.reduce((s, f) => s + f.bytes, 0), 0);
  if (total > BATCH_LIMITS.zipMaxBytes) {
    throw new DomainError(
      'batch_zip_too_large',
      `The batch's results total ${total} bytes, over the ${BATCH_LIMITS.zipMaxBytes}-byte ZIP limit (1 GB); download them one by one from each job's result.files`,
    );
  }
  if (
    completed.some(
      (j) =>
        j.resultsPurgedAt !== null || (j.resultsExpireAt !== null && j.resultsExpireAt.getTime() <= deps.now.getTime()),
    )
  ) {
    throw new DomainError('gone', 'The results of this batch have expired (results are kept 7 days)');
  }
  const entries: Array<{ job: Job; name: string; path: string; bytes: number; sha256: string }> = [];
  const items = [];
  for (const job of children) {
    const files = [];
    if (completed.includes(job)) {
      const used = new Set<string>();
      for (const file of job.resultFiles ?? []) {
        const path = deps.store.pathOf(file.storageId);
        const info = await stat(path).catch(() => null);
        if (!info) throw new DomainError('gone', 'The results of this batch are no longer stored');
        let name = entryName(file.name);
        for (let n = 2; used.has(name); n++) name = `${n}-${entryName(file.name)}`;
        used.add(name);
        const entry = {
          job,
          name: `${itemFolder(job.itemIndex!)}/${name}`,
          path,
          bytes: info.size,
          sha256: await sha256Of(path),
        };
        entries.push(entry);
        files.push({
          name: file.name,
          path: entry.name,
          bytes: entry.bytes,
          sha256: entry.sha256,
          content_type: file.contentType,
        });
      }
    }
    items.push({
      item_index: job.itemIndex!,
      job_id: job.id,
      status: job.status,
      upload_ids: job.uploadIds,
      files,
      error: job.status === 'failed' ? { code: job.errorCode, message: job.errorMessage } : null,
      deleted_at: job.deletedAt?.toISOString() ?? null,
    });
  }
  const manifest = {
    batch_id: batch.id,
    status: batch.status,
    operation: batch.operation,
    created_at: batch.createdAt.toISOString(),
    items,
  };

  const archive = archiver('zip', { zlib: { level: 6 } });
  const out = new PassThrough();
  archive.on('warning', (err) => deps.logger.warn({ err, batchId: batch.id }, 'batch ZIP warning'));
  archive.on('error', (err) => {
    deps.logger.error({ err, batchId: batch.id }, 'batch ZIP failed while streaming');
    out.destroy(err);
  });
  archive.pipe(out);
  archive.append(JSON.stringify(manifest, null, 2), { name: 'manifest.json' });
  for (const e of entries) archive.file(e.path, { name: e.name });
  void archive.finalize();
  ctx.type = 'application/zip';
  ctx.set('Content-Disposition', `attachment; filename="${batch.id}-results.zip"`);
  ctx.body = out;
}

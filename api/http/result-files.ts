import { z } from 'zod';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isBatchTerminal } from '../../domain/batches.js';
import { DomainError } from '../../domain/errors.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import type { Batch } from '../../db/repositories/batches.repo.js';
import { listBatchChildren, type Job } from '../../db/repositories/jobs.repo.js';
import { resultsExpired } from '../../services/processing/records.js';
import { streamBatchZip } from './batch-zip.js';
import type { AppContext } from './context.js';

/*
 * Result files as HTTP answers, for the /v1 routes and the company session's same routes: one job's file, and an
 * ended batch's results ZIP.
 */

/**
 * `attachment` with the file name twice (RFC 6266): `filename*=UTF-8''…` carries it exactly (RFC 8187: every octet
 * outside attr-char percent-encoded), and the quoted `filename="…"` an ASCII fallback for clients that ignore the
 * former (accents dropped, any other character, quote, backslash or percent sign becomes `_`).
 */
function attachmentHeader(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/**
 * The bytes of a job's result file `rawIndex` (from 0, as in `download_path`), as an attachment: for
 * `GET /v1/jobs/{id}/results/{index}` and the company session's same route. Not completed → 409; unknown index →
 * 404; past retention → 410.
 */
/** The `index` of a result file in a path: 0 to 999 in decimal digits (a position in `result.files`). */
export const resultIndexSchema = z
  .string()
  .regex(/^[0-9]{1,3}$/)
  .meta({ description: 'The 0-based position in `result.files`.' });

export async function sendResultFile(
  ctx: AppContext,
  store: FileStore,
  job: Job,
  rawIndex: string,
  now: Date,
): Promise<void> {
  if (job.status !== 'completed' || !job.resultFiles) {
    throw new DomainError('conflict', `The job is ${job.status}; results are available once it has completed`);
  }
  const file = resultIndexSchema.safeParse(rawIndex).success ? job.resultFiles[Number(rawIndex)] : undefined;
  if (!file)
    throw new DomainError(
      'not_found',
      `Result ${rawIndex} not found; the job has ${job.resultFiles.length} result file(s)`,
    );
  if (resultsExpired(job, now)) throw new DomainError('gone', 'This result has expired (results are kept 7 days)');
  const path = store.pathOf(file.storageId);
  const info = await stat(path).catch(() => null);
  if (!info) throw new DomainError('gone', 'This result is no longer stored');
  ctx.type = file.contentType;
  ctx.length = info.size;
  ctx.set('Content-Disposition', attachmentHeader(file.name));
  ctx.body = createReadStream(path);
}

/** The results ZIP of an ended batch (409 `batch_not_terminal` before), streamed. */
export async function sendBatchResults(
  ctx: AppContext,
  deps: { db: Db; store: FileStore; logger: Logger; now: Date },
  batch: Batch,
): Promise<void> {
  if (!isBatchTerminal(batch.status)) {
    throw new DomainError(
      'batch_not_terminal',
      `The batch is ${batch.status}; its results ZIP is available once it has ended`,
    );
  }
  await streamBatchZip(
    ctx,
    { store: deps.store, logger: deps.logger, now: deps.now },
    batch,
    await listBatchChildren(deps.db, batch.id),
  );
}

import type { FileStore } from '../adapters/storage/file-store.js';
import type { Db } from '../db/connection.js';
import { findExpiredResults, markResultsPurged } from '../db/repositories/jobs.repo.js';
import { findExpiredUploads, markUploadPurged } from '../db/repositories/uploads.repo.js';

export interface RetentionActivityDeps {
  db: Db;
  store: FileStore;
  now?: () => Date;
}

/**
 * Deletes the bytes of sources and results past the 7-day retention. The rows stay (they are the accounting
 * records, and they let a later download or quote answer 410 instead of 404). Files go first, then the row
 * is marked: a crash in between only means the file is removed again next time.
 */
export function createRetentionActivities(deps: RetentionActivityDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    async purgeExpiredSources(input: { limit: number }): Promise<number> {
      const at = now();
      const expired = await findExpiredUploads(deps.db, at, input.limit);
      for (const u of expired) {
        await deps.store.remove(u.id);
        await markUploadPurged(deps.db, u.id, at);
      }
      return expired.length;
    },

    async purgeExpiredResults(input: { limit: number }): Promise<number> {
      const at = now();
      const expired = await findExpiredResults(deps.db, at, input.limit);
      for (const job of expired) {
        for (const f of job.files) await deps.store.remove(f.storageId);
        await markResultsPurged(deps.db, job.id, at);
      }
      return expired.length;
    },
  };
}

export type RetentionActivities = ReturnType<typeof createRetentionActivities>;

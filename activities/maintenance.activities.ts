import type { Db } from '../db/connection.js';
import { purgeExpiredRateLimits } from '../db/repositories/rate-limits.repo.js';
import { purgeExpiredIdempotencyKeys } from '../db/repositories/idempotency.repo.js';

export function createMaintenanceActivities(deps: { db: Db; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    /** Deletes rate-limit windows that ended and /v1 idempotency keys past their 30-day retention. */
    async purgeExpiredRecords(): Promise<{ rateLimitWindows: number; idempotencyKeys: number }> {
      const at = now();
      return {
        rateLimitWindows: await purgeExpiredRateLimits(deps.db, at),
        idempotencyKeys: await purgeExpiredIdempotencyKeys(deps.db, at),
      };
    },
  };
}

export type MaintenanceActivities = ReturnType<typeof createMaintenanceActivities>;

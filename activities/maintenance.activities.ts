import type { Db } from '../db/connection.js';
import { purgeExpiredRateLimits } from '../db/repositories/rate-limits.repo.js';
import { purgeExpiredIdempotencyKeys } from '../db/repositories/idempotency.repo.js';
import { findUnstartedDeliveries } from '../db/repositories/webhooks.repo.js';
import { findNeverClaimedJobs } from '../db/repositories/jobs.repo.js';

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

    /** Deliveries recorded more than `olderThanSeconds` ago whose first attempt never happened. */
    async findUnstartedDeliveries(input: { olderThanSeconds: number; limit: number }) {
      return findUnstartedDeliveries(deps.db, new Date(now().getTime() - input.olderThanSeconds * 1000), input.limit);
    },

    /** Queued jobs recorded more than `olderThanSeconds` ago that never held a slot (their start may be lost). */
    async findNeverClaimedJobs(input: { olderThanSeconds: number; limit: number }): Promise<string[]> {
      return findNeverClaimedJobs(deps.db, new Date(now().getTime() - input.olderThanSeconds * 1000), input.limit);
    },
  };
}

export type MaintenanceActivities = ReturnType<typeof createMaintenanceActivities>;

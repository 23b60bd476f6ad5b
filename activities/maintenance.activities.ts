import type { Db } from '../db/connection.js';
import { purgeExpiredRateLimits } from '../db/repositories/rate-limits.repo.js';
import { purgeExpiredIdempotencyKeys } from '../db/repositories/idempotency.repo.js';
import { purgeSessions } from '../db/repositories/merchant-sessions.repo.js';
import { purgeCompanySessions } from '../db/repositories/company-sessions.repo.js';
import { findUnstartedDeliveries } from '../db/repositories/webhooks.repo.js';
import { findNeverClaimedJobs } from '../db/repositories/jobs.repo.js';
import { findUnstartedBatches } from '../db/repositories/batches.repo.js';
import { findUnstartedInvoiceMails } from '../db/repositories/invoice-mail.repo.js';
import { expireOverdueRequests } from '../db/repositories/payment-requests.repo.js';
import { findInvoicesWithoutLifecycle } from '../db/repositories/invoice-lifecycle.repo.js';

export interface MaintenanceActivityDeps {
  db: Db;
  now?: () => Date;
  /** Invoice e-mail can be sent from this worker (SMTP_URL is set): only then are lost mail starts restarted. */
  mailConfigured?: boolean;
}

export function createMaintenanceActivities(deps: MaintenanceActivityDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    /**
     * Deletes rate-limit windows that ended, /v1 idempotency keys past their 30-day retention and dashboard
     * sessions that ended or expired, and closes payment requests still AWAITING after `expires_at` (EXPIRED
     * frees their matching amount).
     */
    async purgeExpiredRecords(): Promise<{
      rateLimitWindows: number;
      idempotencyKeys: number;
      sessions: number;
      expiredRequests: number;
    }> {
      const at = now();
      return {
        rateLimitWindows: await purgeExpiredRateLimits(deps.db, at),
        idempotencyKeys: await purgeExpiredIdempotencyKeys(deps.db, at),
        sessions: (await purgeSessions(deps.db, at)) + (await purgeCompanySessions(deps.db, at)),
        expiredRequests: await expireOverdueRequests(deps.db, at),
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

    /** Queued batches recorded more than `olderThanSeconds` ago whose `batch:<id>` never ran (its start may be lost). */
    async findUnstartedBatches(input: { olderThanSeconds: number; limit: number }): Promise<string[]> {
      return findUnstartedBatches(deps.db, new Date(now().getTime() - input.olderThanSeconds * 1000), input.limit);
    },

    /**
     * Queued invoice e-mails recorded more than `olderThanSeconds` ago that no workflow attempted (or none did
     * for `stalledSeconds`): their `mail:<id>` start may be lost. null when mail is not configured (nothing is
     * sent then, so nothing is started).
     */
    async findUnstartedInvoiceMails(input: {
      olderThanSeconds: number;
      stalledSeconds: number;
      limit: number;
    }): Promise<string[] | null> {
      if (!deps.mailConfigured) return null;
      const at = now().getTime();
      return findUnstartedInvoiceMails(deps.db, {
        createdBefore: new Date(at - input.olderThanSeconds * 1000),
        lastAttemptBefore: new Date(at - input.stalledSeconds * 1000),
        limit: input.limit,
      });
    },

    /** Issued invoices recorded more than `olderThanSeconds` ago whose `invoice:<id>` workflow never ran (its start may be lost). */
    async findInvoicesWithoutLifecycle(input: { olderThanSeconds: number; limit: number }): Promise<string[]> {
      return findInvoicesWithoutLifecycle(
        deps.db,
        new Date(now().getTime() - input.olderThanSeconds * 1000),
        input.limit,
      );
    },
  };
}

export type MaintenanceActivities = ReturnType<typeof createMaintenanceActivities>;

import { proxyActivities } from '@temporalio/workflow';
import type { MaintenanceActivities } from '../../activities/maintenance.activities.js';

const { purgeExpiredRecords } = proxyActivities<MaintenanceActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5 },
});

/** Run by the `maintenance` schedule every 15 minutes. */
export async function maintenanceWorkflow(): Promise<{ rateLimitWindows: number; idempotencyKeys: number }> {
  return purgeExpiredRecords();
}

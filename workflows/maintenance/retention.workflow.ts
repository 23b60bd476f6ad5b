import { proxyActivities } from '@temporalio/workflow';
import type { RetentionActivities } from '../../activities/retention.activities.js';

const { purgeExpiredSources, purgeExpiredResults } = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 5 },
});

export interface RetentionResult {
  sources: number;
  results: number;
}

const BATCH = 500;
/** Bounds one run; whatever is left is picked up by the next scheduled run. */
const MAX_ROUNDS = 40;

/**
 * Run by the `retention:<task queue>` schedule every 15 minutes: deletes source and result files older than
 * the 7-day retention, in batches. Accounting rows stay; later downloads of purged results answer 410.
 */
export async function retentionWorkflow(): Promise<RetentionResult> {
  const total = { sources: 0, results: 0 };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const sources = await purgeExpiredSources({ limit: BATCH });
    const results = await purgeExpiredResults({ limit: BATCH });
    total.sources += sources;
    total.results += results;
    if (sources < BATCH && results < BATCH) break;
  }
  return total;
}

import type { Db } from '../../db/connection.js';
import { getDelivery } from '../../db/repositories/webhooks.repo.js';
import { until } from './until.js';

/**
 * A delivery's outcome once it is delivered or failed: its first attempt is the dispatcher's, any retries its
 * workflow `delivery:<id>`'s. Shaped like that workflow's result.
 */
export function deliveryOutcome(
  db: Db,
  deliveryId: string,
  timeoutMs?: number,
): Promise<{ status: 'delivered' | 'failed'; attempts: number }> {
  return until(
    `delivery ${deliveryId} to be delivered or failed`,
    async () => {
      const d = await getDelivery(db, deliveryId);
      return d && (d.status === 'delivered' || d.status === 'failed')
        ? { status: d.status, attempts: d.attempts }
        : undefined;
    },
    timeoutMs,
  );
}

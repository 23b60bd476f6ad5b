import type { Db } from '../../db/connection.js';

export interface DeliveryOutcome {
  status: 'delivered' | 'failed';
  attempts: number;
}

/**
 * Resolves each delivery's outcome once its row is delivered or failed, read by one poller for all of them (one
 * statement every `pollMs` while any is awaited), so waiting for N deliveries costs the measured system little.
 */
export function watchDeliveryOutcomes(db: Db, pollMs = 10): { of(deliveryId: string): Promise<DeliveryOutcome>; stop(): void } {
  const waiting = new Map<string, (o: DeliveryOutcome) => void>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const tick = async () => {
    timer = null;
    if (stopped || waiting.size === 0) return;
    try {
      const rows = await db('webhook_deliveries').whereIn('id', [...waiting.keys()]).whereIn('status', ['delivered', 'failed']).select('id', 'status', 'attempts');
      for (const r of rows as Array<{ id: string; status: DeliveryOutcome['status']; attempts: number }>) {
        waiting.get(r.id)?.({ status: r.status, attempts: r.attempts });
        waiting.delete(r.id);
      }
    } finally {
      if (!stopped && waiting.size > 0) timer = setTimeout(() => void tick(), pollMs);
    }
  };
  return {
    of(deliveryId) {
      return new Promise((resolve) => {
        waiting.set(deliveryId, resolve);
        timer ??= setTimeout(() => void tick(), pollMs);
      });
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

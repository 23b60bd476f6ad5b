import type { Db } from '../../db/connection.js';
import { likePrefix } from './bench-db.js';

export interface DeliveryOutcome {
  eventId: string;
  status: 'delivered' | 'failed';
  attempts: number;
  /** When the row became delivered or failed (database clock, the same host clock as `Date.now()`). */
  finishedAt: Date;
}

/**
 * Waits until `n` deliveries to `endpointId` whose event id starts with `eventIdPrefix` are delivered or failed, with
 * one count every `pollMs` (cheap for the measured system, unlike a watch per delivery), then reads each outcome.
 */
export async function awaitDeliveries(
  db: Db,
  opts: { endpointId: string; eventIdPrefix: string; n: number; pollMs?: number; signal?: AbortSignal },
): Promise<DeliveryOutcome[]> {
  const like = likePrefix(opts.eventIdPrefix);
  const ours = () =>
    db('webhook_deliveries')
      .where('endpoint_id', opts.endpointId)
      .andWhere('event_id', 'like', like)
      .whereIn('status', ['delivered', 'failed']);
  for (;;) {
    opts.signal?.throwIfAborted();
    const row = await ours().count<{ count: string }[]>('* as count').first();
    if (Number(row?.count ?? 0) >= opts.n) break;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 20));
  }
  const rows = await ours().select(
    'event_id',
    'status',
    'attempts',
    db.raw('coalesce(delivered_at, failed_at) as finished_at'),
  );
  return (
    rows as Array<{ event_id: string; status: DeliveryOutcome['status']; attempts: number; finished_at: Date }>
  ).map((r) => ({
    eventId: r.event_id,
    status: r.status,
    attempts: r.attempts,
    finishedAt: r.finished_at,
  }));
}

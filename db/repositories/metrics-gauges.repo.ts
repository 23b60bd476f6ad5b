import type { DatabaseGaugeSource } from '../../adapters/metrics/metrics.js';
import type { Db } from '../connection.js';

/**
 * The scrape-time gauges' statements (adapters/metrics/metrics.ts): each one statement over an index (jobs by
 * `(status, created_at)`, deliveries by status), counting only what has not ended; and the watcher's lag per network
 * (`watcher_progress`, one row a network).
 */
export function metricsGaugeSource(db: Db): DatabaseGaugeSource {
  return {
    async jobsByState() {
      const rows = (await db('jobs')
        .whereIn('status', ['queued', 'processing'])
        .groupBy('status')
        .select('status')
        .count({ n: '*' })) as Array<{ status: string; n: string | number }>;
      const found = new Map(rows.map((r) => [r.status, Number(r.n)]));
      return ['queued', 'processing'].map((state) => ({ state, count: found.get(state) ?? 0 }));
    },
    async webhookBacklog() {
      const rows = (await db('webhook_deliveries')
        .whereIn('status', ['pending', 'retrying'])
        .groupBy('interface')
        .select(
          'interface',
          db.raw('count(*) AS n'),
          db.raw('extract(epoch FROM now() - min(created_at)) AS age'),
        )) as Array<{ interface: string; n: string | number; age: string | number }>;
      const found = new Map(rows.map((r) => [r.interface, r]));
      return (['v1', 'proof'] as const).map((iface) => {
        const r = found.get(iface);
        return { iface, count: Number(r?.n ?? 0), oldestSeconds: Number(r?.age ?? 0) };
      });
    },
    async watcherLag() {
      const rows = (await db('watcher_progress')
        .whereNotNull('head_block')
        .select(
          'network',
          db.raw('GREATEST(head_block - last_block, 0) AS blocks'),
          db.raw('extract(epoch FROM now() - caught_up_at) AS seconds'),
        )) as Array<{ network: string; blocks: string | number; seconds: string | number | null }>;
      return rows.map((r) => ({
        network: r.network,
        blocks: Number(r.blocks),
        seconds: r.seconds === null ? null : Math.max(0, Number(r.seconds)),
      }));
    },
  };
}

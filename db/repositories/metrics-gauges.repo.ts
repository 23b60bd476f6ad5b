import type { DatabaseGaugeSource } from '../../adapters/metrics/metrics.js';
import type { Db } from '../connection.js';

/**
 * The scrape-time gauges' statements (adapters/metrics/metrics.ts): each one statement over an index (jobs by
 * `(status, created_at)`, deliveries by status), counting only what has not ended.
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
  };
}

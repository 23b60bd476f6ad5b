import { expect, it } from 'vitest';
import { createMetrics } from '../../../adapters/metrics/metrics.js';
it('reads the webhook backlog once per scrape for both its gauges (count and lag)', async () => {
  const m = createMetrics();
  let reads = 0;
  m.attachDatabaseGauges({
    jobsByState: async () => [],
    webhookBacklog: async () => (reads++, [{ iface: 'v1', count: 2, oldestSeconds: 7 }]),
    watcherLag: async () => [],
  });
  const text = await m.render();
  expect(reads).toBe(1);
  expect(text).toContain('paycore_webhook_backlog{interface="v1"} 2');
  expect(text).toContain('paycore_webhook_delivery_lag_seconds{interface="v1"} 7');
  await m.render();
  expect(reads).toBe(2);
});

import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../adapters/metrics/metrics.js';
import { dashboardMetrics } from '../../helpers/dashboard-metrics.js';

describe('the starter Grafana dashboard (docs/grafana-dashboard.json)', () => {
  it("charts only metrics the platform's registry defines (the temporal_* ones are checked against a worker process)", async () => {
    const registry = createMetrics({ processMetrics: true }).registry;
    const text = await registry.metrics();
    const defined = new Set([...text.matchAll(/^# TYPE (\S+) (\w+)/gm)].map((m) => m[1]!));
    const ours = dashboardMetrics().filter((n) => n.startsWith('paycore_'));
    expect(ours.length).toBeGreaterThan(10);
    for (const name of ours) expect(defined, name).toContain(name.replace(/_(bucket|count|sum)$/, ''));
  });
});

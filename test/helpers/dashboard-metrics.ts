import { readFileSync } from 'node:fs';

/** The metric names the starter Grafana dashboard's queries read (docs/grafana-dashboard.json), as exposed (`_bucket` kept). */
export function dashboardMetrics(): string[] {
  const doc = JSON.parse(readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8')) as {
    panels: Array<{ targets: Array<{ expr: string }> }>;
  };
  const names = doc.panels.flatMap((p) =>
    p.targets.flatMap((t) => [...t.expr.matchAll(/\b((?:paycore|temporal)_[a-z0-9_]+)\b/g)].map((m) => m[1]!)),
  );
  return [...new Set(names)].sort();
}

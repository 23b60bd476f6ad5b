import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../adapters/logging/logger.js';

/**
 * Routes the Temporal SDK's own logs (warnings and errors) into our JSON logger and, with `metrics` (METRICS_TEMPORAL_PORT
 * on METRICS_HOST), serves the SDK's worker metrics (slots, pollers, task latencies, sticky cache: `temporal_*`) from
 * its core's Prometheus exporter at `/metrics` there. Call once per process.
 */
export function installTemporalRuntime(logger: Logger, metrics?: { host: string; port: number }): void {
  const host = metrics?.host.includes(':') ? `[${metrics.host}]` : metrics?.host;
  Runtime.install({
    ...(metrics
      ? {
          telemetryOptions: {
            metrics: { prometheus: { bindAddress: `${host}:${metrics.port}`, countersTotalSuffix: true } },
          },
        }
      : {}),
    // Our entry points own SIGTERM/SIGINT: they drain HTTP first, then the worker.
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', (entry) => {
      const level = entry.level.toLowerCase() as Lowercase<LogLevel>;
      const fn = level === 'error' ? logger.error.bind(logger) : logger.warn.bind(logger);
      fn({ temporal: entry.meta ?? {} }, entry.message);
    }),
  });
}

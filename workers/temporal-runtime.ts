import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../adapters/logging/logger.js';

/** Routes the Temporal SDK's own logs (warnings and errors) into our JSON logger. Call once per process. */
export function installTemporalRuntime(logger: Logger): void {
  Runtime.install({
    // Our entry points own SIGTERM/SIGINT: they drain HTTP first, then the worker.
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', (entry) => {
      const level = entry.level.toLowerCase() as Lowercase<LogLevel>;
      const fn = level === 'error' ? logger.error.bind(logger) : logger.warn.bind(logger);
      fn({ temporal: entry.meta ?? {} }, entry.message);
    }),
  });
}

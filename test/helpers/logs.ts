import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../adapters/logging/logger.js';

/** A real pino logger whose JSON lines are kept in memory for assertions. */
export function capturingLogger(): { logger: Logger; lines: string[]; text(): string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  const logger = createLogger({ level: 'debug' }, stream);
  return { logger, lines, text: () => lines.join('\n') };
}

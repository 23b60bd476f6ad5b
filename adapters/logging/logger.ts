import { pino, type Logger, type DestinationStream } from 'pino';
import { traceFields, tracingActive } from '../tracing/tracing.js';

export type { Logger };

/**
 * Paths removed from every log line. Request logging never includes bodies or headers to begin with
 * (see api/http/request-log.ts); this list is the second line of defence for anything passed by hand.
 */
export const REDACT_PATHS = [
  'authorization',
  'cookie',
  'password',
  'secret',
  'apiKey',
  'api_key',
  'token',
  'key',
  'body',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'req.body',
  'headers.authorization',
  'headers.cookie',
  '*.authorization',
  '*.cookie',
  '*.password',
  '*.secret',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.body',
  '*.signingSecret',
];

/** Serializes errors without fields that may echo data (pg's `detail`/`where`, request configs). */
function errSerializer(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const e = err as Error & { code?: unknown; status?: unknown };
  return {
    type: e.name,
    message: e.message,
    ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: e.code } : {}),
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
    stack: e.stack,
  };
}

/**
 * Pino's ISO timestamp (`,"time":"2026-11-29T23:46:45.260Z"`), formatted once per millisecond: lines of one millisecond
 * (the request lines of a busy API process) share it instead of each formatting a Date.
 */
export function isoTimeOncePerMs(): () => string {
  let at = -1;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      text = `,"time":"${new Date(now).toISOString()}"`;
    }
    return text;
  };
}

/** The mixin's answer while tracing is off: nothing to add, and the line's own object is written as it is. */
const NO_TRACE: Record<string, string> = Object.freeze({});

/** The active trace's ids for a line (adapters/tracing); NO_TRACE while tracing is off. */
const traceMixin = (): Record<string, string> => (tracingActive() ? traceFields() : NO_TRACE);

/** Pino's merge of a mixin's fields into a line (the mixin's first), skipped when there is nothing to merge. */
const mergeTrace = (line: object, mixin: object): object => (mixin === NO_TRACE ? line : Object.assign(mixin, line));

export function createLogger(opts: { level?: string; name?: string } = {}, destination?: DestinationStream): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      name: opts.name,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: errSerializer, error: errSerializer },
      base: { pid: process.pid },
      timestamp: isoTimeOncePerMs(),
      // The active trace's ids (adapters/tracing), on every line written inside traced work; nothing while tracing is off.
      mixin: traceMixin,
      mixinMergeStrategy: mergeTrace,
    },
    destination,
  );
}

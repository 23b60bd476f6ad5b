import { createRequire } from 'node:module';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { Resource } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/**
 * OpenTelemetry traces of one process (docs/observability.md). Off unless the standard OTEL_* variables name an
 * exporter: then `startTracing` starts the Node SDK with the HTTP, Koa, pg and undici instrumentations, and the
 * Temporal interceptors (workers/temporal-tracing.ts, services/workflows/workflow-client.ts) carry the context through
 * workflow starts, workflows and activities. While off, nothing is started and the helpers below are the API's no-ops.
 */
export interface ActiveTracing {
  readonly resource: Resource;
  readonly spanProcessor: SpanProcessor;
  shutdown(): Promise<void>;
}

let active: ActiveTracing | null = null;

/** The process's tracing when it was started (the Temporal plugin needs its processor and resource), else null. */
export function activeTracing(): ActiveTracing | null {
  return active;
}

type Env = Record<string, string | undefined>;

/**
 * True when the OTEL_* variables configure a trace exporter: OTEL_TRACES_EXPORTER names one (`otlp`, `console`; `none`
 * turns it off), or an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).
 * OTEL_SDK_DISABLED=true wins.
 */
export function tracesConfigured(env: Env): boolean {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return false;
  const named = env['OTEL_TRACES_EXPORTER']?.trim().toLowerCase();
  if (named) return named !== 'none';
  return Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim());
}

/** The exporters OTEL_TRACES_EXPORTER names (comma-separated): `otlp` (OTLP over HTTP, the default) and `console`. */
function exportersFromEnv(env: Env): SpanExporter[] {
  const names = (env['OTEL_TRACES_EXPORTER'] ?? 'otlp')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s && s !== 'none');
  return names.map((name) => {
    if (name === 'otlp') return new OTLPTraceExporter();
    if (name === 'console') return new ConsoleSpanExporter();
    throw new Error(`OTEL_TRACES_EXPORTER: unsupported exporter "${name}" (otlp, console or none)`);
  });
}

/** A processor that hands each ended span to all of `processors`. */
function fanOut(processors: SpanProcessor[]): SpanProcessor {
  return {
    onStart: (span, ctx) => processors.forEach((p) => p.onStart(span, ctx)),
    onEnd: (span) => processors.forEach((p) => p.onEnd(span)),
    forceFlush: async () => void (await Promise.all(processors.map((p) => p.forceFlush()))),
    shutdown: async () => void (await Promise.all(processors.map((p) => p.shutdown()))),
  };
}

/**
 * Starts tracing for this process when `env` configures an exporter (or a test passes its own `spanProcessor`, e.g. a
 * SimpleSpanProcessor over an InMemorySpanExporter); returns null and starts nothing otherwise. Call it first in an
 * entry point, before the app and the worker are built. The service name is OTEL_SERVICE_NAME, else `serviceName`.
 */
export function startTracing(opts: {
  serviceName: string;
  env: Env;
  spanProcessor?: SpanProcessor;
}): ActiveTracing | null {
  if (active) return active;
  if (!opts.spanProcessor && !tracesConfigured(opts.env)) return null;
  const spanProcessor = opts.spanProcessor ?? fanOut(exportersFromEnv(opts.env).map((e) => new BatchSpanProcessor(e)));
  const resource = new Resource({ 'service.name': opts.env['OTEL_SERVICE_NAME'] ?? opts.serviceName });
  const sdk = new NodeSDK({
    resource,
    spanProcessors: [spanProcessor],
    instrumentations: [
      new HttpInstrumentation({
        // Scrapes and health probes are not traced.
        ignoreIncomingRequestHook: (req) => /^\/(metrics|health|ready)/.test(req.url ?? ''),
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  patchLoadedModules();
  active = {
    resource,
    spanProcessor,
    async shutdown() {
      active = null;
      await sdk.shutdown();
    },
  };
  return active;
}

/**
 * The instrumentations patch a module when it is `require`d after they were enabled. This code base imports them as
 * ES modules (which share the CommonJS exports object and prototypes), so require each once here: the shared objects
 * are patched whether they were loaded before or after.
 */
function patchLoadedModules(): void {
  const require = createRequire(import.meta.url);
  for (const name of ['http', 'https', 'pg']) require(name);
}

/**
 * Names the HTTP server span of the request being answered by its route template (`POST /v1/jobs/:id`, never the raw
 * path) and sets `http.route`, as the HTTP semantic conventions ask. Nothing while tracing is off.
 */
export function nameRequestSpan(method: string, route: string): void {
  if (!active) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute('http.route', route);
}

/** Whether tracing is on in this process (startTracing ran and was not stopped). */
export function tracingActive(): boolean {
  return active !== null;
}

/** The active trace's fields for a log line (`trace_id`, `span_id`), or none. The logger's mixin. */
export function traceFields(): Record<string, string> {
  if (!active) return {};
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx && trace.isSpanContextValid(ctx) ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
}

/** The active trace id (to store with a job), or null when tracing is off or no span is active. */
export function currentTraceId(): string | null {
  return traceFields()['trace_id'] ?? null;
}

/** The W3C trace context of the active span as headers (`traceparent`, `tracestate`), empty when off. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (active) propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * The active span's context for a child process's environment (`TRACEPARENT`, `TRACESTATE`, the names the W3C
 * environment-variable carrier uses), so an engine that traces continues this trace; empty when off.
 */
export function traceEnv(): Record<string, string> {
  const headers = traceHeaders();
  return {
    ...(headers['traceparent'] ? { TRACEPARENT: headers['traceparent'] } : {}),
    ...(headers['tracestate'] ? { TRACESTATE: headers['tracestate'] } : {}),
  };
}

/**
 * Runs `fn` in a span named `name` (an error ends it with status ERROR and is rethrown). While tracing is off this is
 * `fn()` and nothing else.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: () => Promise<T>,
  opts: { parent?: string | null; kind?: SpanKind } = {},
): Promise<T> {
  if (!active) return fn();
  const parent = opts.parent ? propagation.extract(context.active(), { traceparent: opts.parent }) : context.active();
  const span = trace.getTracer('paycore').startSpan(name, { attributes, kind: opts.kind ?? SpanKind.INTERNAL }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), fn);
  } catch (e) {
    span.recordException(e instanceof Error ? e : String(e));
    span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.message : String(e) });
    throw e;
  } finally {
    span.end();
  }
}

export { SpanKind };

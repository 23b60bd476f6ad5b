import { describe, expect, it } from 'vitest';
import {
  activeTracing,
  inSpan,
  startTracing,
  traceEnv,
  traceFields,
  traceHeaders,
  tracesConfigured,
} from '../../../adapters/tracing/tracing.js';
import { loadConfig } from '../../../config/schema.js';

describe('tracing is off unless OTEL_* configure an exporter', () => {
  it('reads the standard variables', () => {
    expect(tracesConfigured({})).toBe(false);
    expect(tracesConfigured({ OTEL_SERVICE_NAME: 'x' })).toBe(false);
    expect(tracesConfigured({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(
      false,
    );
    expect(tracesConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracesConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracesConfigured({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracesConfigured({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it('starts nothing without them, and the helpers are no-ops', async () => {
    expect(startTracing({ serviceName: 'paycore-test', env: {} })).toBeNull();
    expect(activeTracing()).toBeNull();
    expect(await inSpan('engine x', {}, async () => 42)).toBe(42);
    expect(traceFields()).toEqual({});
    expect(traceHeaders()).toEqual({});
    expect(traceEnv()).toEqual({});
  });

  it('config: OTEL_TRACES_EXPORTER names otlp, console or none', () => {
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp,console' }).tracing['OTEL_TRACES_EXPORTER']).toBe('otlp,console');
    expect(() => loadConfig({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(/OTEL_TRACES_EXPORTER/);
  });
});

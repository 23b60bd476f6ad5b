import Koa from 'koa';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isHtmlType } from '../../../api/http/security-headers.js';
import { publicCors } from '../../../api/http/cors.js';
import { x402CorsOptions } from '../../../api/x402/cors.js';
import { mcpCorsOptions } from '../../../api/mcp/mcp.routes.js';
import { listen } from '../../../api/http/lifecycle.js';
import { createLogger, isoTimeOncePerMs } from '../../../adapters/logging/logger.js';

/**
 * The pieces every request goes through (issue 31 item 5 made them cheaper on the unpaid 402): each must answer exactly
 * what the general code it replaced answered.
 */
describe('the HTML check of the security headers', () => {
  it('is true for text/html with or without parameters, in any case, and false for every other type', () => {
    for (const t of ['text/html', 'text/html; charset=utf-8', 'TEXT/HTML;charset=UTF-8', 'text/html ; charset=utf-8'])
      expect(isHtmlType(t), t).toBe(true);
    for (const t of [
      'application/json; charset=utf-8',
      'application/xhtml+xml',
      'text/htmlx',
      'text/plain; note=text/html',
      'application/pdf',
      '',
      undefined,
      ['text/html'],
      42,
    ])
      expect(isHtmlType(t), String(t)).toBe(false);
  });
});

describe("the log lines' timestamp", () => {
  afterEach(() => vi.useRealTimers());

  it("is pino's ISO time, formatted once per millisecond", () => {
    vi.useFakeTimers();
    const time = isoTimeOncePerMs();
    vi.setSystemTime(new Date('2026-11-29T23:46:45.260Z'));
    const first = time();
    expect(first).toBe(pino.stdTimeFunctions.isoTime());
    expect(first).toBe(',"time":"2026-11-29T23:46:45.260Z"');
    expect(time()).toBe(first);
    vi.setSystemTime(new Date('2026-11-29T23:46:45.261Z'));
    expect(time()).toBe(',"time":"2026-11-29T23:46:45.261Z"');
    expect(time()).toBe(pino.stdTimeFunctions.isoTime());
  });
});

describe('a log line while tracing is off', () => {
  it("is the line's own fields, redacted as before, with no trace fields", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', name: 't' }, { write: (l: string) => void lines.push(l) });
    const fields = { requestId: 'r1', status: 402, password: 'hunter2' };
    logger.info(fields, 'request');
    logger.child({}, { redact: [] }).info({ requestId: 'r2', ms: 1.5 }, 'request');
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toMatchObject({
      level: 30,
      name: 't',
      requestId: 'r1',
      status: 402,
      password: '[redacted]',
      msg: 'request',
    });
    expect(Object.keys(first!)).not.toContain('trace_id');
    expect(fields.password).toBe('hunter2');
    expect(second).toMatchObject({ requestId: 'r2', ms: 1.5, msg: 'request' });
    expect(typeof first!['time']).toBe('string');
  });
});

describe('CORS of the public paths, /x402 and /mcp in one middleware', () => {
  it('refuses a path claimed by two sets', () => {
    expect(() => publicCors(x402CorsOptions(), { ...mcpCorsOptions(), paths: ['/mcp', '/x402/health'] })).toThrow(
      /\/x402\/health is in two sets/,
    );
  });

  it("gives each path its own set's headers (one trailing slash ignored) and other paths none", async () => {
    const app = new Koa();
    app.use(publicCors(x402CorsOptions(), mcpCorsOptions()));
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
    const server = await listen(app, '127.0.0.1', 0);
    try {
      const preflight = (path: string) =>
        fetch(`${server.url}${path}`, {
          method: 'OPTIONS',
          headers: { Origin: 'https://wallet.example', 'Access-Control-Request-Method': 'GET' },
        });
      const x402 = await preflight('/x402/health/');
      expect([x402.status, x402.headers.get('access-control-allow-methods')]).toEqual([204, 'GET,HEAD']);
      const mcp = await preflight('/mcp');
      expect([mcp.status, mcp.headers.get('access-control-allow-methods')]).toEqual([204, 'POST,GET,DELETE']);
      const paid = await fetch(`${server.url}/x402/v1/usdc/verify`);
      expect(paid.headers.get('access-control-allow-origin')).toBe('*');
      expect(paid.headers.get('access-control-expose-headers')).toContain('PAYMENT-REQUIRED');
      const other = await fetch(`${server.url}/v1/jobs`, { headers: { Origin: 'https://wallet.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await server.drain(0);
    }
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256Hex, timingSafeEqualHex } from '../crypto/tokens.js';
import { createMetrics, type PlatformMetrics } from './metrics.js';

/** True when an Authorization header carries `Bearer <token>`, compared in constant time (digests of equal length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+)$/i.exec(header ?? '');
  return match !== null && timingSafeEqualHex(sha256Hex(match[1]!), sha256Hex(token));
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The metrics listener of one process (METRICS_PORT on METRICS_HOST): `GET /metrics` in the Prometheus text format,
 * behind `Authorization: Bearer <METRICS_TOKEN>` when a token is set (401 otherwise); every other request is 404.
 * Port 0 takes a free port (tests).
 */
export async function startMetricsServer(opts: {
  metrics: PlatformMetrics;
  host: string;
  port: number;
  token?: string | undefined;
}): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    if (opts.token !== undefined && !bearerMatches(req.headers.authorization, opts.token)) {
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' });
      res.end('unauthorized\n');
      return;
    }
    opts.metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': opts.metrics.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * The entry points' metrics: this process's registry (with the Node process metrics), and its listener when
 * METRICS_PORT is set (logged with its address, never the token). Close the listener on shutdown.
 */
export async function processMetrics(
  settings: { port: number | undefined; host: string; token: string | undefined },
  processName: string,
  log: (fields: Record<string, unknown>, message: string) => void,
): Promise<{ metrics: PlatformMetrics; server: MetricsServer | null }> {
  const metrics = createMetrics({ process: processName, processMetrics: true });
  if (settings.port === undefined) return { metrics, server: null };
  const server = await startMetricsServer({ metrics, host: settings.host, port: settings.port, token: settings.token });
  log({ url: server.url, token: settings.token !== undefined }, 'metrics listening');
  return { metrics, server };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export interface HttpServerHandle {
  server: http.Server;
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then closes every socket. */
  drain(graceMs: number): Promise<void>;
}

/** The slowest upload link the server waits for: a request of the largest allowed size gets the time to arrive at this rate. */
export const MIN_UPLOAD_BYTES_PER_SECOND = 256 * 1024;

/**
 * How long the server keeps an idle keep-alive connection: longer than any client or proxy in front keeps one (60 s is
 * the common proxy default), so the client always closes first. A server that closes first (Node's default is 5 s) can
 * meet a request the client has just written on that socket, and the client gets a reset with no answer.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Node's `requestTimeout` (the whole request, body included, must arrive within it; past it the connection is reset):
 * the time the largest allowed request (UPLOAD_MAX_REQUEST_MB) takes at MIN_UPLOAD_BYTES_PER_SECOND, at least 120 s.
 * 500 MB gives about 32 minutes. The headers alone must still arrive within 30 s (`headersTimeout`).
 */
export function requestTimeoutMs(maxRequestBytes: number): number {
  return Math.max(120_000, Math.ceil(maxRequestBytes / MIN_UPLOAD_BYTES_PER_SECOND) * 1000);
}

/** Listens and keeps what is needed for a graceful drain on SIGTERM. */
export async function listen(
  app: Koa<never, never> | Koa,
  host: string,
  port: number,
  opts: { maxRequestBytes?: number } = {},
): Promise<HttpServerHandle> {
  const inFlight = new Set<http.ServerResponse>();
  let draining = false;
  const handler = app.callback();
  const server = http.createServer((req, res) => {
    inFlight.add(res);
    if (draining) res.setHeader('Connection', 'close');
    res.on('close', () => inFlight.delete(res));
    void handler(req, res);
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = requestTimeoutMs(opts.maxRequestBytes ?? 0);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    server,
    port: address.port,
    url: `http://${shownHost}:${address.port}`,
    async drain(graceMs) {
      draining = true;
      // Responses still being prepared close their connection when done, so keep-alive clients reconnect
      // to another instance instead of reusing a socket of this one.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const deadline = Date.now() + graceMs;
      while (inFlight.size > 0 && Date.now() < deadline) {
        server.closeIdleConnections();
        await new Promise((r) => setTimeout(r, 50));
      }
      server.closeAllConnections();
      await closed;
    },
  };
}

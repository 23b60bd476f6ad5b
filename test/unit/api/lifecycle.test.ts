import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import {
  KEEP_ALIVE_TIMEOUT_MS,
  listen,
  MIN_UPLOAD_BYTES_PER_SECOND,
  requestTimeoutMs,
} from '../../../api/http/lifecycle.js';

/**
 * Node's `requestTimeout` ends a request whose body has not arrived in time with a reset: it was a fixed 120 s, so an
 * upload of the allowed 500 MB needed a 4.2 MB/s link, and a client on a slower one lost the upload with no answer.
 */
describe("the HTTP server's request time limit", () => {
  it('gives the largest allowed request the time to arrive at 256 KB/s, and never less than 120 s', () => {
    const max = 500 * 1_000_000;
    expect(requestTimeoutMs(max)).toBeGreaterThanOrEqual((max / MIN_UPLOAD_BYTES_PER_SECOND) * 1000);
    expect(requestTimeoutMs(max)).toBeLessThan(3_600_000);
    expect(requestTimeoutMs(1_000)).toBe(120_000);
  });

  it('is what the server listens with; the header time limit stays short', async () => {
    const handle = await listen(new Koa() as Koa, '127.0.0.1', 0, { maxRequestBytes: 500 * 1_000_000 });
    try {
      expect(handle.server.requestTimeout).toBe(requestTimeoutMs(500 * 1_000_000));
      expect(handle.server.headersTimeout).toBe(30_000);
    } finally {
      await handle.drain(0);
    }
  });
});

/**
 * Whoever closes an idle keep-alive connection first must be the client (or the proxy in front): a server that closes
 * first can meet a request the client has just sent on that socket, and the client gets a reset with no answer
 * ("fetch failed"). Reproduced with Node's default 5 s: a request sent 2.5 s into the idle period, whose event loop
 * then stalled for 3.8 s (as a loaded machine stalls), met the server's close: ECONNRESET, every time.
 */
describe("the HTTP server's keep-alive idle time", () => {
  it('outlasts what clients and proxies keep an idle connection for (60 s is the common proxy default)', async () => {
    const handle = await listen(new Koa() as Koa, '127.0.0.1', 0);
    try {
      expect(handle.server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
      expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    } finally {
      await handle.drain(0);
    }
  });

  it("a request on a connection idle for a while survives a stall of the client's event loop", async () => {
    const app = new Koa();
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
    const handle = await listen(app as Koa, '127.0.0.1', 0);
    // A client that takes its idle time from the server's Keep-Alive hint, as fetch does by default.
    const agent = new Agent();
    const get = () => fetch(`${handle.url}/`, { dispatcher: agent } as RequestInit).then((r) => r.status);
    try {
      expect(await get()).toBe(200);
      const second = await new Promise<number | string>((resolve) => {
        setTimeout(() => {
          get().then(resolve, (e: Error) => resolve(`fetch failed: ${String(e.cause ?? e)}`));
        }, 2_500);
        // The stall: the request is written, and nothing of this process runs for 3.8 s.
        setTimeout(() => {
          const end = Date.now() + 3_800;
          while (Date.now() < end);
        }, 2_501);
      });
      expect(second).toBe(200);
    } finally {
      await agent.close();
      await handle.drain(0);
    }
  });
});

import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { listen, MIN_UPLOAD_BYTES_PER_SECOND, requestTimeoutMs } from '../../../api/http/lifecycle.js';

/**
 * Node's `requestTimeout` ends a request whose body has not arrived in time with a reset: it was a fixed 120 s, so an
 * upload of the allowed 500 MB needed a 4.2 MB/s link, and a client on a slower one lost the upload with no answer.
 */
describe('the HTTP server\'s request time limit', () => {
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

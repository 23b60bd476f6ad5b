import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../adapters/webhooks/sign.js';

/**
 * A minimal webhook receiver on 127.0.0.1 (random port): reads the body, checks the signature against the
 * bench secret, answers 200 with an empty body and counts. Kept as cheap as possible because it shares the
 * event loop with whatever is being measured.
 */
export interface BenchReceiver {
  url: string;
  /** POSTs received so far (all phases). */
  readonly count: number;
  /** POSTs whose signature did not verify (should stay 0). */
  readonly badSignatures: number;
  close(): Promise<void>;
}

export async function startBenchReceiver(secret: string): Promise<BenchReceiver> {
  let count = 0;
  let badSignatures = 0;
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.statusCode = 405;
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      count++;
      const verdict = verifySignature({
        secret,
        body: Buffer.concat(chunks),
        timestampHeader: header(req.headers['x-service-timestamp']),
        signatureHeader: header(req.headers['x-service-signature']),
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      if (!verdict.ok) badSignatures++;
      res.statusCode = 200;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    get count() {
      return count;
    },
    get badSignatures() {
      return badSignatures;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { verifySignature, type VerifyResult } from '../../adapters/webhooks/sign.js';

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  receivedAt: number;
}

/**
 * A local webhook receiver on 127.0.0.1. `respond` decides each answer: a status code (or a promise of one, to
 * answer when the test says so), or 'hang' to hold the request open without answering (to simulate a slow
 * receiver while a worker dies).
 */
export async function startReceiver(
  respond: (req: ReceivedRequest, index: number) => number | 'hang' | Promise<number> = () => 200,
): Promise<{
  url: string;
  requests: ReceivedRequest[];
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}> {
  const requests: ReceivedRequest[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const received = { headers: req.headers, body: Buffer.concat(chunks), receivedAt: Date.now() };
      const index = requests.push(received) - 1;
      for (const w of waiters.splice(0)) w();
      const answer = await respond(received, index);
      if (answer === 'hang') return;
      res.statusCode = answer;
      if (answer >= 300 && answer < 400) res.setHeader('Location', 'http://127.0.0.1:1/elsewhere');
      res.end('receiver body that must never be stored');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    async waitForRequests(n, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} of ${n} requests`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * Checks a received request as a receiver does on arrival (the 300 s window is measured at the time the request was
 * received, not when the test gets round to checking it): its `X-Service-Signature` with `secret`, then its Standard
 * Webhooks headers with the official package's verifier built from the same secret (`format: 'raw'`, docs/webhooks.md),
 * which must name the same event and second.
 */
export function verifyReceived(req: ReceivedRequest, secret: string): VerifyResult | { ok: false; reason: string } {
  const header = (name: string) => req.headers[name] as string | undefined;
  const xService = verifySignature({
    secret,
    body: req.body,
    timestampHeader: header('x-service-timestamp'),
    signatureHeader: header('x-service-signature'),
    nowSeconds: Math.floor(req.receivedAt / 1000),
  });
  if (!xService.ok) return xService;
  const [id, timestamp, signature] = [header('webhook-id'), header('webhook-timestamp'), header('webhook-signature')];
  if (id !== header('x-service-event-id') || timestamp !== header('x-service-timestamp') || !signature)
    return { ok: false, reason: 'standard_webhooks_headers' };
  const expected = new Webhook(secret, { format: 'raw' }).sign(id!, new Date(Number(timestamp) * 1000), req.body);
  return signature.split(' ').includes(expected) ? { ok: true } : { ok: false, reason: 'standard_webhooks_signature' };
}

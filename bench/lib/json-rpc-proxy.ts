import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One JSON-RPC request that went through the proxy, in arrival order. */
export interface ProxiedCall {
  method: string;
  params: unknown[];
  /** performance.now() when the request arrived. */
  at: number;
  /** The upstream answered with an HTTP error, a JSON-RPC error or not at all. */
  failed: boolean;
}

export interface CountingRpcProxy {
  url: string;
  /** Returns the calls recorded so far and starts a new list. */
  take(): ProxiedCall[];
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy on 127.0.0.1 in front of `upstream` that records every request (single or batch) by method,
 * then forwards the body unchanged and answers with the upstream's status and bytes. Only what is pointed at it
 * is counted (the benchmark's own client talks to the node directly).
 */
export async function startCountingRpcProxy(upstream: string): Promise<CountingRpcProxy> {
  let recorded: ProxiedCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const at = performance.now();
      let entries: ProxiedCall[] = [];
      try {
        const parsed: unknown = JSON.parse(body.toString());
        entries = (Array.isArray(parsed) ? parsed : [parsed]).map((p: { method?: unknown; params?: unknown }) => ({
          method: typeof p?.method === 'string' ? p.method : '(no method)',
          params: Array.isArray(p?.params) ? p.params : [],
          at,
          failed: false,
        }));
      } catch {
        entries = [{ method: '(not JSON)', params: [], at, failed: true }];
      }
      recorded.push(...entries);
      const fail = () => entries.forEach((e) => (e.failed = true));
      fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (up) => {
          const answer = Buffer.from(await up.arrayBuffer());
          if (!up.ok || /"error"\s*:/.test(answer.toString())) fail();
          res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
          res.end(answer);
        })
        .catch(() => {
          fail();
          res.writeHead(502).end();
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    take() {
      const out = recorded;
      recorded = [];
      return out;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

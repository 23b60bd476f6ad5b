import { ChainError, type RpcEndpoints } from '../types.js';

export interface SolanaRpcOptions {
  /** JSON-RPC endpoints in failover order. They may carry API keys: they never appear in error messages. */
  endpoints: RpcEndpoints;
  /** Upper bound on one JSON-RPC call, response body included. Default 8000. */
  timeoutMs?: number;
  /** Further attempts on the same endpoint after a failed call, before the next endpoint. Default 2. */
  retries?: number;
  /** Pause before retry n is n * retryDelayMs. Default 250. */
  retryDelayMs?: number;
}

/**
 * Raw Solana JSON-RPC over `fetch`, shared by the /x402 reader and the payment watcher's scanner.
 * `request(method, params, parse, what)` returns the first healthy answer: endpoints are tried in order, each
 * 1 + `retries` times (every call bounded by `timeoutMs`); a later endpoint is consulted only when the earlier ones
 * failed, so answers of different endpoints are never put to a vote. Failures are network errors, timeouts, HTTP
 * status other than 2xx, a body that is not JSON, a JSON-RPC error, an answer to another request id, and a `result`
 * that `parse` rejects (by throwing). When every endpoint fails -> ChainError('unavailable') naming `what` and each
 * attempt's reason, never an endpoint URL (it may hold an API key).
 */
export interface SolanaRpc {
  request<T>(method: string, params: unknown[], parse: (result: unknown) => T, what?: string): Promise<T>;
}

/** One endpoint could not give a usable answer to one call (the reason is caller-safe). */
class EndpointFailure extends Error {}

/** Checks the options (messages name endpoints by position, never by URL). `who` names the caller in the messages. */
export function createSolanaRpc(options: SolanaRpcOptions, who = 'the Solana RPC client'): SolanaRpc {
  const { endpoints, timeoutMs = 8000, retries = 2, retryDelayMs = 250 } = options;
  if (endpoints.length === 0) throw new Error(`${who} needs at least one RPC endpoint`);
  endpoints.forEach((endpoint, i) => {
    // No URL in the message: an endpoint may carry an API key.
    if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol))
      throw new Error(`Solana RPC endpoint #${i + 1} is not an http(s) URL`);
  });
  if (!(timeoutMs > 0) || !Number.isInteger(retries) || retries < 0 || !(retryDelayMs >= 0)) {
    throw new Error('timeoutMs must be positive, retries a non-negative integer, retryDelayMs non-negative');
  }
  let nextId = 1;

  async function call<T>(
    endpoint: string,
    method: string,
    params: unknown[],
    parse: (result: unknown) => T,
  ): Promise<T> {
    const id = nextId++;
    let body: unknown;
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (!res.ok) throw new EndpointFailure(`HTTP ${res.status}`);
      body = JSON.parse(text);
    } catch (err) {
      if (err instanceof EndpointFailure) throw err;
      if (err instanceof SyntaxError) throw new EndpointFailure('response is not JSON');
      const name = err instanceof Error ? err.name : '';
      throw new EndpointFailure(
        name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : 'request failed',
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new EndpointFailure('response is not a JSON-RPC object');
    const envelope = body as { id?: unknown; error?: { code?: unknown }; result?: unknown };
    if (envelope.error !== undefined && envelope.error !== null)
      throw new EndpointFailure(`JSON-RPC error ${String(envelope.error?.code ?? '')}`.trim());
    if (envelope.id !== id || !('result' in envelope))
      throw new EndpointFailure('response is not the answer to the request');
    try {
      return parse(envelope.result);
    } catch (err) {
      throw new EndpointFailure(err instanceof Error ? err.message : 'malformed result');
    }
  }

  return {
    async request(method, params, parse, what = method) {
      const failures: string[] = [];
      for (const [i, endpoint] of endpoints.entries()) {
        for (let attempt = 0; attempt <= retries; attempt++) {
          if (attempt > 0 && retryDelayMs > 0) await new Promise((r) => setTimeout(r, attempt * retryDelayMs));
          try {
            return await call(endpoint, method, params, parse);
          } catch (err) {
            if (!(err instanceof EndpointFailure)) throw err;
            failures.push(`endpoint #${i + 1} attempt ${attempt + 1}: ${err.message}`);
          }
        }
      }
      throw new ChainError('unavailable', `no Solana RPC endpoint answered ${what} (${failures.join('; ')})`);
    },
  };
}

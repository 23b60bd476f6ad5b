import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { getHttpRpcClient, type HttpRpcClient } from 'viem/utils';
import { ChainError } from '../types.js';
import { MalformedAnswer, parseQuantity } from './evm-json.js';

/**
 * JSON-RPC over HTTP for one network's endpoint list, with bounded retries and ordered failover.
 *
 * The endpoint rule:
 * - One evidence read runs on ONE endpoint (a session): every call of the read goes to the same URL, so the
 *   receipt, the block at its height and the head all describe the same node's view of the chain. Answers are
 *   never mixed across endpoints.
 * - Each call is retried on the same endpoint up to `retries` more times (short back-off) when the endpoint
 *   is unavailable: connection refused, timeout (`timeoutMs` per attempt), an HTTP error status, a JSON-RPC
 *   error object, or garbage (not JSON-RPC, wrong id, a result of the wrong shape).
 * - When a call exhausts its retries, or the endpoint serves another chain id, the endpoint is abandoned for
 *   this read (its calls still in flight are aborted) and the WHOLE read starts again on the next URL in the
 *   configured order. The first endpoint is always tried first: order is the operator's preference.
 * - Answers are not failed over: a `null` receipt (not_found), a reverted receipt (failed), a reorg or a
 *   self-contradicting answer (inconsistent) from a reachable endpoint of the right chain are final.
 * - When every endpoint failed: ChainError('inconsistent') if some endpoint served another chain
 *   (misconfiguration), else ChainError('unavailable').
 * - The chain id of an endpoint is asked once (eth_chainId) and cached for the life of the pool.
 * Messages name endpoints by position ("endpoint 2/3"), never by URL: URLs often embed API keys.
 */

export interface RpcPoolOptions {
  /** The chain id every endpoint must serve. */
  chainId: number;
  /** Per attempt of one JSON-RPC request, in milliseconds. */
  timeoutMs: number;
  /** Retries per request on one endpoint before failing over. */
  retries: number;
  /** Called once per JSON-RPC request sent (every attempt counts), with the 0-based endpoint position. */
  onRpcCall?: ((method: string, endpoint: number) => void) | undefined;
}

/** A fault of the endpoint rather than an answer about the transaction: failover moves on. */
export class EndpointFault extends ChainError {
  constructor(kind: 'unavailable' | 'inconsistent', message: string) {
    super(kind, message);
    this.name = 'ChainError';
  }
}

/** One read's view of one endpoint. */
export interface RpcSession {
  /** 0-based position of the endpoint in the failover list. */
  readonly endpoint: number;
  /** Sends one request (with retries) and parses its result; throws EndpointFault('unavailable') when exhausted. */
  call<T>(method: string, params: readonly unknown[], parse: (result: unknown) => T): Promise<T>;
  /** Resolves when the endpoint serves the expected chain (asked once per endpoint, then cached). */
  checkChainId(): Promise<void>;
}

export interface RpcPool {
  /** Runs `read` on the first endpoint that does not fault (see the endpoint rule above). */
  run<T>(read: (session: RpcSession) => Promise<T>): Promise<T>;
}

interface Endpoint {
  index: number;
  label: string;
  client: HttpRpcClient;
  /** What eth_chainId answered (it never changes for an endpoint). */
  chainId: number | undefined;
}

let nextRequestId = 1;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** A short, URL-free reason (viem's own messages include the URL). */
function describe(err: unknown): string {
  if (err instanceof MalformedAnswer) return `malformed answer (${err.message})`;
  if (err instanceof TimeoutError) return 'timed out';
  if (err instanceof RpcRequestError) return `JSON-RPC error ${err.code}`;
  if (err instanceof HttpRequestError) return err.status ? `HTTP ${err.status}` : 'unreachable';
  return 'request failed';
}

export function createRpcPool(urls: readonly string[], opts: RpcPoolOptions): RpcPool {
  if (urls.length === 0) throw new TypeError('at least one RPC endpoint is required');
  if (!Number.isInteger(opts.retries) || opts.retries < 0)
    throw new TypeError('retries must be a non-negative integer');
  if (!Number.isInteger(opts.timeoutMs) || opts.timeoutMs < 1)
    throw new TypeError('timeoutMs must be a positive integer');
  const endpoints: Endpoint[] = urls.map((url, index) => ({
    index,
    label: `endpoint ${index + 1}/${urls.length}`,
    client: getHttpRpcClient(url, { timeout: opts.timeoutMs }),
    chainId: undefined,
  }));

  async function call<T>(
    ep: Endpoint,
    signal: AbortSignal,
    method: string,
    params: readonly unknown[],
    parse: (r: unknown) => T,
  ): Promise<T> {
    let reason = 'not tried';
    for (let attempt = 0; attempt <= opts.retries; attempt++) {
      if (attempt > 0) await sleep(Math.min(1000, 100 * 2 ** (attempt - 1)), signal);
      if (signal.aborted) break;
      opts.onRpcCall?.(method, ep.index);
      const id = nextRequestId++;
      try {
        const res: unknown = await ep.client.request({
          body: { method, params: [...params], id },
          fetchOptions: { signal },
        });
        if (typeof res !== 'object' || res === null) throw new MalformedAnswer('not a JSON-RPC response');
        const r = res as { id?: unknown; result?: unknown; error?: { code?: unknown } };
        if (r.error !== undefined) {
          reason = `JSON-RPC error ${typeof r.error?.code === 'number' ? r.error.code : '?'}`;
          continue;
        }
        if (r.id !== id) throw new MalformedAnswer('response id does not match the request');
        if (!('result' in r)) throw new MalformedAnswer('no result');
        return parse(r.result);
      } catch (err) {
        if (signal.aborted) break;
        reason = describe(err);
      }
    }
    if (signal.aborted) throw new EndpointFault('unavailable', `${ep.label}: read abandoned`);
    throw new EndpointFault(
      'unavailable',
      `${ep.label}: ${method} failed after ${opts.retries + 1} attempt(s): ${reason}`,
    );
  }

  function session(ep: Endpoint, signal: AbortSignal): RpcSession {
    return {
      endpoint: ep.index,
      call: (method, params, parse) => call(ep, signal, method, params, parse),
      async checkChainId() {
        ep.chainId ??= await call(ep, signal, 'eth_chainId', [], (r) => parseQuantity(r, 'chain id'));
        if (ep.chainId !== opts.chainId) {
          throw new EndpointFault(
            'inconsistent',
            `${ep.label}: serves chain id ${ep.chainId}, expected ${opts.chainId}`,
          );
        }
      },
    };
  }

  return {
    async run(read) {
      const faults: string[] = [];
      let wrongChain = false;
      for (const ep of endpoints) {
        const controller = new AbortController();
        try {
          return await read(session(ep, controller.signal));
        } catch (err) {
          if (!(err instanceof EndpointFault)) throw err;
          faults.push(err.message);
          if (err.kind === 'inconsistent') wrongChain = true;
        } finally {
          controller.abort();
        }
      }
      throw new ChainError(
        wrongChain ? 'inconsistent' : 'unavailable',
        `no RPC endpoint answered: ${faults.join('; ')}`,
      );
    },
  };
}

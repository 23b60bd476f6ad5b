import { DomainError } from '../../../domain/errors.js';
import type { Network } from '../../../domain/networks.js';
import { SOLANA } from '../../../domain/networks.js';
import { ChainError, type ChainReader, type RpcEndpoints, type TxEvidence } from '../types.js';
import { decodeParsedTransaction, isSolanaSignature, parseGetTransactionResult, type SolanaTransactionResult } from './decode.js';

export interface SolanaReaderOptions {
  /** JSON-RPC endpoints in failover order. They may carry API keys: they never appear in error messages. */
  endpoints: RpcEndpoints;
  /** Upper bound on one JSON-RPC call, response body included. Default 8000. */
  timeoutMs?: number;
  /** Further attempts on the same endpoint after a failed call, before the next endpoint. Default 2. */
  retries?: number;
  /** Pause before retry n is n * retryDelayMs. Default 250. */
  retryDelayMs?: number;
}

type Commitment = 'finalized' | 'confirmed';

/** One endpoint could not give a usable answer to one call (the reason is caller-safe). */
class EndpointFailure extends Error {}

/**
 * Reads Solana evidence with raw JSON-RPC `getTransaction` (encoding `json`, maxSupportedTransactionVersion 0) over
 * `fetch`: that is exactly the shape of the recorded fixtures, one decoder serves both, and each call gets a hard
 * timeout. (@solana/web3.js's Connection.getTransaction turns the result into MessageV0/PublicKey objects, has no
 * per-call timeout and retries HTTP 429 on its own schedule.)
 *
 * Status: found at `finalized` -> `confirmed`; else found at `confirmed` -> `waiting_confirmations`; found at neither
 * -> ChainError('not_found'). A found transaction with `meta.err` set -> ChainError('failed'), at either commitment.
 *
 * Failover rule (each call on its own): endpoints are tried in order; a call to one endpoint is attempted
 * 1 + `retries` times (each bounded by `timeoutMs`), then the next endpoint is tried. The first healthy answer is
 * used — `null` (not found) is a healthy answer — and a later endpoint is consulted only when the earlier ones failed,
 * so answers of different endpoints are never put to a vote. Failures are: network errors, timeouts, HTTP status other
 * than 2xx, a body that is not JSON, a JSON-RPC error, a `result` that is not a `getTransaction` result. When every
 * endpoint fails -> ChainError('unavailable'). Worst case per getEvidence: 2 calls x endpoints x (1 + retries) x timeoutMs.
 *
 * Inconsistency: an answer that contradicts the request or itself is never retried elsewhere but reported as
 * ChainError('inconsistent'): a result for another signature, a USDC transfer whose owner cannot be established,
 * USDC balance changes the decoded instructions do not explain, indexes out of range (see decode.ts).
 */
export function createSolanaReader(options: SolanaReaderOptions): ChainReader {
  const { endpoints, timeoutMs = 8000, retries = 2, retryDelayMs = 250 } = options;
  if (endpoints.length === 0) throw new Error('the Solana reader needs at least one RPC endpoint');
  endpoints.forEach((endpoint, i) => {
    // No URL in the message: an endpoint may carry an API key.
    if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) throw new Error(`Solana RPC endpoint #${i + 1} is not an http(s) URL`);
  });
  if (!(timeoutMs > 0) || !Number.isInteger(retries) || retries < 0 || !(retryDelayMs >= 0)) {
    throw new Error('timeoutMs must be positive, retries a non-negative integer, retryDelayMs non-negative');
  }
  let nextId = 1;

  async function call(endpoint: string, signature: string, commitment: Commitment): Promise<SolanaTransactionResult | null> {
    const id = nextId++;
    let body: unknown;
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'getTransaction',
          params: [signature, { encoding: 'json', commitment, maxSupportedTransactionVersion: 0 }],
        }),
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
      throw new EndpointFailure(name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : 'request failed');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EndpointFailure('response is not a JSON-RPC object');
    const envelope = body as { id?: unknown; error?: { code?: unknown }; result?: unknown };
    if (envelope.error !== undefined && envelope.error !== null) throw new EndpointFailure(`JSON-RPC error ${String(envelope.error?.code ?? '')}`.trim());
    if (envelope.id !== id || !('result' in envelope)) throw new EndpointFailure('response is not the answer to the request');
    if (envelope.result === null) return null;
    try {
      return parseGetTransactionResult(envelope.result);
    } catch (err) {
      throw new EndpointFailure(err instanceof Error ? err.message : 'malformed result');
    }
  }

  /** The first healthy answer, trying endpoints in order and each 1 + retries times. */
  async function getTransaction(signature: string, commitment: Commitment): Promise<SolanaTransactionResult | null> {
    const failures: string[] = [];
    for (const [i, endpoint] of endpoints.entries()) {
      for (let attempt = 0; attempt <= retries; attempt++) {
        if (attempt > 0 && retryDelayMs > 0) await new Promise((r) => setTimeout(r, attempt * retryDelayMs));
        try {
          return await call(endpoint, signature, commitment);
        } catch (err) {
          if (!(err instanceof EndpointFailure)) throw err;
          failures.push(`endpoint #${i + 1} attempt ${attempt + 1}: ${err.message}`);
        }
      }
    }
    throw new ChainError('unavailable', `no Solana RPC endpoint answered getTransaction at ${commitment} commitment (${failures.join('; ')})`);
  }

  return {
    async getEvidence(network: Network, txHash: string): Promise<TxEvidence> {
      if (network !== 'solana') throw new Error(`the Solana reader reads only network 'solana', not '${network}'`);
      if (!isSolanaSignature(txHash)) {
        throw new DomainError('validation_failed', 'tx_hash must be a Solana signature: 64 to 88 base58 characters', { field: 'tx_hash' });
      }
      let status: TxEvidence['status'] = 'confirmed';
      let result = await getTransaction(txHash, 'finalized');
      if (result === null) {
        status = 'waiting_confirmations';
        result = await getTransaction(txHash, 'confirmed');
      }
      if (result === null) throw new ChainError('not_found', 'transaction not found on Solana at confirmed or finalized commitment');
      if (result.transaction.signatures[0] !== txHash) {
        throw new ChainError('inconsistent', 'the RPC answered with a transaction whose signature is not the one requested');
      }
      const decoded = decodeParsedTransaction(result, SOLANA.usdcMint);
      if (decoded.failed) throw new ChainError('failed', `transaction failed on chain: ${JSON.stringify(decoded.err).slice(0, 200)}`);
      return {
        network: 'solana',
        chainId: SOLANA.chainId,
        txHash,
        status,
        confirmations: null,
        requiredConfirmations: null,
        blockNumber: decoded.slot,
        blockTimestamp: decoded.blockTime,
        tokenContract: SOLANA.usdcMint,
        transfers: decoded.transfers.map(({ from, to, amountAtomic, instructionIndex }) => ({ from, to, amountAtomic, instructionIndex })),
      };
    },
  };
}

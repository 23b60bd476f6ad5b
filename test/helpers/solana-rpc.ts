import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Verbatim copies of the shared, never-edited mainnet payloads (test/fixtures/README.md). */
export const SOLANA_FIXTURES_DIR = fileURLToPath(new URL('../fixtures/solana/', import.meta.url));

/** Names (without .json) and signatures of the recorded `getTransaction` results (encoding json, version 0). */
export const SOLANA_FIXTURES = {
  /** 1 USDC via plain SPL Transfer (instruction 2) to an ATA created in the same transaction. */
  usdcTransferCreatesAta: {
    name: 'mainnet-usdc-transfer-creates-ata',
    signature: 'LPaVYsnhx2q9yTeU7bf5vLESBdm6BYatMSdZqt6CYy8wcX5YFm6rNKZLXJqRA7jyq2w3nbEqfB4qgCFSGS1L6GT',
  },
  /** Failed swap (meta.err set), v0 with address table lookups; no USDC moved. */
  failedSwap: {
    name: 'mainnet-failed-swap-no-usdc-moved',
    signature: '43VK3TtYjN21VG13f2EPvNJxmML38GB8QbTDVtFifzeDW3LQpmLtFdLjERAKwy3k4RUe4Hizmdrj4Nyjm5vYKDBx',
  },
} as const;

/** A fresh deep copy of a recorded `result` (safe to modify for synthetic cases). */
export function loadSolanaFixture(name: string): unknown {
  return JSON.parse(readFileSync(`${SOLANA_FIXTURES_DIR}${name}.json`, 'utf8')) as unknown;
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Bytes to base58, for building synthetic instruction data in tests. */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const digits: number[] = []; // little-endian base 58
  for (const byte of bytes.subarray(zeros)) {
    let carry = byte;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! * 256;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    for (; carry > 0; carry = Math.floor(carry / 58)) digits.push(carry % 58);
  }
  return '1'.repeat(zeros) + digits.reverse().map((d) => BASE58_ALPHABET[d]).join('');
}

/** SPL Token instruction data: tag, u64 amount little-endian, optional u8 decimals (TransferChecked). */
export function tokenInstructionData(tag: number, amount: bigint, decimals?: number): string {
  const bytes = new Uint8Array(decimals === undefined ? 9 : 10);
  bytes[0] = tag;
  new DataView(bytes.buffer).setBigUint64(1, amount, true);
  if (decimals !== undefined) bytes[9] = decimals;
  return base58Encode(bytes);
}

/** Recorded answers per signature. A `confirmed` request gets `confirmed`, else `finalized` (finalized is also confirmed). */
export interface RecordedTransaction {
  finalized?: unknown;
  confirmed?: unknown;
}

/**
 * ok: answer from the recording. http_500: status 500. hang: never answer. malformed_json: a 200 body that is not JSON.
 * rpc_error: a JSON-RPC error object. wrong_shape: a `result` that is not a getTransaction result.
 */
export type RpcMode = 'ok' | 'http_500' | 'hang' | 'malformed_json' | 'rpc_error' | 'wrong_shape';

export interface RpcCall {
  method: string;
  params: unknown[];
}

export interface SolanaRpcServer {
  url: string;
  /** Every JSON-RPC request received, in order (including those answered with a failure). */
  calls: RpcCall[];
  /** The mode of requests with nothing queued. */
  mode: RpcMode;
  /** Modes for the next requests, one each, before `mode` applies again. */
  queue(...modes: RpcMode[]): void;
  close(): Promise<void>;
}

/**
 * A local Solana JSON-RPC server on 127.0.0.1 (random port) that replays recorded `getTransaction` results by the
 * requested commitment (default finalized), or null. Like a real node it rejects encodings other than `json` and,
 * for version-0 transactions, requests without maxSupportedTransactionVersion.
 */
export async function startSolanaRpc(recorded: Readonly<Record<string, RecordedTransaction>>): Promise<SolanaRpcServer> {
  const queued: RpcMode[] = [];
  const calls: RpcCall[] = [];
  const state: SolanaRpcServer = {
    url: '',
    calls,
    mode: 'ok',
    queue: (...modes) => void queued.push(...modes),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let request: { id?: unknown; method?: unknown; params?: unknown };
      try {
        request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof request;
      } catch {
        request = {};
      }
      const params = Array.isArray(request.params) ? (request.params as unknown[]) : [];
      calls.push({ method: String(request.method), params });
      const mode = queued.shift() ?? state.mode;
      if (mode === 'hang') return;
      if (mode === 'http_500') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        return;
      }
      if (mode === 'malformed_json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","result":{"slot":');
        return;
      }
      const reply = (body: object): void => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, ...body }));
      };
      if (mode === 'rpc_error') return reply({ error: { code: -32005, message: 'Node is behind' } });
      if (mode === 'wrong_shape') return reply({ result: { slot: 'not a slot' } });
      if (request.method !== 'getTransaction') return reply({ error: { code: -32601, message: 'Method not found' } });
      const [signature, config] = params as [unknown, { encoding?: unknown; commitment?: unknown; maxSupportedTransactionVersion?: unknown } | undefined];
      if (config?.encoding !== 'json') return reply({ error: { code: -32602, message: 'this replay server serves encoding json only' } });
      const entry = typeof signature === 'string' ? recorded[signature] : undefined;
      const commitment = config.commitment ?? 'finalized';
      const result = (commitment === 'confirmed' ? (entry?.confirmed ?? entry?.finalized) : entry?.finalized) ?? null;
      const version = (result as { version?: unknown } | null)?.version;
      if (typeof version === 'number' && config.maxSupportedTransactionVersion === undefined) {
        return reply({ error: { code: -32015, message: `Transaction version (${version}) is not supported by the requesting client.` } });
      }
      return reply({ result });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return state;
}

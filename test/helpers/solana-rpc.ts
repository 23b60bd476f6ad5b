import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { usdcTokenAccountOf } from '../../adapters/chains/solana/usdc-token-account.js';

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
  return (
    '1'.repeat(zeros) +
    digits
      .reverse()
      .map((d) => BASE58_ALPHABET[d])
      .join('')
  );
}

/** SPL Token instruction data: tag, u64 amount little-endian, optional u8 decimals (TransferChecked). */
export function tokenInstructionData(tag: number, amount: bigint, decimals?: number): string {
  const bytes = new Uint8Array(decimals === undefined ? 9 : 10);
  bytes[0] = tag;
  new DataView(bytes.buffer).setBigUint64(1, amount, true);
  if (decimals !== undefined) bytes[9] = decimals;
  return base58Encode(bytes);
}

/** A well-formed, random transaction signature (64 bytes in base58). */
export const randomSignature = (): string => base58Encode(randomBytes(64));

interface AtaFixture {
  slot: number;
  blockTime: number;
  meta: {
    err: unknown;
    preTokenBalances: Array<{ accountIndex: number; owner: string; uiTokenAmount: { amount: string } }>;
    postTokenBalances: Array<{ accountIndex: number; owner: string; uiTokenAmount: { amount: string } }>;
  };
  transaction: { signatures: string[]; message: { accountKeys: string[]; instructions: Array<{ data: string }> } };
}

/**
 * A synthetic variant of the recorded `mainnet-usdc-transfer-creates-ata` result (a copy; the fixture file is never
 * changed): `amount` atomic USDC by a plain SPL Transfer (instruction 2) from FQT9…'s token account into the USDC
 * associated token account of `owner` (default: the recorded recipient 9fE6…), with the given signature, slot and
 * time; balances adjusted so the decoder's reconciliation holds. `err` makes it a failed transaction.
 */
export function syntheticUsdcTransfer(opts: {
  signature: string;
  amount: bigint;
  slot: number;
  blockTime: number;
  owner?: string;
  err?: unknown;
}): unknown {
  const tx = loadSolanaFixture(SOLANA_FIXTURES.usdcTransferCreatesAta.name) as AtaFixture;
  tx.transaction.signatures[0] = opts.signature;
  tx.slot = opts.slot;
  tx.blockTime = opts.blockTime;
  tx.transaction.message.instructions[2]!.data = tokenInstructionData(3, opts.amount);
  const source = 10n ** 12n;
  const byIndex = (list: AtaFixture['meta']['postTokenBalances'], i: number) => list.find((b) => b.accountIndex === i)!;
  byIndex(tx.meta.preTokenBalances, 2).uiTokenAmount.amount = String(source);
  byIndex(tx.meta.postTokenBalances, 2).uiTokenAmount.amount = String(source - opts.amount);
  byIndex(tx.meta.postTokenBalances, 1).uiTokenAmount.amount = String(opts.amount);
  if (opts.owner) {
    tx.transaction.message.accountKeys[1] = usdcTokenAccountOf(opts.owner);
    tx.transaction.message.accountKeys[4] = opts.owner;
    byIndex(tx.meta.postTokenBalances, 1).owner = opts.owner;
  }
  if (opts.err !== undefined) tx.meta.err = opts.err;
  return tx;
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

/** One transaction of an address, as getSignaturesForAddress lists it; `status` is how far it got. */
export interface SignatureEntry {
  signature: string;
  slot: number;
  blockTime?: number | null;
  /** The transaction error (`meta.err`); null or absent for a successful one. */
  err?: unknown;
  status: 'confirmed' | 'finalized';
}

/** What getSlot and getSignaturesForAddress answer; tests change it while the server runs. */
export interface SolanaLedger {
  /** Per address (token account), its transactions oldest first; appended entries are the newest. */
  signatures: Record<string, SignatureEntry[]>;
  /** getSlot at finalized commitment (at confirmed: this + 32). */
  finalizedSlot: number;
  /** Misbehave like a node that lists not-yet-finalized entries at finalized commitment (with their status). */
  listUnfinalized?: boolean;
}

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
  /** Signatures and slots served by getSignaturesForAddress and getSlot (mutable). */
  ledger: SolanaLedger;
  close(): Promise<void>;
}

/**
 * A local Solana JSON-RPC server on 127.0.0.1 (random port) that replays recorded `getTransaction` results by the
 * requested commitment (default finalized), or null. Like a real node it rejects encodings other than `json` and,
 * for version-0 transactions, requests without maxSupportedTransactionVersion. It also answers `getSlot` and
 * `getSignaturesForAddress` (newest first, `limit` at most 1000, `before` and `until` exclusive, only finalized
 * entries at finalized commitment, the default) from `ledger`, which tests extend as "the chain" moves on.
 */
export async function startSolanaRpc(
  recorded: Readonly<Record<string, RecordedTransaction>>,
  ledger: Partial<SolanaLedger> = {},
): Promise<SolanaRpcServer> {
  const queued: RpcMode[] = [];
  const calls: RpcCall[] = [];
  const state: SolanaRpcServer = {
    url: '',
    calls,
    mode: 'ok',
    queue: (...modes) => void queued.push(...modes),
    ledger: { signatures: {}, finalizedSlot: 0, ...ledger },
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
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, ...body }));
      };
      if (mode === 'rpc_error') return reply({ error: { code: -32005, message: 'Node is behind' } });
      if (mode === 'wrong_shape') return reply({ result: { slot: 'not a slot' } });
      if (request.method === 'getSlot') {
        const { commitment } = (params[0] ?? {}) as { commitment?: unknown };
        return reply({ result: state.ledger.finalizedSlot + (commitment === 'confirmed' ? 32 : 0) });
      }
      if (request.method === 'getSignaturesForAddress') return reply(signaturesFor(state.ledger, params));
      if (request.method !== 'getTransaction') return reply({ error: { code: -32601, message: 'Method not found' } });
      const [signature, config] = params as [
        unknown,
        { encoding?: unknown; commitment?: unknown; maxSupportedTransactionVersion?: unknown } | undefined,
      ];
      if (config?.encoding !== 'json')
        return reply({ error: { code: -32602, message: 'this replay server serves encoding json only' } });
      const entry = typeof signature === 'string' ? recorded[signature] : undefined;
      const commitment = config.commitment ?? 'finalized';
      const result = (commitment === 'confirmed' ? (entry?.confirmed ?? entry?.finalized) : entry?.finalized) ?? null;
      const version = (result as { version?: unknown } | null)?.version;
      if (typeof version === 'number' && config.maxSupportedTransactionVersion === undefined) {
        return reply({
          error: {
            code: -32015,
            message: `Transaction version (${version}) is not supported by the requesting client.`,
          },
        });
      }
      return reply({ result });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return state;
}

/** A getSignaturesForAddress answer (`{result}` or `{error}`) from the ledger. */
function signaturesFor(ledger: SolanaLedger, params: unknown[]): object {
  const [address, config = {}] = params as [
    unknown,
    { commitment?: unknown; limit?: unknown; before?: unknown; until?: unknown } | undefined,
  ];
  const limit = config.limit ?? 1000;
  if (
    typeof address !== 'string' ||
    typeof limit !== 'number' ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > 1000
  ) {
    return { error: { code: -32602, message: 'Invalid params' } };
  }
  const commitment = config.commitment ?? 'finalized';
  const visible = (e: SignatureEntry) =>
    commitment === 'confirmed' || e.status === 'finalized' || ledger.listUnfinalized === true;
  let list = [...(ledger.signatures[address] ?? [])].reverse().filter(visible);
  if (typeof config.before === 'string') {
    const at = list.findIndex((e) => e.signature === config.before);
    list = at < 0 ? [] : list.slice(at + 1);
  }
  if (typeof config.until === 'string') {
    const at = list.findIndex((e) => e.signature === config.until);
    if (at >= 0) list = list.slice(0, at);
  }
  return {
    result: list.slice(0, limit).map((e) => ({
      signature: e.signature,
      slot: e.slot,
      err: e.err ?? null,
      memo: null,
      blockTime: e.blockTime ?? null,
      confirmationStatus: e.status,
    })),
  };
}

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { getAddress, toHex, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmReader, type EvmReaderOptions } from '../../adapters/chains/evm/evm-reader.js';
import { ChainError, type TxEvidence } from '../../adapters/chains/types.js';
import { EVM, EVM_NETWORKS, type EvmNetwork } from '../../domain/networks.js';
import { startEvmNode, type EvmAccount, type EvmNode } from '../../support/evm-node.js';

// Real Hardhat nodes: base (8453) and polygon (137), with the USDC-like token at each canonical address.
let base: EvmNode;
let polygon: EvmNode;
let sender: EvmAccount;
const servers: Array<() => Promise<void>> = [];
const BASE_USDC = EVM.base.usdc;
const POLYGON_USDC = EVM.polygon.usdc;
const BASE_BRIDGED = EVM.base.bridgedUsdc[0]!;
const randomAddress = (): Address => getAddress(toHex(randomBytes(20)));
const randomHash = (): Hash => toHex(randomBytes(32));

beforeAll(async () => {
  [base, polygon] = await Promise.all([startEvmNode({ chainId: 8453 }), startEvmNode({ chainId: 137 })]);
  sender = base.accounts[1]!;
  await base.placeToken(BASE_USDC);
  await base.placeToken(BASE_BRIDGED);
  await base.mint(BASE_USDC, sender.address, 1_000_000_000n);
  await base.mint(BASE_BRIDGED, sender.address, 1_000_000_000n);
  await polygon.placeToken(POLYGON_USDC);
  await polygon.mint(POLYGON_USDC, sender.address, 1_000_000_000n);
});
afterAll(async () => {
  await Promise.all(servers.map((close) => close()));
  await Promise.all([base?.stop(), polygon?.stop()]);
});

/**
 * A reader whose unlisted networks point at a closed port (never used by these tests). Its per-request timeout is
 * far above what a local node needs even on a busy machine; the tests about timeouts set their own.
 */
function reader(urls: Partial<Record<EvmNetwork, string[]>>, extra: Partial<EvmReaderOptions> = {}) {
  const calls: Array<{ method: string; network: EvmNetwork; endpoint: number }> = [];
  const r = createEvmReader({
    rpcUrls: Object.fromEntries(EVM_NETWORKS.map((n) => [n, urls[n] ?? ['http://127.0.0.1:9']])) as Record<
      EvmNetwork,
      string[]
    >,
    requiredConfirmations: Object.fromEntries(EVM_NETWORKS.map((n) => [n, 3])) as Record<EvmNetwork, number>,
    timeoutMs: 30_000,
    retries: 1,
    onRpcCall: (method, info) => calls.push({ method, ...info }),
    ...extra,
  });
  return { ...r, calls };
}

async function failure(p: Promise<TxEvidence>): Promise<ChainError> {
  const err = await p.then(
    () => new Error('expected a ChainError, got evidence'),
    (e: unknown) => e,
  );
  if (!(err instanceof ChainError)) throw err;
  return err;
}

async function listen(server: http.Server): Promise<string> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

async function closedPortUrl(): Promise<string> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

type RpcBody = { jsonrpc: string; id: number; method: string; params: unknown[] };
type Forward = (body: RpcBody) => Promise<Record<string, unknown>>;

/**
 * Failure injection: a JSON-RPC proxy in front of a node. `answer` may rewrite any request's response
 * (return undefined to forward it untouched).
 */
async function startProxy(
  target: string,
  answer: (body: RpcBody, forward: Forward) => Promise<unknown>,
): Promise<string> {
  const forward: Forward = async (body) => {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Record<string, unknown>;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as RpcBody;
      void answer(body, forward)
        .then(async (custom) => custom ?? (await forward(body)))
        .then((out) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(out));
        });
    });
  });
  return listen(server);
}

async function rawRpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

async function usdcTransfer(node: EvmNode, token: Address, to: Address, amount: bigint): Promise<Hash> {
  return node.transfer(token, sender, to, amount);
}

describe('EVM reader: transfers of native USDC', () => {
  it('reads one transfer with its block, timestamp, confirmations and checksummed addresses', async () => {
    const to = randomAddress();
    const hash = await usdcTransfer(base, BASE_USDC, to, 1_234_567n);
    await base.mine(2);
    const ev = await reader({ base: [base.url] }).getEvidence('base', hash);
    const receipt = await base.client.getTransactionReceipt({ hash });
    const block = await base.client.getBlock({ blockNumber: receipt.blockNumber });
    const head = await base.blockNumber();
    expect(ev).toEqual({
      network: 'base',
      chainId: 8453,
      txHash: hash.toLowerCase(),
      status: 'confirmed',
      confirmations: Number(head - receipt.blockNumber + 1n),
      requiredConfirmations: 3,
      blockNumber: Number(receipt.blockNumber),
      blockTimestamp: Number(block.timestamp),
      tokenContract: BASE_USDC,
      transfers: [{ from: sender.address, to, amountAtomic: 1_234_567n, logIndex: 0 }],
    });
    expect(ev.confirmations).toBe(3);
  });

  it('lists several transfers of one transaction in log order', async () => {
    const to = [randomAddress(), randomAddress(), randomAddress()];
    const hash = await base.batchTransfer(BASE_USDC, sender, to, [1n, 20n, 300_000n]);
    const ev = await reader({ base: [base.url] }).getEvidence('base', hash);
    expect(ev.transfers).toEqual([
      { from: sender.address, to: to[0], amountAtomic: 1n, logIndex: 0 },
      { from: sender.address, to: to[1], amountAtomic: 20n, logIndex: 1 },
      { from: sender.address, to: to[2], amountAtomic: 300_000n, logIndex: 2 },
    ]);
  });

  it('gives zero transfers for another token, but the transaction is still evidence', async () => {
    const other = randomAddress();
    await base.placeToken(other);
    await base.mint(other, sender.address, 100n);
    const hash = await usdcTransfer(base, other, randomAddress(), 50n);
    const ev = await reader({ base: [base.url] }).getEvidence('base', hash);
    expect(ev.transfers).toEqual([]);
    expect(ev.status).toBe('waiting_confirmations');
    expect(ev.tokenContract).toBe(BASE_USDC);
  });

  it('gives zero transfers for bridged USDC (USDbC)', async () => {
    const hash = await usdcTransfer(base, BASE_BRIDGED, randomAddress(), 10n);
    const ev = await reader({ base: [base.url] }).getEvidence('base', hash);
    expect(ev.transfers).toEqual([]);
    expect(ev.blockNumber).toBeGreaterThan(0);
  });

  it('reads polygon against polygon native USDC (and not base USDC on polygon)', async () => {
    const to = randomAddress();
    const hash = await usdcTransfer(polygon, POLYGON_USDC, to, 42n);
    const ev = await reader({ polygon: [polygon.url] }).getEvidence('polygon', hash);
    expect(ev).toMatchObject({ network: 'polygon', chainId: 137, tokenContract: POLYGON_USDC, confirmations: 1 });
    expect(ev.transfers).toEqual([{ from: sender.address, to, amountAtomic: 42n, logIndex: 0 }]);

    await polygon.placeToken(BASE_USDC);
    await polygon.mint(BASE_USDC, sender.address, 5n);
    const other = await usdcTransfer(polygon, BASE_USDC, to, 5n);
    expect((await reader({ polygon: [polygon.url] }).getEvidence('polygon', other)).transfers).toEqual([]);
  });

  it('turns waiting_confirmations into confirmed as blocks are mined (head - block + 1)', async () => {
    const r = reader({ base: [base.url] });
    const hash = await usdcTransfer(base, BASE_USDC, randomAddress(), 7n);
    const blockNumber = Number((await base.client.getTransactionReceipt({ hash })).blockNumber);
    for (const [mined, status] of [
      [0, 'waiting_confirmations'],
      [1, 'waiting_confirmations'],
      [1, 'confirmed'],
      [5, 'confirmed'],
    ] as const) {
      if (mined) await base.mine(mined);
      const ev = await r.getEvidence('base', hash);
      const head = Number(await base.blockNumber());
      expect(ev.confirmations).toBe(head - blockNumber + 1);
      expect(ev.status).toBe(status);
      expect(ev.requiredConfirmations).toBe(3);
    }
    expect((await r.getEvidence('base', hash)).confirmations).toBe(8);
  });

  it('makes at most 3 RPC calls per verify once the endpoint chain id is cached', async () => {
    const hash = await usdcTransfer(base, BASE_USDC, randomAddress(), 1n);
    const r = reader({ base: [base.url] });
    await r.getEvidence('base', hash);
    expect(r.calls.map((c) => c.method).sort()).toEqual([
      'eth_blockNumber',
      'eth_chainId',
      'eth_getBlockByNumber',
      'eth_getTransactionReceipt',
    ]);
    r.calls.length = 0;
    await r.getEvidence('base', hash);
    expect(r.calls.map((c) => c.method).sort()).toEqual([
      'eth_blockNumber',
      'eth_getBlockByNumber',
      'eth_getTransactionReceipt',
    ]);
    r.calls.length = 0;
    await failure(r.getEvidence('base', randomHash()));
    expect(r.calls.map((c) => c.method)).toEqual(['eth_getTransactionReceipt']);
    console.log('EVM reader RPC calls per verify: first on an endpoint 4, then 3; unknown hash 1');
  });
});

describe('EVM reader: errors', () => {
  it('reports a reverted transaction as failed', async () => {
    const broke = base.accounts[7]!;
    const hash = await base.transfer(BASE_USDC, broke, randomAddress(), 1n);
    expect((await base.client.getTransactionReceipt({ hash })).status).toBe('reverted');
    expect((await failure(reader({ base: [base.url] }).getEvidence('base', hash))).kind).toBe('failed');
  });

  it('reports an unknown hash as not_found, and a malformed one without any RPC call', async () => {
    const r = reader({ base: [base.url] });
    expect((await failure(r.getEvidence('base', randomHash()))).kind).toBe('not_found');
    r.calls.length = 0;
    expect((await failure(r.getEvidence('base', '0x1234'))).kind).toBe('not_found');
    expect(r.calls).toEqual([]);
    await expect(r.getEvidence('solana', '5'.repeat(88))).rejects.toThrow(TypeError);
  });

  it('reports an endpoint that is down as unavailable, after retries', async () => {
    const r = reader({ base: [await closedPortUrl()] }, { retries: 2 });
    const err = await failure(r.getEvidence('base', randomHash()));
    expect(err.kind).toBe('unavailable');
    expect(err.message).not.toContain('127.0.0.1');
    // Receipt and chain id are asked side by side; each gets 1 + 2 attempts at most.
    expect(r.calls.filter((c) => c.method === 'eth_getTransactionReceipt').length).toBeLessThanOrEqual(3);
    expect(r.calls.length).toBeGreaterThanOrEqual(3);
  });

  it('fails over in order: first URL closed, second the node', async () => {
    const hash = await usdcTransfer(base, BASE_USDC, randomAddress(), 3n);
    const r = reader({ base: [await closedPortUrl(), base.url] });
    const ev = await r.getEvidence('base', hash);
    expect(ev.transfers).toHaveLength(1);
    expect(r.calls.some((c) => c.endpoint === 0)).toBe(true);
    // The whole evidence came from endpoint 2.
    expect(
      r.calls
        .filter((c) => c.endpoint === 1)
        .map((c) => c.method)
        .sort(),
    ).toEqual(['eth_blockNumber', 'eth_chainId', 'eth_getBlockByNumber', 'eth_getTransactionReceipt']);
  });

  it('times out on an endpoint that never answers: unavailable', async () => {
    // The endpoint never answers, so the read can only end by the reader giving up on its requests.
    const silent = await listen(http.createServer(() => undefined));
    const started = Date.now();
    const r = reader({ base: [silent] }, { timeoutMs: 300, retries: 1 });
    expect((await failure(r.getEvidence('base', randomHash()))).kind).toBe('unavailable');
    // Two attempts (1 + 1 retry), each given up after its 300 ms: done long before the 5 minutes an HTTP client
    // would wait for an answer's headers by itself (a bound a busy machine cannot reach; 3 s once could).
    expect(r.calls.filter((c) => c.method === 'eth_getTransactionReceipt')).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('treats garbage as unavailable and fails over from it', async () => {
    const garbage = await startProxy(base.url, async (body) =>
      body.method === 'eth_getTransactionReceipt'
        ? { jsonrpc: '2.0', id: body.id, result: { hello: 'world' } }
        : undefined,
    );
    expect((await failure(reader({ base: [garbage] }).getEvidence('base', randomHash()))).kind).toBe('unavailable');
    const hash = await usdcTransfer(base, BASE_USDC, randomAddress(), 4n);
    expect((await reader({ base: [garbage, base.url] }).getEvidence('base', hash)).transfers).toHaveLength(1);
  });

  it('reports a node of another chain (137 configured as base) as inconsistent, and fails over past it', async () => {
    const hash = await usdcTransfer(polygon, POLYGON_USDC, randomAddress(), 1n);
    const err = await failure(reader({ base: [polygon.url] }).getEvidence('base', hash));
    expect(err.kind).toBe('inconsistent');
    expect(err.message).toContain('chain id 137');
    const ok = await reader({ polygon: [base.url, polygon.url] }).getEvidence('polygon', hash);
    expect(ok.transfers).toHaveLength(1);
  });

  it('reports answers that disagree as inconsistent (head below the block, a log of another tx)', async () => {
    const hash = await usdcTransfer(base, BASE_USDC, randomAddress(), 2n);
    const lowHead = await startProxy(base.url, async (body) =>
      body.method === 'eth_blockNumber' ? { jsonrpc: '2.0', id: body.id, result: '0x1' } : undefined,
    );
    expect((await failure(reader({ base: [lowHead] }).getEvidence('base', hash))).kind).toBe('inconsistent');

    const foreignLog = await startProxy(base.url, async (body, forward) => {
      if (body.method !== 'eth_getTransactionReceipt') return undefined;
      const res = await forward(body);
      const receipt = res.result as { logs: Array<{ transactionHash: string }> };
      receipt.logs[0]!.transactionHash = randomHash();
      return res;
    });
    expect((await failure(reader({ base: [foreignLog] }).getEvidence('base', hash))).kind).toBe('inconsistent');
  });

  it('detects a reorganization: the receipt block hash is not the canonical hash at its height', async () => {
    const snapshot = await base.client.snapshot();
    const hash = await usdcTransfer(base, BASE_USDC, randomAddress(), 99n);
    await base.mine(2);
    const stale = await rawRpc(base.url, 'eth_getTransactionReceipt', [hash]);
    expect(stale).toMatchObject({ transactionHash: hash });
    await base.client.revert({ id: snapshot });
    // A different history over the same heights.
    await usdcTransfer(base, BASE_USDC, randomAddress(), 11n);
    await base.mine(4);
    expect((await failure(reader({ base: [base.url] }).getEvidence('base', hash))).kind).toBe('not_found');

    const replaying = await startProxy(base.url, async (body) =>
      body.method === 'eth_getTransactionReceipt' && String(body.params[0]).toLowerCase() === hash.toLowerCase()
        ? { jsonrpc: '2.0', id: body.id, result: stale }
        : undefined,
    );
    const err = await failure(reader({ base: [replaying] }).getEvidence('base', hash));
    expect(err.kind).toBe('reorg');
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSolanaReader, type SolanaReaderOptions } from '../../adapters/chains/solana/solana-reader.js';
import { ChainError, type ChainErrorKind } from '../../adapters/chains/types.js';
import { DomainError } from '../../domain/errors.js';
import { SOLANA } from '../../domain/networks.js';
import {
  SOLANA_FIXTURES,
  loadSolanaFixture,
  startSolanaRpc,
  type RecordedTransaction,
  type SolanaRpcServer,
} from '../helpers/solana-rpc.js';

const ATA = SOLANA_FIXTURES.usdcTransferCreatesAta;
const FAILED = SOLANA_FIXTURES.failedSwap;
const ataResult = loadSolanaFixture(ATA.name);
const failedResult = loadSolanaFixture(FAILED.name);
/** A well-formed signature nobody recorded. */
const UNKNOWN_SIGNATURE = `${ATA.signature.slice(0, -4)}1111`;

const EXPECTED_ATA_EVIDENCE = {
  network: 'solana',
  chainId: 'mainnet-beta',
  txHash: ATA.signature,
  status: 'confirmed',
  confirmations: null,
  requiredConfirmations: null,
  blockNumber: 339540943,
  blockTimestamp: 1747059490,
  tokenContract: SOLANA.usdcMint,
  transfers: [
    {
      from: 'FQT9SSwEZ6UUQxsmTzgt5JzjrS4M5zm13M1QiYF8TEo6',
      to: '9fE6zKgca6K2EEa3yjbcq7zGMusUNqSQeWQNL2YDZ2Yi',
      amountAtomic: 1_000_000n,
      instructionIndex: 2,
    },
  ],
};

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function rpc(recorded: Record<string, RecordedTransaction>): Promise<SolanaRpcServer> {
  const server = await startSolanaRpc(recorded);
  servers.push(server);
  return server;
}

/** Its per-request timeout is far above what the local replay server needs on a busy machine; timeout tests set their own. */
const reader = (endpoints: string[], extra: Partial<SolanaReaderOptions> = {}) =>
  createSolanaReader({ endpoints, timeoutMs: 30_000, retries: 1, retryDelayMs: 0, ...extra });

async function chainError(promise: Promise<unknown>, kind: ChainErrorKind): Promise<ChainError> {
  const err = await promise.then(
    () => {
      throw new Error(`expected ChainError(${kind})`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChainError);
  expect((err as ChainError).kind).toBe(kind);
  return err as ChainError;
}

/** A URL nothing listens on (a port just freed). */
async function deadEndpoint(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}/`;
}

describe('Solana reader: status from commitment levels', () => {
  it('a transaction found at finalized is confirmed, with the fixture evidence; one call, encoding json, version 0', async () => {
    const server = await rpc({ [ATA.signature]: { finalized: ataResult } });
    const evidence = await reader([server.url]).getEvidence('solana', ATA.signature);
    expect(evidence).toStrictEqual(EXPECTED_ATA_EVIDENCE);
    expect(server.calls).toEqual([
      {
        method: 'getTransaction',
        params: [ATA.signature, { encoding: 'json', commitment: 'finalized', maxSupportedTransactionVersion: 0 }],
      },
    ]);
  });

  it('a transaction found only at confirmed is waiting_confirmations', async () => {
    const server = await rpc({ [ATA.signature]: { confirmed: ataResult } });
    const evidence = await reader([server.url]).getEvidence('solana', ATA.signature);
    expect(evidence).toStrictEqual({ ...EXPECTED_ATA_EVIDENCE, status: 'waiting_confirmations' });
    expect(server.calls.map((c) => (c.params[1] as { commitment: string }).commitment)).toEqual([
      'finalized',
      'confirmed',
    ]);
  });

  it('a transaction at neither commitment is not_found', async () => {
    const server = await rpc({ [ATA.signature]: { finalized: ataResult } });
    await chainError(reader([server.url]).getEvidence('solana', UNKNOWN_SIGNATURE), 'not_found');
    expect(server.calls).toHaveLength(2);
  });

  it('the recorded failed swap is failed (finalized or only confirmed)', async () => {
    const server = await rpc({ [FAILED.signature]: { finalized: failedResult } });
    const err = await chainError(reader([server.url]).getEvidence('solana', FAILED.signature), 'failed');
    expect(err.message).toContain('InstructionError');
    const server2 = await rpc({ [FAILED.signature]: { confirmed: failedResult } });
    await chainError(reader([server2.url]).getEvidence('solana', FAILED.signature), 'failed');
  });

  it('an answer for another signature is inconsistent', async () => {
    const server = await rpc({ [FAILED.signature]: { finalized: ataResult } });
    await chainError(reader([server.url]).getEvidence('solana', FAILED.signature), 'inconsistent');
  });

  it('synthetic: a USDC transfer whose owner the RPC does not report is inconsistent, not guessed', async () => {
    const noOwners = loadSolanaFixture(ATA.name) as { meta: { postTokenBalances: Array<{ owner?: string }> } };
    for (const b of noOwners.meta.postTokenBalances) delete b.owner;
    const server = await rpc({ [ATA.signature]: { finalized: noOwners } });
    await chainError(reader([server.url]).getEvidence('solana', ATA.signature), 'inconsistent');
  });
});

describe('Solana reader: unavailable RPC, retries and failover', () => {
  it('HTTP 500 on every attempt of the only endpoint is unavailable; the message names no URL', async () => {
    const server = await rpc({ [ATA.signature]: { finalized: ataResult } });
    server.mode = 'http_500';
    const err = await chainError(
      reader([server.url], { retries: 2 }).getEvidence('solana', ATA.signature),
      'unavailable',
    );
    expect(server.calls).toHaveLength(3);
    expect(err.message).toContain('endpoint #1 attempt 3: HTTP 500');
    expect(err.message).not.toContain('127.0.0.1');
  });

  it('nothing listening is unavailable', async () => {
    await chainError(reader([await deadEndpoint()]).getEvidence('solana', ATA.signature), 'unavailable');
  });

  it('a failed attempt is retried on the same endpoint before failing over', async () => {
    const server = await rpc({ [ATA.signature]: { finalized: ataResult } });
    server.queue('http_500');
    expect(await reader([server.url]).getEvidence('solana', ATA.signature)).toStrictEqual(EXPECTED_ATA_EVIDENCE);
    expect(server.calls).toHaveLength(2);
  });

  it.each(['http_500', 'malformed_json', 'rpc_error', 'wrong_shape'] as const)(
    'fails over to the second endpoint when the first answers %s',
    async (mode) => {
      const first = await rpc({ [ATA.signature]: { finalized: ataResult } });
      const second = await rpc({ [ATA.signature]: { finalized: ataResult } });
      first.mode = mode;
      const evidence = await reader([first.url, second.url]).getEvidence('solana', ATA.signature);
      expect(evidence).toStrictEqual(EXPECTED_ATA_EVIDENCE);
      expect(first.calls).toHaveLength(2); // 1 + retries
      expect(second.calls).toHaveLength(1);
    },
  );

  it('fails over from an endpoint nobody listens on', async () => {
    const second = await rpc({ [ATA.signature]: { confirmed: ataResult } });
    const evidence = await reader([await deadEndpoint(), second.url]).getEvidence('solana', ATA.signature);
    expect(evidence.status).toBe('waiting_confirmations');
  });

  it('the second endpoint is not consulted while the first answers, even "not found"', async () => {
    const first = await rpc({});
    const second = await rpc({ [ATA.signature]: { finalized: ataResult } });
    await chainError(reader([first.url, second.url]).getEvidence('solana', ATA.signature), 'not_found');
    expect(second.calls).toHaveLength(0);
  });

  it('every endpoint down is unavailable', async () => {
    const first = await rpc({ [ATA.signature]: { finalized: ataResult } });
    const second = await rpc({ [ATA.signature]: { finalized: ataResult } });
    first.mode = 'http_500';
    second.mode = 'malformed_json';
    const err = await chainError(reader([first.url, second.url]).getEvidence('solana', ATA.signature), 'unavailable');
    expect(err.message).toContain('endpoint #2 attempt 2: response is not JSON');
  });

  it('a hanging endpoint times out per attempt and ends unavailable within the bound', async () => {
    const server = await rpc({ [ATA.signature]: { finalized: ataResult } });
    server.mode = 'hang';
    const started = Date.now();
    const err = await chainError(
      reader([server.url], { timeoutMs: 200, retries: 1 }).getEvidence('solana', ATA.signature),
      'unavailable',
    );
    const elapsed = Date.now() - started;
    expect(err.message).toContain('no answer within 200 ms');
    expect(server.calls).toHaveLength(2);
    // Each attempt waited its 200 ms (a timer may fire a few ms early against a clock read later in its tick) …
    expect(elapsed).toBeGreaterThanOrEqual(2 * 200 - 20);
    // … and the read ended by those timeouts, not by an HTTP client's own (minutes): a bound no busy machine reaches.
    expect(elapsed).toBeLessThan(60_000);
  });

  it('a hanging first endpoint times out and the second answers', async () => {
    const first = await rpc({});
    const second = await rpc({ [ATA.signature]: { finalized: ataResult } });
    first.mode = 'hang';
    // Long enough that the answering endpoint is never cut off by load; the hanging one costs this once.
    const evidence = await reader([first.url, second.url], { timeoutMs: 2000, retries: 0 }).getEvidence(
      'solana',
      ATA.signature,
    );
    expect(evidence).toStrictEqual(EXPECTED_ATA_EVIDENCE);
  });
});

describe('Solana reader: input and configuration', () => {
  it('rejects a malformed signature before any RPC call', async () => {
    const server = await rpc({});
    for (const bad of [`0x${'ab'.repeat(32)}`, 'short', `${ATA.signature.slice(0, 80)}0OIl0OIl`]) {
      const err = await reader([server.url])
        .getEvidence('solana', bad)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('validation_failed');
    }
    expect(server.calls).toHaveLength(0);
  });

  it('reads only network solana', async () => {
    await expect(reader(['http://127.0.0.1:1/']).getEvidence('base', ATA.signature)).rejects.toThrow(
      /only network 'solana'/,
    );
  });

  it('needs at least one http(s) endpoint', () => {
    expect(() => createSolanaReader({ endpoints: [] })).toThrow(/at least one/);
    expect(() =>
      createSolanaReader({ endpoints: ['https://rpc.example/?api-key=secret', 'ftp://example.com/'] }),
    ).toThrow(/endpoint #2 is not an http\(s\) URL/);
    expect(() => createSolanaReader({ endpoints: ['not a url?api-key=secret'] })).toThrow(/^(?!.*secret)/);
  });
});

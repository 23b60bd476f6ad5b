import { afterEach, describe, expect, it } from 'vitest';
import {
  createSolanaTransferScanner,
  type SignatureInfo,
} from '../../adapters/chains/solana/solana-transfer-scanner.js';
import { usdcTokenAccountOf } from '../../adapters/chains/solana/usdc-token-account.js';
import { ChainError } from '../../adapters/chains/types.js';
import { ADDRESSES } from '../helpers/proof.js';
import {
  SOLANA_FIXTURES,
  loadSolanaFixture,
  randomSignature,
  startSolanaRpc,
  syntheticUsdcTransfer,
  type RecordedTransaction,
  type SignatureEntry,
  type SolanaLedger,
  type SolanaRpcServer,
} from '../helpers/solana-rpc.js';

/** The Solana transfer scanner against the local replay server (recorded mainnet payloads and synthetic copies). */
const ATA = SOLANA_FIXTURES.usdcTransferCreatesAta;
const OWNER = '9fE6zKgca6K2EEa3yjbcq7zGMusUNqSQeWQNL2YDZ2Yi';
const TOKEN_ACCOUNT = 'FrbudWWrsiv5deKG483U91njmeFPV45s3DQUfjhDD2BZ';
const RECORDED_ENTRY: SignatureEntry = {
  signature: ATA.signature,
  slot: 339540943,
  blockTime: 1747059490,
  status: 'finalized',
};

const servers: SolanaRpcServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function rpc(
  recorded: Record<string, RecordedTransaction>,
  ledger: Partial<SolanaLedger> = {},
): Promise<SolanaRpcServer> {
  const server = await startSolanaRpc(recorded, ledger);
  servers.push(server);
  return server;
}
const scannerFor = (server: SolanaRpcServer, pageSize = 1000) =>
  createSolanaTransferScanner({ endpoints: [server.url], timeoutMs: 30_000, retries: 0, retryDelayMs: 0, pageSize });
const entries = (n: number, firstSlot: number): SignatureEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    signature: randomSignature(),
    slot: firstSlot + Math.floor(i / 2),
    blockTime: 1_800_000_000 + i,
    status: 'finalized' as const,
  }));
const info = (e: SignatureEntry): SignatureInfo => ({
  signature: e.signature,
  slot: e.slot,
  failed: e.err !== undefined && e.err !== null,
  blockTime: e.blockTime ?? null,
});

describe('Solana transfer scanner: signatures of a token account', () => {
  it('watches the USDC associated token account of a wallet (test/unit/adapters/solana-token-account.test.ts)', async () => {
    const server = await rpc({});
    expect(scannerFor(server).tokenAccountOf(OWNER)).toBe(TOKEN_ACCOUNT);
  });

  it('lists new finalized signatures oldest first, page by page with before and until', async () => {
    const list = entries(7, 500);
    const server = await rpc({}, { signatures: { [TOKEN_ACCOUNT]: list }, finalizedSlot: 600 });
    const scanner = scannerFor(server, 2);
    expect(await scanner.newSignatures(TOKEN_ACCOUNT, { signature: null, minSlot: 0 })).toEqual(list.map(info));
    expect(server.calls.map((c) => c.method)).toEqual(Array(4).fill('getSignaturesForAddress'));
    expect(server.calls[0]!.params).toEqual([TOKEN_ACCOUNT, { commitment: 'finalized', limit: 2 }]);
    expect(server.calls[1]!.params).toEqual([
      TOKEN_ACCOUNT,
      { commitment: 'finalized', limit: 2, before: list[5]!.signature },
    ]);

    server.calls.length = 0;
    expect(await scanner.newSignatures(TOKEN_ACCOUNT, { signature: list[2]!.signature, minSlot: 0 })).toEqual(
      list.slice(3).map(info),
    );
    expect(server.calls[0]!.params).toEqual([
      TOKEN_ACCOUNT,
      { commitment: 'finalized', limit: 2, until: list[2]!.signature },
    ]);
    expect(server.calls.at(-1)!.params).toEqual([
      TOKEN_ACCOUNT,
      { commitment: 'finalized', limit: 2, until: list[2]!.signature, before: list[3]!.signature },
    ]);
    expect(await scanner.newSignatures(TOKEN_ACCOUNT, { signature: list[6]!.signature, minSlot: 0 })).toEqual([]);
  });

  it('without a last signature, starts at minSlot (older history is not read)', async () => {
    const list = entries(6, 500); // slots 500, 500, 501, 501, 502, 502
    const server = await rpc({}, { signatures: { [TOKEN_ACCOUNT]: list } });
    expect(await scannerFor(server, 2).newSignatures(TOKEN_ACCOUNT, { signature: null, minSlot: 501 })).toEqual(
      list.slice(2).map(info),
    );
    expect(server.calls).toHaveLength(3); // the third page starts below slot 501: no fourth call
  });

  it('flags failed transactions', async () => {
    const list = entries(2, 500);
    list[0]!.err = { InstructionError: [2, { Custom: 1 }] };
    const server = await rpc({}, { signatures: { [TOKEN_ACCOUNT]: list } });
    expect(
      (await scannerFor(server).newSignatures(TOKEN_ACCOUNT, { signature: null, minSlot: 0 })).map((s) => s.failed),
    ).toEqual([true, false]);
  });

  it('only finalized counts: a confirmed entry is not listed, and one a node lists anyway holds back everything newer', async () => {
    const list = entries(4, 500);
    list[2]!.status = 'confirmed';
    const server = await rpc({}, { signatures: { [TOKEN_ACCOUNT]: list } });
    const scanner = scannerFor(server);
    expect(await scanner.newSignatures(TOKEN_ACCOUNT, { signature: null, minSlot: 0 })).toEqual(
      [list[0]!, list[1]!, list[3]!].map(info),
    );
    server.ledger.listUnfinalized = true;
    expect(await scanner.newSignatures(TOKEN_ACCOUNT, { signature: null, minSlot: 0 })).toEqual(
      list.slice(0, 2).map(info),
    );
  });

  it('reads the finalized slot', async () => {
    const server = await rpc({}, { finalizedSlot: 339_541_000 });
    expect(await scannerFor(server).finalizedSlot()).toBe(339_541_000);
    expect(server.calls).toEqual([{ method: 'getSlot', params: [{ commitment: 'finalized' }] }]);
  });

  it('a listing that is not a signature list is unavailable after the retries', async () => {
    const server = await rpc({}, { signatures: { [TOKEN_ACCOUNT]: [RECORDED_ENTRY] } });
    server.mode = 'wrong_shape';
    const err = await scannerFor(server)
      .newSignatures(TOKEN_ACCOUNT, { signature: null, minSlot: 0 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChainError);
    expect((err as ChainError).kind).toBe('unavailable');
    expect((err as ChainError).message).toContain('getSignaturesForAddress at finalized commitment');
  });
});

describe('Solana transfer scanner: transfers into a token account', () => {
  it('decodes the recorded 1 USDC transfer into the watched account (getTransaction at finalized)', async () => {
    const server = await rpc({ [ATA.signature]: { finalized: loadSolanaFixture(ATA.name) } });
    const transfers = await scannerFor(server).transfersInto(info(RECORDED_ENTRY), TOKEN_ACCOUNT, OWNER);
    expect(transfers).toEqual([
      {
        network: 'solana',
        txHash: ATA.signature,
        logIndex: 0,
        from: 'FQT9SSwEZ6UUQxsmTzgt5JzjrS4M5zm13M1QiYF8TEo6',
        to: OWNER,
        amountAtomic: 1_000_000n,
        blockNumber: 339540943,
        blockTime: new Date(1747059490 * 1000),
      },
    ]);
    expect(server.calls).toEqual([
      {
        method: 'getTransaction',
        params: [ATA.signature, { encoding: 'json', commitment: 'finalized', maxSupportedTransactionVersion: 0 }],
      },
    ]);
  });

  it('keeps only transfers into that account and owned by the wallet', async () => {
    const server = await rpc({ [ATA.signature]: { finalized: loadSolanaFixture(ATA.name) } });
    const scanner = scannerFor(server);
    // The sender's side of the same transaction is not a transfer into its account.
    expect(
      await scanner.transfersInto(
        info(RECORDED_ENTRY),
        'JBoHYN5t2NW6fUwDNXyYdQjKwRea6pMkRNqBSB2nFxUH',
        'FQT9SSwEZ6UUQxsmTzgt5JzjrS4M5zm13M1QiYF8TEo6',
      ),
    ).toEqual([]);
    // The account's owner is not the wallet (an account whose owner changed is no longer the merchant's).
    expect(await scanner.transfersInto(info(RECORDED_ENTRY), TOKEN_ACCOUNT, ADDRESSES.solana)).toEqual([]);
  });

  it('a failed transaction yields nothing', async () => {
    const signature = randomSignature();
    const failed = syntheticUsdcTransfer({
      signature,
      amount: 5_000_000n,
      slot: 339_541_100,
      blockTime: 1_800_000_000,
      err: { InstructionError: [2, { Custom: 1 }] },
    });
    const server = await rpc({ [signature]: { finalized: failed } });
    expect(
      await scannerFor(server).transfersInto(
        { signature, slot: 339_541_100, failed: false, blockTime: 1_800_000_000 },
        TOKEN_ACCOUNT,
        OWNER,
      ),
    ).toEqual([]);
  });

  it('a synthetic transfer to another wallet decodes with its own token account', async () => {
    const signature = randomSignature();
    const tx = syntheticUsdcTransfer({
      signature,
      amount: 2_500_001n,
      slot: 339_541_200,
      blockTime: 1_800_000_100,
      owner: ADDRESSES.solana,
    });
    const server = await rpc({ [signature]: { finalized: tx } });
    const transfers = await scannerFor(server).transfersInto(
      { signature, slot: 339_541_200, failed: false, blockTime: 1_800_000_100 },
      usdcTokenAccountOf(ADDRESSES.solana),
      ADDRESSES.solana,
    );
    expect(transfers).toMatchObject([
      {
        txHash: signature,
        to: ADDRESSES.solana,
        amountAtomic: 2_500_001n,
        blockNumber: 339_541_200,
        blockTime: new Date(1_800_000_100_000),
      },
    ]);
  });

  it('listed but not found at finalized is unavailable (retried later); an answer for another signature is inconsistent', async () => {
    const server = await rpc({ [ATA.signature]: { confirmed: loadSolanaFixture(ATA.name) } });
    const missing = await scannerFor(server)
      .transfersInto(info(RECORDED_ENTRY), TOKEN_ACCOUNT, OWNER)
      .catch((e: unknown) => e);
    expect((missing as ChainError).kind).toBe('unavailable');
    const other = randomSignature();
    const server2 = await rpc({ [other]: { finalized: loadSolanaFixture(ATA.name) } });
    const wrong = await scannerFor(server2)
      .transfersInto({ ...info(RECORDED_ENTRY), signature: other }, TOKEN_ACCOUNT, OWNER)
      .catch((e: unknown) => e);
    expect((wrong as ChainError).kind).toBe('inconsistent');
  });
});

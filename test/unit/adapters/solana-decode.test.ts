import { PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  TOKEN_2022_PROGRAM_ID,
  decodeBase58,
  decodeSolanaTransaction,
  isSolanaSignature,
  type SolanaTransactionResult,
} from '../../../adapters/chains/solana/decode.js';
import { ChainError } from '../../../adapters/chains/types.js';
import { SOLANA } from '../../../domain/networks.js';
import { SOLANA_FIXTURES, base58Encode, loadSolanaFixture, tokenInstructionData } from '../../helpers/solana-rpc.js';

const USDC = SOLANA.usdcMint;
const WSOL = 'So11111111111111111111111111111111111111112';
const SENDER = 'FQT9SSwEZ6UUQxsmTzgt5JzjrS4M5zm13M1QiYF8TEo6';
const SOURCE_ATA = 'JBoHYN5t2NW6fUwDNXyYdQjKwRea6pMkRNqBSB2nFxUH';
const RECIPIENT = '9fE6zKgca6K2EEa3yjbcq7zGMusUNqSQeWQNL2YDZ2Yi';
const RECIPIENT_ATA = 'FrbudWWrsiv5deKG483U91njmeFPV45s3DQUfjhDD2BZ';
/** Deterministic made-up addresses for synthetic payloads. */
const fakeKey = (n: number): string => new PublicKey(new Uint8Array(32).fill(n)).toBase58();

type Tx = SolanaTransactionResult;
type TokenBalance = NonNullable<Tx['meta']['postTokenBalances']>[number];

/**
 * The recorded 1-USDC transfer. Its account keys: 0 sender wallet (fee payer, authority), 1 recipient ATA (created in
 * the tx), 2 sender's USDC account, 3 System, 4 recipient wallet, 5 ATA program, 6 ComputeBudget, 7 USDC mint, 8 Token.
 * Synthetic variants below start from a fresh copy and say what they change.
 */
const ataTx = (): Tx => loadSolanaFixture(SOLANA_FIXTURES.usdcTransferCreatesAta.name) as Tx;
const failedTx = (): Tx => loadSolanaFixture(SOLANA_FIXTURES.failedSwap.name) as Tx;
const postOf = (tx: Tx, accountIndex: number): TokenBalance =>
  tx.meta.postTokenBalances!.find((b) => b.accountIndex === accountIndex)!;

const THE_RECORDED_TRANSFER = {
  from: SENDER,
  to: RECIPIENT,
  amountAtomic: 1_000_000n,
  instructionIndex: 2,
  innerIndex: null,
  kind: 'transfer',
  programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  sourceTokenAccount: SOURCE_ATA,
  destinationTokenAccount: RECIPIENT_ATA,
};

function expectInconsistent(run: () => unknown, message: RegExp): void {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ChainError);
    expect((err as ChainError).kind).toBe('inconsistent');
    expect((err as ChainError).message).toMatch(message);
    return;
  }
  throw new Error('expected ChainError(inconsistent)');
}

describe('Solana fixtures decode exactly as their .source.txt says', () => {
  it('mainnet-usdc-transfer-creates-ata: one plain Transfer of 1 USDC, owner to owner, instruction 2', () => {
    expect(decodeSolanaTransaction(ataTx())).toStrictEqual({
      signature: SOLANA_FIXTURES.usdcTransferCreatesAta.signature,
      slot: 339540943,
      blockTime: 1747059490,
      failed: false,
      err: null,
      transfers: [THE_RECORDED_TRANSFER],
    });
  });

  it('the ATA creation (CreateIdempotent with its inner GetAccountDataSize / InitializeAccount3) is not a transfer', () => {
    const decoded = decodeSolanaTransaction(ataTx());
    expect(decoded.transfers).toHaveLength(1);
    expect(decoded.transfers.every((t) => t.instructionIndex === 2 && t.innerIndex === null)).toBe(true);
  });

  it('mainnet-failed-swap-no-usdc-moved: failed, with its error, and no transfers', () => {
    expect(decodeSolanaTransaction(failedTx())).toStrictEqual({
      signature: SOLANA_FIXTURES.failedSwap.signature,
      slot: 339492409,
      blockTime: 1747040326,
      failed: true,
      err: { InstructionError: [6, { Custom: 1 }] },
      transfers: [],
    });
  });

  it('synthetic: the failed swap marked successful still moves no USDC (v0 keys resolve, balances reconcile)', () => {
    const tx = failedTx();
    tx.meta.err = null;
    expect(decodeSolanaTransaction(tx).transfers).toEqual([]);
  });

  it('synthetic: a failed transaction lists nothing even when it carries a USDC transfer instruction', () => {
    const tx = ataTx();
    tx.meta.err = { InstructionError: [2, { Custom: 1 }] };
    expect(decodeSolanaTransaction(tx)).toMatchObject({ failed: true, transfers: [] });
  });
});

describe('Transfer and TransferChecked', () => {
  it('synthetic: TransferChecked (tag 12, accounts source, mint, destination, authority) gives the same transfer', () => {
    const tx = ataTx();
    tx.transaction.message.instructions[2] = {
      programIdIndex: 8,
      accounts: [2, 7, 1, 0],
      data: tokenInstructionData(12, 1_000_000n, 6),
    };
    expect(decodeSolanaTransaction(tx).transfers).toStrictEqual([
      { ...THE_RECORDED_TRANSFER, kind: 'transferChecked' },
    ]);
  });

  it('synthetic: TransferChecked of USDC with decimals other than 6 is inconsistent', () => {
    const tx = ataTx();
    tx.transaction.message.instructions[2] = {
      programIdIndex: 8,
      accounts: [2, 7, 1, 0],
      data: tokenInstructionData(12, 1_000_000n, 9),
    };
    expectInconsistent(() => decodeSolanaTransaction(tx), /decimals/);
  });

  it('synthetic: trailing bytes after the amount are ignored, as the token program does', () => {
    const tx = ataTx();
    const data = decodeBase58(tokenInstructionData(3, 1_000_000n));
    tx.transaction.message.instructions[2]!.data = base58Encode(new Uint8Array([...data, 0xff, 0x01]));
    expect(decodeSolanaTransaction(tx).transfers).toStrictEqual([THE_RECORDED_TRANSFER]);
  });

  it('synthetic: a transfer inside inner instructions reports its outer instruction index', () => {
    const tx = ataTx();
    const transfer = tx.transaction.message.instructions[2]!;
    tx.transaction.message.instructions[2] = { programIdIndex: 6, accounts: [], data: 'H4eVYK' };
    tx.meta.innerInstructions![0]!.instructions.push(transfer);
    expect(decodeSolanaTransaction(tx).transfers).toStrictEqual([
      { ...THE_RECORDED_TRANSFER, instructionIndex: 1, innerIndex: 4 },
    ]);
  });

  it('synthetic: several transfers come out in execution order (outer, then its inner instructions)', () => {
    const tx = ataTx();
    // Split the 1 USDC into 400000 inner (under instruction 1) and 600000 outer (instruction 2).
    tx.transaction.message.instructions[2]!.data = tokenInstructionData(3, 600_000n);
    tx.meta.innerInstructions![0]!.instructions.push({
      programIdIndex: 8,
      accounts: [2, 7, 1, 0],
      data: tokenInstructionData(12, 400_000n, 6),
    });
    const transfers = decodeSolanaTransaction(tx).transfers;
    expect(transfers.map((t) => [t.instructionIndex, t.innerIndex, t.kind, t.amountAtomic])).toEqual([
      [1, 4, 'transferChecked', 400_000n],
      [2, null, 'transfer', 600_000n],
    ]);
  });

  it('synthetic: USDC MintTo/Burn are accounted for in the balance check but are not transfers', () => {
    const tx = ataTx();
    tx.transaction.message.instructions.push({
      programIdIndex: 8,
      accounts: [2, 7, 0],
      data: tokenInstructionData(8, 100n),
    });
    expectInconsistent(
      () => decodeSolanaTransaction(tx),
      /changed by -1000000 but the decoded instructions explain -1000100/,
    );
    postOf(tx, 2).uiTokenAmount.amount = '8405677';
    expect(decodeSolanaTransaction(tx).transfers).toStrictEqual([THE_RECORDED_TRANSFER]);
  });
});

describe('v0 loaded addresses', () => {
  it('synthetic: indexes resolve over accountKeys, then loadedAddresses.writable, then loadedAddresses.readonly', () => {
    const tx = ataTx();
    const [w1, w2, r1, other] = [fakeKey(1), fakeKey(2), fakeKey(3), fakeKey(4)];
    const recipient2 = fakeKey(5);
    // The USDC mint moves from static key 7 into the lookup table (index 12); a new recipient account is index 10.
    tx.transaction.message.accountKeys[7] = other;
    tx.meta.loadedAddresses = { writable: [w1, w2], readonly: [r1, USDC] };
    tx.transaction.message.instructions[2] = {
      programIdIndex: 8,
      accounts: [2, 12, 10, 0],
      data: tokenInstructionData(12, 250_000n, 6),
    };
    postOf(tx, 2).uiTokenAmount.amount = '9155777';
    tx.meta.postTokenBalances = tx.meta.postTokenBalances!.filter((b) => b.accountIndex !== 1);
    tx.meta.postTokenBalances.push({
      ...postOf(ataTx(), 1),
      accountIndex: 10,
      owner: recipient2,
      uiTokenAmount: { amount: '250000', decimals: 6 },
    });
    expect(decodeSolanaTransaction(tx).transfers).toStrictEqual([
      {
        ...THE_RECORDED_TRANSFER,
        kind: 'transferChecked',
        to: recipient2,
        amountAtomic: 250_000n,
        destinationTokenAccount: w2,
      },
    ]);
  });

  it('synthetic: an index beyond static and loaded accounts is inconsistent', () => {
    const tx = ataTx();
    tx.transaction.message.instructions[2]!.accounts = [2, 9, 0];
    expectInconsistent(() => decodeSolanaTransaction(tx), /account index 9, beyond the 9 accounts/);
  });
});

describe('only native USDC counts', () => {
  it('synthetic: a plain Transfer between token accounts of another mint is ignored', () => {
    const tx = ataTx();
    for (const b of [...tx.meta.preTokenBalances!, ...tx.meta.postTokenBalances!]) b.mint = WSOL;
    expect(decodeSolanaTransaction(tx).transfers).toEqual([]);
  });

  it('synthetic: a plain Transfer whose mint cannot be established from token balances is ignored', () => {
    const tx = ataTx();
    tx.meta.preTokenBalances = [];
    tx.meta.postTokenBalances = [];
    expect(decodeSolanaTransaction(tx).transfers).toEqual([]);
  });

  it('synthetic: a TransferChecked naming another mint is ignored', () => {
    const tx = ataTx();
    tx.transaction.message.accountKeys[7] = WSOL;
    for (const b of [...tx.meta.preTokenBalances!, ...tx.meta.postTokenBalances!]) b.mint = WSOL;
    tx.transaction.message.instructions[2] = {
      programIdIndex: 8,
      accounts: [2, 7, 1, 0],
      data: tokenInstructionData(12, 1_000_000n, 9),
    };
    expect(decodeSolanaTransaction(tx).transfers).toEqual([]);
  });

  it('synthetic: a TransferChecked naming USDC between accounts of another mint is inconsistent', () => {
    const tx = ataTx();
    for (const b of [...tx.meta.preTokenBalances!, ...tx.meta.postTokenBalances!]) b.mint = WSOL;
    tx.transaction.message.instructions[2] = {
      programIdIndex: 8,
      accounts: [2, 7, 1, 0],
      data: tokenInstructionData(12, 1_000_000n, 6),
    };
    expectInconsistent(() => decodeSolanaTransaction(tx), /TransferChecked names mint/);
  });

  it('synthetic: Token-2022 instructions decode too; a Token-2022 USDC account counts, another mint does not', () => {
    const tx = ataTx();
    tx.transaction.message.accountKeys[8] = TOKEN_2022_PROGRAM_ID;
    for (const b of [...tx.meta.preTokenBalances!, ...tx.meta.postTokenBalances!]) b.programId = TOKEN_2022_PROGRAM_ID;
    expect(decodeSolanaTransaction(tx).transfers).toStrictEqual([
      { ...THE_RECORDED_TRANSFER, programId: TOKEN_2022_PROGRAM_ID },
    ]);
    for (const b of [...tx.meta.preTokenBalances!, ...tx.meta.postTokenBalances!])
      b.mint = '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo';
    expect(decodeSolanaTransaction(tx).transfers).toEqual([]);
  });

  it('synthetic: a token account of the other token program is inconsistent', () => {
    const tx = ataTx();
    tx.transaction.message.accountKeys[8] = TOKEN_2022_PROGRAM_ID;
    expectInconsistent(() => decodeSolanaTransaction(tx), /belongs to Tokenkeg/);
  });
});

describe('never guesses', () => {
  it('synthetic: a USDC transfer whose owner is not in the token balances is inconsistent', () => {
    const tx = ataTx();
    delete postOf(tx, 1).owner;
    expectInconsistent(() => decodeSolanaTransaction(tx), new RegExp(`owner of USDC token account ${RECIPIENT_ATA}`));
  });

  it('synthetic: an owner that differs between pre and post balances is inconsistent', () => {
    const tx = ataTx();
    tx.meta.preTokenBalances!.push({
      ...postOf(tx, 1),
      owner: fakeKey(9),
      uiTokenAmount: { amount: '0', decimals: 6 },
    });
    expectInconsistent(() => decodeSolanaTransaction(tx), /owner of USDC token account/);
  });

  it('synthetic: USDC balance changes the instructions do not explain are inconsistent', () => {
    const tx = ataTx();
    postOf(tx, 1).uiTokenAmount.amount = '2000000';
    expectInconsistent(
      () => decodeSolanaTransaction(tx),
      new RegExp(`${RECIPIENT_ATA} changed by 2000000 but the decoded instructions explain 1000000`),
    );
    const noTransfer = ataTx();
    noTransfer.transaction.message.instructions[2] = { programIdIndex: 6, accounts: [], data: 'H4eVYK' };
    expectInconsistent(
      () => decodeSolanaTransaction(noTransfer),
      /changed by -1000000 but the decoded instructions explain 0/,
    );
  });

  it('malformed results are inconsistent: no meta, token data that is not base58, a short token instruction', () => {
    expectInconsistent(
      () => decodeSolanaTransaction({ ...ataTx(), meta: null }),
      /malformed getTransaction result at meta/,
    );
    expectInconsistent(() => decodeSolanaTransaction(null), /malformed/);
    const notBase58 = ataTx();
    notBase58.transaction.message.instructions[2]!.data = '0OIl';
    expectInconsistent(() => decodeSolanaTransaction(notBase58), /instruction 2: data is not base58/);
    const short = ataTx();
    short.transaction.message.instructions[2]!.data = base58Encode(new Uint8Array([3, 1, 2]));
    expectInconsistent(() => decodeSolanaTransaction(short), /carries no u64 amount/);
  });
});

describe('base58 and signatures', () => {
  it('decodes instruction data: 3QCwqmHZ4mdq is Transfer of 1000000', () => {
    expect([...decodeBase58('3QCwqmHZ4mdq')]).toEqual([3, 0x40, 0x42, 0x0f, 0, 0, 0, 0, 0]);
    expect([...decodeBase58('11')]).toEqual([0, 0]);
    expect([...decodeBase58('')]).toEqual([]);
  });

  it('agrees with @solana/web3.js on every account key of both fixtures, and round-trips', () => {
    for (const tx of [ataTx(), failedTx()]) {
      for (const key of [
        ...tx.transaction.message.accountKeys,
        ...(tx.meta.loadedAddresses?.writable ?? []),
        ...(tx.meta.loadedAddresses?.readonly ?? []),
      ]) {
        expect(decodeBase58(key)).toEqual(new PublicKey(key).toBytes());
        expect(base58Encode(decodeBase58(key))).toBe(key);
      }
    }
    expect(decodeBase58('11111111111111111111111111111111')).toEqual(new Uint8Array(32));
  });

  it('a signature is 64 to 88 base58 characters that decode to 64 bytes', () => {
    expect(isSolanaSignature(SOLANA_FIXTURES.usdcTransferCreatesAta.signature)).toBe(true);
    expect(isSolanaSignature(SOLANA_FIXTURES.failedSwap.signature)).toBe(true);
    expect(isSolanaSignature(`0x${'ab'.repeat(32)}`)).toBe(false);
    expect(isSolanaSignature(SOLANA_FIXTURES.failedSwap.signature.slice(0, 63))).toBe(false);
    expect(isSolanaSignature(`${SOLANA_FIXTURES.failedSwap.signature.slice(0, 87)}l`)).toBe(false);
    expect(isSolanaSignature('z'.repeat(88))).toBe(false);
  });
});

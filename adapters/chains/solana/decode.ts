import { z } from 'zod';
import { USDC_DECIMALS } from '../../../domain/money.js';
import { SOLANA } from '../../../domain/networks.js';
import { ChainError, type Transfer } from '../types.js';
import { base58Decode } from '../../../domain/base58.js';

/**
 * Pure decoding (no I/O) of a Solana `getTransaction` result — encoding `json`, maxSupportedTransactionVersion 0 —
 * into the native-USDC transfers it made. Decodes SPL Token `Transfer` (tag 3) and `TransferChecked` (tag 12) from the
 * base58 instruction data itself, for outer and inner instructions, over the full account list of v0 messages.
 * When the data does not add up it throws ChainError('inconsistent'); it never guesses.
 */

export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const TOKEN_PROGRAMS: readonly string[] = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID];

// SPL Token instruction tags (identical in Token-2022).
const TAG_TRANSFER = 3;
const TAG_MINT_TO = 7;
const TAG_BURN = 8;
const TAG_TRANSFER_CHECKED = 12;
const TAG_MINT_TO_CHECKED = 14;
const TAG_BURN_CHECKED = 15;

const index = z.number().int().nonnegative();
const instructionSchema = z.object({ programIdIndex: index, accounts: z.array(index), data: z.string() });
const tokenBalanceSchema = z.object({
  accountIndex: index,
  mint: z.string(),
  owner: z.string().optional(),
  programId: z.string().optional(),
  uiTokenAmount: z.object({ amount: z.string().regex(/^\d+$/), decimals: index }),
});
const resultSchema = z.object({
  slot: index,
  blockTime: z.number().int().nullish(),
  version: z.union([z.literal('legacy'), z.number()]).optional(),
  meta: z.object({
    err: z.unknown(),
    innerInstructions: z.array(z.object({ index, instructions: z.array(instructionSchema) })).nullish(),
    loadedAddresses: z.object({ writable: z.array(z.string()), readonly: z.array(z.string()) }).nullish(),
    preTokenBalances: z.array(tokenBalanceSchema).nullish(),
    postTokenBalances: z.array(tokenBalanceSchema).nullish(),
  }),
  transaction: z.object({
    signatures: z.array(z.string()).min(1),
    message: z.object({ accountKeys: z.array(z.string()), instructions: z.array(instructionSchema) }),
  }),
});

/** The fields of a `getTransaction` result (encoding `json`) that the decoder reads. */
export type SolanaTransactionResult = z.infer<typeof resultSchema>;
type Instruction = z.infer<typeof instructionSchema>;
type TokenBalance = z.infer<typeof tokenBalanceSchema>;

/** A native-USDC transfer with the Solana details behind it (the reader hands out only the `Transfer` fields). */
export interface SolanaUsdcTransfer extends Transfer {
  instructionIndex: number;
  /** Position inside the outer instruction's inner instructions; null for an outer instruction. */
  innerIndex: number | null;
  kind: 'transfer' | 'transferChecked';
  programId: string;
  sourceTokenAccount: string;
  destinationTokenAccount: string;
}

export interface DecodedSolanaTransaction {
  signature: string;
  slot: number;
  blockTime: number | null;
  /** `meta.err !== null`: the transaction failed and changed no token balance. */
  failed: boolean;
  err: unknown;
  /** Native-USDC transfers in execution order. Always empty for a failed transaction (nothing moved). */
  transfers: SolanaUsdcTransfer[];
}

const inconsistent = (message: string): ChainError => new ChainError('inconsistent', message);

/**
 * Checks the shape of a raw `getTransaction` result. A null result (not found) is not a result: handle it first.
 * Throws ChainError('inconsistent') when the shape is not that of an encoding-`json` result.
 */
export function parseGetTransactionResult(raw: unknown): SolanaTransactionResult {
  const parsed = resultSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw inconsistent(
      `malformed getTransaction result at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  if (parsed.data.meta.err === undefined) throw inconsistent('malformed getTransaction result: meta.err is missing');
  return parsed.data;
}

/** Decodes a raw `getTransaction` result (encoding `json`). See decodeParsedTransaction. */
export function decodeSolanaTransaction(raw: unknown, usdcMint: string = SOLANA.usdcMint): DecodedSolanaTransaction {
  return decodeParsedTransaction(parseGetTransactionResult(raw), usdcMint);
}

/**
 * Lists the native-USDC transfers of a parsed result.
 * - Account indexes resolve over `accountKeys`, then `loadedAddresses.writable`, then `loadedAddresses.readonly`.
 * - Inner instructions carry the index of their outer instruction as `instructionIndex`.
 * - Only `usdcMint` counts: TransferChecked names its mint; a plain Transfer takes the mint of its token accounts from
 *   pre/postTokenBalances, and counts not at all when no mint is known.
 * - `from`/`to` are the owner wallets of the token accounts (token balances' `owner`); a USDC transfer whose owner
 *   is unknown or changed within the transaction is 'inconsistent'.
 * - Reconciliation: for a successful transaction, the USDC balance change of every token account must equal what
 *   the decoded transfers (and USDC MintTo/Burn) explain, otherwise 'inconsistent' (a movement we cannot explain).
 */
export function decodeParsedTransaction(
  tx: SolanaTransactionResult,
  usdcMint: string = SOLANA.usdcMint,
): DecodedSolanaTransaction {
  const { meta, transaction } = tx;
  const failed = meta.err !== null;
  const base = {
    signature: transaction.signatures[0]!,
    slot: tx.slot,
    blockTime: tx.blockTime ?? null,
    failed,
    err: meta.err,
  };
  if (failed) return { ...base, transfers: [] };

  const keys = [
    ...transaction.message.accountKeys,
    ...(meta.loadedAddresses?.writable ?? []),
    ...(meta.loadedAddresses?.readonly ?? []),
  ];
  const keyAt = (i: number, what: string): string => {
    const key = keys[i];
    if (key === undefined)
      throw inconsistent(`${what} refers to account index ${i}, beyond the ${keys.length} accounts`);
    return key;
  };
  const pre = balancesByAccount(meta.preTokenBalances ?? [], keyAt, 'preTokenBalances');
  const post = balancesByAccount(meta.postTokenBalances ?? [], keyAt, 'postTokenBalances');
  const known = (account: string): TokenBalance[] =>
    [pre.get(account), post.get(account)].filter((b) => b !== undefined);

  const mintOf = (account: string): string | null => {
    const mints = new Set(known(account).map((b) => b.mint));
    if (mints.size > 1) throw inconsistent(`token account ${account} changes mint within the transaction`);
    return mints.values().next().value ?? null;
  };
  const ownerOf = (account: string): string => {
    const owners = new Set(known(account).flatMap((b) => (b.owner === undefined ? [] : [b.owner])));
    const owner = owners.values().next().value;
    if (owners.size !== 1 || owner === undefined) {
      throw inconsistent(`owner of USDC token account ${account} cannot be established from the token balances`);
    }
    return owner;
  };

  const inner = new Map<number, Instruction[]>();
  for (const group of meta.innerInstructions ?? []) {
    if (group.index >= transaction.message.instructions.length)
      throw inconsistent(`inner instructions refer to outer instruction ${group.index}, which does not exist`);
    inner.set(group.index, [...(inner.get(group.index) ?? []), ...group.instructions]);
  }

  const transfers: SolanaUsdcTransfer[] = [];
  const delta = new Map<string, bigint>();
  const move = (account: string, amount: bigint): void => {
    delta.set(account, (delta.get(account) ?? 0n) + amount);
  };

  const visit = (ix: Instruction, instructionIndex: number, innerIndex: number | null): void => {
    const where =
      innerIndex === null ? `instruction ${instructionIndex}` : `inner instruction ${instructionIndex}.${innerIndex}`;
    const programId = keyAt(ix.programIdIndex, where);
    if (!TOKEN_PROGRAMS.includes(programId)) return;
    const data = decodeBase58(ix.data, where);
    const tag = data[0];
    const account = (n: number): string => {
      const i = ix.accounts[n];
      if (i === undefined)
        throw inconsistent(`${where}: token instruction ${tag} has only ${ix.accounts.length} accounts`);
      return keyAt(i, where);
    };
    const amount = (): bigint => {
      if (data.length < 9) throw inconsistent(`${where}: token instruction ${tag} carries no u64 amount`);
      return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1, true);
    };
    const checkProgram = (tokenAccount: string): void => {
      for (const b of known(tokenAccount)) {
        if (b.programId !== undefined && b.programId !== programId)
          throw inconsistent(`${where}: token account ${tokenAccount} belongs to ${b.programId}, not ${programId}`);
      }
    };

    if (tag === TAG_TRANSFER || tag === TAG_TRANSFER_CHECKED) {
      const checked = tag === TAG_TRANSFER_CHECKED;
      const source = account(0);
      const destination = account(checked ? 2 : 1);
      const accountMints = [mintOf(source), mintOf(destination)].filter((m) => m !== null);
      let mint: string | null;
      if (checked) {
        mint = account(1);
        if (accountMints.some((m) => m !== mint))
          throw inconsistent(`${where}: TransferChecked names mint ${mint} but its token accounts hold another mint`);
      } else {
        if (new Set(accountMints).size > 1)
          throw inconsistent(`${where}: Transfer between token accounts of different mints`);
        mint = accountMints[0] ?? null;
      }
      if (mint !== usdcMint) return;
      const amountAtomic = amount();
      if (checked && (data.length < 10 || data[9] !== USDC_DECIMALS))
        throw inconsistent(`${where}: TransferChecked of USDC with decimals other than ${USDC_DECIMALS}`);
      checkProgram(source);
      checkProgram(destination);
      transfers.push({
        from: ownerOf(source),
        to: ownerOf(destination),
        amountAtomic,
        instructionIndex,
        innerIndex,
        kind: checked ? 'transferChecked' : 'transfer',
        programId,
        sourceTokenAccount: source,
        destinationTokenAccount: destination,
      });
      move(source, -amountAtomic);
      move(destination, amountAtomic);
    } else if (tag === TAG_MINT_TO || tag === TAG_MINT_TO_CHECKED) {
      if (account(0) === usdcMint) move(account(1), amount());
    } else if (tag === TAG_BURN || tag === TAG_BURN_CHECKED) {
      if (account(1) === usdcMint) move(account(0), -amount());
    }
  };

  transaction.message.instructions.forEach((ix, i) => {
    visit(ix, i, null);
    inner.get(i)?.forEach((innerIx, j) => visit(innerIx, i, j));
  });

  reconcile(usdcMint, pre, post, delta);
  return { ...base, transfers };
}

function balancesByAccount(
  balances: readonly TokenBalance[],
  keyAt: (i: number, what: string) => string,
  what: string,
): Map<string, TokenBalance> {
  const byAccount = new Map<string, TokenBalance>();
  for (const b of balances) {
    const account = keyAt(b.accountIndex, what);
    if (byAccount.has(account)) throw inconsistent(`${what} lists token account ${account} twice`);
    byAccount.set(account, b);
  }
  return byAccount;
}

/** Every USDC token account must have changed by exactly what the decoded instructions explain. */
function reconcile(
  usdcMint: string,
  pre: Map<string, TokenBalance>,
  post: Map<string, TokenBalance>,
  delta: Map<string, bigint>,
): void {
  const usdcAmount = (b: TokenBalance | undefined): bigint =>
    b !== undefined && b.mint === usdcMint ? BigInt(b.uiTokenAmount.amount) : 0n;
  const accounts = new Set([...pre.keys(), ...post.keys(), ...delta.keys()]);
  for (const account of accounts) {
    const observed = usdcAmount(post.get(account)) - usdcAmount(pre.get(account));
    const explained = delta.get(account) ?? 0n;
    if (observed !== explained) {
      throw inconsistent(
        `USDC balance of token account ${account} changed by ${observed} but the decoded instructions explain ${explained}`,
      );
    }
  }
}

/** Base58 to bytes (domain/base58.ts); a bad character is ChainError('inconsistent') naming `what`. */
export function decodeBase58(text: string, what = 'value'): Uint8Array {
  const bytes = base58Decode(text);
  if (!bytes) throw inconsistent(`${what}: data is not base58`);
  return bytes;
}

/** A transaction signature: 64 to 88 base58 characters that decode to exactly 64 bytes. */
export function isSolanaSignature(value: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(value)) return false;
  return decodeBase58(value).length === 64;
}

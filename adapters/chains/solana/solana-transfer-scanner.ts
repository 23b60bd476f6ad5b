import { z } from 'zod';
import { SOLANA } from '../../../domain/networks.js';
import type { ObservedTransfer } from '../../../domain/proof/matching.js';
import { ChainError } from '../types.js';
import { decodeParsedTransaction, isSolanaSignature, parseGetTransactionResult } from './decode.js';
import { createSolanaRpc, type SolanaRpcOptions } from './solana-rpc.js';
import { usdcTokenAccountOf } from './usdc-token-account.js';

export interface SolanaScannerOptions extends SolanaRpcOptions {
  /** Signatures per getSignaturesForAddress call (the RPC's maximum is 1000). Default 1000. */
  pageSize?: number;
}

/** One entry of getSignaturesForAddress at finalized commitment. */
export interface SignatureInfo {
  signature: string;
  slot: number;
  /** The transaction failed (`err` set): it moved nothing and is skipped without being read. */
  failed: boolean;
  blockTime: number | null;
}

/** Where an account's new signatures start: after `signature` when one was processed, else from `minSlot` on. */
export interface SignatureCursor {
  signature: string | null;
  minSlot: number;
}

/**
 * Finds incoming native USDC on Solana for the payment watcher, per watched wallet. USDC is held in token accounts,
 * so the watcher follows each wallet's USDC associated token account (the account wallets and Solana Pay pay to):
 * - `finalizedSlot`: the highest finalized slot (getSlot at finalized commitment).
 * - `newSignatures`: the account's signatures at `finalized` commitment (the /x402 rule for Solana: only finalized
 *   counts, so nothing that could still be rolled back is ever applied) after a cursor, oldest first. The RPC lists
 *   newest first, `pageSize` at a time: `until` = the last processed signature, `before` = the oldest of the previous
 *   page. An entry the node reports as not yet finalized ends the list there (nothing after it is returned, so a
 *   cursor can never pass it).
 * - `transfersInto`: one getTransaction at `finalized`, decoded by decode.ts (the /x402 decoder), keeping the USDC
 *   transfers whose destination is that token account and whose owner is the wallet. `logIndex` is the transfer's
 *   position among the transaction's USDC transfers in execution order (outer and inner instructions), which is
 *   unique per transaction even when one instruction makes several transfers.
 * The cost is one getSignaturesForAddress per watched wallet per scan (more while catching up) plus one
 * getTransaction per new signature.
 */
export interface SolanaTransferScanner {
  finalizedSlot(): Promise<number>;
  tokenAccountOf(owner: string): string;
  newSignatures(account: string, after: SignatureCursor): Promise<SignatureInfo[]>;
  transfersInto(entry: SignatureInfo, account: string, owner: string): Promise<ObservedTransfer[]>;
}

const signaturesSchema = z.array(
  z.object({
    signature: z.string().refine(isSolanaSignature, 'not a transaction signature'),
    slot: z.number().int().nonnegative(),
    err: z.unknown(),
    blockTime: z.number().int().nullish(),
    confirmationStatus: z.string().nullish(),
  }),
);
type RawSignature = z.infer<typeof signaturesSchema>[number];

const parseSignatures = (raw: unknown): RawSignature[] => {
  const parsed = signaturesSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `malformed getSignaturesForAddress result at ${parsed.error.issues[0]?.path.join('.') || '(root)'}`,
    );
  return parsed.data;
};
const parseSlot = (raw: unknown): number => z.number().int().nonnegative().parse(raw);

export function createSolanaTransferScanner(opts: SolanaScannerOptions): SolanaTransferScanner {
  const rpc = createSolanaRpc(opts, 'the Solana transfer scanner');
  const pageSize = opts.pageSize ?? 1000;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)
    throw new Error('pageSize must be an integer from 1 to 1000');
  const usdcMint = SOLANA.usdcMint;

  return {
    finalizedSlot: () =>
      rpc.request('getSlot', [{ commitment: 'finalized' }], parseSlot, 'getSlot at finalized commitment'),

    tokenAccountOf: (owner) => usdcTokenAccountOf(owner, usdcMint),

    async newSignatures(account, after) {
      const newestFirst: RawSignature[] = [];
      let before: string | undefined;
      for (;;) {
        const config = {
          commitment: 'finalized',
          limit: pageSize,
          ...(after.signature ? { until: after.signature } : {}),
          ...(before ? { before } : {}),
        };
        const page = await rpc.request(
          'getSignaturesForAddress',
          [account, config],
          parseSignatures,
          'getSignaturesForAddress at finalized commitment',
        );
        let reachedCursor = false;
        for (const entry of page) {
          // `until` is exclusive; the checks make a node that ignores it (or a slot cursor) end the list all the same.
          if (entry.signature === after.signature || (after.signature === null && entry.slot < after.minSlot)) {
            reachedCursor = true;
            break;
          }
          const previous = newestFirst.at(-1);
          if (previous && entry.slot > previous.slot)
            throw new ChainError(
              'inconsistent',
              `getSignaturesForAddress of ${account} is not in descending slot order`,
            );
          newestFirst.push(entry);
        }
        if (reachedCursor || page.length < pageSize) break;
        before = page.at(-1)!.signature;
      }
      // Everything newer than an entry that is not finalized waits with it.
      const unfinal = newestFirst.findLastIndex(
        (e) => e.confirmationStatus != null && e.confirmationStatus !== 'finalized',
      );
      return newestFirst
        .slice(unfinal + 1)
        .reverse()
        .map((e) => ({
          signature: e.signature,
          slot: e.slot,
          failed: e.err !== null && e.err !== undefined,
          blockTime: e.blockTime ?? null,
        }));
    },

    async transfersInto(entry, account, owner) {
      const tx = await rpc.request(
        'getTransaction',
        [entry.signature, { encoding: 'json', commitment: 'finalized', maxSupportedTransactionVersion: 0 }],
        (result) => (result === null ? null : parseGetTransactionResult(result)),
        'getTransaction at finalized commitment',
      );
      // Listed as finalized but not found: a lagging node behind a load balancer, most likely. Retried later.
      if (tx === null)
        throw new ChainError(
          'unavailable',
          `transaction ${entry.signature} is listed as finalized but getTransaction at finalized commitment does not find it`,
        );
      if (tx.transaction.signatures[0] !== entry.signature)
        throw new ChainError(
          'inconsistent',
          'the RPC answered with a transaction whose signature is not the one requested',
        );
      const decoded = decodeParsedTransaction(tx, usdcMint);
      if (decoded.failed) return [];
      const blockTime = decoded.blockTime ?? entry.blockTime;
      if (blockTime === null)
        throw new ChainError('unavailable', `no block time is known for transaction ${entry.signature}`);
      return decoded.transfers.flatMap((t, position): ObservedTransfer[] =>
        t.destinationTokenAccount === account && t.to === owner
          ? [
              {
                network: 'solana',
                txHash: entry.signature,
                logIndex: position,
                from: t.from,
                to: owner,
                amountAtomic: t.amountAtomic,
                blockNumber: decoded.slot,
                blockTime: new Date(blockTime * 1000),
              },
            ]
          : [],
      );
    },
  };
}

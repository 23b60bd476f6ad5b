import {
  createPublicClient,
  fallback,
  getAddress,
  http,
  isAddressEqual,
  isHex,
  parseAbi,
  parseEventLogs,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { base } from 'viem/chains';

/** One EIP-3009 TransferWithAuthorization, as signed by the payer. */
export interface Eip3009AuthorizationRef {
  /** The token contract (native USDC on Base). */
  asset: Address;
  from: Address;
  to: Address;
  value: bigint;
  nonce: Hex;
}

/**
 * What Base says about an authorization:
 * - `unused`: authorizationState(from, nonce) is false; it may still be executed until its validBefore.
 * - `paid`: it was used by a successful transaction that moved exactly `value` from `from` to `to`.
 * - `used_otherwise`: the nonce was used without paying `to` exactly `value`, or the payer canceled it.
 * - `unknown`: the nonce is used but the transaction that used it was not found in the recent blocks searched.
 */
export type AuthorizationOnChain =
  | { state: 'unused' }
  | { state: 'paid'; transaction: Hex }
  | { state: 'used_otherwise'; transaction?: Hex }
  | { state: 'unknown' };

export interface AuthorizationStateReader {
  /** Reads the authorization's state on Base; `hintTx` is a transaction hash the facilitator reported, if any. */
  inspect(ref: Eip3009AuthorizationRef, hintTx?: string): Promise<AuthorizationOnChain>;
}

const ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/**
 * Reads EIP-3009 authorization state on Base (chain id 8453) with viem, over the configured endpoints in
 * failover order. Used to reconcile a settlement whose outcome the facilitator could not report, instead of
 * settling again: the chain is the authority on whether the fee was paid.
 */
export function createAuthorizationStateReader(opts: {
  rpcUrls: readonly string[];
  timeoutMs: number;
  /** How far back to search for the AuthorizationUsed event. Default 5000 blocks (~2.8 h on Base). */
  lookbackBlocks?: bigint;
}): AuthorizationStateReader {
  if (opts.rpcUrls.length === 0) throw new Error('x402 authorization reader: no Base RPC URL configured');
  const client = createPublicClient({
    chain: base,
    transport: fallback(opts.rpcUrls.map((url) => http(url, { timeout: opts.timeoutMs, retryCount: 1 }))),
  });
  const lookback = opts.lookbackBlocks ?? 5000n;

  const paidBy = (receipt: TransactionReceipt, ref: Eip3009AuthorizationRef): boolean => {
    if (receipt.status !== 'success') return false;
    const logs = parseEventLogs({ abi: ABI, logs: receipt.logs.filter((l) => isAddressEqual(l.address, ref.asset)) });
    const used = logs.some(
      (l) =>
        l.eventName === 'AuthorizationUsed' &&
        isAddressEqual(l.args.authorizer, ref.from) &&
        l.args.nonce.toLowerCase() === ref.nonce.toLowerCase(),
    );
    const transfer = logs.some(
      (l) =>
        l.eventName === 'Transfer' &&
        isAddressEqual(l.args.from, ref.from) &&
        isAddressEqual(l.args.to, ref.to) &&
        l.args.value === ref.value,
    );
    return used && transfer;
  };

  const receiptOf = async (hash: Hex): Promise<TransactionReceipt | null> => {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (err) {
      if ((err as Error).name === 'TransactionReceiptNotFoundError') return null;
      throw err;
    }
  };

  return {
    async inspect(ref, hintTx) {
      const used = await client.readContract({
        address: getAddress(ref.asset),
        abi: ABI,
        functionName: 'authorizationState',
        args: [getAddress(ref.from), ref.nonce],
      });
      if (!used) return { state: 'unused' };
      if (hintTx && isHex(hintTx) && hintTx.length === 66) {
        const receipt = await receiptOf(hintTx);
        if (receipt && paidBy(receipt, ref)) return { state: 'paid', transaction: hintTx };
      }
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const range = { fromBlock: head > lookback ? head - lookback : 0n, toBlock: head };
      const args = { authorizer: getAddress(ref.from), nonce: ref.nonce };
      const [usedEvents, canceledEvents] = await Promise.all([
        client.getLogs({ address: getAddress(ref.asset), event: ABI[1], args, ...range }),
        client.getLogs({ address: getAddress(ref.asset), event: ABI[2], args, ...range }),
      ]);
      const tx = usedEvents[0]?.transactionHash;
      if (!tx)
        return canceledEvents[0]
          ? { state: 'used_otherwise', transaction: canceledEvents[0].transactionHash }
          : { state: 'unknown' };
      const receipt = await receiptOf(tx);
      if (!receipt) return { state: 'unknown' };
      return paidBy(receipt, ref) ? { state: 'paid', transaction: tx } : { state: 'used_otherwise', transaction: tx };
    },
  };
}

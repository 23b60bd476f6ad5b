import { getAddress, numberToHex, toEventSelector } from 'viem';
import { EVM, EVM_NETWORKS, isEvmNetwork, type EvmNetwork, type Network } from '../../../domain/networks.js';
import { ChainError, type ChainReader, type Transfer, type TxEvidence } from '../types.js';
import { parseBlock, parseQuantity, parseReceipt, type RawLog, type RawReceipt } from './evm-json.js';
import { createRpcPool, type RpcPool, type RpcSession } from './evm-rpc.js';

export interface EvmReaderOptions {
  /** RPC endpoints per EVM network, in failover order (Config['chains']['rpcUrls'] fits). */
  rpcUrls: Readonly<Record<EvmNetwork, readonly string[]>>;
  /** Confirmations (head - block + 1) at which a transaction counts as `confirmed`, per network. */
  requiredConfirmations: Readonly<Record<EvmNetwork, number>>;
  /** Per attempt of one JSON-RPC request, in milliseconds. */
  timeoutMs: number;
  /** Retries per request on one endpoint before failing over to the next. */
  retries: number;
  /**
   * Called once per JSON-RPC request sent (every retry counts), with the network and the 0-based position of
   * the endpoint in its list. For benchmarks and metrics; must not throw.
   */
  onRpcCall?: ((method: string, info: { network: EvmNetwork; endpoint: number }) => void) | undefined;
}

/** keccak256("Transfer(address,address,uint256)"): topic 0 of an ERC-20 Transfer event. */
export const ERC20_TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const ZERO_PADDING = '0'.repeat(24);

/**
 * Evidence of native USDC transfers on the six EVM networks (not Solana: see adapters/chains/solana/).
 *
 * One read, on ONE endpoint (failover rule: evm-rpc.ts), costs three JSON-RPC requests once the endpoint's
 * chain id is cached (the first read on an endpoint adds one eth_chainId, sent alongside the receipt request):
 *   1. eth_getTransactionReceipt(hash)                       -> block number/hash, status, logs
 *   2. eth_getBlockByNumber(receipt.blockNumber, false)  \  sent together: the canonical block at that height
 *   3. eth_blockNumber                                   /  (hash, timestamp, tx list) and the head
 * Checks, in order: receipt known (else not_found); the answers agree with each other (else inconsistent);
 * the receipt's block hash is the canonical hash at its height (else reorg); the transaction did not revert
 * (else failed). Transfers are the ERC-20 Transfer logs emitted by the network's native USDC contract only;
 * bridged USDC and other tokens yield none, and a transaction without any is still valid evidence.
 * `confirmed` iff head - block + 1 >= the network's required confirmations.
 */
export function createEvmReader(opts: EvmReaderOptions): ChainReader {
  const pools = {} as Record<EvmNetwork, RpcPool>;
  for (const network of EVM_NETWORKS) {
    const required = opts.requiredConfirmations[network];
    if (!Number.isInteger(required) || required < 1)
      throw new TypeError(`requiredConfirmations.${network}: a positive integer`);
    const onRpcCall = opts.onRpcCall;
    pools[network] = createRpcPool(opts.rpcUrls[network], {
      chainId: EVM[network].chainId,
      timeoutMs: opts.timeoutMs,
      retries: opts.retries,
      onRpcCall: onRpcCall && ((method, endpoint) => onRpcCall(method, { network, endpoint })),
    });
  }

  return {
    async getEvidence(network: Network, txHash: string): Promise<TxEvidence> {
      if (!isEvmNetwork(network) || !(network in pools)) throw new TypeError(`not an EVM network: ${String(network)}`);
      // The API validates first; this is defence in depth. A string that is no transaction hash names no
      // transaction on this chain, and is never sent to an RPC endpoint.
      if (typeof txHash !== 'string' || !TX_HASH.test(txHash))
        throw new ChainError('not_found', 'not an EVM transaction hash (0x + 64 hex)');
      const hash = txHash.toLowerCase();
      return pools[network].run((session) => readEvidence(session, network, hash, opts.requiredConfirmations[network]));
    },
  };
}

async function readEvidence(rpc: RpcSession, network: EvmNetwork, hash: string, required: number): Promise<TxEvidence> {
  const info = EVM[network];
  const [, receipt] = await Promise.all([
    rpc.checkChainId(),
    rpc.call('eth_getTransactionReceipt', [hash], parseReceipt),
  ]);
  if (receipt === null) throw new ChainError('not_found', `transaction not found on ${network}`);
  if (receipt.transactionHash !== hash) throw inconsistent('the receipt is of another transaction');

  const [block, head] = await Promise.all([
    rpc.call('eth_getBlockByNumber', [numberToHex(receipt.blockNumber), false], parseBlock),
    rpc.call('eth_blockNumber', [], (r) => parseQuantity(r, 'head block number')),
  ]);
  if (head < receipt.blockNumber)
    throw inconsistent(`head ${head} is below the receipt's block ${receipt.blockNumber}`);
  if (block === null) throw inconsistent(`no block at height ${receipt.blockNumber} although the head is ${head}`);
  if (block.number !== receipt.blockNumber) throw inconsistent('the block answered is not at the requested height');
  if (block.hash !== receipt.blockHash) {
    throw new ChainError('reorg', `the receipt's block ${receipt.blockNumber} is no longer canonical on ${network}`);
  }
  if (block.transactions[receipt.transactionIndex] !== hash)
    throw inconsistent('the block does not hold the transaction at its index');
  checkLogs(receipt);
  if (receipt.status === 'reverted') throw new ChainError('failed', `the transaction reverted on ${network}`);

  const confirmations = head - receipt.blockNumber + 1;
  return {
    network,
    chainId: info.chainId,
    txHash: hash,
    status: confirmations >= required ? 'confirmed' : 'waiting_confirmations',
    confirmations,
    requiredConfirmations: required,
    blockNumber: receipt.blockNumber,
    blockTimestamp: block.timestamp,
    tokenContract: info.usdc,
    transfers: nativeUsdcTransfers(receipt.logs, info.usdc.toLowerCase()),
  };
}

const inconsistent = (why: string) => new ChainError('inconsistent', `inconsistent chain evidence: ${why}`);

/** Every log of the receipt must belong to this transaction in this block. */
function checkLogs(receipt: RawReceipt): void {
  let previous = -1;
  for (const log of receipt.logs) {
    if (log.removed) throw new ChainError('reorg', 'a log of the receipt was removed by a reorganization');
    if (log.transactionHash !== receipt.transactionHash) throw inconsistent('a log belongs to another transaction');
    if (log.blockHash !== receipt.blockHash || log.blockNumber !== receipt.blockNumber)
      throw inconsistent('a log belongs to another block');
    if (log.logIndex <= previous) throw inconsistent('log indexes are not increasing');
    previous = log.logIndex;
  }
}

/** ERC-20 Transfer(address indexed from, address indexed to, uint256 value) logs of the native USDC contract. */
export function nativeUsdcTransfers(logs: readonly RawLog[], usdc: string): Transfer[] {
  const transfers: Transfer[] = [];
  for (const log of logs) {
    if (log.address !== usdc || log.topics[0] !== ERC20_TRANSFER_TOPIC) continue;
    const [, fromTopic, toTopic] = log.topics;
    // Native USDC emits exactly this shape; anything else from its address is not a USDC answer.
    if (log.topics.length !== 3 || fromTopic === undefined || toTopic === undefined || log.data.length !== 66) {
      throw inconsistent('a Transfer log of the USDC contract has an unexpected shape');
    }
    transfers.push({
      from: topicToAddress(fromTopic),
      to: topicToAddress(toTopic),
      amountAtomic: BigInt(log.data),
      logIndex: log.logIndex,
    });
  }
  return transfers;
}

function topicToAddress(topic: string): string {
  if (topic.slice(2, 26) !== ZERO_PADDING) throw inconsistent('an address topic is not a padded address');
  return getAddress(`0x${topic.slice(26)}`);
}

/**
 * Strict parsers of the raw JSON-RPC results the EVM reader uses. Anything of the wrong shape is a
 * MalformedAnswer, which the RPC layer treats like a transport failure (retry, then fail over): garbage is
 * not evidence. Hex strings come out lower-cased, so comparisons are plain `===`.
 */

/** A result that is not what the method returns. */
export class MalformedAnswer extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedAnswer';
  }
}

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: number;
  transactionHash: string;
  blockHash: string;
  blockNumber: number;
  removed: boolean;
}

export interface RawReceipt {
  transactionHash: string;
  transactionIndex: number;
  blockHash: string;
  blockNumber: number;
  /**
   * `0x1` success, `0x0` reverted. Pre-Byzantium receipts (Ethereum before block 4,370,000) carry a state
   * `root` instead and no status; they predate native USDC, so they are read as `legacy` (no transfers can exist).
   */
  status: 'success' | 'reverted' | 'legacy';
  logs: RawLog[];
}

export interface RawBlock {
  number: number;
  hash: string;
  timestamp: number;
  /** Transaction hashes (the block is requested without full transactions). */
  transactions: string[];
}

const HEX_QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DATA = /^0x(?:[0-9a-fA-F]{2})*$/;

type Obj = Record<string, unknown>;

function object(v: unknown, what: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new MalformedAnswer(`${what}: not an object`);
  return v as Obj;
}

function matching(re: RegExp, v: unknown, what: string): string {
  if (typeof v !== 'string' || !re.test(v)) throw new MalformedAnswer(`${what}: malformed`);
  return v.toLowerCase();
}

/** A hex quantity that fits a JavaScript safe integer (block numbers, indexes, timestamps, chain ids). */
export function parseQuantity(v: unknown, what = 'quantity'): number {
  const n = BigInt(matching(HEX_QUANTITY, v, what));
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new MalformedAnswer(`${what}: out of range`);
  return Number(n);
}

export const parseHash = (v: unknown, what = 'hash'): string => matching(HASH, v, what);

function parseLog(v: unknown, i: number): RawLog {
  const o = object(v, `log ${i}`);
  if (!Array.isArray(o.topics)) throw new MalformedAnswer(`log ${i}: topics malformed`);
  if (o.removed !== undefined && typeof o.removed !== 'boolean')
    throw new MalformedAnswer(`log ${i}: removed malformed`);
  return {
    address: matching(ADDRESS, o.address, `log ${i} address`),
    topics: o.topics.map((t, j) => parseHash(t, `log ${i} topic ${j}`)),
    data: matching(DATA, o.data, `log ${i} data`),
    logIndex: parseQuantity(o.logIndex, `log ${i} logIndex`),
    transactionHash: parseHash(o.transactionHash, `log ${i} transactionHash`),
    blockHash: parseHash(o.blockHash, `log ${i} blockHash`),
    blockNumber: parseQuantity(o.blockNumber, `log ${i} blockNumber`),
    removed: o.removed === true,
  };
}

/** eth_getLogs: an array of logs. */
export function parseLogs(v: unknown): RawLog[] {
  if (!Array.isArray(v)) throw new MalformedAnswer('logs: not an array');
  return v.map(parseLog);
}

/** eth_getTransactionReceipt: `null` while the node does not know the transaction (unknown or pending). */
export function parseReceipt(v: unknown): RawReceipt | null {
  if (v === null) return null;
  const o = object(v, 'receipt');
  let status: RawReceipt['status'];
  if (o.status === undefined && o.root !== undefined) status = 'legacy';
  else {
    const s = parseQuantity(o.status, 'receipt status');
    if (s > 1) throw new MalformedAnswer('receipt status: neither 0x0 nor 0x1');
    status = s === 1 ? 'success' : 'reverted';
  }
  if (!Array.isArray(o.logs)) throw new MalformedAnswer('receipt logs: not an array');
  return {
    transactionHash: parseHash(o.transactionHash, 'receipt transactionHash'),
    transactionIndex: parseQuantity(o.transactionIndex, 'receipt transactionIndex'),
    blockHash: parseHash(o.blockHash, 'receipt blockHash'),
    blockNumber: parseQuantity(o.blockNumber, 'receipt blockNumber'),
    status,
    logs: o.logs.map(parseLog),
  };
}

/** eth_getBlockByNumber(n, false): `null` when the node has no block at that height. */
export function parseBlock(v: unknown): RawBlock | null {
  if (v === null) return null;
  const o = object(v, 'block');
  if (!Array.isArray(o.transactions)) throw new MalformedAnswer('block transactions: not an array');
  return {
    number: parseQuantity(o.number, 'block number'),
    hash: parseHash(o.hash, 'block hash'),
    timestamp: parseQuantity(o.timestamp, 'block timestamp'),
    transactions: o.transactions.map((t, i) => parseHash(t, `block transaction ${i}`)),
  };
}

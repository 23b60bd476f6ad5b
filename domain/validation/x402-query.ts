import { decimalToAtomic } from '../money.js';
import { base58Decode } from '../base58.js';
import { isNetwork, walletAddressIssue, type Network } from '../networks.js';

/**
 * Query rules of the paid /x402 routes (spec section 4), checked before any payment is asked:
 * - tx_hash: 64-100 characters; EVM `0x` + 64 hex; Solana a base58 signature of 64-88 characters (64 bytes);
 *   it must fit the selected network.
 * - network: one of the seven networks; default `base`.
 * - recipient: 32-44 characters; EVM `0x` + 40 hex; Solana a base58 wallet address (32 bytes).
 * - amount: 1-24 characters; positive decimal, 1-17 integer digits, optional 1-6 fraction digits; no sign,
 *   exponent or spaces; zero rejected.
 * A parameter given twice is rejected; unknown parameters are ignored.
 */
export interface QueryIssue {
  param: string;
  message: string;
}

export interface TxQuery {
  network: Network;
  txHash: string;
}

export interface MatchQuery extends TxQuery {
  recipient: string;
  amount: string;
  amountAtomic: bigint;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: QueryIssue[] };

type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

const EVM_TX = /^0x[0-9a-fA-F]{64}$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

function single(raw: RawQuery, param: string, issues: QueryIssue[], required: boolean): string | undefined {
  const v = raw[param];
  if (Array.isArray(v)) {
    issues.push({ param, message: `${param} must be given once` });
    return undefined;
  }
  if (v === undefined) {
    if (required) issues.push({ param, message: `${param} is required` });
    return undefined;
  }
  return v;
}

function lengthIssue(param: string, v: string, min: number, max: number): QueryIssue | null {
  return v.length < min || v.length > max
    ? { param, message: `${param} must be ${min} to ${max} characters long` }
    : null;
}

function parseNetwork(raw: RawQuery, issues: QueryIssue[]): Network | undefined {
  const v = single(raw, 'network', issues, false);
  if (v === undefined) return issues.some((i) => i.param === 'network') ? undefined : 'base';
  if (!isNetwork(v)) {
    issues.push({
      param: 'network',
      message: 'network must be one of base, polygon, arbitrum, optimism, ethereum, avalanche, solana',
    });
    return undefined;
  }
  return v;
}

function parseTxHash(raw: RawQuery, network: Network | undefined, issues: QueryIssue[]): string | undefined {
  const v = single(raw, 'tx_hash', issues, true);
  if (v === undefined) return undefined;
  const len = lengthIssue('tx_hash', v, 64, 100);
  if (len) {
    issues.push(len);
    return undefined;
  }
  if (network === undefined) return undefined;
  if (network === 'solana') {
    if (v.length > 88 || !BASE58.test(v) || base58Decode(v)?.length !== 64) {
      issues.push({
        param: 'tx_hash',
        message: 'on solana, tx_hash must be a base58 transaction signature (64 to 88 characters)',
      });
      return undefined;
    }
    return v;
  }
  if (!EVM_TX.test(v)) {
    issues.push({
      param: 'tx_hash',
      message: `on ${network}, tx_hash must be 0x followed by 64 hexadecimal characters`,
    });
    return undefined;
  }
  return v;
}

export function parseTxQuery(raw: RawQuery): Parsed<TxQuery> {
  const issues: QueryIssue[] = [];
  const network = parseNetwork(raw, issues);
  const txHash = parseTxHash(raw, network, issues);
  if (issues.length || !network || !txHash) return { ok: false, issues };
  return { ok: true, value: { network, txHash } };
}

export function parseMatchQuery(raw: RawQuery): Parsed<MatchQuery> {
  const issues: QueryIssue[] = [];
  const network = parseNetwork(raw, issues);
  const txHash = parseTxHash(raw, network, issues);

  let recipient = single(raw, 'recipient', issues, true);
  if (recipient !== undefined) {
    const len = lengthIssue('recipient', recipient, 32, 44);
    if (len) {
      issues.push(len);
      recipient = undefined;
    } else if (network !== undefined && walletAddressIssue(network, recipient) !== null) {
      issues.push({ param: 'recipient', message: `recipient: ${walletAddressIssue(network, recipient)}` });
      recipient = undefined;
    }
  }

  let amount = single(raw, 'amount', issues, true);
  let amountAtomic: bigint | undefined;
  if (amount !== undefined) {
    const len = lengthIssue('amount', amount, 1, 24);
    if (len) {
      issues.push(len);
      amount = undefined;
    } else {
      const atomic = decimalToAtomic(amount);
      if (atomic === null) {
        issues.push({
          param: 'amount',
          message:
            'amount must be a positive decimal: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits (no sign, exponent or spaces)',
        });
        amount = undefined;
      } else if (atomic === 0n) {
        issues.push({ param: 'amount', message: 'amount must be greater than zero' });
      } else {
        amountAtomic = atomic;
      }
    }
  }
  if (
    issues.length ||
    !network ||
    !txHash ||
    recipient === undefined ||
    amount === undefined ||
    amountAtomic === undefined
  ) {
    return { ok: false, issues };
  }
  return { ok: true, value: { network, txHash, recipient, amount, amountAtomic } };
}

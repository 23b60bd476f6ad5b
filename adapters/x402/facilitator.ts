import { HTTPFacilitatorClient, type FacilitatorClient } from '@x402/core/server';
import { x402Facilitator } from '@x402/core/facilitator';
import type {
  Network,
  PaymentPayload,
  PaymentRequirements,
  SettleResponse,
  SupportedResponse,
  VerifyResponse,
} from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { concat, createWalletClient, encodeFunctionData, http, publicActions, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { FEE_NETWORK } from '../../domain/networks.js';
import {
  SettlementNotBroadcastError,
  createSettlementSender,
  inProcessTurns,
  type SenderNode,
  type SendingTurns,
} from './settlement-sender.js';

/** Which facilitator verifies and settles /x402 fees (the same shape as Config['x402']['facilitator']). */
export type FacilitatorSettings =
  | { readonly kind: 'remote'; readonly url: string }
  | { readonly kind: 'self'; readonly privateKey: `0x${string}` }
  | { readonly kind: 'none' };

export interface FacilitatorOptions {
  /** Base RPC endpoints in the operator's order (RPC_URL_BASE); the self-hosted facilitator settles through the first. */
  baseRpcUrls: readonly string[];
  /** Per facilitator HTTP request (remote) or per RPC request (self), in milliseconds. Default 30 s. */
  requestTimeoutMs?: number;
  /** Self-hosted: how long one settlement waits for its receipt before reporting `settlement_pending`. Default 30 s. */
  confirmationTimeoutMs?: number;
  /** Self-hosted: receipt polling interval in milliseconds. Default 1 s (Base makes a block every ~2 s). */
  pollingIntervalMs?: number;
  /**
   * Self-hosted: the sending turns of the key, so concurrent settlements get distinct transaction nonces. Several
   * processes settling with one key must share them (db/repositories/x402-sender-nonces.repo.ts, in PostgreSQL);
   * default: turns within this process only.
   */
  sendingTurns?: SendingTurns;
}

/**
 * The x402 `errorReason` of a self-hosted settlement whose transaction was never broadcast (the node refused it, or it
 * could not be prepared): the fee was not paid, and this authorization will not be settled by us.
 */
export const SETTLEMENT_NOT_BROADCAST = 'settlement_not_broadcast';

export interface X402Facilitator {
  kind: 'remote' | 'self';
  /** An @x402/core FacilitatorClient: verify, settle, getSupported. Its errors and messages never carry secrets. */
  client: FacilitatorClient;
  /** Self-hosted: the address that signs settlement transactions and pays their gas. */
  signerAddress?: `0x${string}`;
}

/** The fee network as x402 names it (CAIP-2). */
export const FEE_NETWORK_ID = FEE_NETWORK.caip2 as Network;

/**
 * Builds the facilitator client for a configuration: `remote` talks to an x402 facilitator over HTTP
 * (@x402/core HTTPFacilitatorClient); `self` runs @x402/core's facilitator in-process with the EVM `exact`
 * scheme, signing with the configured key and settling on Base (chain id 8453) through the first Base RPC
 * URL; `none` returns null (paid routes then answer 503 payments_not_configured: there is never a silent
 * fallback to a public facilitator).
 *
 * The private key stays inside the viem account: it is never logged, and every error or message leaving the
 * client is scrubbed of it and of the RPC and facilitator URLs (which often embed API keys).
 */
export function createFacilitator(settings: FacilitatorSettings, opts: FacilitatorOptions): X402Facilitator | null {
  const timeoutMs = opts.requestTimeoutMs ?? 30_000;
  if (settings.kind === 'none') return null;
  if (settings.kind === 'remote') {
    const client = new HTTPFacilitatorClient({ url: settings.url, timeoutMs });
    return { kind: 'remote', client: scrubbed(client, [], [settings.url, ...opts.baseRpcUrls]) };
  }
  const rpcUrl = opts.baseRpcUrls[0];
  if (!rpcUrl) throw new Error('x402 self-hosted facilitator: no Base RPC URL configured');
  const account = privateKeyToAccount(settings.privateKey);
  const wallet = createWalletClient({
    account,
    chain: base,
    transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 1 }),
    pollingInterval: opts.pollingIntervalMs ?? 1_000,
  }).extend(publicActions);
  type Args<K extends keyof typeof wallet> = Parameters<(typeof wallet)[K] & ((...a: never[]) => unknown)>[0];
  const node: SenderNode = {
    key: { chainId: base.id, address: account.address },
    pendingNonce: async () =>
      BigInt(await wallet.getTransactionCount({ address: account.address, blockTag: 'pending' })),
    async prepare({ to, data, gas }) {
      // Gas, fees and type only: the nonce is the turn's.
      const request = await wallet.prepareTransactionRequest({
        account,
        chain: base,
        to,
        data,
        ...(gas !== undefined ? { gas } : {}),
        parameters: ['chainId', 'fees', 'gas', 'type'],
      });
      return (nonce) => wallet.signTransaction({ ...request, nonce: Number(nonce) } as Args<'signTransaction'>);
    },
    sendRaw: (serializedTransaction) => wallet.sendRawTransaction({ serializedTransaction }),
    knows: (hash) =>
      wallet.getTransaction({ hash }).then(
        () => true,
        () => false,
      ),
  };
  const sender = createSettlementSender({ node, turns: opts.sendingTurns ?? inProcessTurns() });
  // What the sender reported during one settle call: a transaction it refused to broadcast, and whether one went out.
  const sends = new AsyncLocalStorage<{ notBroadcast?: SettlementNotBroadcastError; broadcast?: boolean }>();
  const send = async (tx: Parameters<typeof sender.send>[0]) => {
    const record = sends.getStore();
    try {
      const hash = await sender.send(tx);
      if (record) record.broadcast = true;
      return hash;
    } catch (err) {
      if (record && err instanceof SettlementNotBroadcastError) record.notBroadcast = err;
      throw err;
    }
  };
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      getCode: (args) => wallet.getCode(args),
      readContract: (args) => wallet.readContract({ ...args, args: args.args ?? [] } as Args<'readContract'>),
      verifyTypedData: (args) => wallet.verifyTypedData(args as Args<'verifyTypedData'>),
      writeContract: (args) => {
        const data = encodeFunctionData({ abi: args.abi as Abi, functionName: args.functionName, args: args.args });
        return send({
          to: args.address,
          data: args.dataSuffix ? concat([data, args.dataSuffix]) : data,
          gas: args.gas,
        });
      },
      sendTransaction: (args) => send({ to: args.to, data: args.data }),
      waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
    },
    { confirmationTimeoutMs: opts.confirmationTimeoutMs ?? 30_000 },
  );
  const facilitator = new x402Facilitator().register(FEE_NETWORK_ID, new ExactEvmScheme(signer));
  const client: FacilitatorClient = {
    verify: (payload: PaymentPayload, requirements: PaymentRequirements) => facilitator.verify(payload, requirements),
    async settle(payload: PaymentPayload, requirements: PaymentRequirements) {
      const record: { notBroadcast?: SettlementNotBroadcastError; broadcast?: boolean } = {};
      const result = await sends.run(record, () => facilitator.settle(payload, requirements));
      // @x402/evm reports a send that threw as a generic transaction failure, which could as well mean "broadcast, then
      // lost": say that nothing went out, so the outcome is known at once (a specific reason it found stays).
      if (
        !result.success &&
        !result.transaction &&
        record.notBroadcast &&
        !record.broadcast &&
        result.errorReason === GENERIC_TRANSACTION_FAILURE
      ) {
        return { ...result, errorReason: SETTLEMENT_NOT_BROADCAST, errorMessage: record.notBroadcast.message };
      }
      return result;
    },
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
  return {
    kind: 'self',
    client: scrubbed(client, [settings.privateKey], opts.baseRpcUrls),
    signerAddress: account.address,
  };
}

/**
 * Wraps a facilitator client so nothing it throws or returns carries a secret: the private key (with or
 * without 0x, any case) and configured URLs are replaced in error messages, stacks, viem error details and
 * causes, and in `invalidMessage` / `errorMessage`. Error classes are kept (FacilitatorTimeoutError stays one).
 */
function scrubbed(client: FacilitatorClient, secrets: readonly Hex[], urls: readonly string[]): FacilitatorClient {
  const replacements: Array<[RegExp, string]> = [
    ...secrets
      .flatMap((s) => [s, s.slice(2)])
      .map((s): [RegExp, string] => [new RegExp(escape(s), 'gi'), '[redacted]']),
    ...urls.filter(Boolean).map((u, i): [RegExp, string] => [new RegExp(escape(u), 'g'), `[endpoint ${i + 1}]`]),
  ];
  const scrub = (text: string) => replacements.reduce((t, [re, by]) => t.replace(re, by), text);
  const scrubError = (err: unknown, depth = 0): unknown => {
    if (!(err instanceof Error) || depth > 5) return err;
    const e = err as Error & Record<string, unknown>;
    for (const field of ['message', 'stack', 'shortMessage', 'details']) {
      const value = e[field];
      if (typeof value === 'string') {
        try {
          Object.defineProperty(e, field, { value: scrub(value), configurable: true, writable: true });
        } catch {
          /* a frozen error keeps its field */
        }
      }
    }
    if (Array.isArray(e.metaMessages))
      e.metaMessages = e.metaMessages.map((m) => (typeof m === 'string' ? scrub(m) : m));
    if (e.cause !== undefined) scrubError(e.cause, depth + 1);
    return e;
  };
  const guard = async <T>(run: () => Promise<T>, clean: (r: T) => T): Promise<T> => {
    try {
      return clean(await run());
    } catch (err) {
      throw scrubError(err);
    }
  };
  return {
    verify: (p, r) =>
      guard<VerifyResponse>(
        () => client.verify(p, r),
        (v) => (v.invalidMessage ? { ...v, invalidMessage: scrub(v.invalidMessage) } : v),
      ),
    settle: (p, r) =>
      guard<SettleResponse>(
        () => client.settle(p, r),
        (s) => (s.errorMessage ? { ...s, errorMessage: scrub(s.errorMessage) } : s),
      ),
    getSupported: () =>
      guard(
        () => client.getSupported(),
        (s) => s,
      ),
  };
}

/** @x402/evm's `errorReason` for a settlement transaction that failed without a more specific cause. */
const GENERIC_TRANSACTION_FAILURE = 'invalid_exact_evm_transaction_failed';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FacilitatorClient } from '@x402/core/server';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import type { Address, Hex } from 'viem';
import { createFacilitator } from '../adapters/x402/facilitator.js';
import { createAuthorizationStateReader } from '../adapters/x402/authorization-state.js';
import { FEE_NETWORK } from '../domain/networks.js';
import { startEvmNode, type EvmAccount, type EvmNode } from './evm-node.js';

export const USDC = FEE_NETWORK.usdc;

/** The terms of an EIP-3009 `transferWithAuthorization` of the USDC-like token. */
export interface TransferAuthorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

/** `authorization` signed by `account` under the token's EIP-712 domain on chain `chainId` (as a wallet would sign it). */
export function signTransferAuthorization(
  account: EvmAccount,
  chainId: number,
  authorization: TransferAuthorization,
): Promise<Hex> {
  return privateKeyToAccount(account.privateKey).signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId, verifyingContract: USDC },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
}

/** Base (chain id 8453) on Hardhat: native USDC at its canonical address, a funded payer, a gas-paying facilitator signer, a payee. */
export interface X402Chain {
  node: EvmNode;
  payer: EvmAccount;
  facilitatorSigner: EvmAccount;
  payTo: Address;
  /** The self-hosted facilitator (adapters/x402/facilitator.ts) signing with `facilitatorSigner`. */
  facilitator: FacilitatorClient;
  authorizationState: ReturnType<typeof createAuthorizationStateReader>;
  balances(): Promise<{ payer: bigint; payTo: bigint }>;
}

export async function startX402Chain(): Promise<X402Chain> {
  const node = await startEvmNode({ chainId: 8453 });
  const [, facilitatorSigner, payer, payee] = node.accounts as [EvmAccount, EvmAccount, EvmAccount, EvmAccount];
  try {
    await node.placeToken(USDC);
    await node.mint(USDC, payer.address, 10_000_000n);
  } catch (err) {
    await node.stop();
    throw err;
  }
  const facilitator = createFacilitator(
    { kind: 'self', privateKey: facilitatorSigner.privateKey },
    { baseRpcUrls: [node.url], pollingIntervalMs: 100 },
  )!;
  return {
    node,
    payer,
    facilitatorSigner,
    payTo: payee.address,
    facilitator: facilitator.client,
    authorizationState: createAuthorizationStateReader({ rpcUrls: [node.url], timeoutMs: 30_000 }),
    balances: async () => ({
      payer: await node.balanceOf(USDC, payer.address),
      payTo: await node.balanceOf(USDC, payee.address),
    }),
  };
}

/** An @x402/fetch paying client for `account`, recording every PAYMENT-SIGNATURE header it sends. */
export function payingClient(account: EvmAccount) {
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(account.privateKey)));
  const signatures: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const signature = request.headers.get('payment-signature');
    if (signature) signatures.push(signature);
    return fetch(request);
  };
  return {
    fetch: wrapFetchWithPayment(recording, client),
    signatures,
    /** A new, never presented PAYMENT-SIGNATURE for the challenge `url` answers with. */
    async sign(url: string): Promise<string> {
      const challenge = await fetch(url);
      const http = new x402HTTPClient(client);
      const payload = await http.createPaymentPayload(
        decodePaymentRequiredHeader(challenge.headers.get('payment-required')!),
      );
      return http.encodePaymentSignatureHeader(payload)['PAYMENT-SIGNATURE']!;
    },
  };
}

/**
 * Serves a facilitator over the x402 facilitator HTTP API (GET /supported, POST /verify, POST /settle), so the
 * remote configuration (HTTPFacilitatorClient) is exercised end to end against a real server.
 */
export async function serveFacilitator(
  facilitator: FacilitatorClient,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const run = async () => {
        if (req.method === 'GET' && req.url === '/supported') return reply(200, await facilitator.getSupported());
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
          paymentPayload: never;
          paymentRequirements: never;
        };
        if (req.method === 'POST' && req.url === '/verify')
          return reply(200, await facilitator.verify(body.paymentPayload, body.paymentRequirements));
        if (req.method === 'POST' && req.url === '/settle')
          return reply(200, await facilitator.settle(body.paymentPayload, body.paymentRequirements));
        return reply(404, { error: 'not found' });
      };
      run().catch(() => reply(500, { error: 'facilitator failure' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

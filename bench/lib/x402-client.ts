import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';

/** One HTTP exchange made by the paying client: with or without a PAYMENT-SIGNATURE, time to response headers. */
export interface Hop {
  paid: boolean;
  ms: number;
}

/**
 * The official x402 client as a payer uses it (@x402/fetch wrapFetchWithPayment + the @x402/evm `exact` scheme
 * with a viem local account, like support/x402-harness.ts payingClient): a request without payment, the
 * 402 challenge, a fresh EIP-3009 authorization signed for it, the request again with PAYMENT-SIGNATURE. The
 * underlying fetch is timed per exchange; `takeHops()` returns the exchanges since the last call.
 */
export function timedPayingClient(privateKey: Hex): { fetch: typeof fetch; takeHops(): Hop[] } {
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(privateKey)));
  let hops: Hop[] = [];
  const timed: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const paid = request.headers.has('payment-signature');
    const started = performance.now();
    const response = await fetch(request);
    hops.push({ paid, ms: performance.now() - started });
    return response;
  };
  return {
    fetch: wrapFetchWithPayment(timed, client),
    takeHops() {
      const taken = hops;
      hops = [];
      return taken;
    },
  };
}

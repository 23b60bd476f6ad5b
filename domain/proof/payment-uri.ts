import { formatUsdc } from '../money.js';
import { EVM, SOLANA, type Network } from '../networks.js';

/**
 * The wallet link of a payment request (what its QR code encodes): a transfer of exactly `amountAtomic` native
 * USDC to `payTo` on `network`.
 * - EVM: EIP-681, a call of the USDC contract's `transfer(address,uint256)` on the network's chain id:
 *   `ethereum:<usdc>@<chainId>/transfer?address=<payTo>&uint256=<amountAtomic>`.
 * - Solana: Solana Pay transfer request in USDC:
 *   `solana:<payTo>?amount=<decimal>&spl-token=<USDC mint>`; the amount is in USDC (not atomic units), with
 *   up to six decimals and no trailing zeros.
 * The inputs were validated when the request was created; they are checked again here because they end up
 * inside a URI, where a stray `&` or `?` would change its meaning.
 */
export interface PaymentUriInput {
  network: Network;
  payTo: string;
  amountAtomic: bigint;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export function paymentUri({ network, payTo, amountAtomic }: PaymentUriInput): string {
  if (amountAtomic <= 0n) throw new RangeError('payment amount must be positive');
  if (network === 'solana') {
    if (!SOLANA_ADDRESS.test(payTo)) throw new RangeError('payTo is not a base58 Solana address');
    return `solana:${payTo}?amount=${solanaPayAmount(amountAtomic)}&spl-token=${SOLANA.usdcMint}`;
  }
  if (!EVM_ADDRESS.test(payTo)) throw new RangeError('payTo is not a 0x EVM address');
  const { usdc, chainId } = EVM[network];
  return `ethereum:${usdc}@${chainId}/transfer?address=${payTo}&uint256=${amountAtomic.toString()}`;
}

/** USDC decimal for Solana Pay: 12500042n -> "12.500042", 12500000n -> "12.5", 12000000n -> "12". */
export function solanaPayAmount(amountAtomic: bigint): string {
  return formatUsdc(amountAtomic).replace(/\.?0+$/, '');
}

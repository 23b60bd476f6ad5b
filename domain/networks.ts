import { base58Decode } from './base58.js';
/**
 * The seven inspected networks and their native USDC. Bridged USDC (USDC.e, USDbC) is a different contract
 * and never counts. Confirmation thresholds are defaults; config may override them per network
 * (CONFIRMATIONS_<NETWORK>). Reasons: docs/x402.md#confirmation-thresholds.
 */
export const NETWORKS = ['base', 'polygon', 'arbitrum', 'optimism', 'ethereum', 'avalanche', 'solana'] as const;
export type Network = (typeof NETWORKS)[number];
export type EvmNetwork = Exclude<Network, 'solana'>;
export const EVM_NETWORKS = NETWORKS.filter((n): n is EvmNetwork => n !== 'solana');

export interface EvmNetworkInfo {
  kind: 'evm';
  network: EvmNetwork;
  chainId: number;
  /** CAIP-2 id, e.g. eip155:8453. */
  caip2: string;
  /** Circle's native USDC contract (checksummed). */
  usdc: `0x${string}`;
  /** Well-known bridged USDC contracts on this chain (not native; yield no transfers). */
  bridgedUsdc: readonly `0x${string}`[];
  defaultRequiredConfirmations: number;
  averageBlockSeconds: number;
}

export interface SolanaNetworkInfo {
  kind: 'solana';
  network: 'solana';
  chainId: string;
  caip2: string;
  usdcMint: string;
}

export type NetworkInfo = EvmNetworkInfo | SolanaNetworkInfo;

export const EVM: Readonly<Record<EvmNetwork, EvmNetworkInfo>> = {
  base: {
    kind: 'evm',
    network: 'base',
    chainId: 8453,
    caip2: 'eip155:8453',
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    bridgedUsdc: ['0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA'],
    defaultRequiredConfirmations: 150,
    averageBlockSeconds: 2,
  },
  polygon: {
    kind: 'evm',
    network: 'polygon',
    chainId: 137,
    caip2: 'eip155:137',
    usdc: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    bridgedUsdc: ['0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174'],
    defaultRequiredConfirmations: 128,
    averageBlockSeconds: 2,
  },
  arbitrum: {
    kind: 'evm',
    network: 'arbitrum',
    chainId: 42161,
    caip2: 'eip155:42161',
    usdc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    bridgedUsdc: ['0xFF970A61A04b1cA14834A43f5dE4533eBDDB5CC8'],
    defaultRequiredConfirmations: 1200,
    averageBlockSeconds: 0.25,
  },
  optimism: {
    kind: 'evm',
    network: 'optimism',
    chainId: 10,
    caip2: 'eip155:10',
    usdc: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
    bridgedUsdc: ['0x7F5c764cBc14f9669B88837ca1490cCa17c31607'],
    defaultRequiredConfirmations: 150,
    averageBlockSeconds: 2,
  },
  ethereum: {
    kind: 'evm',
    network: 'ethereum',
    chainId: 1,
    caip2: 'eip155:1',
    usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    bridgedUsdc: [],
    defaultRequiredConfirmations: 64,
    averageBlockSeconds: 12,
  },
  avalanche: {
    kind: 'evm',
    network: 'avalanche',
    chainId: 43114,
    caip2: 'eip155:43114',
    usdc: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E',
    bridgedUsdc: ['0xA7D7079b0FEaD91F3e65f86E8915Cb59c1a4C664'],
    defaultRequiredConfirmations: 1,
    averageBlockSeconds: 2,
  },
};

export const SOLANA: SolanaNetworkInfo = {
  kind: 'solana',
  network: 'solana',
  chainId: 'mainnet-beta',
  caip2: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  usdcMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
};

export function networkInfo(network: Network): NetworkInfo {
  return network === 'solana' ? SOLANA : EVM[network];
}

export const isNetwork = (v: string): v is Network => (NETWORKS as readonly string[]).includes(v);
export const isEvmNetwork = (n: Network): n is EvmNetwork => n !== 'solana';

/** The fee of every paid call settles in native USDC on Base. */
export const FEE_NETWORK = EVM.base;

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** Why `address` is not a wallet address on `network` (null when it is one). */
export function walletAddressIssue(network: Network, address: string): string | null {
  if (network === 'solana') {
    return BASE58.test(address) && base58Decode(address)?.length === 32
      ? null
      : 'on solana, a wallet is a base58 address of 32 bytes (the owner, not a token account)';
  }
  return EVM_ADDRESS.test(address) ? null : `on ${network}, a wallet is 0x followed by 40 hexadecimal characters`;
}

/**
 * The one spelling of a receiving address on `network`, by which addresses are compared (and kept unique): EVM
 * addresses in lower case (EIP-55 checksums and all-upper-case forms name the same account); a Solana address as
 * it is (base58 is case-sensitive). The database computes the same key (`merchant_wallets.address_key`).
 */
export const addressKey = (network: Network, address: string): string =>
  network === 'solana' ? address : address.toLowerCase();

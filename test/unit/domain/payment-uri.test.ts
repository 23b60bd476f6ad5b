import { describe, expect, it } from 'vitest';
import { NETWORKS } from '../../../domain/networks.js';
import { paymentUri, solanaPayAmount } from '../../../domain/proof/payment-uri.js';

const EVM_PAY_TO = '0x52908400098527886E0F7030069857D2E4169EE7';
const SOL_PAY_TO = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

describe('paymentUri: EIP-681 USDC transfer on each EVM network', () => {
  it.each([
    ['base', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 8453],
    ['polygon', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 137],
    ['arbitrum', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 42161],
    ['optimism', '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 10],
    ['ethereum', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 1],
    ['avalanche', '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', 43114],
  ] as const)('%s -> ethereum:<native USDC>@%s', (network, usdc, chainId) => {
    expect(paymentUri({ network, payTo: EVM_PAY_TO, amountAtomic: 12_500_042n })).toBe(
      `ethereum:${usdc}@${chainId}/transfer?address=${EVM_PAY_TO}&uint256=12500042`,
    );
  });

  it('writes the amount in atomic units, never as a decimal or in exponent form', () => {
    expect(paymentUri({ network: 'base', payTo: EVM_PAY_TO, amountAtomic: 100_000_000_000_000_000_000n })).toMatch(
      /&uint256=100000000000000000000$/,
    );
    expect(paymentUri({ network: 'base', payTo: EVM_PAY_TO, amountAtomic: 1n })).toMatch(/&uint256=1$/);
  });
});

describe('paymentUri: Solana Pay USDC transfer', () => {
  const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
  it.each([
    [12_500_042n, '12.500042'],
    [12_500_000n, '12.5'],
    [12_000_000n, '12'],
    [100_000_000n, '100'],
    [10_500_000n, '10.5'],
    [1n, '0.000001'],
    [1_000_010n, '1.00001'],
    [999_999n, '0.999999'],
  ])('%s atomic -> amount=%s', (atomic, decimal) => {
    expect(solanaPayAmount(atomic)).toBe(decimal);
    expect(paymentUri({ network: 'solana', payTo: SOL_PAY_TO, amountAtomic: atomic })).toBe(
      `solana:${SOL_PAY_TO}?amount=${decimal}&spl-token=${MINT}`,
    );
  });
});

describe('paymentUri: covers every network and refuses inputs that would change the URI', () => {
  it('has a URI for all seven networks', () => {
    expect(NETWORKS).toHaveLength(7);
    for (const network of NETWORKS) {
      const payTo = network === 'solana' ? SOL_PAY_TO : EVM_PAY_TO;
      expect(paymentUri({ network, payTo, amountAtomic: 5n })).toMatch(
        network === 'solana' ? /^solana:/ : /^ethereum:0x/,
      );
    }
  });

  it.each([
    ['base', `${EVM_PAY_TO}&uint256=1`, 1n],
    ['base', SOL_PAY_TO, 1n],
    ['base', '0x1234', 1n],
    ['solana', EVM_PAY_TO, 1n],
    ['solana', `${SOL_PAY_TO}?amount=1`, 1n],
    ['base', EVM_PAY_TO, 0n],
    ['solana', SOL_PAY_TO, -1n],
  ] as const)('%s, %s, %s -> throws', (network, payTo, amountAtomic) => {
    expect(() => paymentUri({ network, payTo, amountAtomic })).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { usdcTokenAccountOf } from '../../../adapters/chains/solana/usdc-token-account.js';
import { SOLANA } from '../../../domain/networks.js';

/** Where the Solana watcher looks for a wallet's USDC: its associated token account, checked against mainnet data. */
describe('USDC associated token account', () => {
  it('is the token account of the recorded transaction for both its wallets', () => {
    // mainnet-usdc-transfer-creates-ata: the recipient's account is created by the ATA program in that transaction.
    expect(usdcTokenAccountOf('9fE6zKgca6K2EEa3yjbcq7zGMusUNqSQeWQNL2YDZ2Yi')).toBe(
      'FrbudWWrsiv5deKG483U91njmeFPV45s3DQUfjhDD2BZ',
    );
    expect(usdcTokenAccountOf('FQT9SSwEZ6UUQxsmTzgt5JzjrS4M5zm13M1QiYF8TEo6')).toBe(
      'JBoHYN5t2NW6fUwDNXyYdQjKwRea6pMkRNqBSB2nFxUH',
    );
  });

  it('depends on the mint and the owner', () => {
    const owner = '9fE6zKgca6K2EEa3yjbcq7zGMusUNqSQeWQNL2YDZ2Yi';
    expect(usdcTokenAccountOf(owner, SOLANA.usdcMint)).toBe(usdcTokenAccountOf(owner));
    expect(usdcTokenAccountOf(owner, 'So11111111111111111111111111111111111111112')).not.toBe(
      usdcTokenAccountOf(owner),
    );
    expect(usdcTokenAccountOf('FQT9SSwEZ6UUQxsmTzgt5JzjrS4M5zm13M1QiYF8TEo6')).not.toBe(usdcTokenAccountOf(owner));
  });

  it('refuses what is not a base58 address', () => {
    expect(() => usdcTokenAccountOf('0x0000000000000000000000000000000000000000')).toThrow();
  });
});

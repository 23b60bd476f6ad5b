import { describe, expect, it } from 'vitest';
import { payerAddressIssue } from '../../../adapters/chains/wallet-address.js';

describe('payerAddressIssue (expected_payer)', () => {
  const checksummed = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'; // EIP-55's own example

  it('EVM: no checksum in one case, a matching checksum in mixed case', () => {
    for (const a of [
      checksummed,
      checksummed.toLowerCase(),
      `0x${checksummed.slice(2).toUpperCase()}`,
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    ]) {
      expect(payerAddressIssue('base', a), a).toBeNull();
    }
  });

  it('EVM: a mixed-case address off its checksum, the zero address and malformed strings are refused', () => {
    expect(payerAddressIssue('polygon', checksummed.replace('aA', 'Aa'))).toMatch(/checksum/);
    expect(payerAddressIssue('base', `0x${'0'.repeat(40)}`)).toMatch(/zero address/);
    for (const a of [
      `0X${checksummed.slice(2)}`,
      checksummed.slice(0, 41),
      `${checksummed}0`,
      '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
    ]) {
      expect(payerAddressIssue('ethereum', a), a).not.toBeNull();
    }
  });

  it('Solana: a base58 key of 32 bytes, not the all-zero key', () => {
    expect(payerAddressIssue('solana', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV')).toBeNull();
    expect(payerAddressIssue('solana', '1'.repeat(32))).toMatch(/all-zero/);
    for (const a of ['z'.repeat(44), checksummed, '0OIl'.repeat(8)])
      expect(payerAddressIssue('solana', a), a).not.toBeNull();
  });
});

import { getAddress } from 'viem';
import { base58Decode } from '../../domain/base58.js';
import { walletAddressIssue, type Network } from '../../domain/networks.js';

/**
 * Why `address` cannot be the wallet of a payer on `network` (null when it can), for `expected_payer`:
 * - EVM: `0x` and 40 hexadecimal characters; all-lowercase or all-uppercase hex carries no checksum and is
 *   accepted, mixed case must be the EIP-55 checksum of the address (viem's `getAddress`), so a mistyped
 *   character is caught instead of never matching a payment. The zero address is refused: nobody can send from it.
 * - Solana: a base58 public key of 32 bytes (domain/networks.ts), not the all-zero key (the system program).
 */
export function payerAddressIssue(network: Network, address: string): string | null {
  const shape = walletAddressIssue(network, address);
  if (shape) return shape;
  if (network === 'solana') {
    return base58Decode(address)!.every((b) => b === 0)
      ? 'the all-zero key (11111111111111111111111111111111) cannot pay'
      : null;
  }
  const hex = address.slice(2);
  if (/^0+$/.test(hex)) return 'the zero address cannot pay';
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return null;
  return getAddress(address) === address
    ? null
    : 'the EIP-55 checksum of this mixed-case address does not match: check it for a typing error';
}

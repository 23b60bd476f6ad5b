import { createPublicKey, verify } from 'node:crypto';
import { verifyMessage } from 'viem';
import { base58Decode } from '../../domain/base58.js';
import type { Network } from '../../domain/networks.js';

export type SignatureCheck = 'valid' | 'invalid' | 'malformed';

const EVM_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Whether `signature` is the wallet's signature of `message` (wallet verification by signature, docs/proof.md):
 * - EVM networks: EIP-191 `personal_sign` of the UTF-8 message, 65 bytes as 0x hex, recovered with viem's
 *   `verifyMessage` (no RPC: an externally owned account's key, not a contract wallet's).
 * - Solana: ed25519 over the message's UTF-8 bytes (what wallets' `signMessage` signs), 64 bytes in base58, checked
 *   with node:crypto against the wallet's 32-byte public key (its address).
 * Only public data is used: no private key ever reaches the platform.
 */
export async function checkWalletSignature(
  network: Network,
  address: string,
  message: string,
  signature: string,
): Promise<SignatureCheck> {
  if (network !== 'solana') {
    if (!EVM_SIGNATURE.test(signature)) return 'malformed';
    try {
      return (await verifyMessage({
        address: address as `0x${string}`,
        message,
        signature: signature as `0x${string}`,
      }))
        ? 'valid'
        : 'invalid';
    } catch {
      return 'malformed'; // e.g. a recovery byte or an s value no signer produces
    }
  }
  const sig = /^[1-9A-HJ-NP-Za-km-z]{1,100}$/.test(signature) ? base58Decode(signature) : null;
  const pub = base58Decode(address);
  if (!sig || sig.length !== 64 || !pub || pub.length !== 32) return 'malformed';
  try {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(pub).toString('base64url') },
      format: 'jwk',
    });
    return verify(null, Buffer.from(message, 'utf8'), key, sig) ? 'valid' : 'invalid';
  } catch {
    return 'invalid'; // a 32-byte string that is not a point of the curve cannot have signed anything
  }
}

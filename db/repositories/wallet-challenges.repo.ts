import { randomBytes } from 'node:crypto';
import { addressKey, type Network } from '../../domain/networks.js';
import { WALLET_CHALLENGE_TTL_MS, walletChallengeMessage } from '../../domain/self-service.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';

/**
 * One-time messages a merchant signs to prove control of a receiving wallet (docs/proof.md "Wallet verification").
 * A challenge is bound to the merchant, network and address, carries a random nonce, expires after
 * WALLET_CHALLENGE_TTL_MS and is used once (`used_at`, set in the transaction that adds the wallet).
 */
export interface WalletChallenge {
  id: string;
  merchantId: string;
  network: Network;
  address: string;
  label: string | null;
  message: string;
  expiresAt: Date;
}

export async function createWalletChallenge(
  db: Db,
  input: { merchantId: string; network: Network; address: string; label: string | null; service: string },
  now: Date,
): Promise<WalletChallenge> {
  const expiresAt = new Date(now.getTime() + WALLET_CHALLENGE_TTL_MS);
  const message = walletChallengeMessage({
    service: input.service,
    merchantId: input.merchantId,
    network: input.network,
    address: input.address,
    nonce: randomBytes(24).toString('base64url'),
    expiresAt,
  });
  const id = newId('wch');
  await db('wallet_challenges').insert({
    id,
    merchant_id: input.merchantId,
    network: input.network,
    address: input.address,
    label: input.label,
    message,
    expires_at: expiresAt,
    created_at: now,
  });
  return {
    id,
    merchantId: input.merchantId,
    network: input.network,
    address: input.address,
    label: input.label,
    message,
    expiresAt,
  };
}

/** The merchant's challenge `id`, its row locked, with when it was used (null if not); null for none of theirs. */
export async function lockChallenge(
  trx: Db,
  merchantId: string,
  id: string,
): Promise<{ challenge: WalletChallenge; usedAt: Date | null } | null> {
  const row = await trx('wallet_challenges').where({ id, merchant_id: merchantId }).forUpdate().first();
  if (!row) return null;
  return {
    challenge: {
      id: row.id,
      merchantId: row.merchant_id,
      network: row.network,
      address: row.address,
      label: row.label,
      message: row.message,
      expiresAt: row.expires_at,
    },
    usedAt: row.used_at ?? null,
  };
}

/** Marks the challenge used; false when it was used already. */
export async function markChallengeUsed(trx: Db, id: string, now: Date): Promise<boolean> {
  return (await trx('wallet_challenges').where({ id }).whereNull('used_at').update({ used_at: now })) === 1;
}

/** Whether another account (the platform's own included) holds `address` as a verified wallet on `network` (on hold or not), in any spelling of it. */
export async function walletVerifiedElsewhere(
  db: Db,
  merchantId: string,
  network: Network,
  address: string,
): Promise<boolean> {
  const row = await db('merchant_wallets')
    .where({ network, address_key: addressKey(network, address) })
    .whereNot({ merchant_id: merchantId })
    .whereNotNull('verified_at')
    .first('id');
  return Boolean(row);
}

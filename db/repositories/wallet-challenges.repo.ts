import { randomBytes } from 'node:crypto';
import { DomainError } from '../../domain/errors.js';
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

/**
 * The merchant's challenge `id`, locked, if it can still be answered: another merchant's (or an unknown) one, an
 * expired one and a used one are each refused with `challenge_invalid` (naming `challenge_id`).
 */
export async function lockOpenChallenge(trx: Db, merchantId: string, id: string, now: Date): Promise<WalletChallenge> {
  const row = await trx('wallet_challenges').where({ id, merchant_id: merchantId }).forUpdate().first();
  const refuse = (why: string) =>
    new DomainError('challenge_invalid', `challenge_id: ${why}; ask for a new challenge`, {
      issues: [{ path: 'challenge_id', message: why }],
    });
  if (!row) throw refuse('no such challenge for this account');
  if (row.used_at) throw refuse('this challenge was used already');
  if (new Date(row.expires_at).getTime() <= now.getTime()) throw refuse('this challenge has expired');
  return {
    id: row.id,
    merchantId: row.merchant_id,
    network: row.network,
    address: row.address,
    label: row.label,
    message: row.message,
    expiresAt: row.expires_at,
  };
}

export async function markChallengeUsed(trx: Db, id: string, now: Date): Promise<void> {
  const n = await trx('wallet_challenges').where({ id }).whereNull('used_at').update({ used_at: now });
  if (n !== 1)
    throw new DomainError('challenge_invalid', 'challenge_id: this challenge was used already', {
      issues: [{ path: 'challenge_id', message: 'used already' }],
    });
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

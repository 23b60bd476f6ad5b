import type { KeyScope } from '../../domain/api-keys.js';
import { DomainError } from '../../domain/errors.js';
import { walletAddressIssue, type Network } from '../../domain/networks.js';
import { entitlementAt, type PaidPlan } from '../../domain/proof/plans.js';
import type { Db } from '../../db/connection.js';
import { countActiveApiKeys, issueApiKey, type ApiKeyRecord } from '../../db/repositories/api-keys.repo.js';
import {
  createMerchant,
  getMerchant,
  ownWalletAt,
  saveVerifiedWallet,
  setMerchantPlan as writeMerchantPlan,
  setMerchantStatus as writeMerchantStatus,
  unholdWallet,
  verifiedWalletsAt,
  type Merchant,
  type MerchantWallet,
} from '../../db/repositories/merchants.repo.js';
import { lockMerchant } from './merchant-lock.js';
import {
  lockChallenge,
  markChallengeUsed,
  walletVerifiedElsewhere,
} from '../../db/repositories/wallet-challenges.repo.js';
import { checkWalletSignature } from '../../adapters/chains/wallet-signature.js';
import { createMerchantUser, type MerchantUser } from '../../db/repositories/merchant-users.repo.js';

/*
 * A /proof merchant account's keys and receiving wallets: the plan's key limit, and one address receives for one
 * account.
 */

/** A new merchant account (the operators' `merchants:create`): its name 1 to 120 characters, trimmed; with `trial` its 7-day trial starts now. */
export async function openMerchant(db: Db, input: { name: string; trial: boolean }, now: Date): Promise<Merchant> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 120)
    throw new DomainError('validation_failed', 'merchant name must be 1 to 120 characters');
  return createMerchant(db, { name, trial: input.trial }, now);
}

/**
 * Records a paid period of `plan` ending at `paidUntil` as the merchant's current one (the operators' `merchants:plan`,
 * for support); periods queued after the current one stay queued.
 */
export async function setMerchantPlan(db: Db, merchantId: string, plan: PaidPlan, paidUntil: Date): Promise<Merchant> {
  const merchant = await writeMerchantPlan(db, merchantId, plan, paidUntil);
  if (!merchant) throw new DomainError('not_found', 'Merchant not found');
  return merchant;
}

/** Suspends or reactivates a merchant (the operators' `merchants:suspend` and `merchants:activate`). */
export async function setMerchantStatus(db: Db, merchantId: string, status: 'active' | 'suspended'): Promise<Merchant> {
  const merchant = await writeMerchantStatus(db, merchantId, status);
  if (!merchant) throw new DomainError('not_found', 'Merchant not found');
  return merchant;
}

/**
 * A dashboard user of a merchant (the operators' `users:create`), who signs in at POST /api/integrations/session. One
 * e-mail address (normalised) is one user across all merchants.
 */
export async function createDashboardUser(
  db: Db,
  input: { merchantId: string; email: string; passwordHash: string },
  now: Date,
): Promise<MerchantUser> {
  if (!(await getMerchant(db, input.merchantId))) throw new DomainError('not_found', 'no such merchant');
  const user = await createMerchantUser(db, input, now);
  if (user === 'taken') throw new DomainError('conflict', 'A user with this e-mail address exists already');
  return user;
}

/**
 * Issues a `skp_` key within the merchant's plan (spec section 8: starter 1, business 3, pro 10, trial 1
 * active keys; expired and revoked keys do not count). Needs an active plan or trial.
 */
export async function issueMerchantKey(
  db: Db,
  input: { merchantId: string; name: string; scopes: KeyScope[]; expiresAt: Date | null },
  now: Date,
): Promise<{ key: ApiKeyRecord; secret: string }> {
  return db.transaction(async (trx) => {
    const merchant = await lockMerchant(trx, input.merchantId);
    const ent = entitlementAt(merchant, now);
    if (ent.kind === 'none') throw new DomainError('quota_exceeded', 'Keys need an active plan or trial');
    if ((await countActiveApiKeys(trx, 'proof', merchant.id, now)) >= ent.limits.keys) {
      throw new DomainError(
        'limit_reached',
        `The ${ent.kind === 'trial' ? 'trial' : `${ent.plan} plan`} allows ${ent.limits.keys} active key(s); revoke one first`,
      );
    }
    return issueApiKey(trx, {
      interface: 'proof',
      tenantId: merchant.id,
      ownerId: null,
      name: input.name,
      scopes: input.scopes,
      expiresAt: input.expiresAt,
    });
  });
}

const addressTaken = () =>
  new DomainError(
    'conflict',
    'This address is a receiving wallet of another account; one address receives for one account (ask support if it is yours)',
  );

/**
 * Adds a receiving wallet to the merchant, verified (by the operator who checked the merchant controls it, or by the
 * merchant's signature: api/integrations/wallets.handlers.ts). One address receives for one account (docs/proof.md
 * "Receiving wallets"): an address another account holds as a verified wallet, in any spelling (`addressKey`), is
 * refused with `conflict`, on every path; the merchant's own wallet at that address, in any spelling, is verified
 * again and returned, never added twice. `merchant_wallets_one_receiver` (one verified wallet not on hold per
 * network and address) is the database's own guarantee when two accounts race for one address.
 */
export async function addVerifiedWallet(
  db: Db,
  input: { merchantId: string; network: Network; address: string; label?: string },
  now: Date,
): Promise<MerchantWallet> {
  const issue = walletAddressIssue(input.network, input.address);
  if (issue) throw new DomainError('validation_failed', issue);
  if (!(await getMerchant(db, input.merchantId))) throw new DomainError('not_found', 'Merchant not found');
  const holders = await verifiedWalletsAt(db, input.network, input.address);
  if (holders.some((w) => w.merchantId !== input.merchantId)) throw addressTaken();
  const own = holders[0] ?? (await ownWalletAt(db, input.merchantId, input.network, input.address));
  if (own?.verifiedAt) return own;
  const saved = await saveVerifiedWallet(
    db,
    own
      ? { existingId: own.id }
      : { merchantId: input.merchantId, network: input.network, address: input.address, label: input.label ?? null },
    now,
  );
  if (saved === 'taken') throw addressTaken();
  return saved;
}

/**
 * Releases a wallet from its hold: it receives again (requests, matching). Refused (`conflict`) while another wallet
 * receives at its address: release one wallet per address, after the others' accounts were told (docs/operations.md).
 */
export async function releaseWallet(db: Db, id: string): Promise<MerchantWallet> {
  const released = await unholdWallet(db, id);
  if (!released) throw new DomainError('not_found', `no wallet on hold with id ${id}`);
  if (released === 'taken')
    throw new DomainError(
      'conflict',
      'Another wallet receives at this address already; one address receives for one account',
    );
  return released;
}

const challengeInvalid = (why: string) =>
  new DomainError('challenge_invalid', `challenge_id: ${why}; ask for a new challenge`, {
    issues: [{ path: 'challenge_id', message: why }],
  });

/**
 * Verifies a receiving wallet by its signed challenge (docs/proof.md "Wallet verification"), in the caller's
 * transaction: the challenge must be this merchant's, unexpired and unused (`challenge_invalid`), the signature the
 * wallet's over the challenge's message (`signature_invalid`), and no other account may have verified the address
 * meanwhile (`conflict`); then the challenge is used and the wallet verified (addVerifiedWallet).
 */
export async function verifyWalletByChallenge(
  trx: Db,
  merchantId: string,
  input: { challengeId: string; signature: string },
  now: Date,
): Promise<MerchantWallet> {
  const found = await lockChallenge(trx, merchantId, input.challengeId);
  if (!found) throw challengeInvalid('no such challenge for this account');
  if (found.usedAt) throw challengeInvalid('this challenge was used already');
  const { challenge } = found;
  if (new Date(challenge.expiresAt).getTime() <= now.getTime()) throw challengeInvalid('this challenge has expired');
  const check = await checkWalletSignature(challenge.network, challenge.address, challenge.message, input.signature);
  if (check !== 'valid') {
    const why =
      check === 'malformed'
        ? challenge.network === 'solana'
          ? 'not an ed25519 signature (64 bytes in base58)'
          : 'not an EIP-191 signature (0x and 130 hexadecimal characters)'
        : 'not the signature of this wallet over the challenge message';
    throw new DomainError('signature_invalid', `signature: ${why}`, {
      issues: [{ path: 'signature', message: why }],
    });
  }
  if (await walletVerifiedElsewhere(trx, merchantId, challenge.network, challenge.address)) {
    throw new DomainError('conflict', 'This wallet became a verified receiving wallet of another account meanwhile');
  }
  if (!(await markChallengeUsed(trx, challenge.id, now)))
    throw new DomainError('challenge_invalid', 'challenge_id: this challenge was used already', {
      issues: [{ path: 'challenge_id', message: 'used already' }],
    });
  return addVerifiedWallet(
    trx,
    {
      merchantId,
      network: challenge.network,
      address: challenge.address,
      ...(challenge.label ? { label: challenge.label } : {}),
    },
    now,
  );
}

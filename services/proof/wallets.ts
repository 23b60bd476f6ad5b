import { DomainError } from '../../domain/errors.js';
import type { Network } from '../../domain/networks.js';
import { payerAddressIssue } from '../../adapters/chains/wallet-address.js';
import type { Db } from '../../db/connection.js';
import {
  createWalletChallenge,
  walletVerifiedElsewhere,
  type WalletChallenge,
} from '../../db/repositories/wallet-challenges.repo.js';

/**
 * A one-time challenge for a merchant to prove a receiving wallet (docs/proof.md "Wallet verification"), in the
 * caller's transaction: the address must be one of the network's (422 naming `address`), and a wallet verified by
 * another account is refused (409: one wallet receives for one account). Verifying it is verifyWalletByChallenge.
 */
export async function requestWalletChallenge(
  deps: { service: string },
  trx: Db,
  merchantId: string,
  input: { network: Network; address: string; label: string | null },
  now: Date,
): Promise<WalletChallenge> {
  const issue = payerAddressIssue(input.network, input.address);
  if (issue)
    throw new DomainError('validation_failed', `address: ${issue}`, {
      issues: [{ path: 'address', message: issue }],
    });
  if (await walletVerifiedElsewhere(trx, merchantId, input.network, input.address)) {
    throw new DomainError(
      'conflict',
      'This wallet is a verified receiving wallet of another account; one wallet receives for one account (ask support if this is yours)',
    );
  }
  return createWalletChallenge(
    trx,
    { merchantId, network: input.network, address: input.address, label: input.label, service: deps.service },
    now,
  );
}

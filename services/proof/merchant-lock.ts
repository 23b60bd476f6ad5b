import { DomainError } from '../../domain/errors.js';
import type { Db } from '../../db/connection.js';
import { lockMerchant as lockMerchantRow, type Merchant } from '../../db/repositories/merchants.repo.js';

/**
 * Locks the merchant row for the caller's transaction (merchants.repo.ts `lockMerchant`: quotas, limits and the inserts
 * they guard are serialised per merchant); a merchant that is not there is `not_found`.
 */
export async function lockMerchant(trx: Db, merchantId: string): Promise<Merchant> {
  const merchant = await lockMerchantRow(trx, merchantId);
  if (!merchant) throw new DomainError('not_found', 'Merchant not found');
  return merchant;
}

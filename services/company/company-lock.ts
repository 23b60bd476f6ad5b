import { DomainError } from '../../domain/errors.js';
import type { Db } from '../../db/connection.js';
import { lockCompany as lockCompanyRow, type Company } from '../../db/repositories/companies.repo.js';

/**
 * Locks the company row for the caller's transaction (companies.repo.ts `lockCompany`: limit checks, submissions and
 * the inserts they guard are serialised per company); a company that is not there is `not_found`.
 */
export async function lockCompany(trx: Db, companyId: string): Promise<Company> {
  const company = await lockCompanyRow(trx, companyId);
  if (!company) throw new DomainError('not_found', 'Company not found');
  return company;
}

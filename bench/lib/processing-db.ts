import type { Db } from '../../db/connection.js';

/**
 * On a shared database (DATABASE_URL): removes what the run's company left that can be removed (jobs, uploads,
 * its API keys and idempotency records) and suspends the company. The company row, its member and account, its
 * wallet, reservations and credit ledger stay: the ledger is append-only (a trigger refuses DELETE) and
 * references the company. Rate-limit counters expire with their one-minute window.
 */
export async function retireBenchCompany(db: Db, companyId: string): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('jobs').where({ company_id: companyId }).delete();
    await trx('uploads').where({ company_id: companyId }).delete();
    await trx('idempotency_keys').where({ dialect: 'v1', tenant_id: companyId }).delete();
    await trx('api_keys').where({ interface: 'v1', tenant_id: companyId }).delete();
    await trx('companies').where({ id: companyId }).update({ status: 'suspended' });
  });
}

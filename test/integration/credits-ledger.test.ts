import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { createCompany } from '../../services/company/memberships.js';
import { listLedger, settleReservation } from '../../db/repositories/credits.repo.js';
import { getCredits, grantCredits, reserveJobCredits } from '../../services/processing/credits.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import { DomainError } from '../../domain/errors.js';

let tdb: TestDatabase;
let seq = 0;
const newCompany = async () =>
  (await createCompany(tdb.db, { name: `Co ${++seq}`, ownerEmail: `owner${seq}@example.com` })).company.id;

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

/**
 * Holds `amount` credits the way a submission does: through the service over `reserveForJobs` (the function
 * `paycore_reserve_for_jobs`), the production path; no source and no queue refusal.
 */
async function holdCredits(db: Db, companyId: string, amount: bigint, jobId: string | null) {
  const reservationId = newId('res');
  await reserveJobCredits(db, companyId, [], [{ id: reservationId, jobId, amount }]);
  return { reservationId };
}

describe('credits wallet', () => {
  it('gives a new company the 1,000-credit trial, recorded in the ledger', async () => {
    const id = await newCompany();
    expect(await getCredits(tdb.db, id)).toEqual({ companyId: id, available: 1000n, reserved: 0n });
    expect(await listLedger(tdb.db, id)).toMatchObject([{ kind: 'grant', amount: 1000n, reason: 'trial' }]);
  });

  it('parallel submissions never spend the same credits twice', async () => {
    const id = await newCompany();
    const attempts = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => holdCredits(tdb.db, id, 100n, `job_par_${id}_${i}`)),
    );
    const ok = attempts.filter((a) => a.status === 'fulfilled');
    const refused = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(DomainError);
      expect(r.reason).toMatchObject({ code: 'insufficient_credits' });
    }
    expect(await getCredits(tdb.db, id)).toMatchObject({ available: 0n, reserved: 1000n });
    expect((await listLedger(tdb.db, id)).filter((e) => e.kind === 'reserve')).toHaveLength(10);
  });

  it('uneven parallel amounts still never overdraw', async () => {
    const id = await newCompany();
    const amounts = [300n, 250n, 400n, 100n, 75n, 600n, 33n, 999n, 1n, 200n, 150n, 420n];
    const attempts = await Promise.allSettled(amounts.map((a) => holdCredits(tdb.db, id, a, null)));
    const spent = attempts.reduce((sum, a, i) => (a.status === 'fulfilled' ? sum + amounts[i]! : sum), 0n);
    const balance = await getCredits(tdb.db, id);
    expect(spent).toBeLessThanOrEqual(1000n);
    expect(balance).toMatchObject({ available: 1000n - spent, reserved: spent });
  });

  it('charges a reservation exactly once, even when settled concurrently, and never also releases it', async () => {
    const id = await newCompany();
    const { reservationId } = await holdCredits(tdb.db, id, 250n, `job_once_${id}`);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => settleReservation(tdb.db, reservationId, 'charge')),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await settleReservation(tdb.db, reservationId, 'release')).toBe(false);
    expect(await getCredits(tdb.db, id)).toMatchObject({ available: 750n, reserved: 0n });
    const ledger = await listLedger(tdb.db, id);
    expect(ledger.filter((e) => e.kind === 'charge')).toMatchObject([{ amount: 250n, reservationId }]);
    expect(ledger.filter((e) => e.kind === 'release')).toHaveLength(0);
  });

  it('releases a failed job reservation back to available, once', async () => {
    const id = await newCompany();
    const { reservationId } = await holdCredits(tdb.db, id, 400n, null);
    expect(await getCredits(tdb.db, id)).toMatchObject({ available: 600n, reserved: 400n });
    expect(await settleReservation(tdb.db, reservationId, 'release')).toBe(true);
    expect(await settleReservation(tdb.db, reservationId, 'release')).toBe(false);
    expect(await settleReservation(tdb.db, reservationId, 'charge')).toBe(false);
    expect(await getCredits(tdb.db, id)).toMatchObject({ available: 1000n, reserved: 0n });
  });

  it('refuses more than available with 402 semantics, and non-positive amounts', async () => {
    const id = await newCompany();
    await expect(holdCredits(tdb.db, id, 1001n, null)).rejects.toMatchObject({
      code: 'insufficient_credits',
      message: 'Not enough credits: 1001 needed, 1000 available',
    });
    await expect(holdCredits(tdb.db, id, 0n, null)).rejects.toMatchObject({
      code: 'validation_failed',
      message: 'a reservation must be a positive number of credits',
    });
    await expect(grantCredits(tdb.db, id, -5n, 'x')).rejects.toMatchObject({
      code: 'validation_failed',
      message: 'a grant must be a positive number of credits',
    });
    expect(await getCredits(tdb.db, id)).toMatchObject({ available: 1000n, reserved: 0n });
    expect(await listLedger(tdb.db, id)).toHaveLength(1);
    await grantCredits(tdb.db, id, 30_000n, 'plan: 29 EUR');
    expect((await getCredits(tdb.db, id)).available).toBe(31_000n);
  });

  it('refuses a reservation of several jobs by their total, writing none of them', async () => {
    const id = await newCompany();
    const holds = [600n, 401n].map((amount) => ({ id: newId('res'), jobId: newId('job'), amount }));
    await expect(reserveJobCredits(tdb.db, id, [], holds)).rejects.toMatchObject({
      code: 'insufficient_credits',
      message: 'Not enough credits: 1001 needed, 1000 available',
    });
    expect(await getCredits(tdb.db, id)).toMatchObject({ available: 1000n, reserved: 0n });
    expect(
      await tdb.db('credit_reservations').whereIn(
        'id',
        holds.map((h) => h.id),
      ),
    ).toHaveLength(0);
  });

  it('answers 404 for a company without a wallet, whatever the movement', async () => {
    const notFound = { code: 'not_found', message: 'Company not found' };
    await expect(getCredits(tdb.db, 'co_nowallet')).rejects.toMatchObject(notFound);
    await expect(grantCredits(tdb.db, 'co_nowallet', 5n, 'x')).rejects.toMatchObject(notFound);
    await expect(holdCredits(tdb.db, 'co_nowallet', 5n, null)).rejects.toMatchObject(notFound);
  });

  it('is enforced by the database too: balances cannot go negative and the ledger cannot be rewritten', async () => {
    const id = await newCompany();
    await expect(tdb.db('wallets').where({ company_id: id }).update({ available: -1 })).rejects.toThrow(
      /wallets_available_non_negative/,
    );
    await expect(tdb.db('credit_ledger').where({ company_id: id }).update({ amount: 5 })).rejects.toThrow(
      /append-only/,
    );
    await expect(tdb.db('credit_ledger').where({ company_id: id }).del()).rejects.toThrow(/append-only/);
    const { reservationId } = await holdCredits(tdb.db, id, 10n, null);
    await settleReservation(tdb.db, reservationId, 'charge');
    await expect(
      tdb.db('credit_ledger').insert({ company_id: id, kind: 'charge', amount: 10, reservation_id: reservationId }),
    ).rejects.toThrow(/credit_ledger_one_settlement/);
  });
});

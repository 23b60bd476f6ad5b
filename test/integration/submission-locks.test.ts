import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { lockCompany } from '../../db/repositories/companies.repo.js';
import { createCompany } from '../../services/company/memberships.js';
import { settleReservation } from '../../db/repositories/credits.repo.js';
import { getCredits, reserveJobCredits } from '../../services/processing/credits.js';
import { newId } from '../../adapters/crypto/tokens.js';

/**
 * A submission (POST /v1/jobs or /v1/batches) holds its company's lock, then reserves from the wallet; a worker
 * settling an earlier job of the same company holds the wallet, then appends to the ledger, whose foreign key to the
 * company takes a KEY SHARE lock on the company row. With the company locked FOR UPDATE the two waited for each other
 * (PostgreSQL deadlock, a 500 for the submission); the company lock must not block foreign keys to it.
 */
let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

/** True once another backend of this database waits for a lock (polled, with a deadline). */
async function someoneWaitsForALock(deadlineMs = 10_000): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    const rows = await tdb.db.raw(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if ((rows.rows[0] as { n: number }).n > 0) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('a submission and a settlement of the same company at once', () => {
  it('both go through: no deadlock between the company lock and the wallet', async () => {
    const { company } = await createCompany(tdb.db, { name: 'Locks', ownerEmail: 'locks@example.com' });
    const reservationId = newId('res');
    await reserveJobCredits(tdb.db, company.id, [], [{ id: reservationId, jobId: null, amount: 10n }]);
    const submission = await tdb.db.transaction();
    try {
      await lockCompany(submission, company.id);
      // The worker's settlement: wallet, then the ledger row (a foreign key to the company).
      let settled: boolean | Error | undefined;
      const settling = settleReservation(tdb.db, reservationId, 'charge').then(
        (v) => (settled = v),
        (e: Error) => (settled = e),
      );
      // Either it went through (the company lock does not block it), or it waits for a lock: in both cases the
      // submission now reserves, which used to close the cycle.
      while (settled === undefined && !(await someoneWaitsForALock(50))) {
        /* poll until one of the two */
      }
      const reserved = await reserveJobCredits(
        submission,
        company.id,
        [],
        [{ id: newId('res'), jobId: null, amount: 5n }],
      ).then(
        () => true,
        (e: Error) => e,
      );
      await submission.commit();
      await settling;
      expect({ settled, reserved }).toEqual({ settled: true, reserved: true });
    } finally {
      if (!submission.isCompleted()) await submission.rollback();
    }
    expect(await getCredits(tdb.db, company.id)).toMatchObject({ available: 985n, reserved: 5n });
  });
});

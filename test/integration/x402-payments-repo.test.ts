import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { claimAuthorization } from '../../db/repositories/x402-payments.repo.js';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

describe('x402_payments claims', () => {
  // Found by the concurrent-presentation test answering 500 once in a full run: with the unique index as the only
  // conflict target, a racing insert of the same authorization could also collide on the primary key (derived from
  // the same columns) and raise unique_violation instead of "already claimed". On the old code this loop saw about
  // 10 such errors in 600 claims.
  it('racing claims of one authorization: exactly one wins, the others are told it is taken, none throws', async () => {
    const outcomes = { won: 0, taken: 0, threw: 0 };
    for (let i = 0; i < 200; i++) {
      const claim = {
        network: 'eip155:8453',
        asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        payer: '0x00000000000000000000000000000000000000aa',
        nonce: `0x${i.toString(16).padStart(64, '0')}`,
        payTo: '0x00000000000000000000000000000000000000bb',
        amountAtomic: '20000',
        validBefore: new Date(),
        operation: 'verify',
        resource: 'http://127.0.0.1/x402/v1/usdc/verify',
        requestFingerprint: 'f'.repeat(64),
        payloadSha256: 'a'.repeat(64),
      };
      const results = await Promise.allSettled([1, 2, 3].map(() => claimAuthorization(tdb.db, claim)));
      for (const r of results) {
        if (r.status === 'rejected') outcomes.threw++;
        else if (r.value) outcomes.won++;
        else outcomes.taken++;
      }
    }
    expect(outcomes).toEqual({ won: 200, taken: 400, threw: 0 });
  });
});

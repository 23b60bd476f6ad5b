import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import {
  countRetainedResponses,
  findStoredResponseAndRetained,
  storeKey,
  type KeyRef,
} from '../../db/repositories/idempotency.repo.js';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

/**
 * storeKey is the claimAtCommit fallback of api/http/idempotency.ts for a handler that does not claim the key in its
 * own statement (POST /proof/v1/requests does, through storeKeyPart): the same SQL, sent on its own.
 */
describe('storeKey (a key kept forever, claimed with its answer)', () => {
  it('claims a free key with the answer bytes and counts it once; a second claim of the key is refused and stores nothing', async () => {
    const ref: KeyRef = { dialect: 'proof', tenantId: 'mer_store_key_test', key: 'store-key-test-0001' };
    const answer = {
      status: 201,
      body: Buffer.from('{"id":"req_1","note":"bytes \\u00e9 as sent"}', 'utf8'),
      contentType: 'application/json; charset=utf-8',
      resourceId: 'req_1',
    };
    const first = await tdb.db.transaction((trx) =>
      storeKey(trx, ref, { operation: 'requests.create', requestHash: 'a'.repeat(64) }, answer),
    );
    expect(first).toBe(true);
    const second = await tdb.db.transaction((trx) =>
      storeKey(
        trx,
        ref,
        { operation: 'requests.create', requestHash: 'b'.repeat(64) },
        { ...answer, body: Buffer.from('{}') },
      ),
    );
    expect(second).toBe(false);

    const { stored, retained } = await findStoredResponseAndRetained(tdb.db, ref, new Date());
    expect(stored).toMatchObject({
      operation: 'requests.create',
      requestHash: 'a'.repeat(64),
      status: 201,
      contentType: answer.contentType,
      resourceId: 'req_1',
    });
    expect(stored!.body.equals(answer.body)).toBe(true);
    expect(retained).toBe(1);
    expect(await countRetainedResponses(tdb.db, 'proof', ref.tenantId)).toBe(1);
  });
});

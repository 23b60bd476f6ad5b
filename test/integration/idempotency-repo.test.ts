import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import {
  claimKey,
  completeKey,
  countRetainedResponses,
  findStoredResponseAndRetained,
  isKeyTaken,
  storeKeyStatement,
  type KeyRef,
} from '../../db/repositories/idempotency.repo.js';
import { commitWith } from '../../db/commit-with.js';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

/**
 * storeKeyStatement is how api/http/idempotency.ts claimAtCommit stores a key with its answer: sent with the COMMIT
 * behind it (db/commit-with.ts), so a key already taken must fail the statement, and the COMMIT then rolls back.
 */
describe('storeKeyStatement (a key kept forever, claimed with its answer, sent with the COMMIT)', () => {
  it('claims a free key with the answer bytes and counts it once; a second claim fails and commits nothing of its transaction', async () => {
    const ref: KeyRef = { dialect: 'proof', tenantId: 'mer_store_key_test', key: 'store-key-test-0001' };
    const answer = {
      status: 201,
      body: Buffer.from('{"id":"req_1","note":"bytes \\u00e9 as sent"}', 'utf8'),
      contentType: 'application/json; charset=utf-8',
      resourceId: 'req_1',
    };
    const first = await tdb.db.transaction();
    await commitWith(
      first,
      storeKeyStatement(first, ref, { operation: 'requests.create', requestHash: 'a'.repeat(64) }, answer),
    );
    expect(first.isCompleted()).toBe(true);

    // The second transaction's own write before the claim must be rolled back with it.
    await tdb.db.raw('CREATE TABLE IF NOT EXISTS store_key_side_effect (id text PRIMARY KEY)');
    const second = await tdb.db.transaction();
    await second('store_key_side_effect').insert({ id: 'second' });
    const refused = await commitWith(
      second,
      storeKeyStatement(
        second,
        ref,
        { operation: 'requests.create', requestHash: 'b'.repeat(64) },
        { ...answer, body: Buffer.from('{}') },
      ),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isKeyTaken(refused), String(refused)).toBe(true);
    expect(second.isCompleted()).toBe(true);
    expect(await tdb.db('store_key_side_effect').where({ id: 'second' })).toEqual([]);

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
    // The connection the refused transaction used is healthy again: the pool hands it out for the next statement.
    expect(await tdb.db.raw('SELECT 1 AS one')).toMatchObject({ rows: [{ one: 1 }] });
  });
});

describe('claimKey (a key claimed before its handler runs)', () => {
  const answer = {
    status: 202,
    body: Buffer.from('{"id":"job_1"}', 'utf8'),
    contentType: 'application/json; charset=utf-8',
    resourceId: 'job_1',
  };
  const where = (ref: KeyRef) => ({ dialect: ref.dialect, tenant_id: ref.tenantId, key: ref.key });
  const row = (ref: KeyRef) =>
    tdb.db('idempotency_keys').where(where(ref)).first('operation', 'request_hash', 'response_status', 'resource_id');

  it('claims a free key once; a live one stays its first claimer’s; an expired one is taken over, reset in place', async () => {
    const ref: KeyRef = { dialect: 'v1', tenantId: 'co_claim_key_test', key: 'claim-key-test-0001' };
    const now = new Date();
    const later = new Date(now.getTime() + 86_400_000);
    const claim = (hash: string, at: Date) =>
      tdb.db.transaction(async (trx) => {
        const ok = await claimKey(trx, ref, { operation: 'jobs.create', requestHash: hash, expiresAt: later }, at);
        if (ok) await completeKey(trx, ref, answer);
        return ok;
      });
    expect(await claim('a'.repeat(64), now)).toBe(true);
    expect(await claim('b'.repeat(64), now)).toBe(false);
    expect(await row(ref)).toEqual({
      operation: 'jobs.create',
      request_hash: 'a'.repeat(64),
      response_status: 202,
      resource_id: 'job_1',
    });
    // Past its expiry the key is free again: the new claim replaces the row (its placeholder until completed).
    const taken = await tdb.db.transaction(async (trx) => {
      const ok = await claimKey(
        trx,
        ref,
        { operation: 'jobs.create', requestHash: 'c'.repeat(64), expiresAt: new Date(later.getTime() + 1000) },
        new Date(later.getTime() + 1),
      );
      return {
        ok,
        placeholder: await trx('idempotency_keys')
          .where(where(ref))
          .first('request_hash', 'response_status', 'resource_id'),
      };
    });
    expect(taken).toEqual({
      ok: true,
      placeholder: { request_hash: 'c'.repeat(64), response_status: 0, resource_id: null },
    });
  });

  it('never takes over a key kept forever (no expiry)', async () => {
    const ref: KeyRef = { dialect: 'proof', tenantId: 'mer_claim_key_test', key: 'claim-key-test-0002' };
    const claim = (hash: string) =>
      tdb.db.transaction((trx) =>
        claimKey(trx, ref, { operation: 'requests.create', requestHash: hash, expiresAt: null }, new Date(8.64e15)),
      );
    expect(await claim('a'.repeat(64))).toBe(true);
    expect(await claim('b'.repeat(64))).toBe(false);
    expect((await row(ref))?.request_hash).toBe('a'.repeat(64));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../../db/repositories/merchants.repo.js';
import { addVerifiedWallet, setMerchantPlan } from '../../services/proof/account.js';
import { createPaymentRequest } from '../../services/proof/payment-requests.js';
import { DELTA_MAX } from '../../domain/proof/matching-delta.js';
import { insertPaymentRequest, type PaymentRequestInput } from '../../db/repositories/payment-requests.repo.js';
import type { MerchantWallet } from '../../db/repositories/merchants.repo.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { ADDRESSES } from '../helpers/proof.js';

/**
 * The matching amount of a new payment request (spec section 2): the quote plus the smallest delta in 1..9,999 whose
 * amount no open request at the same receiving address holds, chosen in the insert's own statement.
 */
let tdb: TestDatabase;
let merchantId: string;
let wallet: MerchantWallet;
const now = new Date('2026-11-28T12:00:00Z');
const q = 10_000_000n;

beforeAll(async () => {
  tdb = await createTestDatabase();
  merchantId = (await createMerchant(tdb.db, { name: 'Amounts', trial: false }, now)).id;
  // The pro plan has no period cap, so the 9,998 seeded requests below are not refused by the quota first.
  await setMerchantPlan(tdb.db, merchantId, 'pro', new Date(now.getTime() + 30 * 86_400_000));
  wallet = await addVerifiedWallet(tdb.db, { merchantId, network: 'base', address: ADDRESSES.base }, now);
});
afterAll(() => tdb?.drop());

const input = (quotedAtomic: bigint, validHours = 24): PaymentRequestInput => ({
  merchantId,
  wallet,
  quotedAtomic,
  description: 'amounts test',
  customerLabel: null,
  expectedPayer: null,
  validHours,
});
const create = (quotedAtomic: bigint, at = now, validHours = 24) =>
  tdb.db.transaction((trx) => insertPaymentRequest(trx, input(quotedAtomic, validHours), at));
const deltaOf = (r: { amountAtomic: bigint; quotedAmountAtomic: bigint } | null) =>
  r === null ? null : r.amountAtomic - r.quotedAmountAtomic;
const clear = () => tdb.db('payment_requests').where({ merchant_id: merchantId }).delete();

describe('the matching amount of a new payment request', () => {
  it('takes the smallest free delta from 1, and skips amounts held by open requests of close quotes', async () => {
    await clear();
    expect(deltaOf(await create(q))).toBe(1n); // holds q + 1
    expect(deltaOf(await create(q))).toBe(2n); // holds q + 2
    // A request of q + 1 with delta 2 holds q + 3: a later quote of q must skip it.
    expect(deltaOf(await create(q + 1n))).toBe(2n);
    expect(deltaOf(await create(q))).toBe(4n);
    // A paid one frees its amount.
    await tdb
      .db('payment_requests')
      .where({ merchant_id: merchantId, amount_atomic: (q + 2n).toString() })
      .update({
        status: 'PAID',
      });
    expect(deltaOf(await create(q))).toBe(2n);
  });

  it('frees the amount of an awaiting request once it has expired, and marks it EXPIRED', async () => {
    await clear();
    const first = (await create(q, now, 1))!;
    expect(deltaOf(first)).toBe(1n);
    const later = new Date(now.getTime() + 3_600_000); // exactly at its expiry
    expect(deltaOf(await create(q, later))).toBe(1n);
    const row = await tdb.db('payment_requests').where({ id: first.id }).first('status');
    expect(row.status).toBe('EXPIRED');
  });

  it('keeps the smallest free delta through many open requests at one quote, whatever frees an amount', async () => {
    // Past a few open requests at one quote the search starts from a hint (migration 20261205170100); every answer
    // here must still be the smallest free delta, computed from the rows themselves.
    await clear();
    await tdb.db('payment_delta_hints').delete();
    const quotes = [q, q + 3n, q + 7n]; // close quotes: each one's amounts fall in the others' ranges
    let at = now;
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const smallestFree = async (quote: bigint, when: Date) => {
      const open = await tdb
        .db('payment_requests')
        .where({ wallet_id: wallet.id })
        .whereIn('status', ['AWAITING', 'REVIEW'])
        .andWhere((b) => b.where('status', 'REVIEW').orWhere('expires_at', '>', when))
        .select('amount_atomic');
      const held = new Set(open.map((r: { amount_atomic: string }) => BigInt(r.amount_atomic)));
      for (let d = 1n; d <= DELTA_MAX; d++) if (!held.has(quote + d)) return d;
      return null;
    };
    const openIds = async () =>
      (await tdb.db('payment_requests').where({ wallet_id: wallet.id }).whereIn('status', ['AWAITING', 'REVIEW'])).map(
        (r: { id: string }) => r.id,
      );
    let creations = 0;
    for (let step = 0; step < 260; step++) {
      const op = step < 60 ? 0 : random(10);
      if (op <= 5) {
        const quote = quotes[step < 60 ? 0 : random(3)]!;
        const expected = await smallestFree(quote, at);
        const made = await create(quote, at, random(4) === 0 ? 1 : 24);
        expect(deltaOf(made), `step ${step}: quote ${quote}`).toBe(expected);
        creations++;
      } else {
        const ids = await openIds();
        if (ids.length === 0) continue;
        const id = ids[random(ids.length)]!;
        if (op === 6) await tdb.db('payment_requests').where({ id }).update({ status: 'PAID' });
        else if (op === 7) await tdb.db('payment_requests').where({ id }).update({ status: 'REVIEW' });
        else if (op === 8) await tdb.db('payment_requests').where({ id }).delete();
        else at = new Date(at.getTime() + 3_600_000); // the 1-hour requests expire
      }
    }
    expect(creations).toBeGreaterThan(180);
    // The quote with 60 requests in a row has a hint; a quote never used has none.
    expect(await tdb.db('payment_delta_hints').where({ quoted_amount_atomic: q.toString() }).first()).toBeTruthy();
  });

  it('a hint that is too low costs a search, never an amount already held', async () => {
    await clear();
    await tdb.db('payment_delta_hints').delete();
    for (let i = 1n; i <= 20n; i++) expect(deltaOf(await create(q))).toBe(i);
    await tdb.db('payment_delta_hints').update({ next_delta: 1, version: 99 });
    expect(deltaOf(await create(q))).toBe(21n);
    expect(deltaOf(await create(q))).toBe(22n);
  });

  it('a freed amount never waits for a hint another transaction holds, and the next creation still takes it', async () => {
    await clear();
    await tdb.db('payment_delta_hints').delete();
    await tdb.db('payment_delta_hint_resets').delete();
    for (let i = 1n; i <= 10n; i++) expect(deltaOf(await create(q))).toBe(i);
    // A creation at q holds the hint's row lock (as it does from its upsert until it commits).
    const holder = await tdb.db.transaction();
    await holder('payment_delta_hints').where({ quoted_amount_atomic: q.toString() }).forUpdate().first();
    try {
      // A payment of q + 4 meanwhile: it must not wait (lock_timeout turns a wait into an error).
      await tdb.db.transaction(async (trx) => {
        await trx.raw("SET LOCAL lock_timeout = '2s'");
        await trx('payment_requests')
          .where({ merchant_id: merchantId, amount_atomic: (q + 4n).toString() })
          .update({ status: 'PAID' });
      });
    } finally {
      await holder.commit();
    }
    expect(await tdb.db('payment_delta_hint_resets').count({ n: '*' })).toEqual([{ n: '1' }]);
    expect(deltaOf(await create(q))).toBe(4n);
    expect(await tdb.db('payment_delta_hint_resets').count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(deltaOf(await create(q))).toBe(11n);
  });

  it('writes no hint for a quote with only a few open requests', async () => {
    await clear();
    await tdb.db('payment_delta_hints').delete();
    for (let i = 0n; i < 4n; i++) await create(q + 500n * i);
    expect(await tdb.db('payment_delta_hints').count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('never goes past 9,999: with every other amount taken it takes 9,999, then answers 422', async () => {
    await clear();
    await tdb.db.raw(
      `INSERT INTO payment_requests (id, merchant_id, wallet_id, network, pay_to, quoted_amount_atomic, amount_atomic,
         description, valid_hours, status, expires_at, created_at)
       SELECT 'req_seed_' || d, ?, ?, ?, ?, ?::numeric, ?::numeric + d, 'seed', 24, 'AWAITING', ?, ?
         FROM generate_series(1, ?::int - 1) AS d`,
      [
        merchantId,
        wallet.id,
        wallet.network,
        wallet.address,
        q.toString(),
        q.toString(),
        new Date(now.getTime() + 86_400_000),
        now,
        Number(DELTA_MAX),
      ],
    );
    expect(deltaOf(await create(q))).toBe(DELTA_MAX);
    // The repository writes nothing and says so; the service refuses the creation with a 422.
    expect(await create(q)).toBeNull();
    expect(await tdb.db('payment_requests').where({ merchant_id: merchantId }).count({ n: '*' })).toEqual([
      { n: String(DELTA_MAX) },
    ]);
    await expect(
      tdb.db.transaction((trx) =>
        createPaymentRequest(
          trx,
          merchantId,
          {
            walletId: wallet.id,
            quotedAtomic: q,
            description: 'one too many',
            customerLabel: null,
            expectedPayer: null,
          },
          now,
          { perHour: 1_000_000 },
        ),
      ),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/too many open payment requests/),
    });
  });
});

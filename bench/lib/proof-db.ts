import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import { PROOF_EVENT_TYPES } from '../../domain/proof/events.js';
import { createMerchant, setMerchantPlan, type MerchantWallet } from '../../db/repositories/merchants.repo.js';
import { addVerifiedWallet, issueMerchantKey } from '../../services/proof/account.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { toRequest, type PaymentRequest } from '../../db/repositories/payment-requests.repo.js';
import { runPool } from './measure.js';
import type { SideResult } from './proof-side.js';

/** A pro merchant (no monthly cap) with one verified base wallet and one read+write key. */
export interface BenchMerchant {
  id: string;
  key: string;
  wallet: MerchantWallet;
}

/**
 * Creates a merchant as an operator would (test/helpers/proof.ts does the same): pro paid for 30 days, a verified
 * base wallet with a random address, a key, and with `webhook` an enabled /proof endpoint (events are then
 * appended on every creation; nothing delivers them here: the app runs without Temporal).
 */
export async function createBenchMerchant(
  db: Db,
  opts: { name: string; webhook: boolean; secretBox: SecretBox; now: Date },
): Promise<BenchMerchant> {
  const { now } = opts;
  const merchant = await createMerchant(db, { name: opts.name, trial: false }, now);
  await setMerchantPlan(db, merchant.id, 'pro', new Date(now.getTime() + 30 * 86_400_000));
  const wallet = await addVerifiedWallet(
    db,
    { merchantId: merchant.id, network: 'base', address: `0x${randomBytes(20).toString('hex')}` },
    now,
  );
  if (opts.webhook) {
    await createEndpoint(db, {
      interface: 'proof',
      tenantId: merchant.id,
      url: 'https://hooks.example.com/bench-proof',
      events: [...PROOF_EVENT_TYPES],
      secretSealed: opts.secretBox.seal('whsec_bench'),
    });
  }
  const { secret } = await issueMerchantKey(
    db,
    { merchantId: merchant.id, name: 'bench', scopes: ['read', 'write'], expiresAt: null },
    now,
  );
  return { id: merchant.id, key: secret, wallet };
}

/** The row `insertPaymentRequest` writes (same columns, same values but the amount), as one autocommit INSERT. */
export interface BareRow {
  merchantId: string;
  wallet: MerchantWallet;
  quotedAtomic: bigint;
  amountAtomic: bigint;
  description: string;
  validHours: number;
}

/** One INSERT of the row, answered with it as the repository reads rows (`returning *`). */
export async function insertBareRow(db: Db, row: BareRow, now: Date): Promise<PaymentRequest> {
  const [inserted] = await db('payment_requests')
    .insert({
      id: newId('req'),
      merchant_id: row.merchantId,
      wallet_id: row.wallet.id,
      network: row.wallet.network,
      pay_to: row.wallet.address,
      quoted_amount_atomic: row.quotedAtomic.toString(),
      amount_atomic: row.amountAtomic.toString(),
      description: row.description,
      customer_label: null,
      expected_payer: null,
      valid_hours: row.validHours,
      invoice_id: null,
      expires_at: new Date(now.getTime() + row.validHours * 3_600_000),
      created_at: now,
    })
    .returning('*');
  return toRequest(inserted);
}

/**
 * The bare side: `warmup` (not timed) then `n` INSERTs of the row, `concurrency` in flight, insert i for the wallet of
 * `merchantOf(i)`. Amounts are quoted + `firstDelta`, + `firstDelta + 1`, ...: unique per wallet, past the API's.
 */
export async function runBareInserts(
  db: Db,
  opts: {
    merchantOf: (i: number) => BenchMerchant;
    quotedAtomic: bigint;
    firstDelta: number;
    description: string;
    validHours: number;
    warmup: number;
    n: number;
    concurrency: number;
  },
  signal: AbortSignal,
): Promise<{ side: SideResult; inserted: number; problems: string[] }> {
  let seq = 0;
  const problems: string[] = [];
  const once = async (i: number): Promise<boolean> => {
    const m = opts.merchantOf(i);
    const amountAtomic = opts.quotedAtomic + BigInt(opts.firstDelta + seq++);
    try {
      await insertBareRow(
        db,
        {
          merchantId: m.id,
          wallet: m.wallet,
          quotedAtomic: opts.quotedAtomic,
          amountAtomic,
          description: opts.description,
          validHours: opts.validHours,
        },
        new Date(),
      );
      return true;
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
      return false;
    }
  };
  let inserted = 0;
  await runPool(
    opts.warmup,
    opts.concurrency,
    async (i) => {
      if (await once(i)) inserted++;
    },
    signal,
  );

  const side: SideResult = {
    n: opts.n,
    ok: 0,
    other: 0,
    seconds: 0,
    latenciesMs: [],
    doneAtMs: [],
    mainThreadBusy: Number.NaN,
    statementsEach: Number.NaN,
  };
  const elu = performance.eventLoopUtilization();
  const start = performance.now();
  await runPool(
    opts.n,
    opts.concurrency,
    async (i) => {
      const t = performance.now();
      const ok = await once(i);
      const done = performance.now();
      side.latenciesMs.push(done - t);
      if (ok) {
        side.ok++;
        side.doneAtMs.push(done - start);
      } else side.other++;
    },
    signal,
  );
  side.seconds = (performance.now() - start) / 1000;
  side.mainThreadBusy = performance.eventLoopUtilization(elu).utilization;
  return { side, inserted: inserted + side.ok, problems };
}

/** What the database holds for a set of merchants after a scenario. */
export interface ProofRunStats {
  /** payment_requests rows of the merchants, both sides. */
  rows: number;
  /** Of those, rows whose id one of the API's 201 answers returned. */
  apiRows: number;
  /** Wallets whose rows do not all have distinct amount_atomic. */
  walletsWithDuplicateAmounts: number;
  /** Smallest and largest delta (amount - quoted) among the API's rows. */
  apiDelta: { min: number; max: number };
  events: number;
  storedResponses: number;
}

export async function proofRunStats(
  db: Db,
  merchantIds: readonly string[],
  apiIds: readonly string[],
): Promise<ProofRunStats> {
  const num = (v: unknown) => Number(v ?? Number.NaN);
  const [all] = await db('payment_requests')
    .whereIn('merchant_id', merchantIds)
    .count<Array<{ count: string }>>('* as count');
  const api = await db('payment_requests')
    .whereIn('id', apiIds)
    .first(
      db.raw('count(*) as count'),
      db.raw('min(amount_atomic - quoted_amount_atomic) as min_delta'),
      db.raw('max(amount_atomic - quoted_amount_atomic) as max_delta'),
    );
  const perWallet = await db('payment_requests')
    .whereIn('merchant_id', merchantIds)
    .groupBy('wallet_id')
    .select('wallet_id', db.raw('count(*) as count'), db.raw('count(distinct amount_atomic) as amounts'));
  const [events] = await db('proof_events')
    .whereIn('merchant_id', merchantIds)
    .count<Array<{ count: string }>>('* as count');
  const [stored] = await db('idempotency_keys')
    .where({ dialect: 'proof' })
    .whereIn('tenant_id', merchantIds)
    .count<Array<{ count: string }>>('* as count');
  return {
    rows: num(all?.count),
    apiRows: num(api?.count),
    walletsWithDuplicateAmounts: perWallet.filter((w) => num(w.count) !== num(w.amounts)).length,
    apiDelta: { min: num(api?.min_delta), max: num(api?.max_delta) },
    events: num(events?.count),
    storedResponses: num(stored?.count),
  };
}

/**
 * On a shared database (DATABASE_URL): deletes everything the run's merchants own. Rate-limit counters are left
 * to expire with their windows (the maintenance sweep purges them).
 */
export async function deleteBenchMerchants(db: Db, merchantIds: readonly string[]): Promise<void> {
  if (merchantIds.length === 0) return;
  await db.transaction(async (trx) => {
    await trx('proof_events').whereIn('merchant_id', merchantIds).delete();
    await trx('idempotency_keys').where({ dialect: 'proof' }).whereIn('tenant_id', merchantIds).delete();
    await trx('idempotency_retained').where({ dialect: 'proof' }).whereIn('tenant_id', merchantIds).delete();
    await trx('payment_requests').whereIn('merchant_id', merchantIds).delete();
    await trx('webhook_endpoints').where({ interface: 'proof' }).whereIn('tenant_id', merchantIds).delete();
    await trx('api_keys').where({ interface: 'proof' }).whereIn('tenant_id', merchantIds).delete();
    await trx('merchant_wallets').whereIn('merchant_id', merchantIds).delete();
    await trx('merchants').whereIn('id', merchantIds).delete();
  });
}

import { addressKey, type Network } from '../../domain/networks.js';
import { type MerchantPlanState, type PaidPlan, type QueuedPeriod } from '../../domain/proof/plans.js';
import { ACTIVE_KEY_RANK_SQL, verifyApiKeyWith, type VerifyOutcome } from './api-keys.repo.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { storedFromColumns, storedResponseColumns, type KeyRef, type StoredResponse } from './idempotency.repo.js';

export interface Merchant extends MerchantPlanState {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  createdAt: Date;
}

export interface MerchantWallet {
  id: string;
  merchantId: string;
  network: Network;
  address: string;
  label: string | null;
  verifiedAt: Date | null;
  createdAt: Date;
  /** Why the wallet receives nothing until an operator releases it (`duplicate_address`), or null. */
  heldReason?: string | null;
}

/** `merchants.plan_queue` as stored (jsonb, read as an array; a text driver value is parsed). */
export function toPlanQueue(raw: unknown): QueuedPeriod[] {
  const list = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  return Array.isArray(list)
    ? list.map((q: { plan: PaidPlan; ms: number }) => ({ plan: q.plan, ms: Number(q.ms) }))
    : [];
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export const merchantFromRow = (r: any): Merchant => ({
  id: r.id,
  name: r.name,
  status: r.status,
  plan: r.plan,
  planPaidUntil: r.plan_paid_until,
  trialStartedAt: r.trial_started_at,
  planQueue: toPlanQueue(r.plan_queue),
  createdAt: r.created_at,
});
export const walletFromRow = (r: any): MerchantWallet => ({
  id: r.id,
  merchantId: r.merchant_id,
  network: r.network,
  address: r.address,
  label: r.label,
  verifiedAt: r.verified_at,
  createdAt: r.created_at,
  heldReason: r.held_reason ?? null,
});
/* eslint-enable @typescript-eslint/no-explicit-any */
/** The timestamp columns of a merchant row and of a wallet row (for rows read as JSON). */
export const MERCHANT_DATES = ['plan_paid_until', 'trial_started_at', 'created_at'] as const;
export const WALLET_DATES = ['verified_at', 'created_at'] as const;

/** A new merchant of that name (services/proof/account.ts `openMerchant` checks it); with `trial` its 7-day trial starts now. */
export async function createMerchant(db: Db, input: { name: string; trial: boolean }, now: Date): Promise<Merchant> {
  const [row] = await db('merchants')
    .insert({ id: newId('mer'), name: input.name, trial_started_at: input.trial ? now : null, created_at: now })
    .returning('*');
  return merchantFromRow(row);
}

export async function getMerchant(db: Db, id: string): Promise<Merchant | null> {
  const row = await db('merchants').where({ id }).first();
  return row ? merchantFromRow(row) : null;
}

/**
 * A `/proof/v1` key (verifyApiKey 'proof') with, in the same statement, its merchant (null when the row is gone) and
 * its rank among the merchant's active keys at `now` (activeKeyRank): what the key guard and the merchant guard of
 * /proof/v1 need, in one round trip instead of three. With `idempotencyKey` (a valid /proof Idempotency-Key of the
 * request) also the response stored under it for the key's merchant and the merchant's retained count
 * (findStoredResponseAndRetained), which the idempotency guard would otherwise read in a statement of its own.
 */
export async function verifyMerchantKey(
  db: Db,
  token: string,
  now: Date,
  idempotencyKey?: string,
): Promise<{
  outcome: VerifyOutcome;
  merchant: Merchant | null;
  keyRank: number;
  idempotency?: { ref: KeyRef; stored: StoredResponse | null; retained: number };
}> {
  const idem =
    idempotencyKey === undefined
      ? null
      : storedResponseColumns({ dialect: 'proof', key: idempotencyKey }, 'k.tenant_id', now);
  const { outcome, extra } = await verifyApiKeyWith<Record<string, unknown>>(db, 'proof', token, now, {
    columns: `m.id AS m_id, m.name AS m_name, m.status AS m_status, m.plan AS m_plan, m.plan_paid_until AS m_plan_paid_until,
              m.trial_started_at AS m_trial_started_at, m.plan_queue AS m_plan_queue, m.created_at AS m_created_at, ${ACTIVE_KEY_RANK_SQL} AS m_key_rank${idem ? `, ${idem.columns}` : ''}`,
    joins: `LEFT JOIN merchants m ON m.id = k.tenant_id${idem ? ` ${idem.joins}` : ''}`,
    bindings: [now, ...(idem ? [...idem.columnBindings, ...idem.joinBindings] : [])],
  });
  const merchant =
    extra?.['m_id'] == null
      ? null
      : merchantFromRow(
          Object.fromEntries(
            Object.entries(extra)
              .filter(([k]) => k.startsWith('m_'))
              .map(([k, v]) => [k.slice(2), v]),
          ),
        );
  const keyRank = Number(extra?.['m_key_rank'] ?? 0);
  if (!idem || !outcome.ok || !extra) return { outcome, merchant, keyRank };
  const ref: KeyRef = { dialect: 'proof', tenantId: outcome.key.tenantId, key: idempotencyKey! };
  return { outcome, merchant, keyRank, idempotency: { ref, ...storedFromColumns(extra) } };
}

/**
 * Locks the merchant row for the caller's transaction: quotas, matching deltas and event order rely on it. Null when
 * there is no such merchant (services/proof/merchant-lock.ts refuses that).
 */
export async function lockMerchant(trx: Db, id: string): Promise<Merchant | null> {
  const row = await trx('merchants').where({ id }).forUpdate().first();
  return row ? merchantFromRow(row) : null;
}

/**
 * Locks the merchant row and one of its verified wallets in one statement (merchant first, then wallet, the order
 * lockMerchant then getVerifiedWallet take them). Null when the wallet is not a verified wallet of the merchant:
 * nothing is locked then.
 */
export async function lockMerchantAndWallet(
  trx: Db,
  merchantId: string,
  walletId: string,
): Promise<{ merchant: Merchant; wallet: MerchantWallet } | null> {
  const row = await trx('merchants as m')
    .join('merchant_wallets as w', 'w.merchant_id', 'm.id')
    .where('m.id', merchantId)
    .andWhere('w.id', walletId)
    .whereNotNull('w.verified_at')
    .whereNull('w.held_reason')
    .forUpdate('m', 'w')
    .first(
      'm.*',
      'w.id as w_id',
      'w.merchant_id as w_merchant_id',
      'w.network as w_network',
      'w.address as w_address',
      'w.label as w_label',
      'w.verified_at as w_verified_at',
      'w.created_at as w_created_at',
    );
  if (!row) return null;
  const wallet = walletFromRow({
    id: row.w_id,
    merchant_id: row.w_merchant_id,
    network: row.w_network,
    address: row.w_address,
    label: row.w_label,
    verified_at: row.w_verified_at,
    created_at: row.w_created_at,
  });
  return { merchant: merchantFromRow(row), wallet };
}

/**
 * Writes the merchant's paid schedule as a grant decided it (domain/self-service.ts grantPlanPayment): the current
 * period and the periods queued after it. Null when there is no such merchant.
 */
export async function setMerchantSchedule(
  db: Db,
  id: string,
  current: { plan: PaidPlan; paidUntil: Date },
  queue: readonly QueuedPeriod[],
): Promise<Merchant | null> {
  const [row] = await db('merchants')
    .where({ id })
    .update({ plan: current.plan, plan_paid_until: current.paidUntil, plan_queue: JSON.stringify(queue) })
    .returning('*');
  return row ? merchantFromRow(row) : null;
}

/**
 * Records a paid period of `plan` ending at `paidUntil` as the current one (the operator's `merchants:plan`, for
 * support); periods queued after the current one stay queued, after the new end. Null when there is no such merchant.
 */
export async function setMerchantPlan(db: Db, id: string, plan: PaidPlan, paidUntil: Date): Promise<Merchant | null> {
  const [row] = await db('merchants').where({ id }).update({ plan, plan_paid_until: paidUntil }).returning('*');
  return row ? merchantFromRow(row) : null;
}

/** Null when there is no such merchant. */
export async function setMerchantStatus(db: Db, id: string, status: 'active' | 'suspended'): Promise<Merchant | null> {
  const [row] = await db('merchants').where({ id }).update({ status }).returning('*');
  return row ? merchantFromRow(row) : null;
}

/**
 * The merchant's own wallet at an address, in any spelling of it (`addressKey`), the oldest first; undefined if none.
 */
export async function ownWalletAt(
  db: Db,
  merchantId: string,
  network: Network,
  address: string,
): Promise<MerchantWallet | undefined> {
  const row = await db('merchant_wallets')
    .where({ merchant_id: merchantId, network, address_key: addressKey(network, address) })
    .orderBy('created_at')
    .first();
  return row ? walletFromRow(row) : undefined;
}

/**
 * Marks a wallet verified, or inserts a new verified one; `taken` when `merchant_wallets_one_receiver` refuses it
 * (another account's verified wallet receives at the address: two accounts raced for it).
 */
export async function saveVerifiedWallet(
  db: Db,
  wallet: { existingId: string } | { merchantId: string; network: Network; address: string; label: string | null },
  now: Date,
): Promise<MerchantWallet | 'taken'> {
  try {
    if ('existingId' in wallet) {
      const [row] = await db('merchant_wallets')
        .where({ id: wallet.existingId })
        .update({ verified_at: now })
        .returning('*');
      return walletFromRow(row);
    }
    const [row] = await db('merchant_wallets')
      .insert({
        id: newId('wal'),
        merchant_id: wallet.merchantId,
        network: wallet.network,
        address: wallet.address,
        label: wallet.label,
        verified_at: now,
        created_at: now,
      })
      .returning('*');
    return walletFromRow(row);
  } catch (e) {
    if (isUniqueViolation(e)) return 'taken';
    throw e;
  }
}

const isUniqueViolation = (e: unknown): boolean => (e as { code?: string } | null)?.code === '23505';

/** The verified wallets (on hold or not) at `address` on `network`, in any spelling of it, oldest first. */
export async function verifiedWalletsAt(db: Db, network: Network, address: string): Promise<MerchantWallet[]> {
  const rows = await db('merchant_wallets')
    .where({ network, address_key: addressKey(network, address) })
    .whereNotNull('verified_at')
    .orderBy('created_at')
    .orderBy('id');
  return rows.map(walletFromRow);
}

/** The merchant's verified wallets that receive (not on hold): what /v1/me lists and requests may name. */
export async function listVerifiedWallets(db: Db, merchantId: string): Promise<MerchantWallet[]> {
  const rows = await db('merchant_wallets')
    .where({ merchant_id: merchantId })
    .whereNotNull('verified_at')
    .whereNull('held_reason')
    .orderBy('created_at')
    .orderBy('id');
  return rows.map(walletFromRow);
}

/** A verified wallet of the merchant that receives (not on hold), locked when `lock` (matching deltas are allocated under this lock). */
export async function getVerifiedWallet(
  db: Db,
  merchantId: string,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<MerchantWallet | null> {
  const q = db('merchant_wallets')
    .where({ id, merchant_id: merchantId })
    .whereNotNull('verified_at')
    .whereNull('held_reason');
  const row = await (opts.lock ? q.forUpdate().first() : q.first());
  return row ? walletFromRow(row) : null;
}

/**
 * Wallets on hold (the migration's report of addresses that were receiving wallets of several rows), by address, each
 * with its open requests and the transfers to its address that paid nothing since it was held.
 */
export async function listHeldWallets(
  db: Db,
): Promise<Array<MerchantWallet & { heldAt: Date; openRequests: number; unmatchedTransfers: number }>> {
  const rows = await db('merchant_wallets as w')
    .whereNotNull('w.held_reason')
    .orderBy([{ column: 'w.network' }, { column: 'w.address_key' }, { column: 'w.created_at' }, { column: 'w.id' }])
    .select(
      'w.*',
      db.raw(
        "(SELECT count(*) FROM payment_requests r WHERE r.wallet_id = w.id AND r.status IN ('AWAITING', 'REVIEW'))::int AS open_requests",
      ),
      db.raw(
        "(SELECT count(*) FROM payment_evidence e WHERE e.network = w.network AND e.request_id IS NULL AND e.created_at >= w.held_at AND (CASE WHEN e.network = 'solana' THEN e.to_address ELSE lower(e.to_address) END) = w.address_key)::int AS unmatched_transfers",
      ),
    );
  return rows.map((r) => ({
    ...walletFromRow(r),
    heldAt: r.held_at,
    openRequests: r.open_requests,
    unmatchedTransfers: r.unmatched_transfers,
  }));
}

/**
 * Ends a wallet's hold: it receives again. Null when no wallet with this id is on hold; `taken` while another wallet
 * receives at its address (`merchant_wallets_one_receiver`).
 */
export async function unholdWallet(db: Db, id: string): Promise<MerchantWallet | 'taken' | null> {
  try {
    const [row] = await db('merchant_wallets')
      .where({ id })
      .whereNotNull('held_reason')
      .update({ held_reason: null, held_at: null })
      .returning('*');
    return row ? walletFromRow(row) : null;
  } catch (e) {
    if (isUniqueViolation(e)) return 'taken';
    throw e;
  }
}

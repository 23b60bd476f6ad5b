import type { Network } from '../../domain/networks.js';
import { DELTA_MAX, DELTA_MIN } from '../../domain/proof/matching-delta.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { merchantPageById } from './paging.js';
import { toEndpoint, type WebhookEndpoint } from './webhooks.repo.js';
import {
  MERCHANT_DATES,
  WALLET_DATES,
  merchantFromRow,
  walletFromRow,
  type Merchant,
  type MerchantWallet,
} from './merchants.repo.js';

export type { RequestStatus } from '../../domain/proof/statuses.js';
import type { RequestStatus } from '../../domain/proof/statuses.js';

export interface PaymentRequest {
  id: string;
  merchantId: string;
  walletId: string;
  network: Network;
  payTo: string;
  quotedAmountAtomic: bigint;
  amountAtomic: bigint;
  description: string;
  customerLabel: string | null;
  expectedPayer: string | null;
  validHours: number;
  status: RequestStatus;
  invoiceId: string | null;
  txHash: string | null;
  verifiedAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
  /** Why a request is in REVIEW (or was, before a later state): `unexpected_payer`, `after_expiry`, `invoice_voided`, `underpaid`. */
  reviewReason?: string | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** A `payment_requests` row as read (`select *` / `returning *`). */
export const toRequest = (r: any): PaymentRequest => ({
  id: r.id,
  merchantId: r.merchant_id,
  walletId: r.wallet_id,
  network: r.network,
  payTo: r.pay_to,
  quotedAmountAtomic: BigInt(r.quoted_amount_atomic),
  amountAtomic: BigInt(r.amount_atomic),
  description: r.description,
  customerLabel: r.customer_label,
  expectedPayer: r.expected_payer,
  validHours: r.valid_hours,
  status: r.status,
  invoiceId: r.invoice_id,
  txHash: r.tx_hash,
  verifiedAt: r.verified_at,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  reviewReason: r.review_reason ?? null,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * AWAITING requests past `expires_at` become EXPIRED (all of them), freeing their amounts. Run by the maintenance
 * schedule; an allocation does the same for the requests at its address (insertWithFreeAmount). A late payment of an
 * expired request still goes to REVIEW (domain/proof/matching.ts).
 */
export async function expireOverdueRequests(db: Db, now: Date): Promise<number> {
  return db('payment_requests')
    .where({ status: 'AWAITING' })
    .where('expires_at', '<=', now)
    .update({ status: 'EXPIRED' });
}

/**
 * The columns of a row read as JSON (paycore_insert_payment_request): its timestamps as Dates, as a `select *` reads
 * them (numeric columns arrive as text already).
 */
function datesOf<T extends Record<string, unknown>>(row: T, columns: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const c of columns) if (typeof out[c] === 'string') out[c] = new Date(out[c] as string);
  return out as T;
}

const REQUEST_DATES = ['verified_at', 'expires_at', 'created_at'] as const;
const ENDPOINT_DATES = ['created_at'] as const;

/** What a creation writes (the wallet and the amount are the function's). */
export interface PaymentRequestRowInput {
  merchantId: string;
  walletId: string;
  quotedAtomic: bigint;
  description: string;
  customerLabel: string | null;
  expectedPayer: string | null;
  validHours: number;
  invoiceId?: string;
}

/** What insertPaymentRequest writes, for a caller that holds the wallet's lock. */
export interface PaymentRequestInput extends Omit<PaymentRequestRowInput, 'walletId'> {
  wallet: MerchantWallet;
}

interface InsertedRow {
  merchant: Record<string, unknown> | null;
  wallet: Record<string, unknown>;
  request: Record<string, unknown> | null;
  destinations: Array<Record<string, unknown>>;
  nth_newest_since: Date | null;
}

/** One call of paycore_insert_payment_request (migration 20261205130000: the statement and why it is a function). */
async function insertWithFreeAmount(
  trx: Db,
  lock: boolean,
  input: PaymentRequestRowInput,
  now: Date,
  hourly: { since: Date; n: number } | null,
): Promise<InsertedRow | null> {
  const { rows } = await trx.raw<{ rows: InsertedRow[] }>(
    'SELECT * FROM paycore_insert_payment_request(?, ?, ?, ?, ?::numeric, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      lock,
      input.merchantId,
      input.walletId,
      newId('req'),
      input.quotedAtomic.toString(),
      input.description,
      input.customerLabel,
      input.expectedPayer,
      input.validHours,
      input.invoiceId ?? null,
      new Date(now.getTime() + input.validHours * 3_600_000),
      now,
      DELTA_MIN.toString(),
      DELTA_MAX.toString(),
      hourly?.since ?? null,
      hourly ? Math.max(0, hourly.n - 1) : 0,
    ],
  );
  return rows[0] ?? null;
}

const requestOf = (row: InsertedRow): PaymentRequest | null =>
  row.request ? toRequest(datesOf(row.request, REQUEST_DATES)) : null;

/**
 * Inserts a request with a matching amount unique at its receiving address, for a caller that holds the wallet's row
 * lock (getVerifiedWallet with `lock`; platform purchases): one address has one receiving wallet
 * (`merchant_wallets_one_receiver`), so parallel creations at one address choose deltas one after another; the
 * partial unique index on (wallet_id, amount_atomic) of open requests is the database's own guarantee for the
 * receiving wallet's requests. Null when all 9,999 amounts next to the quote are taken (nothing is written; the caller
 * refuses the creation).
 */
export async function insertPaymentRequest(
  trx: Db,
  input: PaymentRequestInput,
  now: Date,
): Promise<PaymentRequest | null> {
  const { wallet, ...rest } = input;
  const row = await insertWithFreeAmount(trx, false, { ...rest, walletId: wallet.id }, now, null);
  return row ? requestOf(row) : null;
}

/**
 * A creation's locks and insert in one round trip: the merchant row and the wallet (a verified wallet of the merchant,
 * not on hold) locked, then the request inserted as insertPaymentRequest does, with what the creation checks next:
 * the merchant's `/proof` webhook destinations (not deleted, oldest first; their rows locked FOR SHARE as
 * appendProofEvent locks them, which takes them from here instead of reading them again), and with `hourly` the `created_at` of the merchant's `n`-th
 * newest request created after `since` (null when it made fewer; the row being inserted is not counted). `request` is
 * null when every amount next to the quote is taken; the whole answer null when there is no such wallet (nothing is
 * locked or written then).
 */
export async function lockAndInsertPaymentRequest(
  trx: Db,
  input: PaymentRequestRowInput,
  now: Date,
  hourly: { since: Date; n: number } | null,
): Promise<{
  merchant: Merchant;
  wallet: MerchantWallet;
  request: PaymentRequest | null;
  destinations: WebhookEndpoint[];
  nthNewestSince: Date | null;
} | null> {
  const row = await insertWithFreeAmount(trx, true, input, now, hourly);
  if (!row || !row.merchant) return null;
  return {
    merchant: merchantFromRow(datesOf(row.merchant, MERCHANT_DATES)),
    wallet: walletFromRow(datesOf(row.wallet, WALLET_DATES)),
    request: requestOf(row),
    destinations: row.destinations.map((d) => toEndpoint(datesOf(d, ENDPOINT_DATES))),
    nthNewestSince: row.nth_newest_since ? new Date(row.nth_newest_since) : null,
  };
}

export async function getPaymentRequest(db: Db, merchantId: string, id: string): Promise<PaymentRequest | null> {
  const row = await db('payment_requests').where({ id, merchant_id: merchantId }).first();
  return row ? toRequest(row) : null;
}

/** For the public payment page: the request, its merchant's display name and whether that account is active, by id alone. */
export async function getPaymentRequestForPage(
  db: Db,
  id: string,
): Promise<{ request: PaymentRequest; merchantName: string; merchantActive: boolean } | null> {
  const row = await db('payment_requests as r')
    .join('merchants as m', 'm.id', 'r.merchant_id')
    .where('r.id', id)
    .first('r.*', 'm.name as merchant_name', 'm.status as merchant_status');
  return row
    ? { request: toRequest(row), merchantName: row.merchant_name, merchantActive: row.merchant_status === 'active' }
    : null;
}

/**
 * A page of the merchant's requests ordered by id, descending, strictly before the id `before`; with `status`, only
 * those that read as that status at `now` (an AWAITING request past its expiry reads as EXPIRED).
 */
export async function listPaymentRequests(
  db: Db,
  merchantId: string,
  limit: number,
  before: string | null,
  only?: { status: RequestStatus; now: Date },
): Promise<PaymentRequest[]> {
  return merchantPageById(
    db,
    'payment_requests',
    merchantId,
    limit,
    before,
    toRequest,
    only &&
      ((q) => {
        if (only.status === 'AWAITING') q.where({ status: 'AWAITING' }).where('expires_at', '>', only.now);
        else if (only.status === 'EXPIRED')
          q.where((w) =>
            w
              .where({ status: 'EXPIRED' })
              .orWhere((a) => a.where({ status: 'AWAITING' }).where('expires_at', '<=', only.now)),
          );
        else q.where({ status: only.status });
      }),
  );
}

/** Requests created since `since` (direct and invoice-backed): the request quota. */
export async function countRequestsSince(trx: Db, merchantId: string, since: Date): Promise<number> {
  const [row] = await trx('payment_requests')
    .where({ merchant_id: merchantId })
    .where('created_at', '>=', since)
    .count<{ count: string }[]>('* as count');
  return Number(row?.count ?? 0);
}

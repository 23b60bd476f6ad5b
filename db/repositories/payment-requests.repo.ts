import { addressKey, type Network } from '../../domain/networks.js';
import { DELTA_MAX, DELTA_MIN } from '../../domain/proof/matching-delta.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { merchantPageById } from './paging.js';
import type { MerchantWallet } from './merchants.repo.js';

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

/** The ids of every wallet row at the wallet's (network, address), whoever holds it: the scope of open amounts. */
const WALLETS_AT_ADDRESS = 'SELECT id FROM merchant_wallets WHERE network = ? AND address_key = ?';

/**
 * Open requests hold their amount at their receiving address (network and address, not the wallet row): every open
 * request paid to that address, of any wallet row, of any account (a legacy duplicate on hold included), so one
 * amount names one request at one address. AWAITING past its expiry is closed first (EXPIRED) and frees it.
 *
 * The statement that inserts a request (the quote plus the smallest free delta, domain/proof/matching-delta.ts) with
 * that expiry and the choice in it, so a creation holding the wallet lock makes one round trip for both (issue 31 item
 * 5): `expired` closes the address's overdue requests; `free` waits for it (the cross join reads all its rows, so the
 * update is done before any row is inserted and an amount it frees can be taken at once under the partial unique
 * index) and picks the smallest delta whose amount no open request at the address holds, among the first k + 1
 * (k: the amounts taken in the range; one of them is free) rather than all 9,999 (the rows it just expired
 * are left out by the same condition: one snapshot); `inserted` writes the row with it, or nothing when all 9,999
 * are taken. `select` adds columns beside `inserted.*` (their own SQL and bindings).
 */
function insertWithFreeAmount(
  input: PaymentRequestInput,
  now: Date,
  select: { sql: string; bindings: readonly unknown[] } = { sql: '', bindings: [] },
): { sql: string; bindings: unknown[] } {
  const at = [input.wallet.network, addressKey(input.wallet.network, input.wallet.address)];
  const quoted = input.quotedAtomic.toString();
  const row = {
    id: newId('req'),
    merchant_id: input.merchantId,
    wallet_id: input.wallet.id,
    network: input.wallet.network,
    pay_to: input.wallet.address,
    quoted_amount_atomic: quoted,
    description: input.description,
    customer_label: input.customerLabel,
    expected_payer: input.expectedPayer,
    valid_hours: input.validHours,
    status: 'AWAITING',
    invoice_id: input.invoiceId ?? null,
    expires_at: new Date(now.getTime() + input.validHours * 3_600_000),
    created_at: now,
  };
  const columns = Object.keys(row);
  return {
    sql: `WITH expired AS (
       UPDATE payment_requests SET status = 'EXPIRED'
        WHERE wallet_id IN (${WALLETS_AT_ADDRESS}) AND status = 'AWAITING' AND expires_at <= ?
        RETURNING 1),
     taken AS (
       SELECT amount_atomic FROM payment_requests
        WHERE wallet_id IN (${WALLETS_AT_ADDRESS}) AND status IN ('AWAITING', 'REVIEW')
          AND NOT (status = 'AWAITING' AND expires_at <= ?) AND amount_atomic BETWEEN ?::numeric AND ?::numeric),
     free AS (
       SELECT d FROM generate_series(?::bigint, LEAST(?::bigint, ?::bigint + (SELECT count(*) FROM taken))) AS d
         CROSS JOIN (SELECT count(*) FROM expired) AS e
        WHERE ?::numeric + d NOT IN (SELECT amount_atomic FROM taken)
        ORDER BY d LIMIT 1),
     inserted AS (
       INSERT INTO payment_requests (${columns.join(', ')}, amount_atomic)
       SELECT ${columns.map(() => '?').join(', ')}, ?::numeric + free.d FROM free
       RETURNING *)
     SELECT inserted.*${select.sql} FROM inserted`,
    bindings: [
      ...at,
      now,
      ...at,
      now,
      (input.quotedAtomic + DELTA_MIN).toString(),
      (input.quotedAtomic + DELTA_MAX).toString(),
      DELTA_MIN.toString(),
      DELTA_MAX.toString(),
      DELTA_MIN.toString(),
      quoted,
      ...Object.values(row),
      quoted,
      ...select.bindings,
    ],
  };
}

/** What insertPaymentRequest writes. */
export interface PaymentRequestInput {
  merchantId: string;
  wallet: MerchantWallet;
  quotedAtomic: bigint;
  description: string;
  customerLabel: string | null;
  expectedPayer: string | null;
  validHours: number;
  invoiceId?: string;
}

/**
 * Inserts a request with a matching amount unique at its receiving address. Call inside a transaction holding the
 * wallet row lock (getVerifiedWallet with `lock`): one address has one receiving wallet (`merchant_wallets_one_receiver`),
 * so parallel creations at one address choose deltas one after another; the partial unique index on
 * (wallet_id, amount_atomic) of open requests is the database's own guarantee for the receiving wallet's requests.
 * Null when all 9,999 amounts next to the quote are taken (nothing is written; the caller refuses the creation).
 */
export async function insertPaymentRequest(
  trx: Db,
  input: PaymentRequestInput,
  now: Date,
): Promise<PaymentRequest | null> {
  const { sql, bindings } = insertWithFreeAmount(input, now);
  const { rows } = await trx.raw<{ rows: unknown[] }>(sql, bindings as never[]);
  return rows.length === 0 ? null : toRequest(rows[0]);
}

/**
 * insertPaymentRequest and, in the same statement, what a creation checks right after it: how many `/proof` webhook
 * destinations the merchant has (not deleted; their rows locked FOR SHARE as appendProofEvent locks them, which skips
 * its own read when there are none), and with `hourly` the `created_at` of the merchant's `n`-th newest request
 * created after `since` (null when it made fewer; the row being inserted is not counted). Null as insertPaymentRequest.
 */
export async function insertPaymentRequestCounting(
  trx: Db,
  input: PaymentRequestInput,
  now: Date,
  hourly: { since: Date; n: number } | null,
): Promise<{ request: PaymentRequest; destinations: number; nthNewestSince: Date | null } | null> {
  const destinations = `, (SELECT count(*) FROM (
       SELECT 1 FROM webhook_endpoints WHERE interface = 'proof' AND tenant_id = ? AND status <> 'deleted' FOR SHARE
     ) AS d) AS counted_destinations`;
  const nth = hourly
    ? `, (SELECT created_at FROM payment_requests WHERE merchant_id = ? AND created_at > ?
          ORDER BY created_at DESC OFFSET ? LIMIT 1) AS nth_newest_since`
    : ', NULL::timestamptz AS nth_newest_since';
  const { sql, bindings } = insertWithFreeAmount(input, now, {
    sql: destinations + nth,
    bindings: [input.merchantId, ...(hourly ? [input.merchantId, hourly.since, Math.max(0, hourly.n - 1)] : [])],
  });
  const { rows } = await trx.raw<{ rows: Array<Record<string, unknown>> }>(sql, bindings as never[]);
  const stored = rows[0];
  if (!stored) return null;
  return {
    request: toRequest(stored),
    destinations: Number(stored['counted_destinations']),
    nthNewestSince: stored['nth_newest_since'] ? new Date(stored['nth_newest_since'] as string) : null,
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

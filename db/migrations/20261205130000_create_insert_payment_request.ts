import type { Knex } from 'knex';

export const name = '20261205130000_create_insert_payment_request';

/**
 * The insert of a /proof payment request with its matching amount, as one function (issue 31 item 5), so a creation
 * takes the merchant and wallet locks and inserts in one round trip: before, the locks were one round trip and the
 * insert another, and every creation of the merchant waited for both. With `p_lock` it first locks the merchant row
 * and the wallet (FOR UPDATE, merchant then wallet, the order every other path takes them), a verified wallet of that
 * merchant not on hold, and returns no row when there is none (nothing locked, nothing written); without, the caller
 * already holds the wallet's lock (platform purchases, benches) and only the wallet is read. A VOLATILE PL/pgSQL
 * function takes a new snapshot for each statement it runs, so the inserting statement, run once the locks are held,
 * sees every creation that held them before (READ COMMITTED, as two round trips did).
 *
 * The inserting statement (the rule of domain/proof/matching-delta.ts; its one implementation): open requests hold
 * their amount at their receiving address (network and address key, not the wallet row: every wallet row at that
 * address, of any account); `expired` closes the address's AWAITING requests past their expiry; `free` waits for it
 * (the cross join reads all its rows, so the update is done before any row is inserted and an amount it frees can be
 * taken at once under the partial unique index) and picks the smallest delta whose amount no open request at the
 * address holds, among the first k + 1 (k: the amounts taken in the range; one of them is free) rather than all 9,999
 * (the rows it just expired are left out by the same condition: one snapshot); `inserted` writes the row with it, or
 * nothing when every amount is taken (`request` is then null). Beside the row it returns what a creation checks next:
 * the merchant's `/proof` webhook destinations (not deleted; locked FOR SHARE as appendProofEvent locks them) and the
 * `created_at` of the merchant's (p_hourly_offset + 1)-th newest request created after `p_hourly_since` (null when
 * fewer, or no window; the row being inserted is not counted). Amounts are returned as text inside the JSON (numeric
 * (38,0) does not fit a JavaScript number). Called by payment-requests.repo.ts.
 *
 * `plan_cache_mode = force_custom_plan`: its statements are planned with the call's values, as the statements sent
 * from the repository were (an unnamed prepared statement is planned with its parameters). PL/pgSQL would otherwise
 * switch to a generic plan after five calls, and the range of taken amounts and the hour's OFFSET planned without
 * their values cost the bench:proof rows with a webhook endpoint 0.50x -> 0.38-0.48x under load 3-5; with custom
 * plans 0.51-0.74x (bench/README.md, "Issue 31 item 5, session 10").
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION paycore_insert_payment_request(
      p_lock boolean, p_merchant text, p_wallet text, p_id text, p_quoted numeric, p_description text,
      p_customer_label text, p_expected_payer text, p_valid_hours int, p_invoice text, p_expires_at timestamptz,
      p_now timestamptz, p_delta_min bigint, p_delta_max bigint, p_hourly_since timestamptz, p_hourly_offset int)
    RETURNS TABLE (merchant json, wallet json, request json, destinations int, nth_newest_since timestamptz)
    LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_custom_plan AS $fn$
    #variable_conflict use_column
    DECLARE
      v_merchant json;
      v_wallet json;
      v_wallet_id text;
      v_network text;
      v_address text;
      v_address_key text;
    BEGIN
      IF p_lock THEN
        SELECT to_json(m), to_json(w), w.id, w.network, w.address, w.address_key
          INTO v_merchant, v_wallet, v_wallet_id, v_network, v_address, v_address_key
          FROM merchants m JOIN merchant_wallets w ON w.merchant_id = m.id
         WHERE m.id = p_merchant AND w.id = p_wallet AND w.verified_at IS NOT NULL AND w.held_reason IS NULL
           FOR UPDATE OF m, w;
      ELSE
        SELECT to_json(w), w.id, w.network, w.address, w.address_key
          INTO v_wallet, v_wallet_id, v_network, v_address, v_address_key
          FROM merchant_wallets w WHERE w.id = p_wallet;
      END IF;
      IF NOT FOUND THEN
        RETURN;
      END IF;
      RETURN QUERY
      WITH at_address AS (
        SELECT a.id FROM merchant_wallets a WHERE a.network = v_network AND a.address_key = v_address_key),
      expired AS (
        UPDATE payment_requests SET status = 'EXPIRED'
         WHERE payment_requests.wallet_id IN (SELECT id FROM at_address) AND payment_requests.status = 'AWAITING'
           AND payment_requests.expires_at <= p_now
        RETURNING 1),
      taken AS (
        SELECT t.amount_atomic FROM payment_requests t
         WHERE t.wallet_id IN (SELECT id FROM at_address) AND t.status IN ('AWAITING', 'REVIEW')
           AND NOT (t.status = 'AWAITING' AND t.expires_at <= p_now)
           AND t.amount_atomic BETWEEN p_quoted + p_delta_min AND p_quoted + p_delta_max),
      free AS (
        SELECT d FROM generate_series(p_delta_min, LEAST(p_delta_max, p_delta_min + (SELECT count(*) FROM taken))) AS d
          CROSS JOIN (SELECT count(*) FROM expired) AS e
         WHERE p_quoted + d NOT IN (SELECT amount_atomic FROM taken)
         ORDER BY d LIMIT 1),
      inserted AS (
        INSERT INTO payment_requests (id, merchant_id, wallet_id, network, pay_to, quoted_amount_atomic, description,
                                      customer_label, expected_payer, valid_hours, status, invoice_id, expires_at,
                                      created_at, amount_atomic)
        SELECT p_id, p_merchant, v_wallet_id, v_network, v_address, p_quoted, p_description,
               p_customer_label, p_expected_payer, p_valid_hours, 'AWAITING', p_invoice, p_expires_at, p_now,
               p_quoted + free.d
          FROM free
        RETURNING *)
      SELECT v_merchant, v_wallet,
             (SELECT (to_jsonb(i) || jsonb_build_object('amount_atomic', i.amount_atomic::text,
                                                        'quoted_amount_atomic', i.quoted_amount_atomic::text))::json
                FROM inserted i),
             (SELECT count(*) FROM (
                SELECT 1 FROM webhook_endpoints
                 WHERE interface = 'proof' AND tenant_id = p_merchant AND status <> 'deleted' FOR SHARE) AS d)::int,
             CASE WHEN p_hourly_since IS NULL THEN NULL ELSE (
               SELECT h.created_at FROM payment_requests h WHERE h.merchant_id = p_merchant AND h.created_at > p_hourly_since
                ORDER BY h.created_at DESC OFFSET p_hourly_offset LIMIT 1) END;
    END
    $fn$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(
    `DROP FUNCTION IF EXISTS paycore_insert_payment_request(boolean, text, text, text, numeric, text, text, text, int,
       text, timestamptz, timestamptz, bigint, bigint, timestamptz, int)`,
  );
}

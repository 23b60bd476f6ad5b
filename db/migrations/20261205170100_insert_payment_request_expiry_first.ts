import type { Knex } from 'knex';
import { up as createWithDestinations } from './20261205160000_insert_payment_request_destinations.js';

export const name = '20261205170100_insert_payment_request_expiry_first';

/**
 * paycore_insert_payment_request (migrations 20261205130000 and 20261205160000, where the function is explained)
 * expires the address's overdue open requests in a statement of its own, before the inserting statement, instead of in
 * a CTE of it. A PL/pgSQL function's statements each take a new snapshot, so the inserting statement sees those rows
 * expired and its read of the taken amounts tests only status and amount, which the partial unique index
 * payment_requests_open_amount (wallet, amount) holds, not each open request's `expires_at` too
 * (with the index of migration 20261205170000 the update itself reads only the expired rows). Same locks, same result,
 * one round trip as before (issue 31 item 5; bench/README.md, "Issue 31 item 5, session 14").
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE OR REPLACE FUNCTION paycore_insert_payment_request(
      p_lock boolean, p_merchant text, p_wallet text, p_id text, p_quoted numeric, p_description text,
      p_customer_label text, p_expected_payer text, p_valid_hours int, p_invoice text, p_expires_at timestamptz,
      p_now timestamptz, p_delta_min bigint, p_delta_max bigint, p_hourly_since timestamptz, p_hourly_offset int)
    RETURNS TABLE (merchant json, wallet json, request json, destinations json, nth_newest_since timestamptz)
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
      UPDATE payment_requests SET status = 'EXPIRED'
       WHERE payment_requests.wallet_id IN (
               SELECT a.id FROM merchant_wallets a WHERE a.network = v_network AND a.address_key = v_address_key)
         AND payment_requests.status = 'AWAITING' AND payment_requests.expires_at <= p_now;
      RETURN QUERY
      WITH taken AS (
        SELECT t.amount_atomic FROM payment_requests t
         WHERE t.wallet_id IN (
                 SELECT a.id FROM merchant_wallets a WHERE a.network = v_network AND a.address_key = v_address_key)
           AND t.status IN ('AWAITING', 'REVIEW')
           AND t.amount_atomic BETWEEN p_quoted + p_delta_min AND p_quoted + p_delta_max),
      free AS (
        SELECT d FROM generate_series(p_delta_min, LEAST(p_delta_max, p_delta_min + (SELECT count(*) FROM taken))) AS d
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
             (SELECT COALESCE(json_agg(to_json(d) ORDER BY d.created_at, d.id), '[]'::json) FROM (
                SELECT * FROM webhook_endpoints
                 WHERE interface = 'proof' AND tenant_id = p_merchant AND status <> 'deleted' FOR SHARE) AS d),
             CASE WHEN p_hourly_since IS NULL THEN NULL ELSE (
               SELECT h.created_at FROM payment_requests h WHERE h.merchant_id = p_merchant AND h.created_at > p_hourly_since
                ORDER BY h.created_at DESC OFFSET p_hourly_offset LIMIT 1) END;
    END
    $fn$`);
}

export async function down(db: Knex): Promise<void> {
  // Drops this version (same signature) and creates the previous one.
  await createWithDestinations(db);
}
